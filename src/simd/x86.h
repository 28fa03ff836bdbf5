/* What the x86 kernel sets share: sse2.c, avx2.c, avx512.c and vbmi2.c.

   Each kernel is compiled for its instruction set with a target
   attribute, so that the rest of the program stays baseline and the
   choice is made at run time (kernels.c).  A larger set borrows the
   kernels of a smaller one where it has nothing better, so this header
   declares those; it also holds what two sets compile into their own
   loops: the error tables of the AVX2 and AVX-512 UTF-8 validators and
   the ends of their loops, the constant vectors that the AVX2 kernels
   read from memory, the AVX-512 validator and ASCII widening that the
   VBMI2 set builds on, and the templates of the entry points.  */

#ifndef UTF8CONV_SIMD_X86_H
#define UTF8CONV_SIMD_X86_H

#include "kernels.h"
#include "transcode.h"

#include <immintrin.h>
#include <string.h>

#define SSE2 __attribute__ ((target ("sse2")))
#define AVX2 __attribute__ ((target ("avx2,popcnt")))
#define AVX512                                                             \
  __attribute__ ((target ("avx512f,avx512bw,avx512vl,avx2,popcnt")))
#define VBMI2                                                              \
  __attribute__ ((target ("avx512f,avx512bw,avx512vl,avx512vbmi,"          \
                          "avx512vbmi2,avx2,popcnt,bmi2")))

/* The kernels that one set borrows from another, for its table of
   kernels, for its tails, or for a block it hands on.  */
SSE2 size_t sse2_ascii_len (uint8_t const *s, size_t n);
SSE2 size_t sse2_count_newlines (uint8_t const *s, size_t n);
SSE2 size_t sse2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out,
                           size_t *written);
AVX2 size_t avx2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out,
                           size_t *written);
VBMI2 size_t vbmi2_drop_crlf (uint8_t const *s, size_t n, uint8_t *out,
                             size_t *written);
SSE2 size_t sse2_find_control (uint8_t const *s, size_t n);
AVX2 size_t avx2_find_control (uint8_t const *s, size_t n);
AVX2 size_t avx2_ascii_len (uint8_t const *s, size_t n);
AVX2 size_t avx2_count_newlines (uint8_t const *s, size_t n);
AVX2 size_t avx2_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                                size_t *produced, uint64_t *newlines,
                                bool big);
AVX2 size_t avx2_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                             uint8_t const (*table)[4], size_t *produced,
                             uint64_t *newlines);
AVX2 size_t avx2_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
                             int16_t const *table, size_t *produced,
                             uint64_t *newlines);
AVX512 size_t avx512_utf8_valid_len (uint8_t const *s, size_t n);
AVX512 size_t avx512_utf8_valid_copy (uint8_t const *s, size_t n,
                                      uint8_t *out, uint64_t *newlines);
AVX2 size_t avx2_utf8_valid_copy_resume (uint8_t const *s, size_t n,
                                         uint8_t *out, uint64_t *newlines,
                                         struct utf8_resume *rs);
AVX512 size_t avx512_utf8_valid_copy_resume (uint8_t const *s, size_t n,
                                             uint8_t *out,
                                             uint64_t *newlines,
                                             struct utf8_resume *rs);

/* Entry points made from an always_inline implementation that takes the
   byte order (and the width, or whether to copy) as a parameter: each
   calls it with constants, so that the compiler makes one loop per case.
   A macro makes one function, without its target attribute and linkage,
   which come before it:

     AVX2 static KERNEL_UTF8_TO_UTF16 (avx2)

   KERNEL_UTF8_TO_UTF16 and KERNEL_UTF8_TO_UTF32 are made from
   PREFIX_utf8_to_wide (S, N, OUT, WIDTH, BIG), KERNEL_UTF16_TO_UTF8
   from PREFIX_utf16_to_utf8_bo (S, N, OUT, PRODUCED, NEWLINES, BIG) and
   KERNEL_UTF8_VALID_COPY from PREFIX_utf8_check (S, N, OUT, NEWLINES,
   COPY, 0, 0, NULL) (see avx2_utf8_check for the last three).  */
