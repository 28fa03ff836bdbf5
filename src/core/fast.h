/* Fast paths: conversions of long well-formed runs for common pairs of
   encodings, straight from input bytes to output bytes.

   A fast path converts only what needs no decision (well-formed,
   encodable characters) and stops before anything else: an error, a
   partial sequence at the end of the buffer, or an output buffer too full.
   The pipeline then lets the state machine handle the next few bytes and
   comes back.  So the results are the state machine's, byte for byte.  */

#ifndef UTF8CONV_FAST_H
#define UTF8CONV_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* Convert a prefix of IN[0..N) into OUT[0..CAP).  Returns the number of
   input bytes used; sets *PRODUCED to the output length and *NEWLINES to
   the number of U+000A characters converted.  */
typedef size_t fast_fn (uint8_t const *in, size_t n, uint8_t *out,
                        size_t cap, size_t *produced, uint64_t *newlines);

/* The fast path from FROM to TO, or NULL if there is none (or the
   kernels are off).  */
fast_fn *fast_select (struct codec const *from, struct codec const *to);

#endif
