/* The NEON kernels of AArch64 (Advanced SIMD, on every AArch64
   processor, so chosen by default there without a probe).

   UTF-8 validation is the lookup-table method of Keiser and Lemire
   ("Validating UTF-8 in less than one instruction per byte", 2021):
   every ill-formed pair of bytes is found by three table lookups (the
   high and low nibble of a byte, and the high nibble of the byte after
   it), each giving the set of errors that the nibble allows, and their
   intersection; the third and fourth bytes of a character are then
   checked by comparing the bytes two and three places before.  On NEON
   a lookup is one TBL (vqtbl1q_u8) on 16 bytes.  The validator reads
   64 bytes at a time, and a block of ASCII costs a test and the newline
   count.  A block with an error, and the tail, go to the portable
   validator from the start of the character there, so the length
   returned is the one scalar_utf8_valid_len gives.

   UTF-8 to UTF-16/UTF-32 and UTF-16 to UTF-8 take 16 bytes (8 units)
   at a time: ASCII is widened or narrowed, a block of ASCII and 2-byte
   characters is converted in vector code and then squeezed (compress8,
   compress16: no table), and anything else goes to the shared scalar
   code of transcode.h up to the next ASCII character.  A single-byte
   encoding to UTF-8 looks its high bytes up 8 at a time in tables of
   their 2-byte forms where they are dense (neon_sb_to_utf8); UTF-8 to
   a single-byte encoding is transcode.h's converter with a NEON chunk
   of 16 ASCII bytes.  The line break and control kernels are the
   portable ones.

   The lanes are taken in memory order: configure builds this file for
   little-endian AArch64 only.  */

#include <config.h>

#include "kernels.h"
#include "transcode.h"

#include <arm_neon.h>
#include <string.h>

/* A mask of bytes (each 0x00 or 0xFF) as 64 bits, 4 bits a byte, byte
   K in bits 4K..4K+3 (NEON has no movemask; a narrowing shift makes
   this in one instruction).  */
static inline uint64_t
nibble_mask (uint8x16_t m)
{
  return vget_lane_u64 (vreinterpret_u64_u8
                        (vshrn_n_u16 (vreinterpretq_u16_u8 (m), 4)), 0);
}

/* The index of the first byte set in the mask M, or 16.  */
static inline size_t
first_set (uint8x16_t m)
{
  uint64_t b = nibble_mask (m);
  return b ? (size_t) __builtin_ctzll (b) / 4 : 16;
}

/* Whether every byte of V is ASCII.  */
static inline bool
all_ascii (uint8x16_t v)
{
  return vmaxvq_u8 (v) < 0x80;
}

static size_t
neon_ascii_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    {
      uint8x16_t v = vld1q_u8 (s + i);
      if (!all_ascii (v))
        return i + first_set (vcgeq_u8 (v, vdupq_n_u8 (0x80)));
    }
  return i + scalar_ascii_len (s + i, n - i);
}

/* The newlines of S[0..N): each 16 bytes subtract their comparison
   masks (-1 a newline) from byte counters, which are added up before
   they can overflow (255 blocks).  */
static size_t
neon_count_newlines (uint8_t const *s, size_t n)
{
  size_t i = 0, count = 0;
  uint8x16_t const lf = vdupq_n_u8 ('\n');
  while (i + 16 <= n)
    {
      uint8x16_t acc = vdupq_n_u8 (0);
      size_t k;
      for (k = 0; k < 255 && i + 16 <= n; k++, i += 16)
        acc = vsubq_u8 (acc, vceqq_u8 (vld1q_u8 (s + i), lf));
      count += vaddlvq_u8 (acc);
    }
  for (; i < n; i++)
    count += s[i] == '\n';
  return count;
}

/* The error classes of the lookup-table validator: a bit per kind of
   ill-formed pair of bytes, set in each table for the nibbles that
   allow that kind.  CARRY is the classes that depend only on the high
   nibbles, so the low nibble's table lets them through.  */
