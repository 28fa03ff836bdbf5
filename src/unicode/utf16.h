/* Writing a value as UTF-16.  */

#ifndef UTF8CONV_UNICODE_UTF16_H
#define UTF8CONV_UNICODE_UTF16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unicode.h"

/* Write C (at most U+10FFFF) at OUT as UTF-16, big-endian if BIG: a
   unit, or a pair above U+FFFF; a lone surrogate as its unit.  Returns
   the bytes written, 2 or 4.  */
static inline size_t
utf16_put (ucs4_t c, uint8_t *out, bool big)
{
  ucs4_t u = c, lo;
  size_t len = 2;
  if (c >= 0x10000)
    {
      u = 0xD800 + ((c - 0x10000) >> 10);
      lo = 0xDC00 + ((c - 0x10000) & 0x3FF);
      out[2 + big] = (uint8_t) lo;
      out[2 + !big] = (uint8_t) (lo >> 8);
      len = 4;
    }
  out[big] = (uint8_t) u;
  out[!big] = (uint8_t) (u >> 8);
  return len;
}

#endif
