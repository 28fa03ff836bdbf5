/* -f auto: detection of the input form (SPEC §5).  */

#ifndef UTF8CONV_DETECT_H
#define UTF8CONV_DETECT_H

#include "codec.h"

/* The decoder of -f auto.  After it has decided, the decoder's `codec'
   member is the detected codec and its `detect' member says how.  */
extern struct codec const codec_auto;

/* How the form was detected, for --report: "BOM", "NUL pattern",
   "no BOM" or "undecided".  */
char const *detect_how_text (enum detect_how);

#endif
