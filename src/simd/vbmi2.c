/* The AVX-512 VBMI2 kernels (F, BW, VL, VBMI and VBMI2, with AVX2, POPCNT
   and BMI2): byte permutations and byte compress.

   This set converts between UTF-8 and single-byte encodings through
   128-entry byte permutations, UTF-8 to UTF-16 and UTF-32 by compressing
   the bytes of each character into lanes (also while validating, in one
   pass), and UTF-16 to UTF-8 by compressing each unit's lane; it uses
   the AVX-512 validator and borrows the AVX2 kernels for blocks it
   does not take.  */

#include <config.h>

#include "x86.h"

#if defined __x86_64__ || defined __i386__

/* Byte K of the UTF-8 form of each byte 0x80 + B in TABLE (the table of
   tc_sb_to_utf8), for K from 0 to 3 (3: its length), into T[K][B].  */
VBMI2 static inline __attribute__ ((always_inline)) void
vbmi2_sb_columns (uint8_t const (*table)[4], uint8_t t[4][128])
{
  size_t b;
  for (b = 0; b < 128; b++)
    {
      t[0][b] = table[b][0];
      t[1][b] = table[b][1];
      t[2][b] = table[b][2];
      t[3][b] = table[b][3];
    }
}

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
  size_t i = 0, o = 0, nl = 0, tail_produced, p;
  uint64_t tail_newlines;

  vbmi2_sb_columns (table, t);
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

/* The byte permutations of vbmi2_utf8_to_sb, from TABLE (by code
   point): the byte of each of the 128 characters from BASE, by the code
   point less BASE, in *TA and *TB, and 0xFF where the encoding has it
   (0 where it has not) in *OKA and *OKB.  */
VBMI2 static inline __attribute__ ((always_inline)) void
vbmi2_sb_bytes (int16_t const *table, size_t base, __m512i *ta, __m512i *tb,
                __m512i *oka, __m512i *okb)
{
  uint8_t t[128] __attribute__ ((aligned (64)));
  uint8_t ok[128] __attribute__ ((aligned (64)));
  size_t c;

  for (c = 0; c < 128; c++)
    {
      int16_t x = table[base + c];
      t[c] = (uint8_t) (x < 0 ? 0 : x);
      ok[c] = x < 0 ? 0 : 0xFF;
    }
  *ta = _mm512_load_si512 (t);
  *tb = _mm512_load_si512 (t + 64);
  *oka = _mm512_load_si512 (ok);
  *okb = _mm512_load_si512 (ok + 64);
}

/* The pair of leads vbmi2_utf8_to_sb serves in S[0..N): that of the
   first byte above 7F, if it leads a 2-byte character (with bit 0
   clear), else C2.  */
static inline uint8_t
vbmi2_lead_pair (uint8_t const *s, size_t n)
{
  size_t k;
  for (k = 0; k < n && k < 4096; k++)
    if (s[k] >= 0x80)
      return 0xC2 <= s[k] && s[k] <= 0xDF ? s[k] & 0xFE : 0xC2;
  return 0xC2;
}

/* UTF-8 to a single-byte encoding, 64 bytes at a time, for blocks of
   ASCII and characters of one pair of leads, 128 code points: those of
   the first 2-byte character of the input (C2 and C3, U+0080..U+00FF,
   for Latin text; D0 and D1, U+0400..U+047F, for Cyrillic; CE and CF
   for Greek), and C2 C3 when there is none: each such character's code
   point less the pair's first indexes a 128-entry byte permutation made
   from TABLE once per call, and one compress drops the lead bytes.
   A block with anything else (or a character the encoding lacks) goes
   to the AVX2 kernel for up to 64 bytes, which stops where the state
   machine must take over.  */
VBMI2 static size_t
vbmi2_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
                  int16_t const *table, size_t *produced, uint64_t *newlines)
{
  __m512i ta, tb, oka, okb;
  __m512i const lf = _mm512_set1_epi8 ('\n');
  /* Byte j of the result is byte j - 1 of the input.  */
  __m512i const back1 = _mm512_set_epi32
    (0x3E3D3C3B, 0x3A393837, 0x36353433, 0x3231302F,
     0x2E2D2C2B, 0x2A292827, 0x26252423, 0x2221201F,
     0x1E1D1C1B, 0x1A191817, 0x16151413, 0x1211100F,
     0x0E0D0C0B, 0x0A090807, 0x06050403, 0x0201003F);
  size_t i = 0, o = 0, nl = 0;
  uint8_t pair = vbmi2_lead_pair (s, n);

  vbmi2_sb_bytes (table, (size_t) (pair - 0xC0) << 6, &ta, &tb, &oka, &okb);

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
         _mm512_set1_epi8 ((char) pair));
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

/* A block of 64 bytes that is not ASCII, for WIDE_LOOP: with a
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

VBMI2 static KERNEL_UTF16_TO_UTF8 (vbmi2)

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
  v = avx512_utf8_check (s + i, n - i, NULL, &tail_nl, false, 0, 0, NULL);
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
  avx512_utf8_valid_copy, avx512_utf8_valid_copy_resume,
  vbmi2_utf8_to_utf16, vbmi2_utf8_to_utf32, vbmi2_utf8_to_wide_checked,
  vbmi2_utf16_to_utf8,
  vbmi2_sb_to_utf8, vbmi2_utf8_to_sb,
  vbmi2_drop_crlf, avx2_find_control
};

#endif
