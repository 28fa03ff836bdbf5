/* SSE2 and AVX2 kernels for x86.

   Each function is compiled for its instruction set with a target
   attribute, so that the rest of the program stays baseline and the
   choice is made at run time (kernels.c).  Tails shorter than a vector go
   to the portable kernels.

   UTF-8 validation (AVX2) classifies every byte together with the one
   before it by three 16-entry table lookups (the high nibble of the
   previous byte, its low nibble, and the high nibble of the current
   byte); each error class of Unicode's Table 3-7 is one bit, and a bit
   set in all three lookups is an error.  Third and fourth bytes of a
   sequence are checked separately, from the bytes two and three places
   back.  This is the method of Keiser and Lemire, "Validating UTF-8 In
   Less Than One Instruction Per Byte" (2021).  */

#include <config.h>

#include "kernels.h"
#include "transcode.h"

#if defined __x86_64__ || defined __i386__

#include <immintrin.h>
#include <string.h>

#define SSE2 __attribute__ ((target ("sse2")))
#define AVX2 __attribute__ ((target ("avx2")))

/* ---- SSE2 ---- */

SSE2 static size_t
sse2_ascii_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    {
      int m = _mm_movemask_epi8 (_mm_loadu_si128 ((__m128i const *) (s + i)));
      if (m)
        return i + (size_t) __builtin_ctz ((unsigned int) m);
    }
  return i + scalar_ascii_len (s + i, n - i);
}

/* Without a byte shuffle, SSE2 skips ASCII runs quickly and leaves the
   rest to the portable validator.  */
SSE2 static size_t
sse2_utf8_valid_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  while (i < n)
    {
      size_t v;
      i += sse2_ascii_len (s + i, n - i);
      if (i == n)
        break;
      /* Validate up to the next likely ASCII stretch.  */
      v = scalar_utf8_valid_len (s + i, n - i < 64 ? n - i : 64);
      if (v == 0)
        break;
      i += v;
      if (v < 64 && i < n && s[i] >= 0x80)
        {
          /* The 64-byte window may have cut a sequence.  */
          size_t w = scalar_utf8_valid_len (s + i, n - i < 4 ? n - i : 4);
          if (w == 0)
            break;
          i += w;
        }
    }
  return i;
}

SSE2 static size_t
sse2_count_newlines (uint8_t const *s, size_t n)
{
  size_t i = 0, count = 0;
  __m128i nl = _mm_set1_epi8 ('\n');
  for (; i + 16 <= n; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((__m128i const *) (s + i));
      count += (size_t) __builtin_popcount
        ((unsigned int) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, nl)));
    }
  for (; i < n; i++)
    count += s[i] == '\n';
  return count;
}

SSE2 static inline size_t
sse2_widen_chunk (uint8_t const *s, uint8_t *out, int width, bool big)
{
  __m128i v = _mm_loadu_si128 ((__m128i const *) s);
  __m128i zero = _mm_setzero_si128 ();
  unsigned int m = (unsigned int) _mm_movemask_epi8 (v);
  __m128i w[2];
  int k;
  w[0] = _mm_unpacklo_epi8 (v, zero);
  w[1] = _mm_unpackhi_epi8 (v, zero);
  if (width == 2)
    for (k = 0; k < 2; k++)
      {
        if (big)
          w[k] = _mm_slli_epi16 (w[k], 8);
        _mm_storeu_si128 ((__m128i *) (out + 16 * k), w[k]);
      }
  else
    for (k = 0; k < 4; k++)
      {
        __m128i q = (k & 1 ? _mm_unpackhi_epi16 (w[k / 2], zero)
                     : _mm_unpacklo_epi16 (w[k / 2], zero));
        if (big)
          q = _mm_slli_epi32 (q, 24);
        _mm_storeu_si128 ((__m128i *) (out + 16 * k), q);
      }
  return (size_t) __builtin_ctz (m | 0x10000);
}

