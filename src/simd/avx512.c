/* The AVX-512 kernels (F, BW and VL, with AVX2 and POPCNT).

   This set has its own UTF-8 validation (the AVX2 method on 64-byte
   blocks, in x86.h, which the VBMI2 set shares) and its own UTF-8 to
   UTF-16 and UTF-32, by masks and compress instructions with no lookup
   table but one; it borrows the other kernels from the AVX2 set.  */

#include <config.h>

#include "x86.h"

#if defined __x86_64__ || defined __i386__

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

#include "avx512_tables.h"

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

#define avx512_TARGET AVX512
WIDE_LOOP (avx512, avx512_block)

AVX512 KERNEL_UTF8_VALID_COPY (avx512)
KERNEL_UTF8_VALID_COPY_RESUME (AVX512, avx512)

AVX512 size_t
avx512_utf8_valid_len (uint8_t const *s, size_t n)
{
  uint64_t nl;
  return avx512_utf8_check (s, n, NULL, &nl, false, 0, 0, NULL);
}

struct kernels const kernels_avx512 = {
  "avx512", avx2_ascii_len, avx512_utf8_valid_len, avx2_count_newlines,
  avx512_utf8_valid_copy, avx512_utf8_valid_copy_resume,
  avx512_utf8_to_utf16, avx512_utf8_to_utf32, NULL, avx2_utf16_to_utf8,
  avx2_sb_to_utf8, avx2_utf8_to_sb,
  avx2_drop_crlf, avx2_find_control
};

#endif