enum
{
  TOO_SHORT = 0x01,     /* A lead byte and then no continuation.  */
  TOO_LONG = 0x02,      /* ASCII and then a continuation.  */
  OVERLONG_3 = 0x04,    /* E0 80..9F.  */
  TOO_LARGE = 0x08,     /* F4 90..BF, or F5..FF and then 90..BF.  */
  SURROGATE = 0x10,     /* ED A0..BF.  */
  OVERLONG_2 = 0x20,    /* C0 or C1 and then a continuation.  */
  OVER_4 = 0x40,        /* F0 80..8F (overlong), or F5..FF 80..8F.  */
  TWO_CONTS = 0x80,     /* Two continuations: an error unless the byte
                           two or three places before wants them.  */
  CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
};

/* By the high nibble of the first byte of a pair.  */
static uint8_t const first_high[16] = {
  TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
  TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
  TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
  TOO_SHORT | OVERLONG_2,
  TOO_SHORT,
  TOO_SHORT | OVERLONG_3 | SURROGATE,
  TOO_SHORT | TOO_LARGE | OVER_4
};

/* By the low nibble of the first byte of a pair.  */
static uint8_t const first_low[16] = {
  CARRY | OVERLONG_2 | OVERLONG_3 | OVER_4,
  CARRY | OVERLONG_2,
  CARRY, CARRY,
  CARRY | TOO_LARGE,
  CARRY | TOO_LARGE | OVER_4, CARRY | TOO_LARGE | OVER_4,
  CARRY | TOO_LARGE | OVER_4, CARRY | TOO_LARGE | OVER_4,
  CARRY | TOO_LARGE | OVER_4, CARRY | TOO_LARGE | OVER_4,
  CARRY | TOO_LARGE | OVER_4, CARRY | TOO_LARGE | OVER_4,
  CARRY | TOO_LARGE | OVER_4 | SURROGATE,
  CARRY | TOO_LARGE | OVER_4, CARRY | TOO_LARGE | OVER_4
};

/* By the high nibble of the second byte of a pair.  */
static uint8_t const second_high[16] = {
  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | OVER_4,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
  TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
  TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT
};

struct utf8_tables
{
  uint8x16_t first_high, first_low, second_high;
};

static inline struct utf8_tables
utf8_tables (void)
{
  struct utf8_tables t;
  t.first_high = vld1q_u8 (first_high);
  t.first_low = vld1q_u8 (first_low);
  t.second_high = vld1q_u8 (second_high);
  return t;
}

/* The errors of the 16 bytes IN, PREV being the 16 bytes before them
   (zero at the start): nonzero bytes where a byte is ill-formed after
   the bytes before it.  */
static inline uint8x16_t
utf8_errors (uint8x16_t in, uint8x16_t prev, struct utf8_tables const *t)
{
  uint8x16_t const nib = vdupq_n_u8 (0x0F);
  uint8x16_t prev1 = vextq_u8 (prev, in, 15);
  uint8x16_t prev2 = vextq_u8 (prev, in, 14);
  uint8x16_t prev3 = vextq_u8 (prev, in, 13);
  uint8x16_t special
    = vandq_u8 (vandq_u8 (vqtbl1q_u8 (t->first_high, vshrq_n_u8 (prev1, 4)),
                          vqtbl1q_u8 (t->first_low, vandq_u8 (prev1, nib))),
                vqtbl1q_u8 (t->second_high, vshrq_n_u8 (in, 4)));
  /* A third byte after E0..FF, or a fourth after F0..FF, must be a
     continuation: TWO_CONTS is then expected, and its absence an
     error.  */
  uint8x16_t must = vorrq_u8 (vcgeq_u8 (prev2, vdupq_n_u8 (0xE0)),
                              vcgeq_u8 (prev3, vdupq_n_u8 (0xF0)));
  return veorq_u8 (vandq_u8 (must, vdupq_n_u8 (TWO_CONTS)), special);
}

