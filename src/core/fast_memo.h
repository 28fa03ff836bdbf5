/* The fast paths into the encoders' memo (iconv_memo.h) of a table
   code page or of a bridged charset whose encoders keep no state, from
   UTF-8 and from UTF-16: what the memo knows it writes, what a
   bridge's memo does not know it learns, ahead or in runs through its
   learner, and the state machine takes the rest (see fast.h).  */

#ifndef UTF8CONV_FAST_MEMO_H
#define UTF8CONV_FAST_MEMO_H

#include "fast_fn.h"

struct enc_memo;

/* The memo that the paths below read until the next call: MEMO; and
   LEARNER, the same memo when it may learn (a bridge's), or NULL.  */
void fast_memo_use (struct enc_memo const *memo, struct enc_memo *learner);

/* From UTF-8, UTF-16LE and UTF-16BE.  */
fast_fn fast_utf8_to_memo, fast_utf16le_to_memo, fast_utf16be_to_memo;

#endif
