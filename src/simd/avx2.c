/* The AVX2 kernels (with POPCNT).

   UTF-8 validation classifies every byte together with the one before
   it by three 16-entry table lookups (the high nibble of the previous
   byte, its low nibble, and the high nibble of the current byte); each
   error class of Unicode's Table 3-7 is one bit, and a bit set in all
   three lookups is an error.  Third and fourth bytes of a sequence are
   checked separately, from the bytes two and three places back.  This
   is the method of Keiser and Lemire, "Validating UTF-8 In Less Than
   One Instruction Per Byte" (2021).  The tables are in x86.h, which the
   AVX-512 validator shares.

   Most of these kernels also serve the AVX-512 set, which has its own
   UTF-8 validation and UTF-8 to UTF-16 and UTF-32 only.  Their constant
   vectors are read from a table (avx2_k), and their byte-order and
   width parameters are made constants by the entry points of x86.h, so
   that each case gets its own loop.  Tails shorter than a vector go to
   the SSE2 or portable kernels.  */

#include <config.h>

#include "x86.h"

#if defined __x86_64__ || defined __i386__

/* The constant vectors of avx2_k (x86.h), one row of 32 bytes each, in
   the order of their names there: K8 repeats a byte, K16 a 16-bit
   value, and the others are 32-bit values.  */
#define K8(x) (0x01010101u * (x))
#define K16(x) (0x00010001u * (x))
#define KROW(x) { x, x, x, x, x, x, x, x }
uint32_t const avx2_k_table[K_COUNT][8] __attribute__ ((aligned (32)))
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

AVX2 size_t
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

AVX2 static size_t
avx2_utf8_valid_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  __m256i prev = _mm256_setzero_si256 ();
  bool incomplete = false;
  __m256i const max_tail = avx2_max_tail ();

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

/* A block IN of ASCII at *I, for avx2_utf8_check: if the block before,
   *PREV, ends inside a character, set *FLAGGED and *LFM for IN, copy it
   (when COPY) and return false.  Otherwise count its newlines into *NL,
   copy it, and do the same for the ASCII blocks after it, 64 bytes at a
   time; leave *I at the last block taken and *PREV equal to it, and
   return true.  LF and MAX_TAIL are avx2_utf8_check's constants.  */
AVX2 static inline __attribute__ ((always_inline)) bool
avx2_check_ascii (uint8_t const *s, size_t n, size_t *i, __m256i in,
                  __m256i *prev, __m256i lf, __m256i max_tail, uint8_t *out,
                  bool copy, size_t *nl, uint64_t *flagged, uint64_t *lfm)
{
  /* The block before must not end inside a character.  */
  if (!_mm256_testz_si256 (_mm256_subs_epu8 (*prev, max_tail),
                           _mm256_subs_epu8 (*prev, max_tail)))
    {
      *flagged = 1;
      *lfm = (uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf));
      if (copy)
        _mm256_storeu_si256 ((__m256i *) (out + *i), in);
      return false;
    }
  *nl += (size_t) __builtin_popcount
    ((unsigned int) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf)));
  if (copy)
    _mm256_storeu_si256 ((__m256i *) (out + *i), in);
  *prev = in;
  /* More ASCII, 64 bytes at a time.  */
  while (*i + 96 <= n)
    {
      __m256i a = _mm256_loadu_si256 ((__m256i const *) (s + *i + 32));
      __m256i b = _mm256_loadu_si256 ((__m256i const *) (s + *i + 64));
      if (_mm256_movemask_epi8 (_mm256_or_si256 (a, b)) != 0)
        break;
      *nl += (size_t) __builtin_popcountll
        ((uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (a, lf))
         | (uint64_t) (uint32_t) _mm256_movemask_epi8
         (_mm256_cmpeq_epi8 (b, lf)) << 32);
      if (copy)
        {
          _mm256_storeu_si256 ((__m256i *) (out + *i + 32), a);
          _mm256_storeu_si256 ((__m256i *) (out + *i + 64), b);
        }
      *prev = b;
      *i += 64;
    }
  return true;
}