SSE2 static inline size_t
sse2_narrow_chunk (uint8_t const *s, uint8_t *out, bool big)
{
  __m128i v = _mm_loadu_si128 ((__m128i const *) s);
  /* A unit is ASCII when its value is below 0x80.  */
  __m128i mask = big ? _mm_set1_epi16 ((short) 0x80FF)
                     : _mm_set1_epi16 ((short) 0xFF80);
  unsigned int m = (unsigned int) _mm_movemask_epi8
    (_mm_cmpeq_epi16 (_mm_and_si128 (v, mask), _mm_setzero_si128 ()));
  if (big)
    v = _mm_srli_epi16 (v, 8);
  _mm_storel_epi64 ((__m128i *) out, _mm_packus_epi16 (v, v));
  return (size_t) __builtin_ctz (~m | 0x10000) / 2;
}

SSE2 static size_t
sse2_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return tc_utf8_to_wide (s, n, out, 2, big, sse2_widen_chunk);
}

SSE2 static size_t
sse2_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return tc_utf8_to_wide (s, n, out, 4, big, sse2_widen_chunk);
}

SSE2 static size_t
sse2_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                    size_t *produced, bool big)
{
  return tc_utf16_to_utf8 (s, n, out, produced, big, sse2_narrow_chunk);
}

struct kernels const kernels_sse2 = {
  "sse2", sse2_ascii_len, sse2_utf8_valid_len, sse2_count_newlines,
  sse2_utf8_to_utf16, sse2_utf8_to_utf32, sse2_utf16_to_utf8
};

/* ---- AVX2 ---- */

AVX2 static size_t
avx2_ascii_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    {
      int m = _mm256_movemask_epi8 (_mm256_loadu_si256 ((__m256i const *)
                                                        (s + i)));
      if (m)
        return i + (size_t) __builtin_ctz ((unsigned int) m);
    }
  return i + sse2_ascii_len (s + i, n - i);
}

/* Error classes, one bit each, for a pair of bytes (previous, current).  */
enum
{
  TOO_SHORT = 1 << 0,           /* Lead byte, then a non-continuation.  */
  TOO_LONG = 1 << 1,            /* ASCII, then a continuation.  */
  OVERLONG_3 = 1 << 2,          /* E0 80..9F.  */
  TOO_LARGE = 1 << 3,           /* F4 90..BF, F5..FF 90..BF.  */
  SURROGATE = 1 << 4,           /* ED A0..BF.  */
  OVERLONG_2 = 1 << 5,          /* C0..C1 80..BF.  */
  TOO_LARGE_1000 = 1 << 6,      /* F5..FF 80..8F.  */
  OVERLONG_4 = 1 << 6,          /* F0 80..8F.  */
  TWO_CONTS = 1 << 7,           /* Continuation, then continuation.  */
  CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
};

/* A byte of a lookup table, as the signed char the intrinsics take.  */
#define B8(x) ((char) (unsigned char) (x))
#define TABLE16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)          \
  _mm256_setr_epi8 (B8 (a), B8 (b), B8 (c), B8 (d), B8 (e), B8 (f),        \
                    B8 (g), B8 (h), B8 (i), B8 (j), B8 (k), B8 (l),        \
                    B8 (m), B8 (n), B8 (o), B8 (p),                        \
                    B8 (a), B8 (b), B8 (c), B8 (d), B8 (e), B8 (f),        \
                    B8 (g), B8 (h), B8 (i), B8 (j), B8 (k), B8 (l),        \
                    B8 (m), B8 (n), B8 (o), B8 (p))

/* The bytes of IN shifted by K places, with the last bytes of PREV
   coming in at the front.  */
#define PREV(in, prev, k)                                                  \
  _mm256_alignr_epi8 ((in), _mm256_permute2x128_si256 ((prev), (in), 0x21), \
                      16 - (k))

