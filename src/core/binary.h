/* Binary files (SPEC §12): a file is taken for binary when the text it
   decodes to holds a control character that text does not.  */

#ifndef UTF8CONV_BINARY_H
#define UTF8CONV_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* The offset of the first U+0000, or C0 control character other than
   BS, TAB, LF, VT, FF, CR, SUB and ESC, among the characters that
   BUF[0..N) decodes to in the codec FROM (after -f auto's detection);
   -1 when there is none; *C is that character.  COMPLETE says that BUF
   is the whole input.  Ill-formed input is skipped, not an error.  */
int64_t binary_find (struct codec const *from, uint8_t const *buf,
                     size_t n, bool complete, ucs4_t *c);

#endif
