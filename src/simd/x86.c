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
   Less Than One Instruction Per Byte" (2021).

   The AVX2 kernels also serve the AVX-512 set, except UTF-8 to UTF-16
   and UTF-32, which has its own.  Their constant vectors are read from a
   table (avx2_k), and their byte-order and width parameters are made
   constants by always_inline wrappers, so that each case gets its own
   loop.  */

#include <config.h>

#include "kernels.h"
#include "transcode.h"

#if defined __x86_64__ || defined __i386__

#include <immintrin.h>
#include <string.h>

#define SSE2 __attribute__ ((target ("sse2")))
#define AVX2 __attribute__ ((target ("avx2,popcnt")))

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

SSE2 static size_t
sse2_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,
                      uint64_t *newlines)
{
  size_t v = sse2_utf8_valid_len (s, n);
  if (out)
    memcpy (out, s, v);
  *newlines = sse2_count_newlines (s, v);
  return v;
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
                    size_t *produced, uint64_t *newlines, bool big)
{
  size_t used = tc_utf16_to_utf8 (s, n, out, produced, big,
                                  sse2_narrow_chunk);
  *newlines = sse2_count_newlines (out, *produced);
  return used;
}

SSE2 static inline size_t
sse2_copy_chunk (uint8_t const *s, uint8_t *out, size_t *newlines)
{
  __m128i v = _mm_loadu_si128 ((__m128i const *) s);
  unsigned int m = (unsigned int) _mm_movemask_epi8 (v);
  unsigned int a = (unsigned int) __builtin_ctz (m | 0x10000);
  unsigned int nl = (unsigned int) _mm_movemask_epi8
    (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\n')));
  _mm_storeu_si128 ((__m128i *) out, v);
  *newlines += (size_t) __builtin_popcount (nl & ((1u << a) - 1));
  return a;
}

SSE2 static size_t
sse2_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                 uint8_t const (*table)[4], size_t *produced,
                 uint64_t *newlines)
{
  return tc_sb_to_utf8 (s, n, out, table, produced, newlines, 16,
                        sse2_copy_chunk);
}

SSE2 static size_t
sse2_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
                 int16_t const *table, size_t *produced, uint64_t *newlines)
{
  return tc_utf8_to_sb (s, n, out, table, produced, newlines, 16,
                        sse2_copy_chunk);
}

struct kernels const kernels_sse2 = {
  "sse2", sse2_ascii_len, sse2_utf8_valid_len, sse2_count_newlines,
  sse2_utf8_valid_copy,
  sse2_utf8_to_utf16, sse2_utf8_to_utf32, NULL, sse2_utf16_to_utf8,
  sse2_sb_to_utf8, sse2_utf8_to_sb
};

/* ---- AVX2 ---- */

/* Constant vectors of the AVX2 kernels, read from memory.  GCC 12 builds
   a broadcast constant in registers with two or three instructions
   wherever it is used, inside loops too; read through a pointer that it
   cannot see through (avx2_k), a constant costs one load at most, which
   usually folds into the instruction that uses it.  */
enum
{
  K_0F8, K_60_8, K_70_8, K_80_8, K_C0_8, K_LF8,
  K_FF80_16, K_F800_16, K_D800_16, K_7F_16, K_1F00_16, K_0A_16,
  K_3F, K_7F, K_7FF, K_3F00, K_0F0000, K_3F0000, K_8080E0, K_80C0,
  K_07000000, K_FF000000, K_20000, K_FFFF, K_10000, K_D800, K_3FF, K_DC00,
  K_1F_16, K_3F_16, K_BF_16,
  K_COUNT
};

#define K8(x) (0x01010101u * (x))
#define K16(x) (0x00010001u * (x))
#define KROW(x) { x, x, x, x, x, x, x, x }
static uint32_t const avx2_k_table[K_COUNT][8] __attribute__ ((aligned (32)))
= {
  KROW (K8 (0x0F)), KROW (K8 (0x60)), KROW (K8 (0x70)), KROW (K8 (0x80)),
  KROW (K8 (0xC0)), KROW (K8 (0x0A)),
  KROW (K16 (0xFF80)), KROW (K16 (0xF800)), KROW (K16 (0xD800)),
  KROW (K16 (0x007F)), KROW (K16 (0x1F00)), KROW (K16 (0x000A)),
  KROW (0x3F), KROW (0x7F), KROW (0x7FF), KROW (0x3F00), KROW (0x0F0000),
  KROW (0x3F0000), KROW (0x8080E0), KROW (0x80C0),
  KROW (0x07000000), KROW (0xFF000000), KROW (0x20000), KROW (0xFFFF),
  KROW (0x10000), KROW (0xD800), KROW (0x3FF), KROW (0xDC00),
  KROW (K16 (0x1F)), KROW (K16 (0x3F)), KROW (K16 (0xBF))
};
#undef KROW
#undef K16
#undef K8

static inline __attribute__ ((always_inline)) __m256i const *
avx2_k (void)
{
  __m256i const *k = (__m256i const *) avx2_k_table[0];
  __asm__ ("" : "+r" (k));
  return k;
}

/* The constant I of avx2_k_table, 256 or 128 bits wide.  */
#define K256(i) (avx2_k ()[i])
#define K128(i) (*(__m128i const *) (avx2_k () + (i)))

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

/* The three tables of the error classes: by the high nibble of the
   previous byte, by its low nibble, and by the high nibble of the
   current byte (the same 16 bytes in both lanes).  */
AVX2 static inline __attribute__ ((always_inline)) void
avx2_utf8_tables (__m256i *byte_1_high, __m256i *byte_1_low,
                  __m256i *byte_2_high)
{
  *byte_1_high = TABLE16
    (TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
     TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
     TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
     TOO_SHORT | OVERLONG_2,
     TOO_SHORT,
     TOO_SHORT | OVERLONG_3 | SURROGATE,
     TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
  *byte_1_low = TABLE16
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
  *byte_2_high = TABLE16
    (TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
     TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000
     | OVERLONG_4,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
     TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
     TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
}

AVX2 static inline __m256i
avx2_utf8_errors (__m256i in, __m256i prev)
{
  __m256i const nib = K256 (K_0F8);
  __m256i byte_1_high, byte_1_low, byte_2_high;
  avx2_utf8_tables (&byte_1_high, &byte_1_low, &byte_2_high);

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
  __m256i third = _mm256_subs_epu8 (prev2, K256 (K_60_8));
  __m256i fourth = _mm256_subs_epu8 (prev3, K256 (K_70_8));
  __m256i must23 = _mm256_and_si256 (_mm256_or_si256 (third, fourth),
                                     K256 (K_80_8));
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

/* The end of a validator's loop at a block at I where the error classes
   flagged a byte, at I + AT the first, and whose bytes 0x0A are the bits
   of LF (the caller has copied the block, if it copies).  Every error is
   flagged at or after its bytes, at the latest at the byte that shows
   it, so the bytes before the character around the flag are well-formed,
   and the longest prefix ends no later than the flag.  Return where the
   portable validator started, near the flag, and set *V to the length it
   found from there; add the newlines up to its end to *NL.  */
/* The end of a validator's loop that stopped at END, for the tail or a
   block with a problem: the portable validator goes on from a character
   boundary as far as it can; the bytes between that boundary and END are
   not ASCII, so no newline is counted twice.  NL counts the newlines
   before END.  */
static inline __attribute__ ((always_inline)) size_t
utf8_check_tail (uint8_t const *s, size_t n, size_t end, uint8_t *out,
                 bool copy, size_t nl, uint64_t *newlines)
{
  size_t i = char_boundary (s, end), room = end - i + 64, v;
  v = scalar_utf8_valid_len (s + i, n - i < room ? n - i : room);
  if (copy)
    memcpy (out + i, s + i, v);
  *newlines = nl + sse2_count_newlines (s + i, v);
  return i + v;
}

static inline __attribute__ ((always_inline)) size_t
utf8_check_flagged (uint8_t const *s, size_t i, size_t at, uint64_t lf,
                    size_t *nl, size_t *v)
{
  size_t from = char_boundary (s, i + at);
  *v = scalar_utf8_valid_len (s + from, i + at + 1 - from);
  if (from + *v > i)
    {
      size_t k = from + *v - i;
      *nl += (size_t) __builtin_popcountll (k < 64 ? lf & ((1ull << k) - 1)
                                            : lf);
    }
  return from;
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

/* avx2_utf8_valid_len, counting the newlines of the blocks it accepts
   and copying them to OUT as it goes (when COPY).  A block with a
   problem, and the tail, go to the portable validator from a character
   boundary, as there; the bytes between that boundary and the end of
   the accepted blocks are not ASCII, so no newline is counted twice.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_utf8_check (uint8_t const *s, size_t n, uint8_t *out,
                 uint64_t *newlines, bool copy)
{
  size_t i = 0, nl = 0, v;
  uint64_t flagged = 0, lfm = 0;
  __m256i prev = _mm256_setzero_si256 ();
  __m256i const lf = K256 (K_LF8);
  __m256i const max_tail = _mm256_setr_epi8
    (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     (char) (0xF0 - 1), (char) (0xE0 - 1), (char) (0xC0 - 1));

  for (; i + 32 <= n; i += 32)
    {
      __m256i in = _mm256_loadu_si256 ((__m256i const *) (s + i));
      if (_mm256_movemask_epi8 (in) == 0)
        {
          /* The block before must not end inside a character.  */
          if (!_mm256_testz_si256 (_mm256_subs_epu8 (prev, max_tail),
                                   _mm256_subs_epu8 (prev, max_tail)))
            {
              flagged = 1;
              lfm = (uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in,
                                                                       lf));
              if (copy)
                _mm256_storeu_si256 ((__m256i *) (out + i), in);
              break;
            }
          nl += (size_t) __builtin_popcount
            ((unsigned int) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf)));
          if (copy)
            _mm256_storeu_si256 ((__m256i *) (out + i), in);
          prev = in;
          /* More ASCII, 64 bytes at a time.  */
          while (i + 96 <= n)
            {
              __m256i a = _mm256_loadu_si256 ((__m256i const *) (s + i + 32));
              __m256i b = _mm256_loadu_si256 ((__m256i const *) (s + i + 64));
              if (_mm256_movemask_epi8 (_mm256_or_si256 (a, b)) != 0)
                break;
              nl += (size_t) __builtin_popcountll
                ((uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (a, lf))
                 | (uint64_t) (uint32_t) _mm256_movemask_epi8
                 (_mm256_cmpeq_epi8 (b, lf)) << 32);
              if (copy)
                {
                  _mm256_storeu_si256 ((__m256i *) (out + i + 32), a);
                  _mm256_storeu_si256 ((__m256i *) (out + i + 64), b);
                }
              prev = b;
              i += 64;
            }
          continue;
        }
      else if (i + 64 <= n)
        {
          /* Text that is not ASCII tends to go on: check the next block
             with this one, whatever it holds (the error classes need no
             special case for ASCII), and break before both if either
             has a problem.  */
          __m256i in2 = _mm256_loadu_si256 ((__m256i const *) (s + i + 32));
          __m256i e1 = avx2_utf8_errors (in, prev);
          __m256i e2 = avx2_utf8_errors (in2, in);
          __m256i err = _mm256_or_si256 (e1, e2);
          if (!_mm256_testz_si256 (err, err))
            {
              __m256i z = _mm256_setzero_si256 ();
              flagged = ~((uint64_t) (uint32_t) _mm256_movemask_epi8
                          (_mm256_cmpeq_epi8 (e1, z))
                          | (uint64_t) (uint32_t) _mm256_movemask_epi8
                          (_mm256_cmpeq_epi8 (e2, z)) << 32);
              lfm = ((uint32_t) _mm256_movemask_epi8
                     (_mm256_cmpeq_epi8 (in, lf))
                     | (uint64_t) (uint32_t) _mm256_movemask_epi8
                     (_mm256_cmpeq_epi8 (in2, lf)) << 32);
              if (copy)
                {
                  _mm256_storeu_si256 ((__m256i *) (out + i), in);
                  _mm256_storeu_si256 ((__m256i *) (out + i + 32), in2);
                }
              break;
            }
          nl += (size_t) __builtin_popcountll
            ((uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf))
             | (uint64_t) (uint32_t) _mm256_movemask_epi8
             (_mm256_cmpeq_epi8 (in2, lf)) << 32);
          if (copy)
            {
              _mm256_storeu_si256 ((__m256i *) (out + i), in);
              _mm256_storeu_si256 ((__m256i *) (out + i + 32), in2);
            }
          prev = in2;
          i += 32;
          continue;
        }
      else
        {
          __m256i err = avx2_utf8_errors (in, prev);
          if (!_mm256_testz_si256 (err, err))
            {
              flagged = ~(uint64_t) (uint32_t) _mm256_movemask_epi8
                (_mm256_cmpeq_epi8 (err, _mm256_setzero_si256 ()));
              lfm = (uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in,
                                                                       lf));
              if (copy)
                _mm256_storeu_si256 ((__m256i *) (out + i), in);
              break;
            }
        }
      nl += (size_t) __builtin_popcount
        ((unsigned int) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf)));
      if (copy)
        _mm256_storeu_si256 ((__m256i *) (out + i), in);
      prev = in;
    }
  if (flagged)
    {
      i = utf8_check_flagged (s, i, (size_t) __builtin_ctzll (flagged), lfm,
                              &nl, &v);
      *newlines = nl;
      return i + v;
    }
  return utf8_check_tail (s, n, i, out, copy, nl, newlines);
}

