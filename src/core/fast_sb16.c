/* The fast paths between UTF-16 and a single-byte code page (see
   fast_sb16.h).

   The paths from UTF-8 read characters of one, two and three bytes in
   branches of their own, which random text (what random bytes decode
   to in KOI8-R: ASCII, Cyrillic and box drawing) mispredicts one
   character in two; a unit of UTF-16 is looked up the same way
   whatever it is.  The other way, a byte's unit is looked up alike,
   where UTF-8 made on the side and the kernel from UTF-8 would again
   branch on the lengths of the characters.  */

#include <config.h>

#include "fast_sb16.h"

#include <string.h>

#include "unicode/unicode.h"

/* Page 0 has no byte for any character; the 8 pages below U+0800 come
   next, and then those above, at most 16 (fast.c's SB3_PAGES).  */
enum { SB16_PAGES = 1 + 8 + 16 };

static int16_t sb16_page[SB16_PAGES][256];
/* The page of each upper byte of a unit.  */
static int16_t const *sb16_of[256];

void
fast_sb16_make (int16_t const low[0x800], uint8_t const index[256],
                int16_t const (*page)[256])
{
  unsigned int hi, k, used = 1;
  for (k = 0; k < 256; k++)
    sb16_page[0][k] = -1;
  for (hi = 0; hi < 256; hi++)
    {
      int16_t const *from = (hi < 8 ? low + 256 * hi
                             : index[hi] ? page[index[hi] - 1] : NULL);
      bool any = false;
      for (k = 0; from && k < 256; k++)
        any |= from[k] >= 0;
      sb16_of[hi] = sb16_page[0];
      if (!any || used == SB16_PAGES)
        continue;
      memcpy (sb16_page[used], from, sizeof sb16_page[used]);
      sb16_of[hi] = sb16_page[used++];
    }
}

static inline size_t
utf16_to_sb (bool big, uint8_t const *in, size_t n, uint8_t *out,
             size_t cap, size_t *produced, uint64_t *newlines,
             struct codec_error *err)
{
  size_t i, m = n / 2 < cap ? n / 2 : cap;
  uint64_t nl = 0;
  err->len = 0;
  bool swap = big;
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  swap = !big;
#endif
  for (i = 0; i < m; i++)
    {
      uint16_t u;
      int16_t v;
      memcpy (&u, in + 2 * i, 2);
      if (swap)
        u = (uint16_t) (u << 8 | u >> 8);
      v = sb16_of[u >> 8][u & 0xFF];
      if (v < 0)
        break;
      out[i] = (uint8_t) v;
      nl += u == 0x0A;
    }
  *produced = i;
  *newlines = nl;
  return 2 * i;
}

/* A fast path for each byte order, of the loop FN.  */
#define IN_ORDER(NAME, FN, BIG)                                            \
  size_t                                                                   \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    return FN (BIG, in, n, out, cap, produced, newlines, err);             \
  }

IN_ORDER (fast_utf16le_to_sb, utf16_to_sb, false)
IN_ORDER (fast_utf16be_to_sb, utf16_to_sb, true)

/* The unit of each byte, with bit 16 set where the byte is a
   character.  */
static uint32_t sb16_unit[256];

void
fast_sb16_make_decode (uint8_t const (*utf8)[4], unsigned int first)
{
  unsigned int b;
  for (b = 0; b < 256; b++)
    {
      uint8_t const *u = b >= first ? utf8[b - first] : NULL;
      unsigned int len = u ? u[3] : 1;
      ucs4_t c = u ? u[0] : b;
      if (len >= 2)
        c = (c & (0x7F >> len)) << 6 | (u[1] & 0x3F);
      if (len == 3)
        c = c << 6 | (u[2] & 0x3F);
      sb16_unit[b] = len == 0 ? 0 : 0x10000 | c;
    }
}

static inline size_t
sb_to_utf16 (bool big, uint8_t const *in, size_t n, uint8_t *out,
             size_t cap, size_t *produced, uint64_t *newlines,
             struct codec_error *err)
{
  size_t i, m = n < cap / 2 ? n : cap / 2;
  uint64_t nl = 0;
  bool swap = big;
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  swap = !big;
#endif
  err->len = 0;
  for (i = 0; i < m; i++)
    {
      uint32_t v = sb16_unit[in[i]];
      uint16_t u = (uint16_t) v;
      if (!(v & 0x10000))
        break;
      if (swap)
        u = (uint16_t) (u << 8 | u >> 8);
      memcpy (out + 2 * i, &u, 2);
      nl += v == 0x1000A;
    }
  *produced = 2 * i;
  *newlines = nl;
  return i;
}

IN_ORDER (fast_sb_to_utf16le, sb_to_utf16, false)
IN_ORDER (fast_sb_to_utf16be, sb_to_utf16, true)