/* Whether the 16 bytes V end inside a character: a lead byte among the
   last three that wants more bytes than the block has left.  */
static inline bool
ends_inside (uint8x16_t v)
{
  static uint8_t const max_tail[16] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF
  };
  return vmaxvq_u8 (vcgtq_u8 (v, vld1q_u8 (max_tail))) != 0;
}

/* The newlines of the 64 bytes A, B, C, D: each comparison mask is -1
   at a newline, so subtracting the four leaves 0 to 4 in a lane.  */
static inline size_t
newlines64 (uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
  uint8x16_t const lf = vdupq_n_u8 ('\n');
  uint8x16_t acc = vsubq_u8 (vsubq_u8 (vdupq_n_u8 (0), vceqq_u8 (a, lf)),
                             vceqq_u8 (b, lf));
  acc = vsubq_u8 (vsubq_u8 (acc, vceqq_u8 (c, lf)), vceqq_u8 (d, lf));
  return vaddlvq_u8 (acc);
}

/* Back up from I, where the vector loop stopped, to the start of the
   character that may straddle it.  */
static inline size_t
char_start (uint8_t const *s, size_t i)
{
  size_t p = i;
  while (p > 0 && i - p < 3 && (s[p - 1] & 0xC0) == 0x80)
    p--;
  if (p > 0 && s[p - 1] >= 0xC0)
    p--;
  return p;
}

/* The validator, 64 bytes at a time, copying each block it accepts to
   OUT unless OUT is NULL, and counting its newlines into *NEWLINES
   unless NEWLINES is NULL.  */
static inline __attribute__ ((always_inline)) size_t
neon_utf8_check (uint8_t const *s, size_t n, uint8_t *out,
                 uint64_t *newlines)
{
  struct utf8_tables const t = utf8_tables ();
  uint8x16_t prev = vdupq_n_u8 (0);
  bool incomplete = false;
  size_t i = 0, nl = 0, from, room, v;

  /* Four named vectors, not an array, so that they stay in
     registers.  */
  for (; i + 64 <= n; i += 64)
    {
      uint8x16_t a = vld1q_u8 (s + i), b = vld1q_u8 (s + i + 16);
      uint8x16_t c = vld1q_u8 (s + i + 32), d = vld1q_u8 (s + i + 48);
      if (all_ascii (vorrq_u8 (vorrq_u8 (a, b), vorrq_u8 (c, d))))
        {
          /* The block before wants continuations: an error here, which
             the portable validator finds.  */
          if (incomplete)
            break;
        }
      else
        {
          uint8x16_t err;
          /* Keep GCC from computing the errors of every block, ASCII
             too, ahead of the branch (it did: 1.6 instructions a byte
             of ASCII instead of 0.8).  */
          __asm__ ("" : "+w" (a), "+w" (b), "+w" (c), "+w" (d));
          err = vorrq_u8 (vorrq_u8 (utf8_errors (a, prev, &t),
                                    utf8_errors (b, a, &t)),
                          vorrq_u8 (utf8_errors (c, b, &t),
                                    utf8_errors (d, c, &t)));
          if (vmaxvq_u8 (err) != 0)
            break;
          incomplete = ends_inside (d);
        }
      if (out)
        {
          vst1q_u8 (out + i, a);
          vst1q_u8 (out + i + 16, b);
          vst1q_u8 (out + i + 32, c);
          vst1q_u8 (out + i + 48, d);
        }
      if (newlines)
        nl += newlines64 (a, b, c, d);
      prev = d;
    }
  /* The block with a problem, or the tail: the portable validator from
     the start of a character, as far as it goes.  The bytes between
     that start and I are not ASCII, so no newline is counted twice.  */
  from = char_start (s, i);
  room = i - from + 64;
  v = scalar_utf8_valid_len (s + from, n - from < room ? n - from : room);
  if (out)
    memcpy (out + from, s + from, v);
  if (newlines)
    *newlines = nl + neon_count_newlines (s + from, v);
  return from + v;
}

