/* Byte order marks: which output carries one (SPEC §6 and §10).

   A BOM at the start of an input file is a signature, not text.  The
   output carries at most one, at its start, written together with the
   first value that encodes.  Under --bom=auto the first input file
   decides, once it has started:
     - an output named UTF-16 or UTF-32 (no byte order) always has one;
     - UTF-16LE/BE and UTF-32LE/BE carry the input's signature, of any
       form (a UTF-8 one too);
     - UTF-8 and CESU-8 carry only the signature of a byte-oriented
       input (UTF-8 with a BOM), so that -i --eol=lf on such a file
       changes only its line breaks; a UTF-16 or UTF-32 BOM is not
       carried into them, as iconv, Python's codecs and dos2unix do not
       carry it;
     - WTF-8 and MUTF-8, which exist to carry UTF-16 without loss, carry
       any signature, so that UTF-16LE -> WTF-8 -> UTF-16LE gives back
       the same bytes (SPEC §3);
     - legacy outputs never get one.
   --bom=strip writes none, --bom=add exactly one (Unicode outputs
   only; the command line refuses a legacy output).  */

#ifndef UTF8CONV_BOM_H
#define UTF8CONV_BOM_H

#include <stdbool.h>

#include "codec.h"

enum bom_mode
{
  BOM_AUTO,
  BOM_STRIP,
  BOM_ADD
};

/* Where the output's BOM stands.  */
enum bom_state
{
  BOMS_UNDECIDED,               /* Until the first file's start is seen.  */
  BOMS_WANTED,                  /* Write one with the first value.  */
  BOMS_NONE                     /* Written already, or never.  */
};

/* The state of an output in the encoding TO under MODE, before any
   input.  */
enum bom_state bom_start (enum bom_mode mode, struct codec const *to);

/* The decision of --bom=auto once the first input has started, read
   with the codec READS, and started with a signature or not.  READS is
   what -f auto detected, or NULL while it has not decided: that
   happens only while it chooses the code page of UTF-8 (after a UTF-8
   BOM, say), a byte-oriented form.  */
enum bom_state bom_decide (bool signature, struct codec const *reads,
                           struct codec const *to);

#endif