AVX2 static size_t
avx2_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,
                      uint64_t *newlines)
{
  return (out ? avx2_utf8_check (s, n, out, newlines, true)
          : avx2_utf8_check (s, n, out, newlines, false));
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

AVX2 static inline __attribute__ ((always_inline)) size_t
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

/* Widen the 64 ASCII bytes at S, written out in full because GCC keeps
   a loop of 4 as a loop.  */
AVX2 static inline __attribute__ ((always_inline)) void
avx2_widen64 (uint8_t const *s, uint8_t *out, int width, bool big)
{
  avx2_widen_chunk (s, out, width, big);
  avx2_widen_chunk (s + 16, out + 16 * width, width, big);
  avx2_widen_chunk (s + 32, out + 32 * width, width, big);
  avx2_widen_chunk (s + 48, out + 48 * width, width, big);
}

/* The plans of tools/gen-utf8-shuffles.py.  */
struct utf8_plan
{
  uint16_t shuffle;             /* Index into utf8_shuffles.  */
  uint8_t consumed;             /* Input bytes taken; 0: none.  */
  uint8_t count;                /* Characters produced.  */
  uint8_t kind;                 /* 0: 16-bit lanes; 1: 32-bit lanes;
                                   2: 32-bit lanes, with a 4-byte
                                   character.  */
};

/* For 4 code points in 32-bit lanes, each made a UTF-16 unit in its low
   half, or a pair of units: the byte shuffle that packs the units, by
   the 4-bit mask of the lanes that hold a pair.  */
static uint8_t utf16_pairs_pack[16][16] __attribute__ ((aligned (16)));

__attribute__ ((constructor)) static void
make_utf16_pairs_pack (void)
{
  unsigned int mask, k, b;
  for (mask = 0; mask < 16; mask++)
    {
      unsigned int o = 0;
      memset (utf16_pairs_pack[mask], 0x80, 16);
      for (k = 0; k < 4; k++)
        for (b = 0; b < (mask >> k & 1 ? 4u : 2u); b++)
          utf16_pairs_pack[mask][o++] = (uint8_t) (4 * k + b);
    }
}

#include "utf8_shuffles.h"

/* Gather the characters of the 16 bytes V (that start on a character
   boundary) whose ends are marked in ENDS (12 bits) into OUT, as PLAN says;
   return the output bytes written.  Kind 2 makes a 4-byte character a
   pair of units for UTF-16, packed by a shuffle from utf16_pairs_pack.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
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
        (_mm_and_si128 (g, K128 (K_7F_16)),
         _mm_srli_epi16 (_mm_and_si128 (g, K128 (K_1F00_16)), 2));
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
  else if (p->kind == 2)
    {
      /* Last byte lowest, then the others, then the lead; a third byte
         from the end that is a 3-byte lead brings its bit 5 into bit 17,
         which is cleared unless a 4th byte follows it.  */
      __m128i u, no4;
      u = _mm_or_si128
        (_mm_or_si128 (_mm_and_si128 (g, K128 (K_7F)),
                       _mm_srli_epi32 (_mm_and_si128 (g, K128 (K_3F00)), 2)),
         _mm_or_si128 (_mm_srli_epi32 (_mm_and_si128 (g, K128 (K_3F0000)), 4),
                       _mm_srli_epi32 (_mm_and_si128 (g, K128 (K_07000000)),
                                       6)));
      no4 = _mm_cmpeq_epi32 (_mm_and_si128 (g, K128 (K_FF000000)),
                             _mm_setzero_si128 ());
      u = _mm_andnot_si128 (_mm_and_si128 (no4, K128 (K_20000)), u);
      if (width == 2)
        {
          __m128i is4 = _mm_cmpgt_epi32 (u, K128 (K_FFFF));
          __m128i c = _mm_sub_epi32 (u, K128 (K_10000));
          __m128i pair = _mm_or_si128
            (_mm_add_epi32 (_mm_srli_epi32 (c, 10), K128 (K_D800)),
             _mm_slli_epi32 (_mm_add_epi32 (_mm_and_si128 (c, K128 (K_3FF)),
                                            K128 (K_DC00)), 16));
          unsigned int mask = (unsigned int) _mm_movemask_ps
            (_mm_castsi128_ps (is4));
          units = _mm_shuffle_epi8
            (_mm_blendv_epi8 (u, pair, is4),
             _mm_load_si128 ((__m128i const *) utf16_pairs_pack[mask]));
          if (big)
            units = _mm_shuffle_epi8 (units, swap16);
          _mm_storeu_si128 ((__m128i *) out, units);
          return (p->count + (size_t) __builtin_popcount (mask)) * 2;
        }
      if (big)
        u = _mm_shuffle_epi8 (u, swap32);
      _mm_storeu_si128 ((__m128i *) out, u);
    }
  else
    {
      /* Last byte lowest, then the middle one, then the lead.  */
      __m128i u = _mm_or_si128
        (_mm_or_si128 (_mm_and_si128 (g, K128 (K_7F)),
                       _mm_srli_epi32 (_mm_and_si128 (g, K128 (K_3F00)), 2)),
         _mm_srli_epi32 (_mm_and_si128 (g, K128 (K_0F0000)), 4));
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

/* For 8 units in 16-bit lanes: the byte shuffle that packs the lanes
   that are not marked in the 8-bit mask (continuation bytes) to the
   front.  */
static uint8_t utf8_two_pack[256][16] __attribute__ ((aligned (16)));
/* And the number of lanes kept: a load costs less than a popcount.  */
static uint8_t utf8_two_kept[256];

__attribute__ ((constructor)) static void
make_utf8_two_pack (void)
{
  unsigned int mask, k;
  for (mask = 0; mask < 256; mask++)
    {
      unsigned int o = 0;
      memset (utf8_two_pack[mask], 0x80, 16);
      for (k = 0; k < 8; k++)
        if (!(mask >> k & 1))
          {
            utf8_two_pack[mask][o++] = (uint8_t) (2 * k);
            utf8_two_pack[mask][o++] = (uint8_t) (2 * k + 1);
          }
      utf8_two_kept[mask] = (uint8_t) (o / 2);
    }
}

/* Convert the characters that start in the 16 bytes at S, which hold
   only ASCII and 2-byte characters (the last may end at S[16]; the
   first bytes may be continuation bytes of a character that starts
   before S, and they are skipped), to UTF-16 (WIDTH 2) or UTF-32
   (WIDTH 4) at OUT.  CONT marks the continuation bytes of the 16.
   Each byte becomes a 16-bit lane, a lead byte together with the byte
   after it, and the lanes of continuation bytes are dropped with one
   shuffle per 8 lanes.  This takes a whole window of Latin or Cyrillic
   text at once, where the plans of avx2_gather take 12 bytes at most.
   Returns the output bytes written.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_two16 (uint8_t const *s, unsigned int cont, uint8_t *out, int width,
            bool big)
{
  __m256i const swap16 = _mm256_setr_epi8
    (1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
     1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  __m256i const swap32 = _mm256_setr_epi8
    (3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
     3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  __m256i b0 = _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((__m128i const *) s));
  __m256i b1 = _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((__m128i const *)
                                                      (s + 1)));
  __m256i two = _mm256_or_si256
    (_mm256_slli_epi16 (_mm256_and_si256 (b0, K256 (K_1F_16)), 6),
     _mm256_and_si256 (b1, K256 (K_3F_16)));
  __m256i val = _mm256_blendv_epi8 (b0, two,
                                    _mm256_cmpgt_epi16 (b0, K256 (K_BF_16)));
  unsigned int mlo = cont & 0xFF, mhi = cont >> 8 & 0xFF;
  size_t nlo = utf8_two_kept[mlo], nhi = utf8_two_kept[mhi];
  __m128i lo, hi;

  if (width == 2 && big)
    val = _mm256_shuffle_epi8 (val, swap16);
  lo = _mm_shuffle_epi8 (_mm256_castsi256_si128 (val),
                         _mm_load_si128 ((__m128i const *)
                                         utf8_two_pack[mlo]));
  hi = _mm_shuffle_epi8 (_mm256_extracti128_si256 (val, 1),
                         _mm_load_si128 ((__m128i const *)
                                         utf8_two_pack[mhi]));
  if (width == 2)
    {
      _mm_storeu_si128 ((__m128i *) out, lo);
      _mm_storeu_si128 ((__m128i *) (out + 2 * nlo), hi);
      return 2 * (nlo + nhi);
    }
  {
    __m256i wlo = _mm256_cvtepu16_epi32 (lo);
    __m256i whi = _mm256_cvtepu16_epi32 (hi);
    if (big)
      {
        wlo = _mm256_shuffle_epi8 (wlo, swap32);
        whi = _mm256_shuffle_epi8 (whi, swap32);
      }
    _mm256_storeu_si256 ((__m256i *) out, wlo);
    _mm256_storeu_si256 ((__m256i *) (out + 4 * nlo), whi);
    return 4 * (nlo + nhi);
  }
}

/* Convert the 8 characters of 3 bytes at S (24 bytes; 32 may be read) to
   UTF-16 (WIDTH 2) or UTF-32 (WIDTH 4) at OUT; return the bytes
   written.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_three8 (uint8_t const *s, uint8_t *out, int width, bool big)
{
  /* Each 3 bytes to a 32-bit lane, the last byte lowest.  */
  __m256i const gather3 = _mm256_setr_epi8
    (2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1,
     2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
  __m256i const swap16 = _mm256_setr_epi8
    (1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
     1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  __m256i const swap32 = _mm256_setr_epi8
    (3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
     3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  __m256i v = _mm256_inserti128_si256
    (_mm256_castsi128_si256 (_mm_loadu_si128 ((__m128i const *) s)),
     _mm_loadu_si128 ((__m128i const *) (s + 12)), 1);
  __m256i g = _mm256_shuffle_epi8 (v, gather3);
  __m256i u = _mm256_or_si256
    (_mm256_or_si256 (_mm256_and_si256 (g, K256 (K_7F)),
                      _mm256_srli_epi32 (_mm256_and_si256 (g, K256 (K_3F00)),
                                         2)),
     _mm256_srli_epi32 (_mm256_and_si256 (g, K256 (K_0F0000)), 4));
  if (width == 2)
    {
      /* The units of both halves into the low 128 bits.  */
      __m256i w = _mm256_permute4x64_epi64
        (_mm256_packus_epi32 (u, _mm256_setzero_si256 ()), 0x08);
      if (big)
        w = _mm256_shuffle_epi8 (w, swap16);
      _mm_storeu_si128 ((__m128i *) out, _mm256_castsi256_si128 (w));
      return 16;
    }
  if (big)
    u = _mm256_shuffle_epi8 (u, swap32);
  _mm256_storeu_si256 ((__m256i *) out, u);
  return 32;
}

/* Convert well-formed UTF-8 S[0..N) to UTF-16 (WIDTH 2) or UTF-32 (WIDTH
   4).  The input is classified 64 bytes at a time into two bit masks
   (non-ASCII bytes, continuation bytes); then, 16 bytes at a time, an
   ASCII stretch is widened, and otherwise the ends of the characters in
   the next 12 bytes select a plan that gathers up to 8 characters into
   lanes with one shuffle (4-byte characters included).  After 4
   characters of 3 bytes, runs of 8 more go through avx2_three8.  Working
   from the masks keeps the table look-up off the chain of loads.  A block
   of ASCII and 2-byte characters only (Latin or Cyrillic text) goes
   through avx2_two16 instead, 16 bytes at a time, and runs of ASCII
   blocks through a loop of their own.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
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
      __m256i const c0 = K256 (K_C0_8);
      uint64_t high = ((uint64_t) (uint32_t) _mm256_movemask_epi8 (a)
                       | (uint64_t) (uint32_t) _mm256_movemask_epi8 (b) << 32);
      uint64_t cont;
      if (high == 0)
        {
          avx2_widen64 (s + i, out + o, width, big);
          i += 64;
          o += 64 * (size_t) width;
          /* More ASCII, in a loop of its own that does no more than
             test and widen.  */
          while (i + 80 <= n)
            {
              __m256i x = _mm256_or_si256
                (_mm256_loadu_si256 ((__m256i const *) (s + i)),
                 _mm256_loadu_si256 ((__m256i const *) (s + i + 32)));
              if (!_mm256_testz_si256 (x, K256 (K_80_8)))
                break;
              avx2_widen64 (s + i, out + o, width, big);
              i += 64;
              o += 64 * (size_t) width;
            }
          continue;
        }
      cont = ((uint64_t) (uint32_t) _mm256_movemask_epi8
              (_mm256_cmpgt_epi8 (c0, a))
              | (uint64_t) (uint32_t) _mm256_movemask_epi8
              (_mm256_cmpgt_epi8 (c0, b)) << 32);
      /* A character of 3 or 4 bytes has two continuation bytes in a
         row, unless the block cuts it after its first or second byte;
         a 2-byte one never does.  */
      if ((cont & cont >> 1) == 0 && s[base + 62] < 0xE0
          && s[base + 63] < 0xE0)
        {
          /* Only ASCII and 2-byte characters, as in Latin or Cyrillic
             text: 4 windows at fixed places.  A window that starts on
             the continuation byte of a character from the window
             before drops it, and the last character may end at byte
             64.  */
          o += avx2_two16 (s + base, (unsigned int) cont & 0xFFFF,
                           out + o, width, big);
          o += avx2_two16 (s + base + 16, (unsigned int) (cont >> 16) & 0xFFFF,
                           out + o, width, big);
          o += avx2_two16 (s + base + 32, (unsigned int) (cont >> 32) & 0xFFFF,
                           out + o, width, big);
          o += avx2_two16 (s + base + 48, (unsigned int) (cont >> 48),
                           out + o, width, big);
          i = base + 64 + (s[base + 63] >= 0xC0);
          continue;
        }
      while (i <= base + 48)
        {
          unsigned int k = (unsigned int) (i - base);
          struct utf8_plan const *p;
          if (!(high >> k & 1))
            {
              /* Widen 16 bytes, and keep the ASCII ones.  */
              size_t asc = (size_t) __builtin_ctzll ((high >> k) | 1u << 16);
              avx2_widen_chunk (s + i, out + o, width, big);
              i += asc;
              o += asc * (size_t) width;
              k += (unsigned int) asc;
              if (asc == 16 || 51 < k)
                continue;
            }
          p = &utf8_plans[~(cont >> (k + 1)) & 0xFFF];
          if (p->consumed == 0)
            {
              o += tc_utf8_char (s, &i, out + o, width, big);
              continue;
            }
          o += avx2_gather (_mm_loadu_si128 ((__m128i const *) (s + i)), p,
                            out + o, width, big);
          i += p->consumed;
          /* After 4 characters of 3 bytes, as in CJK text, look for
             runs of 8 more: each lead byte followed by 2 continuation
             bytes, and the 25th byte not one (else the last character
             would have 4).  */
          if (p->consumed == 12 && p->kind == 1)
            for (k += 12; k <= 39 && ((cont >> k) & 0x1FFFFFF) == 0xDB6DB6;
                 k += 24)
              {
                o += avx2_three8 (s + i, out + o, width, big);
                i += 24;
              }
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

/* For 4 UTF-16 units in 32-bit lanes, each holding the unit's UTF-8
   bytes from the lowest up: the byte shuffle that packs them, and the
   bytes it keeps.  The index has bit K set when unit K is at least 0x80
   and bit 4 + K when it is at least 0x800.  */
static uint8_t utf16_pack[256][16] __attribute__ ((aligned (16)));
static uint8_t utf16_pack_len[256];

__attribute__ ((constructor)) static void
make_utf16_pack (void)
{
  unsigned int idx, k, b;
  for (idx = 0; idx < 256; idx++)
    {
      unsigned int o = 0;
      memset (utf16_pack[idx], 0x80, 16);
      for (k = 0; k < 4; k++)
        {
          unsigned int len = 1 + (idx >> k & 1) + (idx >> (4 + k) & 1);
          for (b = 0; b < len; b++)
            utf16_pack[idx][o++] = (uint8_t) (4 * k + b);
        }
      utf16_pack_len[idx] = (uint8_t) o;
    }
}

/* The UTF-8 bytes of the 8 units U (32-bit lanes, no surrogates), each
   in its lane from the lowest byte up, for units of 1, 2 or 3 bytes.  */
AVX2 static inline __m256i
avx2_utf8_lanes3 (__m256i u)
{
  return _mm256_or_si256
    (_mm256_or_si256 (_mm256_srli_epi32 (u, 12),
                      _mm256_and_si256 (_mm256_slli_epi32 (u, 2),
                                        K256 (K_3F00))),
     _mm256_or_si256 (_mm256_and_si256 (_mm256_slli_epi32 (u, 16),
                                        K256 (K_3F0000)),
                      K256 (K_8080E0)));
}

/* Convert the 8 units V (in the machine's byte order, no surrogates) to
   UTF-8 at OUT; ALL3 says that every unit is at least 0x800.  Stores 32
   bytes; returns the bytes that count.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_utf16_chunk (__m128i v, bool all3, uint8_t *out)
{
  __m256i u = _mm256_cvtepu16_epi32 (v), lanes, two, ge80, ge800;
  unsigned int b1, b2, idx;
  size_t o;
  if (all3)
    {
      /* Keep 3 bytes of each lane: 12 bytes a half.  */
      __m256i const pack3 = _mm256_setr_epi8
        (0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
         0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
      lanes = _mm256_shuffle_epi8 (avx2_utf8_lanes3 (u), pack3);
      _mm_storeu_si128 ((__m128i *) out, _mm256_castsi256_si128 (lanes));
      _mm_storeu_si128 ((__m128i *) (out + 12),
                        _mm256_extracti128_si256 (lanes, 1));
      return 24;
    }
  two = _mm256_or_si256
    (_mm256_or_si256 (_mm256_srli_epi32 (u, 6),
                      _mm256_and_si256 (_mm256_slli_epi32 (u, 8),
                                        K256 (K_3F00))),
     K256 (K_80C0));
  ge80 = _mm256_cmpgt_epi32 (u, K256 (K_7F));
  ge800 = _mm256_cmpgt_epi32 (u, K256 (K_7FF));
  lanes = _mm256_blendv_epi8 (_mm256_blendv_epi8 (u, two, ge80),
                              avx2_utf8_lanes3 (u), ge800);
  b1 = (unsigned int) _mm256_movemask_ps (_mm256_castsi256_ps (ge80));
  b2 = (unsigned int) _mm256_movemask_ps (_mm256_castsi256_ps (ge800));
  idx = (b1 & 0xF) | (b2 & 0xF) << 4;
  _mm_storeu_si128 ((__m128i *) out,
                    _mm_shuffle_epi8 (_mm256_castsi256_si128 (lanes),
                                      _mm_load_si128 ((__m128i const *)
                                                      utf16_pack[idx])));
  o = utf16_pack_len[idx];
  idx = b1 >> 4 | (b2 >> 4) << 4;
  _mm_storeu_si128 ((__m128i *) (out + o),
                    _mm_shuffle_epi8 (_mm256_extracti128_si256 (lanes, 1),
                                      _mm_load_si128 ((__m128i const *)
                                                      utf16_pack[idx])));
  return o + utf16_pack_len[idx];
}

/* Convert up to N UTF-16 units at S to UTF-8, 16 units at a time: an
   ASCII chunk is packed; otherwise each half of 8 units, if it has no
   surrogate, has the UTF-8 bytes of each unit computed in a 32-bit lane
   and packed by one constant shuffle (all units of 3 bytes) or by a
   shuffle from utf16_pack for each 4 units.  A half with a surrogate
   goes through the scalar code up to and including its first surrogate.
   Stores may write up to 28 bytes from where a half starts, never past 3
   bytes a unit: the vector loop leaves at least 4 units after its 16.  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_utf16_to_utf8_bo (uint8_t const *s, size_t n, uint8_t *out,
                       size_t *produced, uint64_t *newlines, bool big)
{
  __m256i const swap16 = _mm256_setr_epi8
    (1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
     1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  size_t i = 0, o = 0, w, nl = 0;

  while (i + 20 <= n)
    {
      __m256i x = _mm256_loadu_si256 ((__m256i const *) (s + 2 * i));
      __m256i top;
      unsigned int sur, low, lf;
      size_t k;
      if (big)
        x = _mm256_shuffle_epi8 (x, swap16);
      /* Two bits for each unit 0x000A.  */
      lf = (unsigned int) _mm256_movemask_epi8
        (_mm256_cmpeq_epi16 (x, K256 (K_0A_16)));
      if (_mm256_testz_si256 (x, K256 (K_FF80_16)))
        {
          nl += (size_t) __builtin_popcount (lf) / 2;
          _mm_storeu_si128 ((__m128i *) (out + o),
                            _mm_packus_epi16
                            (_mm256_castsi256_si128 (x),
                             _mm256_extracti128_si256 (x, 1)));
          i += 16;
          o += 16;
          continue;
        }
      top = _mm256_and_si256 (x, K256 (K_F800_16));
      sur = (unsigned int) _mm256_movemask_epi8
        (_mm256_cmpeq_epi16 (top, K256 (K_D800_16)));
      low = (unsigned int) _mm256_movemask_epi8
        (_mm256_cmpeq_epi16 (top, _mm256_setzero_si256 ()));
      if (sur == 0)
        {
          o += avx2_utf16_chunk (_mm256_castsi256_si128 (x),
                                 (low & 0xFFFF) == 0, out + o);
          o += avx2_utf16_chunk (_mm256_extracti128_si256 (x, 1),
                                 (low >> 16) == 0, out + o);
          nl += (size_t) __builtin_popcount (lf) / 2;
          i += 16;
          continue;
        }
      k = (size_t) __builtin_ctz (sur) / 2;
      if (k >= 8)
        {
          o += avx2_utf16_chunk (_mm256_castsi256_si128 (x),
                                 (low & 0xFFFF) == 0, out + o);
          nl += (size_t) __builtin_popcount (lf & 0xFFFF) / 2;
          i += 8;
          continue;
        }
      for (k += i + 1; i < k; o += w)
        {
          w = tc_utf16_char (s, &i, n, out + o, big);
          if (w == 0)
            goto done;
          nl += w == 1 && out[o] == '\n';
        }
    }
  while (i < n)
    {
      w = tc_utf16_char (s, &i, n, out + o, big);
      if (w == 0)
        break;
      nl += w == 1 && out[o] == '\n';
      o += w;
    }
 done:
  *produced = o;
  *newlines = nl;
  return i;
}

