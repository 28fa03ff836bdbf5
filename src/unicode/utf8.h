/* Well-formed UTF-8, and the forms of its variants, once.

   Specification: RFC 3629 and Unicode 15, §3.9, Table 3-7 (well-formed
   UTF-8 byte sequences):

     U+0000..U+007F     00..7F
     U+0080..U+07FF     C2..DF  80..BF
     U+0800..U+0FFF     E0      A0..BF  80..BF
     U+1000..U+CFFF     E1..EC  80..BF  80..BF
     U+D000..U+D7FF     ED      80..9F  80..BF
     U+E000..U+FFFF     EE..EF  80..BF  80..BF
     U+10000..U+3FFFF   F0      90..BF  80..BF  80..BF
     U+40000..U+FFFFF   F1..F3  80..BF  80..BF  80..BF
     U+100000..U+10FFFF F4      80..8F  80..BF  80..BF

   The rules live in one table per form, computed by macros (utf8.c), as
   musl's UTF-8 decoder keeps them: for each byte, what it can start (the
   number of continuation bytes that follow and the range allowed for
   the first of them) and, when it cannot start anything, why.  CESU-8,
   MUTF-8 and WTF-8 differ from UTF-8 only in that table and in their
   flags (see src/core/codecs/utf8.c, which adds what pairs surrogates).
   The reference decoder, the policy (format strings), the report and
   the scalar tails of the SIMD kernels all read UTF-8 through this
   header.  */

#ifndef UTF8CONV_UNICODE_UTF8_H
#define UTF8CONV_UNICODE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unicode.h"

/* What sets a form apart from UTF-8.  */
enum
{
  /* Supplementary characters are two 3-byte surrogate forms, and 4-byte
     forms are ill-formed (CESU-8, MUTF-8).  */
  UTF8_PAIRS = 1,
  /* Surrogates are data, written as 3-byte forms (MUTF-8, WTF-8).  */
  UTF8_LONE = 2,
  /* U+0000 is C0 80 (MUTF-8).  */
  UTF8_NUL_C080 = 4,
  /* A surrogate pair must be a 4-byte form: the decoder rejects two
     3-byte forms, the encoder joins them (WTF-8).  */
  UTF8_JOIN = 8
};

/* What a byte can start: the number of continuation bytes that follow,
   the range allowed for the first of them, and why a continuation byte
   outside that range breaks the sequence.  */
struct utf8_lead
{
  uint8_t more;                 /* 0 for an ASCII byte or an error.  */
  uint8_t lo, hi;               /* Range of the first continuation.  */
  uint8_t narrow;               /* enum err_kind: a continuation outside
                                   LO..HI.  */
  uint8_t bad;                  /* enum err_kind: the byte cannot start a
                                   character.  */
};

struct utf8_form
{
  unsigned int flags;
  struct utf8_lead lead[256];
};

extern struct utf8_form const utf8_form, cesu8_form, mutf8_form, wtf8_form;

/* Write the UTF-8 form of C, a value up to U+10FFFF, to OUT (room for
   4 bytes); its length.  (A surrogate gets its 3-byte form, as in
   WTF-8.)  */
static inline int
utf8_put (ucs4_t c, uint8_t *out)
{
  if (c < 0x80)
    {
      out[0] = (uint8_t) c;
      return 1;
    }
  if (c < 0x800)
    {
      out[0] = (uint8_t) (0xC0 | c >> 6);
      out[1] = (uint8_t) (0x80 | (c & 0x3F));
      return 2;
    }
  if (c < 0x10000)
    {
      out[0] = (uint8_t) (0xE0 | c >> 12);
      out[1] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
      out[2] = (uint8_t) (0x80 | (c & 0x3F));
      return 3;
    }
  out[0] = (uint8_t) (0xF0 | c >> 18);
  out[1] = (uint8_t) (0x80 | (c >> 12 & 0x3F));
  out[2] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
  out[3] = (uint8_t) (0x80 | (c & 0x3F));
  return 4;
}

/* The well-formed UTF-8 character at IN[0..N) of two or three bytes
   (Table 3-7: no overlong form, no surrogate), read without a table;
   its length, or 0 for anything else, which utf8_sequence reads.  */
static inline int
utf8_short (uint8_t const *in, size_t n, ucs4_t *c)
{
  uint8_t b = in[0];
  if (b < 0xE0)
    {
      if (b < 0xC2 || n < 2 || (in[1] & 0xC0) != 0x80)
        return 0;
      *c = (ucs4_t) (b & 0x1F) << 6 | (in[1] & 0x3F);
      return 2;
    }
  if (b < 0xF0 && n >= 3)
    {
      /* Continuation bytes are 00..3F once flipped: both at once.  */
      ucs4_t c1 = in[1] ^ 0x80u, c2 = in[2] ^ 0x80u;
      ucs4_t v = (ucs4_t) (b & 0x0F) << 12 | c1 << 6 | c2;
      if ((c1 | c2) < 0x40 && v >= 0x800 && v - 0xD800 >= 0x800)
        {
          *c = v;
          return 3;
        }
    }
  return 0;
}

enum { UTF8_TOOFEW = 0 };

/* Read the sequence at S[0..N) (N >= 1) in the form F, without the
   surrogate rules of the variants.  Returns its length R > 0 and sets *C
   when S[0..R) is well-formed; UTF8_TOOFEW when S[0..N) is a well-formed
   beginning that needs more bytes (never when LAST); -R when S[0..R) is
   the maximal subpart of an ill-formed sequence, with *KIND saying
   why.  */
static inline int
utf8_sequence (struct utf8_form const *f, uint8_t const *s, size_t n,
               bool last, ucs4_t *c, enum err_kind *kind)
{
  uint8_t b = s[0];
  struct utf8_lead const *l;
  ucs4_t v;
  unsigned int k;

  if (b < 0x80)
    {
      *c = b;
      return 1;
    }
  l = &f->lead[b];
  if (l->more == 0)
    {
      *kind = (enum err_kind) l->bad;
      return -1;
    }
  v = b & (0x7F >> (l->more + 1));
  for (k = 1; k <= l->more; k++)
    {
      uint8_t lo = k == 1 ? l->lo : 0x80, hi = k == 1 ? l->hi : 0xBF;
      if (k >= n)
        {
          if (!last)
            return UTF8_TOOFEW;
          *kind = ERR_TRUNCATED;
          return -(int) k;
        }
      if (s[k] < lo || hi < s[k])
        {
          *kind = (k == 1 && (s[k] & 0xC0) == 0x80
                   ? (enum err_kind) l->narrow : ERR_TRUNCATED);
          return -(int) k;
        }
      v = (v << 6) | (s[k] & 0x3F);
    }
  *c = v;
  return (int) l->more + 1;
}

/* The length of the longest well-formed UTF-8 prefix of S[0..N) that
   ends at a character boundary.  */
size_t utf8_valid_len (uint8_t const *s, size_t n);

#endif
