/* Fast paths: conversions of long well-formed runs for common pairs of
   encodings, straight from input bytes to output bytes.

   A fast path converts only what needs no decision (well-formed,
   encodable characters) and stops before anything else: an error, a
   partial sequence at the end of the buffer, or an output buffer too full.
   The pipeline then lets the state machine handle the next few bytes and
   comes back.  So the results are the state machine's, byte for byte.

   Where a fast path from UTF-8 stops before an ill-formed sequence, it
   says so, with the error the decoder would report there (its bytes,
   its length as a maximal subpart, its kind), found with the same rule
   (utf8_sequence of unicode/utf8.h, which the decoder's step calls):
   the pipeline then hands the error to the policy at once, without the
   decoder reading it again.  */

#ifndef UTF8CONV_FAST_H
#define UTF8CONV_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "fast_fn.h"
#include "simd/kernels.h"

/* The fast path from FROM to TO, or NULL if there is none (or the
   kernels are off).  */
fast_fn *fast_select (struct codec const *from, struct codec const *to);

/* The fast path that reads with the state of the decoder D into TO,
   for a codec that has none without it (the bridge's memo, iconv_memo.h:
   to UTF-8), or NULL.  Until the next call, fast_lasts says whether it
   may still be used with D.  */
fast_fn *fast_select_decoder (struct decoder *d, struct codec const *to);

/* The fast path from FROM that writes with the state of the encoder E,
   for a codec that has none without it (the memo of the shifts of a
   bridged charset of SO and SI, iconv_shift.h: from UTF-8), or NULL.
   Until the next call, fast_lasts says whether it may still be used
   with E.  */
fast_fn *fast_select_encoder (struct codec const *from, struct encoder *e);

/* Whether FAST, which fast_select, fast_select_decoder or
   fast_select_encoder gave, may go on being used for its file; once
   false, false for good.  */
bool fast_lasts (fast_fn *fast);

/* A fast_fn for input that starts right after an ill-formed sequence at
   which its last call on the same buffer stopped: the same results, but
   *RS carries from call to call what the validator had checked already
   (kernels.h).  A caller starts with RS->stop NULL, for each buffer.  */
typedef size_t fast_resume_fn (uint8_t const *in, size_t n, uint8_t *out,
                               size_t cap, size_t *produced,
                               uint64_t *newlines, struct codec_error *err,
                               struct utf8_resume *rs);

/* The fast_resume_fn from FROM to TO, or NULL if there is none.  */
fast_resume_fn *fast_select_resume (struct codec const *from,
                                    struct codec const *to);

#endif