#define KERNEL_UTF8_TO_UTF16(PREFIX)                                       \
  size_t                                                                   \
  PREFIX##_utf8_to_utf16 (uint8_t const *s, size_t n, uint8_t *out,        \
                          bool big)                                        \
  {                                                                        \
    return (big ? PREFIX##_utf8_to_wide (s, n, out, 2, true)               \
            : PREFIX##_utf8_to_wide (s, n, out, 2, false));                \
  }

#define KERNEL_UTF8_TO_UTF32(PREFIX)                                       \
  size_t                                                                   \
  PREFIX##_utf8_to_utf32 (uint8_t const *s, size_t n, uint8_t *out,        \
                          bool big)                                        \
  {                                                                        \
    return (big ? PREFIX##_utf8_to_wide (s, n, out, 4, true)               \
            : PREFIX##_utf8_to_wide (s, n, out, 4, false));                \
  }

#define KERNEL_UTF16_TO_UTF8(PREFIX)                                       \
  size_t                                                                   \
  PREFIX##_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,        \
                          size_t *produced, uint64_t *newlines, bool big)  \
  {                                                                        \
    return (big                                                            \
            ? PREFIX##_utf16_to_utf8_bo (s, n, out, produced, newlines,    \
                                         true)                             \
            : PREFIX##_utf16_to_utf8_bo (s, n, out, produced, newlines,    \
                                         false));                          \
  }

#define KERNEL_UTF8_VALID_COPY(PREFIX)                                     \
  size_t                                                                   \
  PREFIX##_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,      \
                            uint64_t *newlines)                            \
  {                                                                        \
    return (out ? PREFIX##_utf8_check (s, n, out, newlines, true, 0, 0,   \
                                       NULL)                               \
            : PREFIX##_utf8_check (s, n, out, newlines, false, 0, 0,       \
                                   NULL));                                 \
  }

/* ---- AVX2 constants ---- */

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

/* Defined in avx2.c; avx2_copy_chunk below reads it too.  */
extern uint32_t const avx2_k_table[K_COUNT][8];

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

/* ---- UTF-8 validation, AVX2 and AVX-512 ---- */

/* Error classes, one bit each, for a pair of bytes (previous, current).
   With the three tables of avx2_utf8_tables, they implement Unicode's
   Table 3-7 (well-formed UTF-8 byte sequences) as src/unicode/utf8.h
   states it for the portable code; this is its vector form, by nibbles,
   and must say the same.  */
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

/* The bytes of IN shifted by K places, with the last bytes of PREV
   coming in at the front.  */
#define PREV(in, prev, k)                                                  \
  _mm256_alignr_epi8 ((in), _mm256_permute2x128_si256 ((prev), (in), 0x21), \
                      16 - (k))

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

/* A block whose last three bytes hold a lead byte that still wants
   continuations has a byte above this in that place (saturating
   subtraction): the next block must go on with them.  */
AVX2 static inline __attribute__ ((always_inline)) __m256i
avx2_max_tail (void)
{
  return _mm256_setr_epi8
    (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
     (char) (0xF0 - 1), (char) (0xE0 - 1), (char) (0xC0 - 1));
}

/* Back up from I, a position where validation stopped, to the start of
   the character that may straddle it, so that S[0..result) holds
   complete characters only.  */
static inline size_t
char_boundary (uint8_t const *s, size_t i)
{
  size_t p = i;
  while (p > 0 && i - p < 3 && (s[p - 1] & 0xC0) == 0x80)
    p--;
  if (p > 0 && s[p - 1] >= 0xC0)
    p--;
  return p;
}

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

/* Whether the character that starts at S + FROM, before or at a flag at
   S + F, is ill-formed as the portable validator sees S[FROM..F]: its
   first byte starts none, or it is cut short by the flag, or one of its
   bytes is out of range.  */
static inline __attribute__ ((always_inline)) bool
utf8_bad_at (uint8_t const *s, size_t from, size_t f)
{
  struct utf8_lead const *l = &utf8_form.lead[s[from]];
  unsigned int more = l->more;
  return (s[from] >= 0x80
          && (more == 0 || f < from + more || s[from + 1] < l->lo
              || l->hi < s[from + 1]
              || (more >= 2 && (s[from + 2] & 0xC0) != 0x80)
              || (more == 3 && (s[from + 3] & 0xC0) != 0x80)));
}