AVX2 static size_t
avx2_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                    size_t *produced, uint64_t *newlines, bool big)
{
  return (big ? avx2_utf16_to_utf8_bo (s, n, out, produced, newlines, true)
          : avx2_utf16_to_utf8_bo (s, n, out, produced, newlines, false));
}

AVX2 static inline size_t
avx2_copy_chunk (uint8_t const *s, uint8_t *out, size_t *newlines)
{
  __m256i v = _mm256_loadu_si256 ((__m256i const *) s);
  uint64_t m = (uint32_t) _mm256_movemask_epi8 (v);
  unsigned int a = (unsigned int) __builtin_ctzll (m | 1ull << 32);
  uint64_t nl = (uint32_t) _mm256_movemask_epi8
    (_mm256_cmpeq_epi8 (v, K256 (K_LF8)));
  _mm256_storeu_si256 ((__m256i *) out, v);
  *newlines += (size_t) __builtin_popcountll (nl & ((1ull << a) - 1));
  return a;
}

/* Single-byte encoding to UTF-8, 32 bytes at a time: the block is
   stored as it is, and then for each byte from 0x80 up, in order, its
   UTF-8 form is written and the rest of the block stored again after it.
   The vector loop leaves 32 bytes after its block, so that those loads
   stay in S, and the stores stay within 3 bytes a byte of input.  */