AVX2 static inline __m256i
avx2_utf8_errors (__m256i in, __m256i prev)
{
  __m256i const nib = _mm256_set1_epi8 (0x0F);
  __m256i const byte_1_high = TABLE16
    (TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
     TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
     TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
     TOO_SHORT | OVERLONG_2,
     TOO_SHORT,
     TOO_SHORT | OVERLONG_3 | SURROGATE,
     TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
  __m256i const byte_1_low = TABLE16
    (CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
     CARRY | OVERLONG_2,
     CARRY,
     CARRY,
     CARRY | TOO_LARGE,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
     CARRY | TOO_LARGE | TOO_LARGE_1000,
     CARRY | TOO_LARGE | TOO_LARGE_1000);
  __m256i const byte_2_high = TABLE16
    (TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
     TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000
     | OVERLONG_4,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
     TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);

  __m256i prev1 = PREV (in, prev, 1);
  __m256i prev2 = PREV (in, prev, 2);
  __m256i prev3 = PREV (in, prev, 3);
  __m256i b1h = _mm256_shuffle_epi8
    (byte_1_high, _mm256_and_si256 (_mm256_srli_epi16 (prev1, 4), nib));
  __m256i b1l = _mm256_shuffle_epi8 (byte_1_low,
                                     _mm256_and_si256 (prev1, nib));
  __m256i b2h = _mm256_shuffle_epi8
    (byte_2_high, _mm256_and_si256 (_mm256_srli_epi16 (in, 4), nib));
  __m256i special = _mm256_and_si256 (_mm256_and_si256 (b1h, b1l), b2h);
  /* A third or fourth byte must be a continuation, and then its
     TWO_CONTS bit is expected rather than an error.  */
  __m256i third = _mm256_subs_epu8 (prev2, _mm256_set1_epi8 ((char) (0xE0 - 0x80)));
  __m256i fourth = _mm256_subs_epu8 (prev3, _mm256_set1_epi8 ((char) (0xF0 - 0x80)));
  __m256i must23 = _mm256_and_si256 (_mm256_or_si256 (third, fourth),
                                     _mm256_set1_epi8 ((char) 0x80));
  return _mm256_xor_si256 (must23, special);
}

/* Back up from I, a position where validation stopped, to the start of
   the character that may straddle it, so that S[0..result) holds
   complete characters only.  */
static size_t
char_boundary (uint8_t const *s, size_t i)
{
  size_t p = i;
  while (p > 0 && i - p < 3 && (s[p - 1] & 0xC0) == 0x80)
    p--;
  if (p > 0 && s[p - 1] >= 0xC0)
    p--;
  return p;
}

AVX2 static size_t
avx2_utf8_valid_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  __m256i prev = _mm256_setzero_si256 ();
  bool incomplete = false;
  /* A lead byte in the last three places still wants continuations.  */
  __m256i const max_tail = _mm256_setr_epi8
    (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     (char) (0xF0 - 1), (char) (0xE0 - 1), (char) (0xC0 - 1));

  for (; i + 32 <= n; i += 32)
    {
      __m256i in = _mm256_loadu_si256 ((__m256i const *) (s + i));
      if (_mm256_movemask_epi8 (in) == 0)
        {
          if (incomplete)
            break;
        }
      else
        {
          __m256i err = avx2_utf8_errors (in, prev);
          if (!_mm256_testz_si256 (err, err))
            break;
          incomplete = !_mm256_testz_si256 (_mm256_subs_epu8 (in, max_tail),
                                            _mm256_subs_epu8 (in, max_tail));
        }
      prev = in;
    }
  /* The tail, or the block with a problem: the portable validator goes
     on from a character boundary as far as it can.  */
  {
    size_t end = i, room;
    i = char_boundary (s, end);
    room = end - i + 64;
    return i + scalar_utf8_valid_len (s + i, n - i < room ? n - i : room);
  }
}

