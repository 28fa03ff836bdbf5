/* The iconv(3) bridge's encoders (iconv_encode.c): the hooks of a
   bridged codec (codec.h's encode, flush and drain, and the opening and
   closing of its encoders) that iconv_bridge.c sets, and the path from
   UTF-8 that fast.c takes through the memo of their shifts.  */

#ifndef UTF8CONV_ICONV_ENCODE_H
#define UTF8CONV_ICONV_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../codec.h"

void bridge_encoder_open (struct encoder *e);
void bridge_encoder_close (struct encoder *e);
enum encode_status bridge_encode (struct encoder *e, ucs4_t const *cp,
                                  size_t *n, uint8_t *out, size_t *outlen,
                                  size_t cap);
size_t bridge_flush (struct encoder *e, uint8_t *out);
size_t bridge_drain (struct encoder *e, uint8_t *out);

/* Whether E is a bridged encoder for which iconv_bridge_encode_utf8
   may go on: one of a charset of SO and SI that writes what the memo
   of its shifts knows (iconv_shift.h), without //TRANSLIT; or one of a
   Unicode form without fixed units (UTF-7), which takes runs of
   characters, until its first 16 KiB show too few characters that are
   their own bytes.  False for good once it has been.  */
bool iconv_bridge_encode_lasts (struct encoder const *e);

/* For fast.c's path from UTF-8: encode a prefix of the UTF-8 at
   IN[0..N) with the memo of the shifts of the bridged encoder E, as its
   encode function would, into OUT from *O (moved on; CAP is OUT's
   size), learning ahead where the memo does not know a character, up
   to one it cannot write (not learned, known to be unencodable, of four
   bytes or ill-formed) or to too little room; or, for UTF-7, with
   iconv(3) a run of characters per call, up to one it cannot encode or
   an ill-formed sequence.  Returns the bytes read; sets *NEWLINES to
   the U+000A among them.  */
size_t iconv_bridge_encode_utf8 (struct encoder *e, uint8_t const *in,
                                 size_t n, uint8_t *out, size_t *o,
                                 size_t cap, uint64_t *newlines);

#endif
