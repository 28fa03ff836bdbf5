/* The last bytes of a file before the buffer being converted, for the
   errors of values that began in an earlier buffer: the pipeline reads
   an error's input bytes from the input, never rebuilds them, and a
   decoder may hold up to MAX_HELD bytes back across buffers.  */

#ifndef UTF8CONV_HISTORY_H
#define UTF8CONV_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* How many bytes are kept: a power of 2, and at least MAX_HELD.  Only
   while the decoder holds input back (-f auto's window) is more than
   HISTORY_SHORT of each buffer kept.  */
enum { HISTORY = 1 << 17, HISTORY_SHORT = 512 };

_Static_assert ((int) MAX_HELD <= (int) HISTORY
                && (HISTORY & (HISTORY - 1)) == 0
                && (int) DETECT_LOOKAHEAD + MAX_ERROR_BYTES
                   <= (int) HISTORY_SHORT
                && (int) sizeof ((struct decoder *) 0)->carry
                   <= (int) HISTORY_SHORT,
                "the history holds every byte a decoder may hold back");

/* The last bytes kept, by offset modulo HISTORY, in a buffer of HISTORY
   bytes that the owner allocates.  */
struct history
{
  uint8_t *bytes;
};

/* Keep the last bytes of IN[0..N), at offset BASE of the file, for the
   buffers to come: up to HISTORY of them when ALL, else up to
   HISTORY_SHORT.  */
void history_keep (struct history *h, uint8_t const *in, size_t n,
                   uint64_t base, bool all);

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
