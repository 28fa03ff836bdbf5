/* -f auto: detection of the input form (SPEC §5).  */

#ifndef UTF8CONV_DETECT_H
#define UTF8CONV_DETECT_H

#include "codec.h"

/* The decoder of -f auto, a wrapping decoder (CODEC_WRAPPER): what it
   detected is told by decoder_detected.  */
extern struct codec const *const codec_auto;

/* How the form was detected, for --report: "BOM", "NUL pattern",
   "no BOM" or "undecided".  */
char const *detect_how_text (enum detect_how);

#endif
