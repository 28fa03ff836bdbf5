/* The last bytes of a file before the buffer being converted, for the
   errors of values that began in an earlier buffer: the pipeline reads
   an error's input bytes from the input, never rebuilds them, and a
   decoder may hold up to MAX_HELD bytes back across buffers.  */

#ifndef UTF8CONV_HISTORY_H
#define UTF8CONV_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* How many bytes are kept: a power of 2, and at least MAX_HELD.  */
enum { HISTORY = 512 };

_Static_assert ((int) MAX_HELD <= (int) HISTORY
                && (HISTORY & (HISTORY - 1)) == 0,
                "the history holds every byte a decoder may hold back");

/* The last HISTORY bytes kept, by offset modulo HISTORY.  */
struct history
{
  uint8_t bytes[HISTORY];
};

/* Keep the last bytes of IN[0..N), at offset BASE of the file, for the
   buffers to come.  */
void history_keep (struct history *h, uint8_t const *in, size_t n,
                   uint64_t base);

/* The input byte at offset AT of the file: in BUF, the buffer being
   converted, which is at offset BUF_BASE, or in the history H of the
   earlier ones.  */
static inline uint8_t
history_byte (struct history const *h, uint8_t const *buf,
              uint64_t buf_base, uint64_t at)
{
  return at >= buf_base ? buf[at - buf_base] : h->bytes[at % HISTORY];
}

#endif
