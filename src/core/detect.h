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

/* --if-unsure=skip skips the files whose confidence (in hundredths) is
   below this: of the answers given with 0.90 or more, at least 99% are
   right on bench/detect's samples (SPEC §13).  */
enum { DETECT_SURE = 90 };

/* What a detection's kind is called in --detect and the reports:
   "ASCII", "UTF-8", "BOM", "NUL pattern", "legacy", "mixed", "binary".  */
char const *detect_kind_text (enum detect_kind);

/* The encoding D names, into BUF[0..SIZE): "ASCII", "KOI8-R", "UTF-8 +
   CP1252" (mixed), "UTF-16LE".  */
void detect_encoding_name (struct detection const *d, char *buf,
                           size_t size);

/* An -f auto decoder that reads the bytes of a file that is not UTF-8 with
   the single-byte code page FIXED instead of detecting one (--fallback;
   NULL: detect it; the caller checks FIXED with legacy_single_byte), and
   that decodes nothing after a decision whose confidence (in hundredths)
   is below UNSURE_BELOW (--if-unsure=skip; 0 for --if-unsure=convert).
   There is one a process: a second call replaces the first.  */
struct codec const *detect_configure (struct codec const *fixed,
                                      unsigned int unsure_below);

#endif
