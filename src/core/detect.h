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

/* How the legacy code page was chosen, for --report: "--fallback",
   "UTF-8 window", "weak evidence", "model" or "none".  */
char const *legacy_how_text (enum legacy_how);

/* An -f auto decoder that reads ill-formed UTF-8 with the single-byte
   code page FIXED instead of detecting one (--fallback); the caller
   checks FIXED with legacy_single_byte.  There is one a process: a
   second call replaces the first.  */
struct codec const *detect_with_fallback (struct codec const *fixed);

#endif
