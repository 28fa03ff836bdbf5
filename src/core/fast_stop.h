/* Where a fast path from UTF-8 stops (see fast.h).  */

#ifndef UTF8CONV_FAST_STOP_H
#define UTF8CONV_FAST_STOP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "unicode/utf8.h"

/* A fast path from UTF-8 stopped at IN[U..N): describe in *ERR the
   ill-formed sequence that starts there, if one does, as the UTF-8
   decoder's step would (it is utf8_sequence with the same form); a
   sequence that N cuts short is none, since more input may follow.
   Returns U.  A kernel stops only at character boundaries, where the
   decoder, holding nothing, would start reading.  */
static inline size_t
utf8_stop (uint8_t const *in, size_t u, size_t n, struct codec_error *err)
{
  err->len = 0;
  if (u < n && in[u] >= 0x80)
    {
      ucs4_t c;
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, in + u, n - u, false, &c, &kind);
      if (r < 0)
        {
          unsigned int i, len = (unsigned int) -r;
          if (n - u >= 4)
            memcpy (err->bytes, in + u, 4);
          else
            for (i = 0; i < len; i++)
              err->bytes[i] = in[u + i];
          err->len = len;
          err->kind = kind;
          err->rel_offset = 0;
        }
    }
  return u;
}

#endif