AVX2 static size_t
avx2_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                 uint8_t const (*table)[4], size_t *produced,
                 uint64_t *newlines)
{
  size_t i = 0, o = 0, nl = 0, p, tail_produced;
  uint64_t tail_newlines;

  while (i + 64 <= n)
    {
      __m256i v = _mm256_loadu_si256 ((__m256i const *) (s + i));
      uint32_t m = (uint32_t) _mm256_movemask_epi8 (v);
      uint32_t nlm = (uint32_t) _mm256_movemask_epi8
        (_mm256_cmpeq_epi8 (v, K256 (K_LF8)));
      size_t x = 0;
      _mm256_storeu_si256 ((__m256i *) (out + o), v);
      for (; m; m &= m - 1)
        {
          uint8_t const *e;
          p = (size_t) __builtin_ctz (m);
          e = table[s[i + p] - 0x80];
          if (e[3] == 0)
            {
              nl += (size_t) __builtin_popcount (nlm & ((1u << p) - 1));
              *produced = o + p + x;
              *newlines = nl;
              return i + p;
            }
          memcpy (out + o + p + x, e, 4);
          x += e[3] - 1u;
          _mm256_storeu_si256 ((__m256i *) (out + o + p + x + 1),
                               _mm256_loadu_si256 ((__m256i const *)
                                                   (s + i + p + 1)));
        }
      nl += (size_t) __builtin_popcount (nlm);
      i += 32;
      o += 32 + x;
    }
  p = tc_sb_to_utf8 (s + i, n - i, out + o, table, &tail_produced,
                     &tail_newlines, 32, avx2_copy_chunk);
  *produced = o + tail_produced;
  *newlines = nl + tail_newlines;
  return i + p;
}

/* UTF-8 to a single-byte encoding, 32 bytes at a time in the same way:
   each 2-byte character narrows to one byte, after which the rest of the
   block is stored again.  A character may end one byte past the block.
   The vector loop leaves 34 bytes after its block.  */
AVX2 static size_t
avx2_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
                 int16_t const *table, size_t *produced, uint64_t *newlines)
{
  size_t i = 0, o = 0, nl = 0, p, tail_produced;
  uint64_t tail_newlines;

  while (i + 66 <= n)
    {
      __m256i v = _mm256_loadu_si256 ((__m256i const *) (s + i));
      uint32_t m = (uint32_t) _mm256_movemask_epi8 (v);
      uint32_t nlm = (uint32_t) _mm256_movemask_epi8
        (_mm256_cmpeq_epi8 (v, K256 (K_LF8)));
      size_t d = 0, end = 32;
      _mm256_storeu_si256 ((__m256i *) (out + o), v);
      while (m)
        {
          int c = -1;
          unsigned int b, b1;
          p = (size_t) __builtin_ctz (m);
          b = s[i + p];
          b1 = s[i + p + 1];
          /* A lead C2..DF and a continuation: code point
             (B - 0xC0) << 6 | (B1 - 0x80).  */
          if (b - 0xC2 < 0x1E && (b1 & 0xC0) == 0x80)
            c = table[(b << 6) + b1 - 0x3080];
          if (c < 0)
            {
              nl += (size_t) __builtin_popcount (nlm & ((1u << p) - 1));
              *produced = o + p - d;
              *newlines = nl;
              return i + p;
            }
          out[o + p - d] = (uint8_t) c;
          d++;
          _mm256_storeu_si256 ((__m256i *) (out + o + p - d + 2),
                               _mm256_loadu_si256 ((__m256i const *)
                                                   (s + i + p + 2)));
          if (p == 31)
            end = 33;
          m &= ~(3u << p);
        }
      nl += (size_t) __builtin_popcount (nlm);
      i += end;
      o += end - d;
    }
  p = tc_utf8_to_sb (s + i, n - i, out + o, table, &tail_produced,
                     &tail_newlines, 32, avx2_copy_chunk);
  *produced = o + tail_produced;
  *newlines = nl + tail_newlines;
  return i + p;
}

struct kernels const kernels_avx2 = {
  "avx2", avx2_ascii_len, avx2_utf8_valid_len, avx2_count_newlines,
  avx2_utf8_valid_copy,
  avx2_utf8_to_utf16, avx2_utf8_to_utf32, NULL, avx2_utf16_to_utf8,
  avx2_sb_to_utf8, avx2_utf8_to_sb
};

/* ---- AVX-512 (F, BW, VL) ---- */

#define AVX512                                                             \
  __attribute__ ((target ("avx512f,avx512bw,avx512vl,avx2,popcnt")))

/* Compute the values of the characters that start in the 16 bytes at S
   (marked in STARTS; LEAD2 and LEAD3 mark 2- and 3-byte lead bytes, and
   there are no 4-byte ones), from each byte and the two after it, keep
   those with one compress instruction and store them at OUT.  Returns
   the output bytes written.  */
AVX512 static inline __attribute__ ((always_inline)) size_t
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

/* For 8 code points in 32-bit lanes, each made a UTF-16 unit in its low
   half or a pair of units: the word permutation that packs the units, by
   the 8-bit mask of the lanes that hold a pair.  */
static uint16_t utf16_pairs_perm[256][16] __attribute__ ((aligned (32)));

__attribute__ ((constructor)) static void
make_utf16_pairs_perm (void)
{
  unsigned int mask, k;
  for (mask = 0; mask < 256; mask++)
    {
      unsigned int o = 0;
      memset (utf16_pairs_perm[mask], 0, sizeof utf16_pairs_perm[mask]);
      for (k = 0; k < 8; k++)
        {
          utf16_pairs_perm[mask][o++] = (uint16_t) (2 * k);
          if (mask >> k & 1)
            utf16_pairs_perm[mask][o++] = (uint16_t) (2 * k + 1);
        }
    }
}

/* avx512_window for a window with 4-byte characters (LEAD4 marks their
   lead bytes; a character may end up to three bytes past the window).
   For UTF-16, a character of 4 bytes becomes a pair of units in its
   lane, and each 8 lanes are packed by a permutation from
   utf16_pairs_perm.  Stores up to 64 bytes (UTF-32), or 32 bytes past
   the units (UTF-16).  */
