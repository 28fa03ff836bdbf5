/* Diagnostics for data errors: file, line, byte offset, bytes, reason.  */

#ifndef UTF8CONV_DIAG_H
#define UTF8CONV_DIAG_H

#include <stdint.h>

#include "codec.h"

/* One located error: a decoding error, or (with ENCODING) a character
   that the output cannot hold.  */
struct located_error
{
  uint64_t offset;              /* Byte offset from the start of the file.  */
  uint64_t line;                /* 1-based.  */
  struct codec_error err;       /* Bytes, length and kind.  */
  ucs4_t c;                     /* For encoding errors.  */
  char const *encoding;         /* The input or output encoding's name.  */
};

/* Print E for FILE.  With a non-NULL VERB, say that COUNT errors of the
   file were VERB ("replaced") instead of stopping at it.  */
void diag_data_error (char const *file, struct located_error const *e,
                      char const *verb, uint64_t count);

#endif