/* The end of a validator's loop at a block at I where the error classes
   flagged a byte, at I + AT the first, and whose bytes 0x0A are the bits
   of LF (the caller has copied the block, if it copies).  Every error is
   flagged at or after its bytes, at the latest at the byte that shows
   it, so the bytes before the character around the flag are well-formed,
   and the longest prefix ends no later than the flag.  Return where the
   portable validator started, near the flag, and set *V to the length it
   found from there; add the newlines up to its end to *NL.  With QUICK,
   a character there that is ill-formed at once (utf8_bad_at) is found
   without the portable validator, which then would stop at it at once.  */
static inline __attribute__ ((always_inline)) size_t
utf8_check_flagged (uint8_t const *s, size_t i, size_t at, uint64_t lf,
                    size_t *nl, size_t *v, bool quick)
{
  size_t from = char_boundary (s, i + at);
  *v = (quick && utf8_bad_at (s, from, i + at) ? 0
        : scalar_utf8_valid_len (s + from, i + at + 1 - from));
  if (from + *v > i)
    {
      size_t k = from + *v - i;
      *nl += (size_t) __builtin_popcountll (k < 64 ? lf & ((1ull << k) - 1)
                                            : lf);
    }
  return from;
}

/* ---- Resuming UTF-8 validation after an ill-formed sequence ---- */

/* A validator's loop stopped at S + STOP, before an ill-formed sequence,
   in the 64 bytes before S + END, whose flagged bytes and bytes 0x0A are
   the bits of FLAGGED and LF: keep that in *RS for the next call.  */
static inline __attribute__ ((always_inline)) void
utf8_resume_keep (struct utf8_resume *rs, uint8_t const *s, size_t stop,
                  size_t end, uint64_t flagged, uint64_t lf)
{
  rs->stop = s + stop;
  rs->end = s + end;
  rs->flagged = flagged;
  rs->lf = lf;
}

/* The bytes of the block of *RS from S on (S - RS->stop must be 1..3),
   at least 4 and at most N; 0 if *RS does not cover S.  Unsigned
   differences: no pointer comparisons across buffers, and a NULL stop
   is far off.  */
static inline __attribute__ ((always_inline)) size_t
utf8_resume_width (uint8_t const *s, size_t n, struct utf8_resume const *rs)
{
  size_t w = (size_t) ((uintptr_t) rs->end - (uintptr_t) s);
  size_t d = (size_t) ((uintptr_t) s - (uintptr_t) rs->stop);
  return d - 1 > 2 || w - 4 > 60 || w > n ? 0 : w;
}

/* The newlines among the first K bytes (K < 64) of the block of *RS
   from S on, which has W bytes there.  */
static inline __attribute__ ((always_inline)) size_t
utf8_resume_newlines (struct utf8_resume const *rs, size_t w, size_t k)
{
  return (size_t) __builtin_popcountll ((rs->lf >> (64 - w))
                                        & ((1ull << k) - 1));
}

/* The bytes of S that utf8_valid_copy_resume checks itself: the
   characters that start in the first three (a flag there may stem from
   the sequence before S), in the W bytes of the block.  Returns the
   character boundary after them (3 to 6), or, if one is ill-formed, its
   start (0 to 2); 64 if one reaches past the block.  */
static inline __attribute__ ((always_inline)) size_t
utf8_resume_start (uint8_t const *s, size_t w)
{
  size_t r = 0;
  if ((s[0] | s[1] | s[2]) < 0x80)
    return 3;
  while (r < 3)
    {
      struct utf8_lead const *l = &utf8_form.lead[s[r]];
      unsigned int more = l->more;
      if (s[r] < 0x80)
        {
          r++;
          continue;
        }
      if (w <= r + more)
        return 64;
      if (more == 0 || s[r + 1] < l->lo || l->hi < s[r + 1]
          || (more >= 2 && (s[r + 2] & 0xC0) != 0x80)
          || (more == 3 && (s[r + 3] & 0xC0) != 0x80))
        return r;
      r += more + 1;
    }
  return r;
}