AVX512 static inline __attribute__ ((always_inline)) size_t
avx512_window4 (uint8_t const *s, __mmask16 starts, __mmask16 lead2,
                __mmask16 lead3, __mmask16 lead4, uint8_t *out, int width,
                bool big)
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
  __m512i b3 = _mm512_cvtepu8_epi32 (_mm_loadu_si128 ((__m128i const *)
                                                      (s + 3)));
  __m512i c1 = _mm512_and_si512 (b1, m3f);
  __m512i c2 = _mm512_and_si512 (b2, m3f);
  __m512i two = _mm512_or_si512
    (_mm512_slli_epi32 (_mm512_and_si512 (b0, _mm512_set1_epi32 (0x1F)), 6),
     c1);
  __m512i three = _mm512_or_si512
    (_mm512_or_si512
     (_mm512_slli_epi32 (_mm512_and_si512 (b0, _mm512_set1_epi32 (0x0F)), 12),
      _mm512_slli_epi32 (c1, 6)), c2);
  __m512i four = _mm512_or_si512
    (_mm512_or_si512
     (_mm512_slli_epi32 (_mm512_and_si512 (b0, _mm512_set1_epi32 (0x07)), 18),
      _mm512_slli_epi32 (c1, 12)),
     _mm512_or_si512 (_mm512_slli_epi32 (c2, 6),
                      _mm512_and_si512 (b3, m3f)));
  __m512i val = _mm512_mask_mov_epi32 (b0, lead2, two);
  unsigned int count = (unsigned int) __builtin_popcount (starts);
  __mmask16 is4;
  __m512i c, pair;
  size_t o = 0;
  unsigned int q;

  val = _mm512_mask_mov_epi32 (val, lead3, three);
  val = _mm512_mask_mov_epi32 (val, lead4, four);
  val = _mm512_maskz_compress_epi32 (starts, val);
  if (width == 4)
    {
      if (big)
        val = _mm512_shuffle_epi8 (val, swap32);
      _mm512_storeu_si512 (out, val);
      return count * 4;
    }
  is4 = _mm512_cmpgt_epu32_mask (val, _mm512_set1_epi32 (0xFFFF));
  c = _mm512_sub_epi32 (val, _mm512_set1_epi32 (0x10000));
  pair = _mm512_or_si512
    (_mm512_add_epi32 (_mm512_srli_epi32 (c, 10),
                       _mm512_set1_epi32 (0xD800)),
     _mm512_slli_epi32 (_mm512_add_epi32
                        (_mm512_and_si512 (c, _mm512_set1_epi32 (0x3FF)),
                         _mm512_set1_epi32 (0xDC00)), 16));
  val = _mm512_mask_mov_epi32 (val, is4, pair);
  /* Each half of 8 lanes, packed by one word permutation; the lanes past
     COUNT are 0 and add nothing.  */
  for (q = 0; q < 2; q++)
    {
      unsigned int m = (unsigned int) (is4 >> (8 * q)) & 0xFF;
      unsigned int lanes = (count > 8 * q ? count - 8 * q : 0);
      __m256i x = _mm256_permutexvar_epi16
        (_mm256_load_si256 ((__m256i const *) utf16_pairs_perm[m]),
         q == 0 ? _mm512_castsi512_si256 (val)
         : _mm512_extracti64x4_epi64 (val, 1));
      if (big)
        x = _mm256_shuffle_epi8 (x, swap16);
      _mm256_storeu_si256 ((__m256i *) (out + o), x);
      o += 2 * ((lanes < 8 ? lanes : 8)
                + (unsigned int) __builtin_popcount (m));
    }
  return o;
}

/* Convert well-formed UTF-8 S[0..N) to UTF-16 (WIDTH 2) or UTF-32 (WIDTH
   4), 64 bytes at a time without tables: the block is classified into bit
   masks (character starts, 2-, 3- and 4-byte leads), and each 16-byte
   window converts the characters that start in it, independently of the
   others (a character may end up to three bytes past its window); a
   window with a 4-byte character goes through avx512_window4.  The tail
   goes one character at a time.  BLOCK converts a block that is not
   ASCII (it is avx512_block, or vbmi2_block).  */
AVX512 static inline __attribute__ ((always_inline)) size_t
avx512_block (uint8_t const *s, __m512i v, uint64_t high, uint8_t *out,
              int width, bool big)
{
  uint64_t starts, lead2, lead3, lead4, ge_c0;
  size_t o = 0;
  int k;

  lead4 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xF0));
  ge_c0 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xC0));
  lead3 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xE0))
          & ~lead4;
  lead2 = ge_c0 & ~lead3 & ~lead4;
  starts = ~high | ge_c0;
  for (k = 0; k < 4; k++)
    {
      uint8_t const *ws = s + 16 * k;
      __mmask16 w = (__mmask16) (starts >> (16 * k));
      __mmask16 w2 = (__mmask16) (lead2 >> (16 * k));
      __mmask16 w3 = (__mmask16) (lead3 >> (16 * k));
      __mmask16 w4 = (__mmask16) (lead4 >> (16 * k));
      if (w4)
        o += avx512_window4 (ws, w, w2, w3, w4, out + o, width, big);
      else if (w)
        o += avx512_window (ws, w, w2, w3, out + o, width, big);
    }
  return o;
}

/* Widen the 64 ASCII bytes V to UTF-16 (WIDTH 2) or UTF-32 (WIDTH 4)
   at OUT.  */
AVX512 static inline __attribute__ ((always_inline)) void
avx512_widen64 (__m512i v, uint8_t *out, int width, bool big)
{
  int k;
  if (width == 2)
    for (k = 0; k < 2; k++)
      {
        __m512i w = _mm512_cvtepu8_epi16 (k ? _mm512_extracti64x4_epi64 (v, 1)
                                          : _mm512_castsi512_si256 (v));
        if (big)
          w = _mm512_slli_epi16 (w, 8);
        _mm512_storeu_si512 (out + 64 * k, w);
      }
  else
    for (k = 0; k < 4; k++)
      {
        __m512i w = _mm512_cvtepu8_epi32 (k == 0 ? _mm512_castsi512_si128 (v)
                                          : k == 1
                                          ? _mm512_extracti32x4_epi32 (v, 1)
                                          : k == 2
                                          ? _mm512_extracti32x4_epi32 (v, 2)
                                          : _mm512_extracti32x4_epi32 (v, 3));
        if (big)
          w = _mm512_slli_epi32 (w, 24);
        _mm512_storeu_si512 (out + 64 * k, w);
      }
}

/* The loop of avx512_utf8_to_wide, defined once for each block
   converter: PREFIX_utf8_to_wide, compiled for PREFIX_TARGET, converts
   the blocks that are not ASCII with BLOCK; PREFIX_utf8_to_utf16 and
   _utf32 are the kernels made from it.  */
#define WIDE_LOOP(PREFIX, BLOCK)                                           \
  WIDE_LOOP_BODY (PREFIX##_TARGET, PREFIX##_utf8_to_wide, BLOCK)           \
  PREFIX##_TARGET static size_t                                            \
  PREFIX##_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out,        \
                          bool big)                                        \
  {                                                                        \
    return (big ? PREFIX##_utf8_to_wide (s, n, out, 2, true)               \
            : PREFIX##_utf8_to_wide (s, n, out, 2, false));                \
  }                                                                        \
  PREFIX##_TARGET static size_t                                            \
  PREFIX##_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out,        \
                          bool big)                                        \
  {                                                                        \
    return (big ? PREFIX##_utf8_to_wide (s, n, out, 4, true)               \
            : PREFIX##_utf8_to_wide (s, n, out, 4, false));                \
  }

#define WIDE_LOOP_BODY(ATTR, NAME, BLOCK)                                  \
  ATTR static inline __attribute__ ((always_inline)) size_t                \
  NAME (uint8_t const *s, size_t n, uint8_t *out, int width, bool big)     \
  {                                                                        \
    size_t i = 0, o = 0;                                                   \
    /* 32 bytes to spare: see vbmi2_block4.  */                            \
    while (i + 64 + 32 <= n)                                               \
      {                                                                    \
        __m512i v = _mm512_loadu_si512 (s + i);                            \
        uint64_t high = _mm512_movepi8_mask (v);                           \
        if (high == 0)                                                     \
          {                                                                \
            avx512_widen64 (v, out + o, width, big);                       \
            i += 64;                                                       \
            o += 64 * (size_t) width;                                      \
            continue;                                                      \
          }                                                                \
        o += BLOCK (s + i, v, high, out + o, width, big);                  \
        /* The last character may reach into the next block.  */          \
        i += 64;                                                           \
        while ((s[i] & 0xC0) == 0x80)                                      \
          i++;                                                             \
      }                                                                    \
    while (i < n)                                                          \
      o += tc_utf8_char (s, &i, out + o, width, big);                      \
    return o;                                                              \
  }

#define avx512_TARGET AVX512
WIDE_LOOP (avx512, avx512_block)

/* The error classes of avx2_utf8_errors for 64 bytes: the same tables
   in each 128-bit lane, and the bytes before each lane brought in from
   the lane before (the last lane of PREV for the first).  */
AVX512 static inline __attribute__ ((always_inline)) __m512i
avx512_utf8_errors (__m512i in, __m512i prev)
{
  __m512i const nib = _mm512_set1_epi8 (0x0F);
  __m256i t1h, t1l, t2h;
  __m512i byte_1_high, byte_1_low, byte_2_high;
  avx2_utf8_tables (&t1h, &t1l, &t2h);
  byte_1_high = _mm512_broadcast_i32x4 (_mm256_castsi256_si128 (t1h));
  byte_1_low = _mm512_broadcast_i32x4 (_mm256_castsi256_si128 (t1l));
  byte_2_high = _mm512_broadcast_i32x4 (_mm256_castsi256_si128 (t2h));
  /* Lane k of SHIFTED is lane k - 1 of IN (lane 3 of PREV for k = 0).  */
  __m512i shifted = _mm512_alignr_epi64 (in, prev, 6);
  __m512i prev1 = _mm512_alignr_epi8 (in, shifted, 15);
  __m512i prev2 = _mm512_alignr_epi8 (in, shifted, 14);
  __m512i prev3 = _mm512_alignr_epi8 (in, shifted, 13);
  __m512i b1h = _mm512_shuffle_epi8
    (byte_1_high, _mm512_and_si512 (_mm512_srli_epi16 (prev1, 4), nib));
  __m512i b1l = _mm512_shuffle_epi8 (byte_1_low,
                                     _mm512_and_si512 (prev1, nib));
  __m512i b2h = _mm512_shuffle_epi8
    (byte_2_high, _mm512_and_si512 (_mm512_srli_epi16 (in, 4), nib));
  __m512i special = _mm512_ternarylogic_epi32 (b1h, b1l, b2h, 0x80);
  __m512i third = _mm512_subs_epu8 (prev2, _mm512_set1_epi8 (0x60));
  __m512i fourth = _mm512_subs_epu8 (prev3, _mm512_set1_epi8 (0x70));
  /* (third | fourth) & 0x80, then xor with SPECIAL.  */
  __m512i must23 = _mm512_and_si512 (_mm512_or_si512 (third, fourth),
                                     _mm512_set1_epi8 ((char) 0x80));
  return _mm512_xor_si512 (must23, special);
}

/* One block of the AVX-512 validators: IN, the block after *PREV.
   Returns 0 when it is well-formed and does not leave the block before
   it incomplete, and then makes IN *PREV and sets *PENDING when IN ends
   inside a character; otherwise the mask of the bytes that show a
   problem (for an ASCII block after an incomplete one, its first).  */
AVX512 static inline __attribute__ ((always_inline)) __mmask64
avx512_check_block (__m512i in, __m512i *prev, __mmask64 *pending)
{
  /* A lead byte in the last three places still wants continuations.  */
  __m512i const max_tail = _mm512_set_epi64
    ((long long) 0xBFDFEFFFFFFFFFFFull, -1, -1, -1, -1, -1, -1, -1);
  if (_mm512_movepi8_mask (in) == 0)
    {
      if (*pending)
        return 1;
    }
  else
    {
      __m512i err = avx512_utf8_errors (in, *prev);
      __m512i over = _mm512_subs_epu8 (in, max_tail);
      __mmask64 flagged = _mm512_test_epi8_mask (err, err);
      if (flagged)
        return flagged;
      *pending = _mm512_test_epi8_mask (over, over);
    }
  *prev = in;
  return 0;
}

/* avx2_utf8_check with 64-byte blocks, checked by avx512_check_block.
   The block with a problem and the tail go to the portable validator
   from a character boundary.  */
AVX512 static inline __attribute__ ((always_inline)) size_t
avx512_utf8_check (uint8_t const *s, size_t n, uint8_t *out,
                   uint64_t *newlines, bool copy)
{
  size_t i = 0, nl = 0, v;
  __m512i prev = _mm512_setzero_si512 ();
  __m512i const lf = _mm512_set1_epi8 ('\n');
  __mmask64 pending = 0;

  for (; i + 64 <= n; i += 64)
    {
      __m512i in = _mm512_loadu_si512 (s + i);
      __mmask64 flagged = avx512_check_block (in, &prev, &pending);
      if (flagged)
        {
          if (copy)
            _mm512_storeu_si512 (out + i, in);
          i = utf8_check_flagged (s, i, (size_t) __builtin_ctzll (flagged),
                                  _mm512_cmpeq_epi8_mask (in, lf), &nl, &v);
          *newlines = nl;
          return i + v;
        }
      nl += (size_t) __builtin_popcountll (_mm512_cmpeq_epi8_mask (in, lf));
      if (copy)
        _mm512_storeu_si512 (out + i, in);
    }
  return utf8_check_tail (s, n, i, out, copy, nl, newlines);
}

AVX512 static size_t
avx512_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,
                        uint64_t *newlines)
{
  return (out ? avx512_utf8_check (s, n, out, newlines, true)
          : avx512_utf8_check (s, n, out, newlines, false));
}

