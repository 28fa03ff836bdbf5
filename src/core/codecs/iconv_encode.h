/* The iconv(3) bridge's encoders (iconv_encode.c): the hooks of a
   bridged codec (codec.h's encode and flush, and the opening and
   closing of its encoders) that iconv_bridge.c sets.  */

#ifndef UTF8CONV_ICONV_ENCODE_H
#define UTF8CONV_ICONV_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "../codec.h"

void bridge_encoder_open (struct encoder *e);
void bridge_encoder_close (struct encoder *e);
enum encode_status bridge_encode (struct encoder *e, ucs4_t const *cp,
                                  size_t *n, uint8_t *out, size_t *outlen,
                                  size_t cap);
size_t bridge_flush (struct encoder *e, uint8_t *out);

#endif