/* The blocks IN and IN2 at I, for avx2_utf8_check, where IN is not
   ASCII: text that is not ASCII tends to go on, so the next block is
   checked with this one, whatever it holds (the error classes need no
   special case for ASCII).  If either has a problem, set *FLAGGED and
   *LFM for both, copy them (when COPY) and return false; otherwise count
   their newlines into *NL, copy them, make IN2 *PREV and return true.  */
AVX2 static inline __attribute__ ((always_inline)) bool
avx2_check_pair (uint8_t const *s, size_t i, __m256i in, __m256i *prev,
                 __m256i lf, uint8_t *out, bool copy, size_t *nl,
                 uint64_t *flagged, uint64_t *lfm)
{
  __m256i in2 = _mm256_loadu_si256 ((__m256i const *) (s + i + 32));
  __m256i e1 = avx2_utf8_errors (in, *prev);
  __m256i e2 = avx2_utf8_errors (in2, in);
  __m256i err = _mm256_or_si256 (e1, e2);
  if (!_mm256_testz_si256 (err, err))
    {
      __m256i z = _mm256_setzero_si256 ();
      *flagged = ~((uint64_t) (uint32_t) _mm256_movemask_epi8
                   (_mm256_cmpeq_epi8 (e1, z))
                   | (uint64_t) (uint32_t) _mm256_movemask_epi8
                   (_mm256_cmpeq_epi8 (e2, z)) << 32);
      *lfm = ((uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf))
              | (uint64_t) (uint32_t) _mm256_movemask_epi8
              (_mm256_cmpeq_epi8 (in2, lf)) << 32);
      if (copy)
        {
          _mm256_storeu_si256 ((__m256i *) (out + i), in);
          _mm256_storeu_si256 ((__m256i *) (out + i + 32), in2);
        }
      return false;
    }
  *nl += (size_t) __builtin_popcountll
    ((uint32_t) _mm256_movemask_epi8 (_mm256_cmpeq_epi8 (in, lf))
     | (uint64_t) (uint32_t) _mm256_movemask_epi8
     (_mm256_cmpeq_epi8 (in2, lf)) << 32);
  if (copy)
    {
      _mm256_storeu_si256 ((__m256i *) (out + i), in);
      _mm256_storeu_si256 ((__m256i *) (out + i + 32), in2);
    }
  *prev = in2;
  return true;
}

/* avx2_utf8_valid_len, counting the newlines of the blocks it accepts
   and copying them to OUT as it goes (when COPY).  A block with a
   problem, and the tail, go to the portable validator from a character
   boundary, as there; the bytes between that boundary and the end of
   the accepted blocks are not ASCII, so no newline is counted twice.
   The loop starts at S + I (0 but for avx2_utf8_valid_copy_resume, which
   has taken S[0..I) with NL newlines; the 32 bytes before S + I are then
   the block before); unless RS is NULL, it keeps there what it knew of
   the block where it stopped (utf8_resume_keep).  */
AVX2 static inline __attribute__ ((always_inline)) size_t
avx2_utf8_check (uint8_t const *s, size_t n, uint8_t *out,
                 uint64_t *newlines, bool copy, size_t i, size_t nl,
                 struct utf8_resume *rs)
{
  size_t v, span = 0;
  uint64_t flagged = 0, lfm = 0;
  __m256i prev = (i ? _mm256_loadu_si256 ((__m256i const *) (s + i - 32))
                  : _mm256_setzero_si256 ());
  __m256i const lf = K256 (K_LF8);
  __m256i const max_tail = avx2_max_tail ();