AVX2 static size_t
avx2_count_newlines (uint8_t const *s, size_t n)
{
  size_t i = 0, count = 0;
  __m256i nl = _mm256_set1_epi8 ('\n');
  for (; i + 32 <= n; i += 32)
    {
      __m256i v = _mm256_loadu_si256 ((__m256i const *) (s + i));
      count += (size_t) __builtin_popcount
        ((unsigned int) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, nl)));
    }
  return count + sse2_count_newlines (s + i, n - i);
}

AVX2 static inline size_t
avx2_widen_chunk (uint8_t const *s, uint8_t *out, int width, bool big)
{
  __m128i v = _mm_loadu_si128 ((__m128i const *) s);
  unsigned int m = (unsigned int) _mm_movemask_epi8 (v);
  if (width == 2)
    {
      __m256i w = _mm256_cvtepu8_epi16 (v);
      if (big)
        w = _mm256_slli_epi16 (w, 8);
      _mm256_storeu_si256 ((__m256i *) out, w);
    }
  else
    {
      __m256i lo = _mm256_cvtepu8_epi32 (v);
      __m256i hi = _mm256_cvtepu8_epi32 (_mm_srli_si128 (v, 8));
      if (big)
        {
          lo = _mm256_slli_epi32 (lo, 24);
          hi = _mm256_slli_epi32 (hi, 24);
        }
      _mm256_storeu_si256 ((__m256i *) out, lo);
      _mm256_storeu_si256 ((__m256i *) (out + 32), hi);
    }
  return (size_t) __builtin_ctz (m | 0x10000);
}

/* The plans of tools/gen-utf8-shuffles.py.  */
struct utf8_plan
{
  uint16_t shuffle;             /* Index into utf8_shuffles.  */
  uint8_t consumed;             /* Input bytes taken; 0: none.  */
  uint8_t count;                /* Characters produced.  */
  uint8_t kind;                 /* 0: 16-bit lanes; 1: 32-bit lanes.  */
};

#include "utf8_shuffles.h"

/* Convert well-formed UTF-8 S[0..N) to UTF-16 (WIDTH 2) or UTF-32 (WIDTH
   4), 16 bytes at a time: ASCII chunks are widened; other chunks are
   classified by where their characters end, and up to 8 characters are
   gathered into lanes by one shuffle and assembled with shifts and
   masks.  A 4-byte character goes through the scalar code.  */
/* Gather the characters of the 16 bytes V (that start on a character
   boundary) whose ends are marked in ENDS (12 bits) into OUT, as PLAN says;
   return the output bytes written.  */
AVX2 static inline size_t
avx2_gather (__m128i v, struct utf8_plan const *p, uint8_t *out, int width,
             bool big)
{
  __m128i const swap16 = _mm_setr_epi8 (1, 0, 3, 2, 5, 4, 7, 6,
                                        9, 8, 11, 10, 13, 12, 15, 14);
  __m128i const swap32 = _mm_setr_epi8 (3, 2, 1, 0, 7, 6, 5, 4,
                                        11, 10, 9, 8, 15, 14, 13, 12);
  __m128i g = _mm_shuffle_epi8 (v, _mm_load_si128 ((__m128i const *)
                                                   utf8_shuffles[p->shuffle]));
  __m128i units;
  if (p->kind == 0)
    {
      /* Last byte in the low half, lead byte in the high half.  */
      units = _mm_or_si128
        (_mm_and_si128 (g, _mm_set1_epi16 (0x007F)),
         _mm_srli_epi16 (_mm_and_si128 (g, _mm_set1_epi16 (0x1F00)), 2));
      if (width == 2)
        {
          if (big)
            units = _mm_shuffle_epi8 (units, swap16);
          _mm_storeu_si128 ((__m128i *) out, units);
        }
      else
        {
          __m128i lo = _mm_cvtepu16_epi32 (units);
          __m128i hi = _mm_cvtepu16_epi32 (_mm_srli_si128 (units, 8));
          if (big)
            {
              lo = _mm_shuffle_epi8 (lo, swap32);
              hi = _mm_shuffle_epi8 (hi, swap32);
            }
          _mm_storeu_si128 ((__m128i *) out, lo);
          _mm_storeu_si128 ((__m128i *) (out + 16), hi);
        }
    }
  else
    {
      /* Last byte lowest, then the middle one, then the lead.  */
      __m128i u = _mm_or_si128
        (_mm_or_si128 (_mm_and_si128 (g, _mm_set1_epi32 (0x7F)),
                       _mm_srli_epi32 (_mm_and_si128
                                       (g, _mm_set1_epi32 (0x3F00)), 2)),
         _mm_srli_epi32 (_mm_and_si128 (g, _mm_set1_epi32 (0x0F0000)), 4));
      if (width == 2)
        {
          units = _mm_packus_epi32 (u, u);
          if (big)
            units = _mm_shuffle_epi8 (units, swap16);
          _mm_storeu_si128 ((__m128i *) out, units);
        }
      else
        {
          if (big)
            u = _mm_shuffle_epi8 (u, swap32);
          _mm_storeu_si128 ((__m128i *) out, u);
        }
    }
  return p->count * (size_t) width;
}

