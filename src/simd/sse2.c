/* The SSE2 kernels: the x86 baseline (every x86-64 processor has SSE2).

   Without a byte shuffle, SSE2 skips and converts ASCII 16 bytes at a
   time and leaves everything else to the portable code: the run
   converters of transcode.h, made into kernels by TC_KERNELS with the
   chunk primitives below, and scalar_utf8_valid_len.  sse2_ascii_len
   and sse2_count_newlines also finish the runs of the AVX2 and AVX-512
   kernels.  */

#include <config.h>

#include "x86.h"

#if defined __x86_64__ || defined __i386__

SSE2 size_t
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

SSE2 size_t
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

TC_KERNELS (SSE2, sse2)

struct kernels const kernels_sse2 = {
  "sse2", sse2_ascii_len, sse2_utf8_valid_len, sse2_count_newlines,
  sse2_utf8_valid_copy, NULL,
  sse2_utf8_to_utf16, sse2_utf8_to_utf32, NULL, sse2_utf16_to_utf8,
  sse2_sb_to_utf8, sse2_utf8_to_sb,
  sse2_drop_crlf, sse2_find_control
};

#endif
