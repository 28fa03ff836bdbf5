/* The binary test's kernel of every set: the first control byte that
   text does not hold (U+0000, and the C0 controls but BS, TAB, LF, VT,
   FF, CR, SUB and ESC; see src/core/binary.h).

   Text holds LF, TAB or CR in most blocks, so the vector versions do
   not test "below 0x20" first: they classify every byte at once.  */

#include <config.h>

#include "kernels.h"

#if defined __x86_64__ || defined __i386__
# include "x86.h"
#endif

/* 1 when the byte B is a control that text does not hold, else 0,
   without a branch or a table, so that a compiler may make vector code
   of a loop of it.  */
static inline uint8_t
bad_byte (uint8_t b)
{
  return (uint8_t) ((b < 0x20) & ((uint8_t) (b - 0x08) > 0x0D - 0x08)
                    & ((uint8_t) (b - 0x1A) > 0x1B - 0x1A));
}

size_t
scalar_find_control (uint8_t const *s, size_t n)
{
  enum { BLOCK = 64 };
  size_t i = 0;

  /* A block at a time, with no exit inside it; the byte loop then finds
     the byte in the block that has one.  */
  for (; i + BLOCK <= n; i += BLOCK)
    {
      uint8_t any = 0;
      unsigned int k;
      for (k = 0; k < BLOCK; k++)
        any |= bad_byte (s[i + k]);
      if (any)
        break;
    }
  for (; i < n; i++)
    if (bad_byte (s[i]))
      break;
  return i;
}

#if defined __x86_64__ || defined __i386__

/* SSE2 has no byte shuffle: a byte is bad when it is below 0x20 (its
   minimum with 0x1F is itself) and outside the two ranges of text
   controls, 08..0D and 1A..1B (after subtracting the start of a range,
   a saturated subtraction of its width leaves 0).  */
SSE2 static inline __m128i
sse2_bad (__m128i v)
{
  __m128i zero = _mm_setzero_si128 ();
  __m128i low = _mm_cmpeq_epi8 (_mm_min_epu8 (v, _mm_set1_epi8 (0x1F)), v);
  __m128i r1 = _mm_cmpeq_epi8 (_mm_subs_epu8 (_mm_sub_epi8
                                               (v, _mm_set1_epi8 (0x08)),
                                               _mm_set1_epi8 (0x05)), zero);
  __m128i r2 = _mm_cmpeq_epi8 (_mm_subs_epu8 (_mm_sub_epi8
                                               (v, _mm_set1_epi8 (0x1A)),
                                               _mm_set1_epi8 (0x01)), zero);
  return _mm_andnot_si128 (_mm_or_si128 (r1, r2), low);
}

SSE2 size_t
sse2_find_control (uint8_t const *s, size_t n)
{
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    {
      __m128i a = sse2_bad (_mm_loadu_si128 ((__m128i const *) (s + i)));
      __m128i b = sse2_bad (_mm_loadu_si128 ((__m128i const *) (s + i + 16)));
      unsigned int m = (unsigned int) _mm_movemask_epi8 (a)
                       | (unsigned int) _mm_movemask_epi8 (b) << 16;
      if (m)
        return i + (size_t) __builtin_ctz (m);
    }
  return i + scalar_find_control (s + i, n - i);
}

/* AVX2: the bad bytes by their two nibbles, as in the UTF-8
   validator's tables: bit 0 of LOW[L] says that byte 0L is bad, bit 1
   that byte 1L is; HIGH[H] is bit 0 for H = 0, bit 1 for H = 1, and 0
   for every other high nibble.  A byte is bad when the two entries
   share a bit.  */
AVX2 size_t
avx2_find_control (uint8_t const *s, size_t n)
{
  __m256i low_table = _mm256_setr_epi8 (3, 3, 3, 3, 3, 3, 3, 3,
                                        2, 2, 0, 0, 2, 2, 3, 3,
                                        3, 3, 3, 3, 3, 3, 3, 3,
                                        2, 2, 0, 0, 2, 2, 3, 3);
  __m256i high_table = _mm256_setr_epi8 (1, 2, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0,
                                         1, 2, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0);
  __m256i nibble = _mm256_set1_epi8 (0x0F), zero = _mm256_setzero_si256 ();
  size_t i = 0;

  for (; i + 64 <= n; i += 64)
    {
      __m256i v = _mm256_loadu_si256 ((__m256i const *) (s + i));
      __m256i w = _mm256_loadu_si256 ((__m256i const *) (s + i + 32));
      __m256i bv = _mm256_and_si256
        (_mm256_shuffle_epi8 (low_table, _mm256_and_si256 (v, nibble)),
         _mm256_shuffle_epi8 (high_table, _mm256_and_si256
                              (_mm256_srli_epi16 (v, 4), nibble)));
      __m256i bw = _mm256_and_si256
        (_mm256_shuffle_epi8 (low_table, _mm256_and_si256 (w, nibble)),
         _mm256_shuffle_epi8 (high_table, _mm256_and_si256
                              (_mm256_srli_epi16 (w, 4), nibble)));
      if (!_mm256_testz_si256 (_mm256_or_si256 (bv, bw),
                               _mm256_or_si256 (bv, bw)))
        {
          uint64_t m = (uint32_t) _mm256_movemask_epi8
            (_mm256_cmpeq_epi8 (bv, zero))
            | (uint64_t) (uint32_t) _mm256_movemask_epi8
            (_mm256_cmpeq_epi8 (bw, zero)) << 32;
          return i + (size_t) __builtin_ctzll (~m);
        }
    }
  return i + sse2_find_control (s + i, n - i);
}

#endif