/* Convert well-formed UTF-8 S[0..N) to UTF-16 (WIDTH 2) or UTF-32 (WIDTH
   4).  The input is classified 64 bytes at a time into two bit masks
   (non-ASCII bytes, continuation bytes); then, 16 bytes at a time, an
   ASCII stretch is widened, and otherwise the ends of the characters in
   the next 12 bytes select a plan that gathers up to 8 characters into
   lanes with one shuffle.  Working from the masks keeps the table look-up
   off the chain of loads.  A 4-byte character goes through the scalar
   code.  */
AVX2 static inline size_t
avx2_utf8_to_wide (uint8_t const *s, size_t n, uint8_t *out, int width,
                   bool big)
{
  size_t i = 0, o = 0;
  /* 16 bytes of slack past the block let the last gather load freely.  */
  while (i + 80 <= n)
    {
      size_t base = i;
      __m256i a = _mm256_loadu_si256 ((__m256i const *) (s + base));
      __m256i b = _mm256_loadu_si256 ((__m256i const *) (s + base + 32));
      __m256i const c0 = _mm256_set1_epi8 ((char) 0xC0);
      uint64_t high = ((uint64_t) (uint32_t) _mm256_movemask_epi8 (a)
                       | (uint64_t) (uint32_t) _mm256_movemask_epi8 (b) << 32);
      uint64_t cont;
      if (high == 0)
        {
          int k;
          for (k = 0; k < 4; k++)
            avx2_widen_chunk (s + base + 16 * k,
                              out + o + 16 * (size_t) (k * width), width, big);
          i += 64;
          o += 64 * (size_t) width;
          continue;
        }
      cont = ((uint64_t) (uint32_t) _mm256_movemask_epi8
              (_mm256_cmpgt_epi8 (c0, a))
              | (uint64_t) (uint32_t) _mm256_movemask_epi8
              (_mm256_cmpgt_epi8 (c0, b)) << 32);
      while (i <= base + 48)
        {
          unsigned int k = (unsigned int) (i - base);
          struct utf8_plan const *p;
          /* Widen 16 bytes, and keep the ASCII ones.  */
          size_t asc = (size_t) __builtin_ctzll ((high >> k) | 1u << 16);
          avx2_widen_chunk (s + i, out + o, width, big);
          i += asc;
          o += asc * (size_t) width;
          k += (unsigned int) asc;
          if (asc == 16 || 51 < k)
            continue;
          p = &utf8_plans[~(cont >> (k + 1)) & 0xFFF];
          if (p->consumed == 0)
            {
              o += tc_utf8_char (s, &i, out + o, width, big);
              continue;
            }
          o += avx2_gather (_mm_loadu_si128 ((__m128i const *) (s + i)), p,
                            out + o, width, big);
          i += p->consumed;
        }
    }
  while (i + 16 <= n)
    {
      __m128i v = _mm_loadu_si128 ((__m128i const *) (s + i));
      unsigned int cont;
      struct utf8_plan const *p;
      if (_mm_movemask_epi8 (v) == 0)
        {
          avx2_widen_chunk (s + i, out + o, width, big);
          i += 16;
          o += 16 * (size_t) width;
          continue;
        }
      cont = (unsigned int) _mm_movemask_epi8
        (_mm_cmplt_epi8 (v, _mm_set1_epi8 ((char) 0xC0)));
      p = &utf8_plans[(~cont >> 1) & 0xFFF];
      if (p->consumed == 0)
        {
          o += tc_utf8_char (s, &i, out + o, width, big);
          continue;
        }
      o += avx2_gather (v, p, out + o, width, big);
      i += p->consumed;
    }
  while (i < n)
    o += tc_utf8_char (s, &i, out + o, width, big);
  return o;
}