static size_t
neon_utf8_valid_len (uint8_t const *s, size_t n)
{
  return neon_utf8_check (s, n, NULL, NULL);
}

static size_t
neon_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,
                      uint64_t *newlines)
{
  return neon_utf8_check (s, n, out, newlines);
}

/* The chunk primitives of transcode.h.  */

static inline size_t
neon_widen_chunk (uint8_t const *s, uint8_t *out, int width, bool big)
{
  uint8x16_t v = vld1q_u8 (s);
  uint16x8_t lo = vmovl_u8 (vget_low_u8 (v));
  uint16x8_t hi = vmovl_u8 (vget_high_u8 (v));
  if (width == 2)
    {
      uint8x16_t a = vreinterpretq_u8_u16 (lo), b = vreinterpretq_u8_u16 (hi);
      if (big)
        {
          a = vrev16q_u8 (a);
          b = vrev16q_u8 (b);
        }
      vst1q_u8 (out, a);
      vst1q_u8 (out + 16, b);
    }
  else
    {
      uint8x16_t w[4];
      int k;
      w[0] = vreinterpretq_u8_u32 (vmovl_u16 (vget_low_u16 (lo)));
      w[1] = vreinterpretq_u8_u32 (vmovl_u16 (vget_high_u16 (lo)));
      w[2] = vreinterpretq_u8_u32 (vmovl_u16 (vget_low_u16 (hi)));
      w[3] = vreinterpretq_u8_u32 (vmovl_u16 (vget_high_u16 (hi)));
      for (k = 0; k < 4; k++)
        vst1q_u8 (out + 16 * k, big ? vrev32q_u8 (w[k]) : w[k]);
    }
  return all_ascii (v) ? 16 : first_set (vcgeq_u8 (v, vdupq_n_u8 (0x80)));
}

static inline size_t
neon_narrow_chunk (uint8_t const *s, uint8_t *out, bool big)
{
  uint8x16_t b = vld1q_u8 (s);
  uint16x8_t u = vreinterpretq_u16_u8 (big ? vrev16q_u8 (b) : b);
  uint8x8_t high = vmovn_u16 (vcgeq_u16 (u, vdupq_n_u16 (0x80)));
  uint64_t m = vget_lane_u64 (vreinterpret_u64_u8 (high), 0);
  vst1_u8 (out, vmovn_u16 (u));
  return m ? (size_t) __builtin_ctzll (m) / 8 : 8;
}

static inline size_t
neon_copy_chunk (uint8_t const *s, uint8_t *out, size_t *newlines)
{
  uint8x16_t v = vld1q_u8 (s);
  uint64_t high = nibble_mask (vcgeq_u8 (v, vdupq_n_u8 (0x80)));
  uint64_t lf = nibble_mask (vceqq_u8 (v, vdupq_n_u8 ('\n')));
  vst1q_u8 (out, v);
  if (high == 0)
    {
      *newlines += (size_t) __builtin_popcountll (lf) / 4;
      return 16;
    }
  /* The newlines before the first byte that is not ASCII.  */
  lf &= (high & -high) - 1;
  *newlines += (size_t) __builtin_popcountll (lf) / 4;
  return (size_t) __builtin_ctzll (high) / 4;
}

/* Move the units of U that D does not mark (0xFFFF) to the front, in
   order; return how many there are.  Each kept unit moves down by the
   number of marked units before it, a count that grows along the
   vector, so moving by its bits from the lowest (1, 2, then 4 places)
   never lets one unit land on another that is still kept; a place left
   behind gets the count 0, and no unit there moves again.  */
