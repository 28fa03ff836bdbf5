/* Fast paths from UTF-16 to the encodings that have one from UTF-8
   (the memo of the shifts), made of the UTF-16 kernel and that path,
   and to UTF-16 from those that have one to UTF-8 (single-byte
   tables, the decoders' memos), made of that path and the kernel from
   UTF-8: the state machine would otherwise decode each unit or
   character into its pivot, and the encoder take each value from
   there.  */

#ifndef UTF8CONV_FAST_VIA_H
#define UTF8CONV_FAST_VIA_H

#include <stdbool.h>

#include "fast_fn.h"

/* The fast path from UTF-16 (big-endian if BIG) through the fast path
   INNER from UTF-8, or NULL (no INNER, or the kernels are off).  Until
   the next call, the one it gave stands on INNER.  */
fast_fn *fast_via_utf16 (fast_fn *inner, bool big);

/* The fast path to UTF-16 (big-endian if BIG) through the fast path
   INNER to UTF-8, or NULL (no INNER, or the kernels are off); the same
   for as long.  */
fast_fn *fast_via_to_utf16 (fast_fn *inner, bool big);

/* The path from or to UTF-8 that FAST stands on, if fast_via_utf16 or
   fast_via_to_utf16 gave it; NULL otherwise.  */
fast_fn *fast_via_inner (fast_fn *fast);

#endif
