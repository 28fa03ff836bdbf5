/* The line-break kernel of the x86-64 sets: CR LF pairs to LF
   (--eol=lf on DOS text, see src/core/eol.h); the portable one is
   scalar_drop_crlf in kernels.c, which finishes these.

   The vector versions look at a block and at the block one byte
   further on, whose LFs tell which CRs begin a pair.  Text without CR
   is stored a block at a time.  */

#include <config.h>

#include "kernels.h"

#include <string.h>

#include "x86.h"

/* SSE2: a block of 16 bytes without CR is stored whole; at a CR, the
   block is stored, the output moves on by the bytes before the CR only,
   and the next block starts after it (at the LF of the pair).  */
SSE2 size_t
sse2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out, size_t *written)
{
  size_t r = 0, w = 0, tail;
  __m128i cr = _mm_set1_epi8 ('\r'), lf = _mm_set1_epi8 ('\n');
  while (r + 17 <= n)
    {
      __m128i v = _mm_loadu_si128 ((__m128i const *) (s + r));
      __m128i nx = _mm_loadu_si128 ((__m128i const *) (s + r + 1));
      unsigned int crs
        = (unsigned int) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, cr));
      unsigned int lfs
        = (unsigned int) _mm_movemask_epi8 (_mm_cmpeq_epi8 (nx, lf));
      unsigned int i;
      _mm_storeu_si128 ((__m128i *) (out + w), v);
      if (crs == 0)
        {
          r += 16;
          w += 16;
          continue;
        }
      i = (unsigned int) __builtin_ctz (crs);
      w += i;
      r += i;
      /* A lone CR: for the caller.  */
      if (!(lfs >> i & 1))
        {
          *written = w;
          return r;
        }
      r++;
    }
  r += scalar_drop_crlf (s + r, n - r, out + w, &tail);
  *written = w + tail;
  return r;
}

/* AVX2: a block of 32 bytes with at most two pairs in each half (an
   empty line is two) is stored half by half, each half shuffled to
   leave its CRs out; any other block with a CR takes the way of the
   SSE2 loop, one CR at a time.  The shuffle is computed: byte J of the
   result is byte J of the half, plus 1 from the first CR's place on,
   plus 1 more from the second's.  */
AVX2 static inline __m128i
avx2_drop_bytes (__m128i v, unsigned int drop)
{
  __m128i iota = _mm_setr_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                13, 14, 15);
  /* The places of the first and second CR; 16 and 17 for none.  */
  int first = __builtin_ctz (drop | 0x10000);
  int second = __builtin_ctz ((drop & (drop - 1)) | 0x20000);
  __m128i one = _mm_cmpgt_epi8 (iota, _mm_set1_epi8 ((char) (first - 1)));
  __m128i two = _mm_cmpgt_epi8 (iota, _mm_set1_epi8 ((char) (second - 2)));
  return _mm_shuffle_epi8 (v, _mm_sub_epi8 (_mm_sub_epi8 (iota, one), two));
}

/* Whether the 16-bit mask M has at most two bits set.  */
static inline bool
at_most_two (unsigned int m)
{
  m &= m - 1;
  return (m & (m - 1)) == 0;
}

AVX2 size_t
avx2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out, size_t *written)
{
  size_t r = 0, w = 0, tail;
  __m256i cr = _mm256_set1_epi8 ('\r'), lf = _mm256_set1_epi8 ('\n');
  while (r + 33 <= n)
    {
      __m256i v = _mm256_loadu_si256 ((__m256i const *) (s + r));
      __m256i nx = _mm256_loadu_si256 ((__m256i const *) (s + r + 1));
      unsigned int crs
        = (unsigned int) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (v, cr));
      unsigned int drop = crs & (unsigned int) _mm256_movemask_epi8
        (_mm256_cmpeq_epi8 (nx, lf));
      unsigned int lo = drop & 0xFFFF, hi = drop >> 16, i;
      if (crs == drop && at_most_two (lo) && at_most_two (hi))
        {
          _mm_storeu_si128 ((__m128i *) (out + w),
                            avx2_drop_bytes (_mm256_castsi256_si128 (v), lo));
          w += 16 - (size_t) __builtin_popcount (lo);
          _mm_storeu_si128 ((__m128i *) (out + w),
                            avx2_drop_bytes (_mm256_extracti128_si256 (v, 1),
                                             hi));
          w += 16 - (size_t) __builtin_popcount (hi);
          r += 32;
          continue;
        }
      /* The first CR: dropped when an LF follows, else for the
         caller.  */
      _mm256_storeu_si256 ((__m256i *) (out + w), v);
      i = (unsigned int) __builtin_ctz (crs);
      w += i;
      r += i;
      if (!(drop >> i & 1))
        {
          *written = w;
          return r;
        }
      r++;
    }
  r += scalar_drop_crlf (s + r, n - r, out + w, &tail);
  *written = w + tail;
  return r;
}

/* With VBMI2, a block of 64 bytes is stored with its CRs of CR LF
   pairs compressed out, without a branch.  */
VBMI2 size_t
vbmi2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out, size_t *written)
{
  size_t r = 0, w = 0, tail;
  __m512i cr = _mm512_set1_epi8 ('\r'), lf = _mm512_set1_epi8 ('\n');
  while (r + 65 <= n)
    {
      __m512i v = _mm512_loadu_si512 (s + r);
      __mmask64 crs = _mm512_cmpeq_epi8_mask (v, cr);
      __mmask64 drop = crs & _mm512_cmpeq_epi8_mask (_mm512_loadu_si512
                                                     (s + r + 1), lf);
      __mmask64 keep = ~drop;
      size_t used = 64;
      if (crs != drop)
        {
          /* Up to the lone CR.  */
          used = (size_t) __builtin_ctzll (crs & keep);
          keep &= ((__mmask64) 1 << used) - 1;
        }
      _mm512_storeu_si512 (out + w, _mm512_maskz_compress_epi8 (keep, v));
      w += (size_t) __builtin_popcountll (keep);
      r += used;
      if (used < 64)
        {
          *written = w;
          return r;
        }
    }
  r += scalar_drop_crlf (s + r, n - r, out + w, &tail);
  *written = w + tail;
  return r;
}