static inline size_t
compress8 (uint16x8_t *u, uint16x8_t d)
{
  uint16x8_t const zero = vdupq_n_u16 (0);
  uint16x8_t one = vandq_u16 (d, vdupq_n_u16 (1));
  /* The marked units before each unit: an inclusive prefix sum, less
     the unit's own mark; 0 at a marked unit.  */
  uint16x8_t k = one;
  k = vaddq_u16 (k, vextq_u16 (zero, k, 7));
  k = vaddq_u16 (k, vextq_u16 (zero, k, 6));
  k = vaddq_u16 (k, vextq_u16 (zero, k, 4));
  k = vbicq_u16 (vsubq_u16 (k, one), d);
#define NEON_MOVE(n)                                                       \
  do                                                                       \
    {                                                                      \
      uint16x8_t m = vtstq_u16 (k, vdupq_n_u16 (n));                       \
      uint16x8_t in = vextq_u16 (m, zero, n);                              \
      *u = vbslq_u16 (in, vextq_u16 (*u, zero, n), *u);                    \
      k = vbslq_u16 (in, vextq_u16 (k, zero, n), vbicq_u16 (k, m));        \
    }                                                                      \
  while (0)
  NEON_MOVE (1);
  NEON_MOVE (2);
  NEON_MOVE (4);
#undef NEON_MOVE
  return 8 - vaddvq_u16 (one);
}

/* Store the 8 units U as WIDTH-byte units at OUT (byte order BIG).  */
static inline void
store_units (uint16x8_t u, uint8_t *out, int width, bool big)
{
  if (width == 2)
    {
      uint8x16_t b = vreinterpretq_u8_u16 (u);
      vst1q_u8 (out, big ? vrev16q_u8 (b) : b);
    }
  else
    {
      uint8x16_t a = vreinterpretq_u8_u32 (vmovl_u16 (vget_low_u16 (u)));
      uint8x16_t b = vreinterpretq_u8_u32 (vmovl_u16 (vget_high_u16 (u)));
      vst1q_u8 (out, big ? vrev32q_u8 (a) : a);
      vst1q_u8 (out + 16, big ? vrev32q_u8 (b) : b);
    }
}

/* Convert the 16 bytes V, which start a character and hold only ASCII
   and 2-byte characters, whole but for a lead byte at the end when CUT,
   to units at OUT; return the bytes written.  Each lead byte and the
   byte after it make a unit in the lead's place; the continuation
   bytes' places (and a cut lead's) are then squeezed out, 8 places at
   a time.  */
static inline size_t
neon_two16 (uint8x16_t v, bool cut, uint8_t *out, int width, bool big)
{
  uint8x16_t next = vextq_u8 (v, vdupq_n_u8 (0), 1);
  uint8x16_t lead = vcgeq_u8 (v, vdupq_n_u8 (0xC0));
  uint8x16_t cont = vceqq_u8 (vandq_u8 (v, vdupq_n_u8 (0xC0)),
                              vdupq_n_u8 (0x80));
  if (cut)
    cont = vsetq_lane_u8 (0xFF, cont, 15);
  /* A lead's unit: its 5 bits above the next byte's 6; ASCII stays.  */
  uint8x16_t low = vbslq_u8 (lead, vorrq_u8 (vshlq_n_u8 (v, 6),
                                             vandq_u8 (next,
                                                       vdupq_n_u8 (0x3F))),
                             v);
  uint8x16_t high = vandq_u8 (lead, vshrq_n_u8 (vandq_u8 (v,
                                                          vdupq_n_u8 (0x1F)),
                                                2));
  uint16x8_t u0 = vreinterpretq_u16_u8 (vzip1q_u8 (low, high));
  uint16x8_t u1 = vreinterpretq_u16_u8 (vzip2q_u8 (low, high));
  uint16x8_t d0 = vreinterpretq_u16_s16 (vmovl_s8 (vget_low_s8
                                                   (vreinterpretq_s8_u8
                                                    (cont))));
  uint16x8_t d1 = vreinterpretq_u16_s16 (vmovl_s8 (vget_high_s8
                                                   (vreinterpretq_s8_u8
                                                    (cont))));
  size_t c0 = compress8 (&u0, d0), c1 = compress8 (&u1, d1);
  store_units (u0, out, width, big);
  store_units (u1, out + c0 * (size_t) width, width, big);
  return (c0 + c1) * (size_t) width;
}

