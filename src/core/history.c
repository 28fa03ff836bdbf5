/* The last bytes of a file (see history.h).  */

#include <config.h>

#include "history.h"

#include <string.h>

void
history_keep (struct history *h, uint8_t const *in, size_t n,
              uint64_t base, bool all)
{
  size_t keep = all ? HISTORY : HISTORY_SHORT;
  size_t k = n < keep ? n : keep;
  uint64_t at = base + n - k;
  while (k > 0)
    {
      size_t slot = at % HISTORY, piece = HISTORY - slot;
      if (piece > k)
        piece = k;
      memcpy (h->bytes + slot, in + (at - base), piece);
      at += piece;
      k -= piece;
    }
}
