/* Fast paths from UTF-16 to the encodings that have one from UTF-8
   (legacy code pages: tables, the encoders' memos, the memo of the
   shifts), made of the UTF-16 kernel and that path: the state machine
   would otherwise decode each unit into its pivot, and the encoder
   take each value from there, at three times the instructions.  */

#ifndef UTF8CONV_FAST_VIA_H
#define UTF8CONV_FAST_VIA_H

#include <stdbool.h>

#include "fast_fn.h"

/* The fast path from UTF-16 (big-endian if BIG) through the fast path
   INNER from UTF-8, or NULL (no INNER, or the kernels are off).  Until
   the next call, the one it gave stands on INNER.  */
fast_fn *fast_via_utf16 (fast_fn *inner, bool big);

/* The path from UTF-8 that FAST stands on, if fast_via_utf16 gave it;
   NULL otherwise.  */
fast_fn *fast_via_inner (fast_fn *fast);

#endif