/* Constant arguments let the compiler make one loop per byte order.  */
AVX2 static size_t
avx2_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return (big ? avx2_utf8_to_wide (s, n, out, 2, true)
          : avx2_utf8_to_wide (s, n, out, 2, false));
}

AVX2 static size_t
avx2_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return (big ? avx2_utf8_to_wide (s, n, out, 4, true)
          : avx2_utf8_to_wide (s, n, out, 4, false));
}

AVX2 static size_t
avx2_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                    size_t *produced, bool big)
{
  return tc_utf16_to_utf8 (s, n, out, produced, big, sse2_narrow_chunk);
}

struct kernels const kernels_avx2 = {
  "avx2", avx2_ascii_len, avx2_utf8_valid_len, avx2_count_newlines,
  avx2_utf8_to_utf16, avx2_utf8_to_utf32, avx2_utf16_to_utf8
};

/* ---- AVX-512 (F, BW, VL) ---- */

#define AVX512 __attribute__ ((target ("avx512f,avx512bw,avx512vl,avx2")))

/* Compute the values of the characters that start in the 16 bytes at S
   (marked in STARTS; LEAD2 and LEAD3 mark 2- and 3-byte lead bytes, and
   there are no 4-byte ones), from each byte and the two after it, keep
   those with one compress instruction and store them at OUT.  Returns
   the output bytes written.  */