AVX512 static size_t
avx512_utf8_valid_len (uint8_t const *s, size_t n)
{
  uint64_t nl;
  return avx512_utf8_check (s, n, NULL, &nl, false);
}

struct kernels const kernels_avx512 = {
  "avx512", avx2_ascii_len, avx512_utf8_valid_len, avx2_count_newlines,
  avx512_utf8_valid_copy,
  avx512_utf8_to_utf16, avx512_utf8_to_utf32, NULL, avx2_utf16_to_utf8,
  avx2_sb_to_utf8, avx2_utf8_to_sb
};

/* ---- AVX-512 VBMI and VBMI2: byte permutations and byte compress ---- */

#define VBMI2                                                              \
  __attribute__ ((target ("avx512f,avx512bw,avx512vl,avx512vbmi,"          \
                          "avx512vbmi2,avx2,popcnt,bmi2")))

/* Single-byte encoding to UTF-8, 16 input bytes in a 64-byte vector of
   four bytes each: byte k of a lane is byte k of the input byte's UTF-8
   form, found by a 128-entry byte permutation (ASCII is itself), and the
   lanes' bytes past that form's length are dropped by one compress.
   TABLE is tc_sb_to_utf8's, made into four 128-byte tables (bytes 0, 1
   and 2 of the form, and its length) once per call.  Blocks of 64 ASCII
   bytes are copied.  */
VBMI2 static size_t
vbmi2_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                  uint8_t const (*table)[4], size_t *produced,
                  uint64_t *newlines)
{
  uint8_t t[4][128] __attribute__ ((aligned (64)));
  __m512i t0a, t0b, t1a, t1b, t2a, t2b, lna, lnb;
  __m512i const lf = _mm512_set1_epi8 ('\n');
  /* Slot k of lane j: 0, 1, 2, 3; the lane's input byte: j.  */
  __m512i const slot = _mm512_set4_epi32 (0x03020100, 0x03020100,
                                          0x03020100, 0x03020100);
  __m512i const spread = _mm512_set_epi32
    (0x0F0F0F0F, 0x0E0E0E0E, 0x0D0D0D0D, 0x0C0C0C0C,
     0x0B0B0B0B, 0x0A0A0A0A, 0x09090909, 0x08080808,
     0x07070707, 0x06060606, 0x05050505, 0x04040404,
     0x03030303, 0x02020202, 0x01010101, 0x00000000);
  size_t i = 0, o = 0, nl = 0, b, tail_produced, p;
  uint64_t tail_newlines;

  for (b = 0; b < 128; b++)
    {
      t[0][b] = table[b][0];
      t[1][b] = table[b][1];
      t[2][b] = table[b][2];
      t[3][b] = table[b][3];
    }
  t0a = _mm512_load_si512 (t[0]);
  t0b = _mm512_load_si512 (t[0] + 64);
  t1a = _mm512_load_si512 (t[1]);
  t1b = _mm512_load_si512 (t[1] + 64);
  t2a = _mm512_load_si512 (t[2]);
  t2b = _mm512_load_si512 (t[2] + 64);
  lna = _mm512_load_si512 (t[3]);
  lnb = _mm512_load_si512 (t[3] + 64);

  while (i + 64 <= n)
    {
      __m512i v = _mm512_loadu_si512 (s + i);
      uint64_t high = _mm512_movepi8_mask (v);
      uint64_t nlm = _mm512_cmpeq_epi8_mask (v, lf);
      unsigned int q;

      if (high == 0)
        {
          _mm512_storeu_si512 (out + o, v);
          nl += (size_t) __builtin_popcountll (nlm);
          i += 64;
          o += 64;
          continue;
        }
      {
        /* Each lane's length: 1 for ASCII, from the table otherwise; a
           byte that is not a character (length 0) ends the block.  */
        __m512i lenv = _mm512_mask_mov_epi8
          (_mm512_set1_epi8 (1), high,
           _mm512_permutex2var_epi8 (lna, v, lnb));
        uint64_t bad = _mm512_testn_epi8_mask (lenv, lenv);
        size_t stop = bad ? (size_t) __builtin_ctzll (bad) : 64;
        uint64_t limit = bad ? (1ull << stop) - 1 : ~0ull;
        for (q = 0; q < 4; q++)
          {
            __m512i sq = _mm512_add_epi8 (spread,
                                          _mm512_set1_epi8 ((char) (16 * q)));
            __m512i x = _mm512_permutexvar_epi8 (sq, v);
            __m512i r;
            __mmask64 keep;
            uint64_t lanes = _pdep_u64 (limit >> (16 * q),
                                        0x1111111111111111ull);
            /* The permutations read the low 7 bits of X.  */
            r = _mm512_mask_mov_epi8
              (x, _mm512_movepi8_mask (x),
               _mm512_permutex2var_epi8 (t0a, x, t0b));
            r = _mm512_mask_mov_epi8
              (r, 0x2222222222222222ull,
               _mm512_permutex2var_epi8 (t1a, x, t1b));
            r = _mm512_mask_mov_epi8
              (r, 0x4444444444444444ull,
               _mm512_permutex2var_epi8 (t2a, x, t2b));
            keep = _mm512_cmplt_epu8_mask
              (slot, _mm512_permutexvar_epi8 (sq, lenv));
            keep &= lanes * 0xF;
            _mm512_storeu_si512 (out + o,
                                 _mm512_maskz_compress_epi8 (keep, r));
            o += (size_t) __builtin_popcountll (keep);
          }
        if (bad)
          {
            nl += (size_t) __builtin_popcountll (nlm & limit);
            *produced = o;
            *newlines = nl;
            return i + stop;
          }
      }
      nl += (size_t) __builtin_popcountll (nlm);
      i += 64;
    }
  p = tc_sb_to_utf8 (s + i, n - i, out + o, table, &tail_produced,
                     &tail_newlines, 32, avx2_copy_chunk);
  *produced = o + tail_produced;
  *newlines = nl + tail_newlines;
  return i + p;
}

/* UTF-8 to a single-byte encoding, 64 bytes at a time, for blocks of
   ASCII and characters U+0080..U+00FF (leads C2 and C3): each such
   character's code point less 0x80 indexes a 128-entry byte permutation
   made from TABLE once per call, and one compress drops the lead bytes.
   A block with anything else (or a character the encoding lacks) goes
   to the AVX2 kernel for up to 64 bytes, which stops where the state
   machine must take over.  */