/* The first flag of *RS at or after S + R, where the block has W bytes
   from S on, as an offset from S; 64 if there is none.  */
static inline __attribute__ ((always_inline)) size_t
utf8_resume_flag (struct utf8_resume const *rs, size_t w, size_t r)
{
  uint64_t m = r < w ? rs->flagged >> (64 - w + r) : 0;
  return m ? r + (size_t) __builtin_ctzll (m) : 64;
}

/* utf8_valid_copy_resume where the block of *RS (W bytes from S on) has
   a flag at S + F, and S[0..R) is well-formed, R a character boundary:
   the portable validator finds the end of the prefix near the flag, as
   in utf8_check_flagged.  */
AVX2 static __attribute__ ((noinline, unused)) size_t
utf8_resume_flagged (uint8_t const *s, uint8_t *out, uint64_t *newlines,
                     struct utf8_resume *rs, size_t r)
{
  size_t w = (size_t) (rs->end - s), f = utf8_resume_flag (rs, w, r);
  size_t from = char_boundary (s, f), len;
  if (from < r)
    from = r;
  len = from + (utf8_bad_at (s, from, f) ? 0
                : scalar_utf8_valid_len (s + from, f + 1 - from));
  memcpy (out, s, len);
  *newlines = (len < 64 ? utf8_resume_newlines (rs, w, len)
               : (size_t) __builtin_popcountll (rs->lf));
  rs->stop = s + len;
  return len;
}

/* PREFIX_utf8_valid_copy_resume (kernels.h), compiled with the target
   attribute ATTR.  When *RS covers S and settles the call within its
   block (an ill-formed sequence in the first bytes, or a flag further
   on), the validator's loop is not entered.  When the block holds no
   flag from the first character boundary on (the bytes before it are
   checked here), it is copied and the loop goes on after it: the
   function PREFIX_utf8_check_on, which starts at the end of the block
   of *RS, with *NEWLINES newlines before it, while RS->stop is not NULL,
   and at S otherwise, with the loop of PREFIX_utf8_check (S, N, OUT,
   NEWLINES, true, I, NL, RS).  N of 64 or more lets the block be
   copied as a whole.  */
#define KERNEL_UTF8_VALID_COPY_RESUME(ATTR, PREFIX)                        \
  ATTR static __attribute__ ((noinline)) size_t                            \
  PREFIX##_utf8_check_on (uint8_t const *s, size_t n, uint8_t *out,        \
                          uint64_t *newlines, struct utf8_resume *rs)      \
  {                                                                        \
    size_t i = rs->stop ? (size_t) (rs->end - s) : 0;                      \
    size_t nl = i ? *newlines : 0;                                         \
    rs->stop = NULL;                                                       \
    return PREFIX##_utf8_check (s, n, out, newlines, true, i, nl, rs);     \
  }                                                                        \
                                                                           \
  ATTR size_t                                                              \
  PREFIX##_utf8_valid_copy_resume (uint8_t const *s, size_t n,             \
                                   uint8_t *out, uint64_t *newlines,       \
                                   struct utf8_resume *rs)                 \
  {                                                                        \
    size_t w = n >= 64 ? utf8_resume_width (s, n, rs) : 0, r;              \
    if (w == 0 || (r = utf8_resume_start (s, w)) == 64)                    \
      {                                                                    \
        rs->stop = NULL;                                                   \
        return PREFIX##_utf8_check_on (s, n, out, newlines, rs);           \
      }                                                                    \
    memcpy (out, s, 64);                                                   \
    if (r < 3)                                                             \
      {                                                                    \
        *newlines = utf8_resume_newlines (rs, w, r);                       \
        rs->stop = s + r;                                                  \
        return r;                                                          \
      }                                                                    \
    if (utf8_resume_flag (rs, w, r) < 64)                                  \
      return utf8_resume_flagged (s, out, newlines, rs, r);                \
    *newlines = (size_t) __builtin_popcountll (rs->lf >> (64 - w));        \
    return PREFIX##_utf8_check_on (s, n, out, newlines, rs);               \
  }