AVX512 static inline size_t
avx512_window (uint8_t const *s, __mmask16 starts, __mmask16 lead2,
               __mmask16 lead3, uint8_t *out, int width, bool big)
{
  __m256i const swap16 = _mm256_setr_epi8
    (1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
     1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  __m512i const swap32 = _mm512_set4_epi32 (0x0C0D0E0F, 0x08090A0B,
                                            0x04050607, 0x00010203);
  __m512i m3f = _mm512_set1_epi32 (0x3F);
  __m512i b0 = _mm512_cvtepu8_epi32 (_mm_loadu_si128 ((__m128i const *) s));
  __m512i b1 = _mm512_cvtepu8_epi32 (_mm_loadu_si128 ((__m128i const *)
                                                      (s + 1)));
  __m512i b2 = _mm512_cvtepu8_epi32 (_mm_loadu_si128 ((__m128i const *)
                                                      (s + 2)));
  __m512i c1 = _mm512_and_si512 (b1, m3f);
  __m512i two = _mm512_or_si512
    (_mm512_slli_epi32 (_mm512_and_si512 (b0, _mm512_set1_epi32 (0x1F)), 6),
     c1);
  __m512i three = _mm512_or_si512
    (_mm512_or_si512
     (_mm512_slli_epi32 (_mm512_and_si512 (b0, _mm512_set1_epi32 (0x0F)), 12),
      _mm512_slli_epi32 (c1, 6)),
     _mm512_and_si512 (b2, m3f));
  __m512i val = _mm512_mask_mov_epi32 (b0, lead2, two);
  val = _mm512_mask_mov_epi32 (val, lead3, three);
  val = _mm512_maskz_compress_epi32 (starts, val);
  if (width == 2)
    {
      __m256i u = _mm512_cvtepi32_epi16 (val);
      if (big)
        u = _mm256_shuffle_epi8 (u, swap16);
      _mm256_storeu_si256 ((__m256i *) out, u);
    }
  else
    {
      if (big)
        val = _mm512_shuffle_epi8 (val, swap32);
      _mm512_storeu_si512 (out, val);
    }
  return (size_t) __builtin_popcount (starts) * (size_t) width;
}

/* Convert well-formed UTF-8 S[0..N) to UTF-16 (WIDTH 2) or UTF-32 (WIDTH
   4), 64 bytes at a time without tables: the block is classified into bit
   masks (character starts, 2- and 3-byte leads), and each 16-byte window
   converts the characters that start in it, independently of the others
   (a character may end up to two bytes past its window).  A block with a
   4-byte character, and the tail, go one character at a time.  */
AVX512 static inline size_t
avx512_utf8_to_wide (uint8_t const *s, size_t n, uint8_t *out, int width,
                     bool big)
{
  size_t i = 0, o = 0;

  while (i + 64 + 16 <= n)
    {
      __m512i v = _mm512_loadu_si512 (s + i);
      uint64_t high = _mm512_movepi8_mask (v), starts, lead2, lead3, lead4;
      uint64_t ge_c0;
      int k;

      if (high == 0)
        {
          for (k = 0; k < 4; k++)
            avx2_widen_chunk (s + i + 16 * k,
                              out + o + 16 * (size_t) (k * width),
                              width, big);
          i += 64;
          o += 64 * (size_t) width;
          continue;
        }
      lead4 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xF0));
      ge_c0 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xC0));
      lead3 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xE0))
              & ~lead4;
      lead2 = ge_c0 & ~lead3 & ~lead4;
      starts = ~high | ge_c0;
      for (k = 0; k < 4; k++)
        {
          uint8_t const *ws = s + i + 16 * k;
          __mmask16 w = (__mmask16) (starts >> (16 * k));
          __mmask16 w2 = (__mmask16) (lead2 >> (16 * k));
          __mmask16 w3 = (__mmask16) (lead3 >> (16 * k));
          __mmask16 w4 = (__mmask16) (lead4 >> (16 * k));
          /* A 4-byte character goes through the scalar code; the others
             around it are converted together.  */
          while (w4)
            {
              unsigned int bit = w4 & -(unsigned int) w4;
              __mmask16 before = (__mmask16) (w & (bit - 1));
              size_t at = (size_t) __builtin_ctz (bit);
              if (before)
                o += avx512_window (ws, before, w2, w3, out + o, width, big);
              o += tc_utf8_char (ws, &at, out + o, width, big);
              w &= (__mmask16) ~(bit | (bit - 1));
              w4 &= (__mmask16) ~bit;
            }
          if (w)
            o += avx512_window (ws, w, w2, w3, out + o, width, big);
        }
      /* The last character may reach into the next block.  */
      i += 64;
      while ((s[i] & 0xC0) == 0x80)
        i++;
    }
  while (i < n)
    o += tc_utf8_char (s, &i, out + o, width, big);
  return o;
}

AVX512 static size_t
avx512_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return (big ? avx512_utf8_to_wide (s, n, out, 2, true)
          : avx512_utf8_to_wide (s, n, out, 2, false));
}

AVX512 static size_t
avx512_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out, bool big)
{
  return (big ? avx512_utf8_to_wide (s, n, out, 4, true)
          : avx512_utf8_to_wide (s, n, out, 4, false));
}

struct kernels const kernels_avx512 = {
  "avx512", avx2_ascii_len, avx2_utf8_valid_len, avx2_count_newlines,
  avx512_utf8_to_utf16, avx512_utf8_to_utf32, avx2_utf16_to_utf8
};

#endif