VBMI2 static size_t
vbmi2_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
                  int16_t const *table, size_t *produced, uint64_t *newlines)
{
  uint8_t t[128] __attribute__ ((aligned (64)));
  uint8_t ok[128] __attribute__ ((aligned (64)));
  __m512i ta, tb, oka, okb;
  __m512i const lf = _mm512_set1_epi8 ('\n');
  /* Byte j of the result is byte j - 1 of the input.  */
  __m512i const back1 = _mm512_set_epi32
    (0x3E3D3C3B, 0x3A393837, 0x36353433, 0x3231302F,
     0x2E2D2C2B, 0x2A292827, 0x26252423, 0x2221201F,
     0x1E1D1C1B, 0x1A191817, 0x16151413, 0x1211100F,
     0x0E0D0C0B, 0x0A090807, 0x06050403, 0x0201003F);
  size_t i = 0, o = 0, nl = 0, c;

  for (c = 0; c < 128; c++)
    {
      int16_t x = table[0x80 + c];
      t[c] = (uint8_t) (x < 0 ? 0 : x);
      ok[c] = x < 0 ? 0 : 0xFF;
    }
  ta = _mm512_load_si512 (t);
  tb = _mm512_load_si512 (t + 64);
  oka = _mm512_load_si512 (ok);
  okb = _mm512_load_si512 (ok + 64);

  while (i + 65 <= n)
    {
      __m512i v = _mm512_loadu_si512 (s + i);
      uint64_t high = _mm512_movepi8_mask (v);
      uint64_t lead, cont, region, keep;
      size_t len;

      if (high == 0)
        {
          _mm512_storeu_si512 (out + o, v);
          nl += (size_t) __builtin_popcountll (_mm512_cmpeq_epi8_mask (v,
                                                                       lf));
          i += 64;
          o += 64;
          continue;
        }
      lead = _mm512_cmpeq_epi8_mask
        (_mm512_and_si512 (v, _mm512_set1_epi8 ((char) 0xFE)),
         _mm512_set1_epi8 ((char) 0xC2));
      cont = _mm512_cmplt_epi8_mask (v, _mm512_set1_epi8 ((char) 0xC0));
      /* A character that starts in the last place ends in the next
         block: leave it to that one.  */
      region = lead >> 63 ? ~0ull >> 1 : ~0ull;
      len = lead >> 63 ? 63 : 64;
      lead &= region;
      high &= region;
      cont &= region;
      if (cont != lead << 1 || (lead | cont) != high)
        {
          /* Something else: the AVX2 kernel, up to where it stops.  */
          size_t w = n - i < 64 ? n - i : 64, pr;
          uint64_t wnl;
          size_t u = avx2_utf8_to_sb (s + i, w, out + o, table, &pr, &wnl);
          i += u;
          o += pr;
          nl += wnl;
          if (u == 0)
            break;
          continue;
        }
      {
        __m512i prev = _mm512_permutexvar_epi8 (back1, v);
        __mmask64 missing;
        __m512i idx = _mm512_or_si512
          (_mm512_and_si512 (_mm512_slli_epi16 (prev, 6),
                             _mm512_set1_epi8 (0x40)),
           _mm512_and_si512 (v, _mm512_set1_epi8 (0x3F)));
        missing = cont & ~_mm512_movepi8_mask
          (_mm512_permutex2var_epi8 (oka, idx, okb));
        if (missing)
          {
            /* Up to the character the encoding lacks.  */
            unsigned int at = (unsigned int) __builtin_ctzll (missing) - 1;
            region = (1ull << at) - 1;
            len = at;
            if (at == 0)
              break;
          }
        nl += (size_t) __builtin_popcountll
          (_mm512_cmpeq_epi8_mask (v, lf) & region);
        v = _mm512_mask_mov_epi8 (v, cont,
                                  _mm512_permutex2var_epi8 (ta, idx, tb));
        keep = ~lead & region;
        _mm512_storeu_si512 (out + o, _mm512_maskz_compress_epi8 (keep, v));
        o += (size_t) __builtin_popcountll (keep);
        i += len;
        if (missing)
          break;
      }
    }
  if (i + 65 > n)
    {
      size_t tail_produced, p;
      uint64_t tail_newlines;
      p = avx2_utf8_to_sb (s + i, n - i, out + o, table, &tail_produced,
                           &tail_newlines);
      i += p;
      o += tail_produced;
      nl += tail_newlines;
    }
  *produced = o;
  *newlines = nl;
  return i;
}

/* Lane G (0..3) of V, as a constant for the intrinsics.  */
VBMI2 static inline __attribute__ ((always_inline)) __m128i
vbmi2_lane (__m512i v, unsigned int g)
{
  switch (g)
    {
    case 1: return _mm512_extracti32x4_epi32 (v, 1);
    case 2: return _mm512_extracti32x4_epi32 (v, 2);
    case 3: return _mm512_extracti32x4_epi32 (v, 3);
    default: return _mm512_castsi512_si128 (v);
    }
}

/* vbmi2_block for a block with 4-byte characters: the bytes of each
   character are gathered by four compresses (a character may end three
   bytes past the block) and combined in 32-bit lanes, 16 characters at
   a time.  For UTF-16 a 4-byte character becomes a pair of units in its
   lane, and one compress of 16-bit words keeps the units.  Each 16
   characters store 64 bytes: for UTF-16, those before the last 16 have
   made at most 2 bytes each and 2 more for each 4-byte character, at most
   128 bytes in all, so the block stores at most 192 bytes, which the
   room of 2 bytes for each of 96 bytes of input holds.  */
VBMI2 static inline __attribute__ ((always_inline)) size_t
vbmi2_block4 (uint8_t const *s, __m512i v, uint64_t high, uint8_t *out,
              int width, bool big)
{
  __m512i const swap16 = _mm512_set4_epi32 (0x0E0F0C0D, 0x0A0B0809,
                                            0x06070405, 0x02030001);
  __m512i const swap32 = _mm512_set4_epi32 (0x0C0D0E0F, 0x08090A0B,
                                            0x04050607, 0x00010203);
  __m512i const m3f = _mm512_set1_epi32 (0x3F);
  uint64_t starts = ~high | _mm512_cmpge_epu8_mask
    (v, _mm512_set1_epi8 ((char) 0xC0));
  unsigned int count = (unsigned int) __builtin_popcountll (starts), g;
  __m512i b0 = _mm512_maskz_compress_epi8 (starts, v);
  __m512i b1 = _mm512_maskz_compress_epi8 (starts, _mm512_loadu_si512 (s + 1));
  __m512i b2 = _mm512_maskz_compress_epi8 (starts, _mm512_loadu_si512 (s + 2));
  __m512i b3 = _mm512_maskz_compress_epi8 (starts, _mm512_loadu_si512 (s + 3));
  size_t o = 0;

  for (g = 0; g < 4 && 16 * g < count; g++)
    {
      __m512i c0 = _mm512_cvtepu8_epi32 (vbmi2_lane (b0, g));
      __m512i t1 = _mm512_and_si512
        (_mm512_cvtepu8_epi32 (vbmi2_lane (b1, g)), m3f);
      __m512i t2 = _mm512_and_si512
        (_mm512_cvtepu8_epi32 (vbmi2_lane (b2, g)), m3f);
      __m512i t3 = _mm512_and_si512
        (_mm512_cvtepu8_epi32 (vbmi2_lane (b3, g)), m3f);
      __mmask16 lead2 = _mm512_cmpge_epu32_mask (c0, _mm512_set1_epi32 (0xC0));
      __mmask16 lead3 = _mm512_cmpge_epu32_mask (c0, _mm512_set1_epi32 (0xE0));
      __mmask16 lead4 = _mm512_cmpge_epu32_mask (c0, _mm512_set1_epi32 (0xF0));
      unsigned int chars = count - 16 * g < 16 ? count - 16 * g : 16;
      __m512i two = _mm512_or_si512
        (_mm512_slli_epi32 (_mm512_and_si512 (c0, _mm512_set1_epi32 (0x1F)),
                            6), t1);
      __m512i three = _mm512_ternarylogic_epi32
        (_mm512_slli_epi32 (_mm512_and_si512 (c0, _mm512_set1_epi32 (0x0F)),
                            12), _mm512_slli_epi32 (t1, 6), t2, 0xFE);
      __m512i four = _mm512_or_si512
        (_mm512_ternarylogic_epi32
         (_mm512_slli_epi32 (_mm512_and_si512 (c0, _mm512_set1_epi32 (0x07)),
                             18), _mm512_slli_epi32 (t1, 12),
          _mm512_slli_epi32 (t2, 6), 0xFE), t3);
      __m512i val = _mm512_mask_mov_epi32 (c0, lead2, two);
      val = _mm512_mask_mov_epi32 (val, lead3, three);
      val = _mm512_mask_mov_epi32 (val, lead4, four);
      if (width == 4)
        {
          if (big)
            val = _mm512_shuffle_epi8 (val, swap32);
          _mm512_storeu_si512 (out + o, val);
          o += 4 * (size_t) chars;
        }
      else
        {
          __m512i c = _mm512_sub_epi32 (val, _mm512_set1_epi32 (0x10000));
          __m512i pair = _mm512_or_si512
            (_mm512_add_epi32 (_mm512_srli_epi32 (c, 10),
                               _mm512_set1_epi32 (0xD800)),
             _mm512_slli_epi32
             (_mm512_add_epi32 (_mm512_and_si512
                                (c, _mm512_set1_epi32 (0x3FF)),
                                _mm512_set1_epi32 (0xDC00)), 16));
          uint32_t lanes = chars < 16 ? (1u << chars) - 1 : 0xFFFF;
          uint32_t words = (uint32_t) _pdep_u32 (lanes, 0x55555555u)
                           | (uint32_t) _pdep_u32 (lead4 & lanes,
                                                   0xAAAAAAAAu);
          val = _mm512_mask_mov_epi32 (val, lead4, pair);
          val = _mm512_maskz_compress_epi16 (words, val);
          if (big)
            val = _mm512_shuffle_epi8 (val, swap16);
          _mm512_storeu_si512 (out + o, val);
          o += 2 * (size_t) __builtin_popcount (words);
        }
    }
  return o;
}

/* A block of 64 bytes that is not ASCII, for avx512_wide_loop: with a
   4-byte character, vbmi2_block4; otherwise the first, second and third
   bytes from each character start are gathered by three compresses
   (a character may end two bytes past the block), and each 32
   characters are widened to 16-bit lanes and combined there.  */
