/* Fast paths from UTF-16 through UTF-8, and to UTF-16 through UTF-8
   (see fast_via.h).

   The UTF-16 kernel turns a slice of the input into UTF-8 on the side,
   which the fast path from UTF-8 then converts.  Where that one stops
   inside the slice (a character it leaves to the state machine, or an
   output buffer too full), the units it took are counted back from
   the UTF-8 it took: one for each character, two for each of four
   bytes.  The slices start small and double while the path from UTF-8
   takes them whole, so that a path that stops often (at each error of
   a text full of them, say) wastes little.

   To UTF-16, the path to UTF-8 writes on the side as much as the room
   left for UTF-16 holds (half of it: UTF-16 takes at most twice the
   bytes of UTF-8), and the kernel converts all of it: no counting
   back.  */

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
static fast_fn *to16_inner;

/* The UTF-8 made on the side to UTF-16, at most.  */
enum { VIA_TO16 = 16384 };

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

static inline size_t
via_to_utf16 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
              size_t *produced, uint64_t *newlines, struct codec_error *err,
              bool big)
{
  uint8_t mid[VIA_TO16];
  size_t i = 0, o = 0;
  uint64_t nl = 0;

  err->len = 0;
  while (i < n)
    {
      size_t room = (cap - o) / 2 < VIA_TO16 ? (cap - o) / 2 : VIA_TO16;
      size_t made, used;
      uint64_t lines;
      if (room == 0)
        break;
      used = to16_inner (in + i, n - i, mid, room, &made, &lines, err);
      o += kernels->utf8_to_utf16 (mid, made, out + o, big);
      i += used;
      nl += lines;
      if (used == 0 || err->len > 0)
        break;
    }
  *produced = o;
  *newlines = nl;
  return i;
}

/* A fast path for each byte order, of the loop FN.  */
#define IN_ORDER(NAME, FN, BIG)                                            \
  static size_t                                                            \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    return FN (in, n, out, cap, produced, newlines, err, BIG);             \
  }

IN_ORDER (utf16le_via, utf16_via_utf8, false)
IN_ORDER (utf16be_via, utf16_via_utf8, true)
IN_ORDER (via_to_utf16le, via_to_utf16, false)
IN_ORDER (via_to_utf16be, via_to_utf16, true)

fast_fn *
fast_via_to_utf16 (fast_fn *inner, bool big)
{
  if (!inner || !kernels || !kernels->utf8_to_utf16)
    return NULL;
  to16_inner = inner;
  return big ? via_to_utf16be : via_to_utf16le;
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
  if (fast == utf16le_via || fast == utf16be_via)
    return via_inner;
  return fast == via_to_utf16le || fast == via_to_utf16be ? to16_inner : NULL;
}
