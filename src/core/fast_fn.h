/* The shape of a fast path (see fast.h).  */

#ifndef UTF8CONV_FAST_FN_H
#define UTF8CONV_FAST_FN_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* Convert a prefix of IN[0..N) into OUT[0..CAP).  Returns the number of
   input bytes used, U; sets *PRODUCED to the output length and *NEWLINES
   to the number of U+000A characters converted.  Sets ERR->len to 0, or
   (from UTF-8 only) describes in *ERR the ill-formed sequence that
   IN[U..N) starts with, as the decoder reading IN[U..N) of a buffer that
   is not the last would report it (ERR->rel_offset is 0).  */
typedef size_t fast_fn (uint8_t const *in, size_t n, uint8_t *out,
                        size_t cap, size_t *produced, uint64_t *newlines,
                        struct codec_error *err);

#endif