/* Well-formed UTF-8 of complete characters to UTF-16 or UTF-32 (see
   struct kernels), 16 bytes at a time: ASCII widened, a block of ASCII
   and 2-byte characters by neon_two16 (15 bytes of it when it ends with
   a lead byte), anything else from the start of the block to the next
   ASCII byte by the shared scalar code.  */
static inline __attribute__ ((always_inline)) size_t
neon_utf8_to_wide (uint8_t const *s, size_t n, uint8_t *out, int width,
                   bool big)
{
  size_t i = 0, o = 0;
  while (i + 16 <= n)
    {
      uint8x16_t v = vld1q_u8 (s + i);
      uint8_t max = vmaxvq_u8 (v);
      size_t a;
      if (max < 0x80)
        {
          neon_widen_chunk (s + i, out + o, width, big);
          i += 16;
          o += 16 * (size_t) width;
          continue;
        }
      if (max < 0xE0)
        {
          /* A lead byte at the end is left for the next block.  */
          bool cut = s[i + 15] >= 0xC0;
          o += neon_two16 (v, cut, out + o, width, big);
          i += 16 - cut;
          continue;
        }
      a = neon_widen_chunk (s + i, out + o, width, big);
      i += a;
      o += a * (size_t) width;
      do
        o += tc_utf8_char (s, &i, out + o, width, big);
      while (i < n && s[i] >= 0x80);
    }
  while (i < n)
    o += tc_utf8_char (s, &i, out + o, width, big);
  return o;
}

static size_t
neon_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return neon_utf8_to_wide (s, n, out, 2, big);
}

static size_t
neon_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return neon_utf8_to_wide (s, n, out, 4, big);
}
/* compress8 for the 16 bytes V: move the bytes that D does not mark
   to the front, in order; return how many there are.  */
static inline size_t
compress16 (uint8x16_t *v, uint8x16_t d)
{
  uint8x16_t const zero = vdupq_n_u8 (0);
  uint8x16_t one = vandq_u8 (d, vdupq_n_u8 (1));
  uint8x16_t k = one;
  k = vaddq_u8 (k, vextq_u8 (zero, k, 15));
  k = vaddq_u8 (k, vextq_u8 (zero, k, 14));
  k = vaddq_u8 (k, vextq_u8 (zero, k, 12));
  k = vaddq_u8 (k, vextq_u8 (zero, k, 8));
  k = vbicq_u8 (vsubq_u8 (k, one), d);
#define NEON_MOVE(n)                                                       \
  do                                                                       \
    {                                                                      \
      uint8x16_t m = vtstq_u8 (k, vdupq_n_u8 (n));                         \
      uint8x16_t in = vextq_u8 (m, zero, n);                               \
      *v = vbslq_u8 (in, vextq_u8 (*v, zero, n), *v);                      \
      k = vbslq_u8 (in, vextq_u8 (k, zero, n), vbicq_u8 (k, m));           \
    }                                                                      \
  while (0)
  NEON_MOVE (1);
  NEON_MOVE (2);
  NEON_MOVE (4);
  NEON_MOVE (8);
#undef NEON_MOVE
  return 16 - vaddvq_u8 (one);
}

/* Convert the 8 units U, each below 0x800, to UTF-8 at OUT (16 bytes
   may be written); return the bytes of UTF-8.  Each unit makes two
   bytes, its lead (or itself, if ASCII) and its continuation; the
   continuation places of the ASCII units are then squeezed out.  */