VBMI2 static inline __attribute__ ((always_inline)) size_t
vbmi2_block (uint8_t const *s, __m512i v, uint64_t high, uint8_t *out,
             int width, bool big)
{
  __m512i const swap16 = _mm512_set4_epi32 (0x0E0F0C0D, 0x0A0B0809,
                                            0x06070405, 0x02030001);
  __m512i const swap32 = _mm512_set4_epi32 (0x0C0D0E0F, 0x08090A0B,
                                            0x04050607, 0x00010203);
  uint64_t starts, lead4;
  unsigned int count, h;
  __m512i b0, b1, b2;
  size_t o = 0;

  /* For UTF-16, a 4-byte character at P is two lanes: one at P for its
     high surrogate, from its first three bytes, and one at P + 1 for its
     low surrogate, from its last two; the lane at P + 1 is the only kind
     whose first byte is a continuation byte.  */
  lead4 = _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xF0));
  if (lead4 && (width == 4 || lead4 >> 63))
    return vbmi2_block4 (s, v, high, out, width, big);
  starts = (~high | lead4 << 1
            | _mm512_cmpge_epu8_mask (v, _mm512_set1_epi8 ((char) 0xC0)));
  count = (unsigned int) __builtin_popcountll (starts);
  b0 = _mm512_maskz_compress_epi8 (starts, v);
  b1 = _mm512_maskz_compress_epi8 (starts, _mm512_loadu_si512 (s + 1));
  b2 = _mm512_maskz_compress_epi8 (starts, _mm512_loadu_si512 (s + 2));
  for (h = 0; h < 2 && 32 * h < count; h++)
    {
      __m512i c0 = _mm512_cvtepu8_epi16 (h ? _mm512_extracti64x4_epi64 (b0, 1)
                                         : _mm512_castsi512_si256 (b0));
      __m512i c1 = _mm512_cvtepu8_epi16 (h ? _mm512_extracti64x4_epi64 (b1, 1)
                                         : _mm512_castsi512_si256 (b1));
      __m512i c2 = _mm512_cvtepu8_epi16 (h ? _mm512_extracti64x4_epi64 (b2, 1)
                                         : _mm512_castsi512_si256 (b2));
      __m512i m3f = _mm512_set1_epi16 (0x3F);
      __m512i cont1 = _mm512_slli_epi16 (_mm512_and_si512 (c1, m3f), 6);
      __mmask32 lead2 = _mm512_cmpge_epu16_mask (c0, _mm512_set1_epi16 (0xC0));
      __mmask32 lead3 = _mm512_cmpge_epu16_mask (c0, _mm512_set1_epi16 (0xE0));
      /* (C0 & 0x1F) << 6 | (C1 & 0x3F), and C0 << 12 | (C1 & 0x3F) << 6
         | (C2 & 0x3F) (the shift drops C0's high bits).  */
      __m512i two = _mm512_or_si512
        (_mm512_slli_epi16 (_mm512_and_si512 (c0, _mm512_set1_epi16 (0x1F)),
                            6),
         _mm512_and_si512 (c1, m3f));
      __m512i three = _mm512_ternarylogic_epi32
        (_mm512_slli_epi16 (c0, 12), cont1, _mm512_and_si512 (c2, m3f),
         0xFE);
      __m512i val = _mm512_mask_mov_epi16 (c0, lead2, two);
      unsigned int chars = count - 32 * h < 32 ? count - 32 * h : 32;
      val = _mm512_mask_mov_epi16 (val, lead3, three);
      if (lead4)
        {
          __mmask32 high_sur = _mm512_cmpge_epu16_mask
            (c0, _mm512_set1_epi16 (0xF0));
          __mmask32 low_sur = _mm512_cmplt_epu16_mask
            (c0, _mm512_set1_epi16 (0xC0)) & _mm512_cmpge_epu16_mask
            (c0, _mm512_set1_epi16 (0x80));
          /* 0xD800 + (code point >> 10) - 0x40, and 0xDC00 | the code
             point's low 10 bits.  */
          __m512i hs = _mm512_add_epi16
            (_mm512_set1_epi16 ((short) 0xD7C0), _mm512_ternarylogic_epi32
             (_mm512_slli_epi16 (_mm512_and_si512
                                 (c0, _mm512_set1_epi16 (0x07)), 8),
              _mm512_slli_epi16 (_mm512_and_si512 (c1, m3f), 2),
              _mm512_srli_epi16 (_mm512_and_si512 (c2, m3f), 4), 0xFE));
          __m512i ls = _mm512_ternarylogic_epi32
            (_mm512_or_si512 (cont1, _mm512_and_si512 (c2, m3f)),
             _mm512_set1_epi16 (0x3FF), _mm512_set1_epi16 ((short) 0xDC00),
             0xEA);
          val = _mm512_mask_mov_epi16 (val, high_sur, hs);
          val = _mm512_mask_mov_epi16 (val, low_sur, ls);
        }
      if (width == 2)
        {
          if (big)
            val = _mm512_shuffle_epi8 (val, swap16);
          _mm512_storeu_si512 (out + o, val);
        }
      else
        {
          __m512i lo = _mm512_cvtepu16_epi32 (_mm512_castsi512_si256 (val));
          __m512i hi = _mm512_cvtepu16_epi32 (_mm512_extracti64x4_epi64 (val,
                                                                         1));
          if (big)
            {
              lo = _mm512_shuffle_epi8 (lo, swap32);
              hi = _mm512_shuffle_epi8 (hi, swap32);
            }
          _mm512_storeu_si512 (out + o, lo);
          _mm512_storeu_si512 (out + o + 64, hi);
        }
      o += chars * (size_t) width;
    }
  return o;
}

#define vbmi2_TARGET VBMI2
WIDE_LOOP (vbmi2, vbmi2_block)

/* UTF-16 to UTF-8, 32 units at a time: a block of ASCII narrows; a
   block with no surrogate makes each unit the UTF-8 form in a 32-bit
   lane, 16 at a time, and one compress keeps each lane's 1, 2 or 3
   bytes.  A block with a surrogate goes to the AVX2 kernel for up to 32
   units, which stops before a lone surrogate.  The vector loop leaves 8
   units after its block, so that the last compress may store 64 bytes
   and stay within the room of 3 bytes a unit.  */
VBMI2 static inline __attribute__ ((always_inline)) size_t
vbmi2_utf16_to_utf8_bo (uint8_t const *s, size_t n, uint8_t *out,
                        size_t *produced, uint64_t *newlines, bool big)
{
  __m512i const swap16 = _mm512_set4_epi32 (0x0E0F0C0D, 0x0A0B0809,
                                            0x06070405, 0x02030001);
  size_t i = 0, o = 0, nl = 0, pr;
  uint64_t wnl;
  unsigned int h;

  while (i + 40 <= n)
    {
      __m512i u = _mm512_loadu_si512 (s + 2 * i);
      __mmask32 wide, sur;
      if (big)
        u = _mm512_shuffle_epi8 (u, swap16);
      wide = _mm512_cmpge_epu16_mask (u, _mm512_set1_epi16 (0x80));
      if (wide == 0)
        {
          nl += (size_t) __builtin_popcount
            (_mm512_cmpeq_epi16_mask (u, _mm512_set1_epi16 ('\n')));
          _mm256_storeu_si256 ((__m256i *) (out + o),
                               _mm512_cvtepi16_epi8 (u));
          i += 32;
          o += 32;
          continue;
        }
      sur = _mm512_cmpeq_epi16_mask
        (_mm512_and_si512 (u, _mm512_set1_epi16 ((short) 0xF800)),
         _mm512_set1_epi16 ((short) 0xD800));
      if (sur)
        {
          size_t used = avx2_utf16_to_utf8 (s + 2 * i, 32, out + o, &pr,
                                            &wnl, big);
          i += used;
          o += pr;
          nl += wnl;
          if (used == 0)
            break;
          continue;
        }
      nl += (size_t) __builtin_popcount
        (_mm512_cmpeq_epi16_mask (u, _mm512_set1_epi16 ('\n')));
      for (h = 0; h < 2; h++)
        {
          __m512i x = _mm512_cvtepu16_epi32
            (h ? _mm512_extracti64x4_epi64 (u, 1)
             : _mm512_castsi512_si256 (u));
          __m512i m3f = _mm512_set1_epi32 (0x3F);
          __m512i c80 = _mm512_set1_epi32 (0x80);
          __mmask16 two = (__mmask16) (wide >> (16 * h));
          __mmask16 three = _mm512_cmpge_epu32_mask
            (x, _mm512_set1_epi32 (0x800));
          /* The last byte of a 2- or 3-byte form, the first, and the
             middle one of a 3-byte form.  */
          __m512i last = _mm512_or_si512 (_mm512_and_si512 (x, m3f), c80);
          __m512i b0 = _mm512_mask_mov_epi32
            (x, two, _mm512_or_si512 (_mm512_srli_epi32 (x, 6),
                                      _mm512_set1_epi32 (0xC0)));
          __m512i b1 = _mm512_mask_mov_epi32
            (last, three, _mm512_or_si512
             (_mm512_and_si512 (_mm512_srli_epi32 (x, 6), m3f), c80));
          __m512i lane;
          uint64_t keep;
          b0 = _mm512_mask_mov_epi32
            (b0, three, _mm512_or_si512 (_mm512_srli_epi32 (x, 12),
                                         _mm512_set1_epi32 (0xE0)));
          lane = _mm512_ternarylogic_epi32 (b0, _mm512_slli_epi32 (b1, 8),
                                            _mm512_slli_epi32 (last, 16),
                                            0xFE);
          keep = 0x1111111111111111ull
                 | _pdep_u64 (two, 0x2222222222222222ull)
                 | _pdep_u64 (three, 0x4444444444444444ull);
          _mm512_storeu_si512 (out + o,
                               _mm512_maskz_compress_epi8 (keep, lane));
          o += (size_t) __builtin_popcountll (keep);
        }
      i += 32;
    }
  {
    size_t used = avx2_utf16_to_utf8 (s + 2 * i, n - i, out + o, &pr, &wnl,
                                      big);
    i += used;
    o += pr;
    nl += wnl;
  }
  *produced = o;
  *newlines = nl;
  return i;
}

VBMI2 static size_t
vbmi2_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                     size_t *produced, uint64_t *newlines, bool big)
{
  return (big ? vbmi2_utf16_to_utf8_bo (s, n, out, produced, newlines, true)
          : vbmi2_utf16_to_utf8_bo (s, n, out, produced, newlines, false));
}

/* Validation and conversion to UTF-16 or UTF-32 in one pass over blocks
   of 64 bytes from S.  Block K + 1 is checked before block K is
   converted, so that the characters that start in block K, which may end
   three bytes into block K + 1, have been checked whole.  A block's
   conversion takes the characters that start in it and skips the
   continuation bytes it begins with.  At the first block with a problem,
   avx512_utf8_check and the conversion alone go on from the first
   character that starts in the block before it.  */
VBMI2 static inline __attribute__ ((always_inline)) size_t
vbmi2_wide_checked (uint8_t const *s, size_t n, uint8_t *out, int width,
                    bool big, size_t *produced, uint64_t *newlines)
{
  size_t i = 0, o = 0, nl = 0, v;
  uint64_t tail_nl;
  __m512i const lf = _mm512_set1_epi8 ('\n');
  __m512i prev = _mm512_setzero_si512 (), cur;
  __mmask64 pending = 0;

  if (n >= 64 + 64 + 32)
    {
      cur = _mm512_loadu_si512 (s);
      if (!avx512_check_block (cur, &prev, &pending))
        for (; i + 64 + 64 + 32 <= n; i += 64)
          {
            __m512i next = _mm512_loadu_si512 (s + i + 64);
            uint64_t high;
            if (avx512_check_block (next, &prev, &pending))
              break;
            high = _mm512_movepi8_mask (cur);
            nl += (size_t) __builtin_popcountll (_mm512_cmpeq_epi8_mask (cur,
                                                                         lf));
            if (high == 0)
              {
                avx512_widen64 (cur, out + o, width, big);
                o += 64 * (size_t) width;
              }
            else
              o += vbmi2_block (s + i, cur, high, out + o, width, big);
            cur = next;
          }
      /* The characters that started before I are converted.  */
      while (i > 0 && (s[i] & 0xC0) == 0x80)
        i++;
    }
  v = avx512_utf8_check (s + i, n - i, NULL, &tail_nl, false);
  o += vbmi2_utf8_to_wide (s + i, v, out + o, width, big);
  *produced = o;
  *newlines = nl + tail_nl;
  return i + v;
}

VBMI2 static size_t
vbmi2_utf8_to_wide_checked (uint8_t const *s, size_t n, uint8_t *out,
                            int width, bool big, size_t *produced,
                            uint64_t *newlines)
{
  if (width == 2)
    return (big ? vbmi2_wide_checked (s, n, out, 2, true, produced, newlines)
            : vbmi2_wide_checked (s, n, out, 2, false, produced, newlines));
  return (big ? vbmi2_wide_checked (s, n, out, 4, true, produced, newlines)
          : vbmi2_wide_checked (s, n, out, 4, false, produced, newlines));
}

struct kernels const kernels_avx512vbmi2 = {
  "avx512vbmi2", avx2_ascii_len, avx512_utf8_valid_len, avx2_count_newlines,
  avx512_utf8_valid_copy,
  vbmi2_utf8_to_utf16, vbmi2_utf8_to_utf32, vbmi2_utf8_to_wide_checked,
  vbmi2_utf16_to_utf8,
  vbmi2_sb_to_utf8, vbmi2_utf8_to_sb
};

#endif