/* ---- Copying ASCII, AVX2 and VBMI2 ---- */

/* The copy_chunk_fn of transcode.h for 32 bytes, for the tails of the
   AVX2 and VBMI2 kernels to and from single-byte encodings.  */
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

/* ---- AVX-512, shared with VBMI2 ---- */

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

/* The loop of the AVX-512 UTF-8 to UTF-16 and UTF-32 kernels, defined
   once for each block converter: PREFIX_utf8_to_wide, compiled for
   PREFIX_TARGET, converts the blocks that are not ASCII with BLOCK;
   PREFIX_utf8_to_utf16 and _utf32 are the kernels made from it.  */
#define WIDE_LOOP(PREFIX, BLOCK)                                           \
  WIDE_LOOP_BODY (PREFIX##_TARGET, PREFIX##_utf8_to_wide, BLOCK)           \
  PREFIX##_TARGET static KERNEL_UTF8_TO_UTF16 (PREFIX)                     \
  PREFIX##_TARGET static KERNEL_UTF8_TO_UTF32 (PREFIX)

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

/* A lead byte in the last three places of a block still wants
   continuations when it is above this (saturating subtraction).  */
AVX512 static inline __attribute__ ((always_inline)) __m512i
avx512_max_tail (void)
{
  return _mm512_set_epi64 ((long long) 0xBFDFEFFFFFFFFFFFull, -1, -1, -1, -1,
                           -1, -1, -1);
}

/* One block of the AVX-512 validators: IN, the block after *PREV.
   Returns 0 when it is well-formed and does not leave the block before
   it incomplete, and then makes IN *PREV and sets *PENDING when IN ends
   inside a character; otherwise the mask of the bytes that show a
   problem (for an ASCII block after an incomplete one, its first).  */
AVX512 static inline __attribute__ ((always_inline)) __mmask64
avx512_check_block (__m512i in, __m512i *prev, __mmask64 *pending)
{
  __m512i const max_tail = avx512_max_tail ();
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

/* avx2_utf8_check with 64-byte blocks, checked by avx512_check_block
   (the block before S + I, when I is not 0, is the 64 bytes before it).
   The block with a problem and the tail go to the portable validator
   from a character boundary.  */
AVX512 static inline __attribute__ ((always_inline)) size_t
avx512_utf8_check (uint8_t const *s, size_t n, uint8_t *out,
                   uint64_t *newlines, bool copy, size_t i, size_t nl,
                   struct utf8_resume *rs)
{
  size_t v;
  __m512i prev = _mm512_setzero_si512 ();
  __m512i const lf = _mm512_set1_epi8 ('\n');
  __mmask64 pending = 0;

  if (i)
    {
      __m512i over;
      prev = _mm512_loadu_si512 (s + i - 64);
      over = _mm512_subs_epu8 (prev, avx512_max_tail ());
      pending = _mm512_test_epi8_mask (over, over);
    }
  for (; i + 64 <= n; i += 64)
    {
      __m512i in = _mm512_loadu_si512 (s + i);
      __mmask64 flagged = avx512_check_block (in, &prev, &pending);
      if (flagged)
        {
          uint64_t lfm = _mm512_cmpeq_epi8_mask (in, lf);
          size_t at;
          if (copy)
            _mm512_storeu_si512 (out + i, in);
          at = utf8_check_flagged (s, i, (size_t) __builtin_ctzll (flagged),
                                   lfm, &nl, &v, rs != NULL);
          /* Not for an ASCII block after one that ends inside a
             character: only its first byte is flagged.  */
          if (rs && _mm512_movepi8_mask (in))
            utf8_resume_keep (rs, s, at + v, i + 64, flagged, lfm);
          *newlines = nl;
          return at + v;
        }
      nl += (size_t) __builtin_popcountll (_mm512_cmpeq_epi8_mask (in, lf));
      if (copy)
        _mm512_storeu_si512 (out + i, in);
    }
  return utf8_check_tail (s, n, i, out, copy, nl, newlines);
}

#endif