static inline size_t
neon_utf16_two (uint16x8_t u, uint8_t *out)
{
  uint16x8_t ascii = vcltq_u16 (u, vdupq_n_u16 (0x80));
  uint8x8_t first = vmovn_u16 (vbslq_u16 (ascii, u,
                                          vorrq_u16 (vshrq_n_u16 (u, 6),
                                                     vdupq_n_u16 (0xC0))));
  uint8x8_t second = vmovn_u16 (vorrq_u16 (vandq_u16 (u, vdupq_n_u16 (0x3F)),
                                           vdupq_n_u16 (0x80)));
  uint8x8x2_t b = vzip_u8 (first, second);
  uint8x8x2_t d = vzip_u8 (vdup_n_u8 (0), vmovn_u16 (ascii));
  uint8x16_t v = vcombine_u8 (b.val[0], b.val[1]);
  size_t c = compress16 (&v, vcombine_u8 (d.val[0], d.val[1]));
  vst1q_u8 (out, v);
  return c;
}

/* UTF-16 to UTF-8 (see struct kernels), 8 units at a time: ASCII
   narrowed, units below 0x800 by neon_utf16_two, anything else from
   the start of the block to the next ASCII unit by the shared scalar
   code.  */
static inline __attribute__ ((always_inline)) size_t
neon_utf16_to_utf8_bo (uint8_t const *s, size_t n, uint8_t *out,
                       size_t *produced, bool big)
{
  size_t i = 0, o = 0, w;
  while (i + 8 <= n)
    {
      uint8x16_t b = vld1q_u8 (s + 2 * i);
      uint16x8_t u = vreinterpretq_u16_u8 (big ? vrev16q_u8 (b) : b);
      uint16_t max = vmaxvq_u16 (u);
      size_t a;
      if (max < 0x80)
        {
          vst1_u8 (out + o, vmovn_u16 (u));
          i += 8;
          o += 8;
          continue;
        }
      if (max < 0x800)
        {
          o += neon_utf16_two (u, out + o);
          i += 8;
          continue;
        }
      a = neon_narrow_chunk (s + 2 * i, out + o, big);
      i += a;
      o += a;
      do
        {
          w = tc_utf16_char (s, &i, n, out + o, big);
          if (w == 0)
            goto done;
          o += w;
        }
      while (i < n && tc_get16 (s + 2 * i, big) >= 0x80);
    }
  while (i < n)
    {
      w = tc_utf16_char (s, &i, n, out + o, big);
      if (w == 0)
        break;
      o += w;
    }
 done:
  *produced = o;
  return i;
}

static size_t
neon_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                    size_t *produced, uint64_t *newlines, bool big)
{
  size_t used = (big ? neon_utf16_to_utf8_bo (s, n, out, produced, true)
                 : neon_utf16_to_utf8_bo (s, n, out, produced, false));
  *newlines = neon_count_newlines (out, *produced);
  return used;
}
/* The byte B of a single-byte encoding through TABLE (see struct
   kernels) at OUT + *O, with *O and *NL moved on; false if B is not a
   character.  */
static inline bool
sb_byte (uint8_t b, uint8_t const (*table)[4], uint8_t *out, size_t *o,
         size_t *nl)
{
  uint8_t const *e;
  if (b < 0x80)
    {
      out[(*o)++] = b;
      *nl += b == '\n';
      return true;
    }
  e = table[b - 0x80];
  if (e[3] == 0)
    return false;
  memcpy (out + *o, e, 3);
  *o += e[3];
  return true;
}

/* Look up the 8 bytes IDX (a byte less 0x80) in the 128 bytes T[0..1]:
   0 where IDX is 128 or more (ASCII).  */
static inline uint8x8_t
lookup128 (uint8x16x4_t const t[2], uint8x8_t idx)
{
  return vorr_u8 (vqtbl4_u8 (t[0], idx),
                  vqtbl4_u8 (t[1], vsub_u8 (idx, vdup_n_u8 (64))));
}

/* Single-byte encoding to UTF-8 (see struct kernels), 8 bytes a step:
   ASCII copied; 8 bytes with three high bytes or more, all with 2-byte
   forms (Latin letters, Cyrillic, Greek), looked up in two tables made
   from TABLE (lead and continuation bytes), interleaved and squeezed
   as in neon_utf16_two; otherwise the ASCII before the first high byte
   is copied and that byte goes through TABLE alone.  A
   short run is left to the chunk loop of transcode.h (making the
   tables costs a few hundred instructions).  */