  for (; i + 32 <= n; i += 32)
    {
      __m256i in = _mm256_loadu_si256 ((__m256i const *) (s + i));
      if (_mm256_movemask_epi8 (in) == 0)
        {
          if (!avx2_check_ascii (s, n, &i, in, &prev, lf, max_tail, out,
                                 copy, &nl, &flagged, &lfm))
            break;
          continue;
        }
      else if (i + 64 <= n)
        {
          if (!avx2_check_pair (s, i, in, &prev, lf, out, copy, &nl,
                                &flagged, &lfm))
            {
              span = 64;
              break;
            }
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
              span = 32;
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
      size_t at = utf8_check_flagged (s, i, (size_t) __builtin_ctzll (flagged),
                                      lfm, &nl, &v, rs != NULL);
      /* An ASCII block after one that ends inside a character has only
         its first byte flagged (SPAN 0): nothing to keep.  */
      if (rs && span)
        utf8_resume_keep (rs, s, at + v, i + span, flagged << (64 - span),
                          lfm << (64 - span));
      *newlines = nl;
      return at + v;
    }
  return utf8_check_tail (s, n, i, out, copy, nl, newlines);
}

AVX2 static KERNEL_UTF8_VALID_COPY (avx2)
KERNEL_UTF8_VALID_COPY_RESUME (AVX2, avx2)

AVX2 size_t
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

#include "utf8_shuffles.h"
#include "avx2_tables.h"

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

/* The 64 ASCII bytes at *I, for avx2_utf8_to_wide: widen them, and the
   ASCII blocks after them in a loop of their own that does no more than
   test and widen; advance *I and *O.  */
AVX2 static inline __attribute__ ((always_inline)) void
avx2_wide_ascii (uint8_t const *s, size_t n, size_t *ip, uint8_t *out,
                 size_t *op, int width, bool big)
{
  size_t i = *ip, o = *op;
  avx2_widen64 (s + i, out + o, width, big);
  i += 64;
  o += 64 * (size_t) width;
  /* More ASCII.  */
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
  *ip = i;
  *op = o;
}

/* The block of 64 bytes at BASE, for avx2_utf8_to_wide, whose non-ASCII
   and continuation bytes are the bits of HIGH and CONT, from *I (at or
   after BASE) to past BASE + 48: 16 bytes at a time, an ASCII stretch is
   widened, and otherwise the ends of the characters in the next 12
   bytes select a plan of avx2_gather, and runs of characters of 3 bytes
   go through avx2_three8.  Advance *I and *O.  */
AVX2 static inline __attribute__ ((always_inline)) void
avx2_wide_plans (uint8_t const *s, size_t base, uint64_t high, uint64_t cont,
                 size_t *ip, uint8_t *out, size_t *op, int width, bool big)
{
  size_t i = *ip, o = *op;
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
  *ip = i;
  *op = o;
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
          avx2_wide_ascii (s, n, &i, out, &o, width, big);
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
      avx2_wide_plans (s, base, high, cont, &i, out, &o, width, big);
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

AVX2 static KERNEL_UTF8_TO_UTF16 (avx2)
AVX2 static KERNEL_UTF8_TO_UTF32 (avx2)

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

AVX2 KERNEL_UTF16_TO_UTF8 (avx2)

/* Single-byte encoding to UTF-8, 32 bytes at a time: the block is
   stored as it is, and then for each byte from 0x80 up, in order, its
   UTF-8 form is written and the rest of the block stored again after it.
   The vector loop leaves 32 bytes after its block, so that those loads
   stay in S, and the stores stay within 3 bytes a byte of input.  */
AVX2 size_t
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
AVX2 size_t
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
          /* A lead C2..DF and a continuation (the 2-byte row of
             Table 3-7, as in src/unicode/utf8.h): code point
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
  avx2_utf8_valid_copy, avx2_utf8_valid_copy_resume,
  avx2_utf8_to_utf16, avx2_utf8_to_utf32, NULL, avx2_utf16_to_utf8,
  avx2_sb_to_utf8, avx2_utf8_to_sb,
  avx2_drop_crlf, avx2_find_control
};

#endif
