/* BOM-less UTF-16 by its NUL pattern (see nulpattern.h).  */

#include <config.h>

#include "nulpattern.h"

void
nul_pattern_add (struct nul_count *count, uint8_t const *buf, size_t n)
{
  size_t i;
  /* A byte at an even offset counts once its pair is complete.  */
  for (i = 0; i < n && count->bytes < NUL_PATTERN_WINDOW; i++, count->bytes++)
    if (count->bytes & 1)
      {
        count->z_even += count->even_nul;
        count->z_odd += buf[i] == 0;
      }
    else
      count->even_nul = buf[i] == 0;
}

enum nul_pattern
nul_pattern_verdict (struct nul_count const *count, bool final)
{
  size_t pairs = count->bytes / 2;
  size_t z_odd = count->z_odd, z_even = count->z_even;

  if (final || count->bytes >= NUL_PATTERN_WINDOW)
    {
      if (2 * z_odd > pairs && 8 * z_even <= pairs)
        return NUL_PATTERN_LE;
      if (2 * z_even > pairs && 8 * z_odd <= pairs)
        return NUL_PATTERN_BE;
      return NUL_PATTERN_NONE;
    }

  /* Counts only grow with more bytes, and the window holds at most
     NUL_PATTERN_WINDOW / 2 pairs: a test that fails at that size with
     today's counts fails for every window to come.  */
  {
    size_t max_pairs = NUL_PATTERN_WINDOW / 2;
    size_t nonzero_odd = pairs - z_odd, nonzero_even = pairs - z_even;
    bool le_possible = 2 * nonzero_odd < max_pairs && 8 * z_even <= max_pairs;
    bool be_possible = 2 * nonzero_even < max_pairs && 8 * z_odd <= max_pairs;
    return le_possible || be_possible ? NUL_PATTERN_UNDECIDED
           : NUL_PATTERN_NONE;
  }
}

enum nul_pattern
nul_pattern_find (uint8_t const *buf, size_t n, bool complete)
{
  struct nul_count count = { 0, 0, 0, false };
  nul_pattern_add (&count, buf, n);
  return nul_pattern_verdict (&count, complete);
}

enum nul_pattern
nul_pattern_find32 (uint8_t const *buf, size_t n, bool complete)
{
  size_t i;
  if (NUL_PATTERN_WINDOW < n)
    n = NUL_PATTERN_WINDOW;
  for (i = 0; i + 4 <= n; i += 4)
    {
      uint8_t const *u = buf + i;
      bool le = u[3] == 0 && u[2] <= 0x10, be = u[0] == 0 && u[1] <= 0x10;
      if (le != be)
        return le ? NUL_PATTERN_LE : NUL_PATTERN_BE;
    }
  return complete || n == NUL_PATTERN_WINDOW ? NUL_PATTERN_NONE
         : NUL_PATTERN_UNDECIDED;
}