static size_t
neon_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                 uint8_t const (*table)[4], size_t *produced,
                 uint64_t *newlines)
{
  uint8_t lead[128], cont[128];
  uint8x16x4_t lt[2], ct[2];
  size_t i = 0, o = 0, nl = 0, k;
  uint8x8_t const lf = vdup_n_u8 ('\n');

  if (n < 256)
    return tc_sb_to_utf8 (s, n, out, table, produced, newlines, 16,
                          neon_copy_chunk);
  for (k = 0; k < 128; k++)
    {
      lead[k] = table[k][3] == 2 ? table[k][0] : 0;
      cont[k] = table[k][1];
    }
  lt[0] = vld1q_u8_x4 (lead);
  lt[1] = vld1q_u8_x4 (lead + 64);
  ct[0] = vld1q_u8_x4 (cont);
  ct[1] = vld1q_u8_x4 (cont + 64);
  while (i + 8 <= n)
    {
      uint8x8_t v = vld1_u8 (s + i);
      uint8x8_t idx = vsub_u8 (v, vdup_n_u8 (0x80));
      uint8x8_t high = vcge_u8 (v, vdup_n_u8 (0x80));
      uint8x8_t lines = vceq_u8 (v, lf);
      uint64_t hm = vget_lane_u64 (vreinterpret_u64_u8 (high), 0);
      uint64_t lm = vget_lane_u64 (vreinterpret_u64_u8 (lines), 0);
      uint8x8_t ld;
      if (hm == 0)
        {
          vst1_u8 (out + o, v);
          o += 8;
          nl += (size_t) __builtin_popcountll (lm) / 8;
          i += 8;
          continue;
        }
      /* Two high bytes or more, each with a 2-byte form: in vector
         code.  */
      if (__builtin_popcountll (hm) >= 16
          && (ld = lookup128 (lt, idx),
              vmaxv_u8 (vand_u8 (high, vceq_u8 (ld, vdup_n_u8 (0)))) == 0))
        {
          uint8x8x2_t b = vzip_u8 (vbsl_u8 (high, ld, v),
                                   lookup128 (ct, idx));
          uint8x8x2_t d = vzip_u8 (vdup_n_u8 (0), vmvn_u8 (high));
          uint8x16_t w = vcombine_u8 (b.val[0], b.val[1]);
          size_t c = compress16 (&w, vcombine_u8 (d.val[0], d.val[1]));
          vst1q_u8 (out + o, w);
          o += c;
          nl += (size_t) __builtin_popcountll (lm) / 8;
          i += 8;
          continue;
        }
      /* Fewer (Western text has one now and then): the ASCII before the
         first, and it through the table; the next step starts after
         it.  */
      {
        size_t f = (size_t) __builtin_ctzll (hm) / 8;
        vst1_u8 (out + o, v);
        o += f;
        nl += (size_t) __builtin_popcountll (lm & ((UINT64_C (1) << (8 * f))
                                                   - 1)) / 8;
        i += f;
        if (!sb_byte (s[i], table, out, &o, &nl))
          goto done;
        i++;
      }
    }
  for (; i < n; i++)
    if (!sb_byte (s[i], table, out, &o, &nl))
      break;
 done:
  *produced = o;
  *newlines = nl;
  return i;
}
TC_UTF8_TO_SB (, neon)

struct kernels const kernels_neon = {
  "neon", neon_ascii_len, neon_utf8_valid_len, neon_count_newlines,
  neon_utf8_valid_copy, NULL,
  neon_utf8_to_utf16, neon_utf8_to_utf32, NULL, neon_utf16_to_utf8,
  neon_sb_to_utf8, neon_utf8_to_sb,
  scalar_drop_crlf, scalar_find_control
};
