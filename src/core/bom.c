/* Byte order marks: which output carries one (see bom.h).  */

#include <config.h>

#include "bom.h"

enum bom_state
bom_start (enum bom_mode mode, struct codec const *to)
{
  if (mode == BOM_STRIP)
    return BOMS_NONE;
  if (mode == BOM_ADD || (to->flags & CODEC_BOM_ALWAYS))
    return BOMS_WANTED;
  return BOMS_UNDECIDED;
}

enum bom_state
bom_decide (bool signature, struct codec const *reads,
            struct codec const *to)
{
  if (!signature || !(to->flags & CODEC_UNICODE))
    return BOMS_NONE;
  /* Code units of 2 or 4 bytes, and the forms made to carry UTF-16
     without loss, carry any signature; UTF-8 and CESU-8 only one of
     their own kind.  */
  if (!(to->flags & (CODEC_WIDE_UNITS | CODEC_SURROGATE_CARRIER)) && reads
      && (reads->flags & CODEC_WIDE_UNITS))
    return BOMS_NONE;
  return BOMS_WANTED;
}
