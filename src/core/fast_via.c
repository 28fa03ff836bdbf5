/* Fast paths from UTF-16 through UTF-8 (see fast_via.h).

   The UTF-16 kernel turns a slice of the input into UTF-8 on the side,
   which the fast path from UTF-8 then converts.  Where that one stops
   inside the slice (a character it leaves to the state machine, or an
   output buffer too full), the units it took are counted back from
   the UTF-8 it took: one for each character, two for each of four
   bytes.  The slices start small and double while the path from UTF-8
   takes them whole, so that a path that stops often (at each error of
   a text full of them, say) wastes little.  */

#include <config.h>

#include "fast_via.h"

#include "simd/kernels.h"

/* The slices, in units: the first, and the largest.  Their UTF-8 takes
   at most 3 bytes a unit.  */
enum
{
  VIA_FIRST = 256,
  VIA_MOST = 4096
};

static fast_fn *via_inner;

/* The UTF-16 units of the well-formed UTF-8 S[0..N).  */
static size_t
units_of (uint8_t const *s, size_t n)
{
  size_t i, units = 0;
  for (i = 0; i < n; i++)
    units += ((s[i] & 0xC0) != 0x80) + (s[i] >= 0xF0);
  return units;
}

static inline size_t
utf16_via_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                size_t *produced, uint64_t *newlines,
                struct codec_error *err, bool big)
{
  uint8_t mid[3 * VIA_MOST];
  size_t i = 0, o = 0, slice = VIA_FIRST;
  uint64_t nl = 0;

  while (n - i >= 2 && o < cap)
    {
      size_t want = (n - i) / 2 < slice ? (n - i) / 2 : slice;
      size_t made, wrote, took, units;
      uint64_t lines;
      /* A slice does not end between the units of a pair.  */
      if (want < (n - i) / 2 && want > 1
          && (in[i + 2 * want - 2 + !big] & 0xFC) == 0xD8)
        want--;
      units = kernels->utf16_to_utf8 (in + i, want, mid, &made, &lines,
                                      big);
      if (units == 0)
        break;
      took = via_inner (mid, made, out + o, cap - o, &wrote, &lines, err);
      o += wrote;
      nl += lines;
      if (took < made)
        {
          i += 2 * units_of (mid, took);
          break;
        }
      i += 2 * units;
      /* Stopped before a lone surrogate, or a pair the end cuts.  */
      if (units < want)
        break;
      if (slice < VIA_MOST)
        slice *= 2;
    }
  /* The UTF-8 made here is well-formed: the path from it stops only
     before a character, never an error.  */
  err->len = 0;
  *produced = o;
  *newlines = nl;
  return i;
}

static size_t
utf16le_via (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
             size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  return utf16_via_utf8 (in, n, out, cap, produced, newlines, err, false);
}

static size_t
utf16be_via (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
             size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  return utf16_via_utf8 (in, n, out, cap, produced, newlines, err, true);
}

fast_fn *
fast_via_utf16 (fast_fn *inner, bool big)
{
  if (!inner || !kernels || !kernels->utf16_to_utf8)
    return NULL;
  via_inner = inner;
  return big ? utf16be_via : utf16le_via;
}

fast_fn *
fast_via_inner (fast_fn *fast)
{
  return fast == utf16le_via || fast == utf16be_via ? via_inner : NULL;
}
