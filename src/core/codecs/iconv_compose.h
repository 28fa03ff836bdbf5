/* The pairs of characters that an encoder of iconv(3) writes as one
   character when one call gives it both, and as two when each comes in
   a call of its own: glibc's IBM1390 and IBM1399 write a kana and the
   combining semi-voiced mark (U+309A) as one code of JIS X 0213, but
   only when the mark is in the same call as the kana.  iconv(1) gives
   the whole text in one call, so the bridge's encoder, which calls
   iconv() a character at a time, gives such a pair in one call of its
   own, and holds the first back across reads until the next character
   shows (iconv_encode.c); the memo of the shifts writes the first only
   where no mark follows (iconv_shift_enc.c).  */

#ifndef UTF8CONV_ICONV_COMPOSE_H
#define UTF8CONV_ICONV_COMPOSE_H

#include <iconv.h>
#include <stdbool.h>
#include <stdint.h>

#include "../codec.h"

/* The candidates are the 25 sequences of two characters that JIS X
   0213 encodes as one: of all the codes of one or two bytes (and SO
   and two bytes) of the 1,180 names glibc lists, the only ones that
   decode to two characters which encode otherwise one call per
   character, and only in IBM1390 and IBM1399 (a scan of 2026-11-28,
   bench/RESULTS.md).  tests/unit/test_iconv_reference.c encodes them
   into every charset.  */
enum { COMPOSE_PAIRS = 25 };

/* What an encoder was found to do with the candidate pairs, once
   TRIED: the bit (1 << K) of pair K in YES when it writes the pair as
   one character.  */
struct compose
{
  bool tried;
  uint32_t yes;
};

/* Whether the encoder K describes was found to compose no pair.  */
static inline bool
compose_none (struct compose const *k)
{
  return k->tried && k->yes == 0;
}

/* Whether C is the second character of a candidate pair (a combining
   grave or acute accent, a tone letter, the semi-voiced mark): cheap
   enough for the memo's loops.  */
static inline bool
compose_mark (ucs4_t c)
{
  return c == 0x309A || c - 0x0300 < 2 || c == 0x02E5 || c == 0x02E9;
}

/* Whether C may be the first character of a candidate pair (of
   U+00E6, U+0254..U+028C, U+02E5, U+02E9, U+304B..U+3053,
   U+30AB..U+30C8, U+31F7): false at once for Han and beyond.  */
static inline bool
compose_candidate (ucs4_t c)
{
  if (c > 0x31F7)
    return false;
  return (c - 0x304B <= 0x3053 - 0x304B || c - 0x30AB <= 0x30C8 - 0x30AB
          || c - 0x0254 <= 0x028C - 0x0254 || c == 0x00E6 || c == 0x02E5
          || c == 0x02E9 || c == 0x31F7);
}

/* Whether the encoder K describes writes C as the first of a pair it
   composes with some character, as PROBE (an iconv_t to its charset
   from UCS-4 in the machine's order when HOST, else from UTF-32LE; its
   state is lost) shows of every pair the first time it is asked about
   a candidate.  */
bool compose_first (struct compose *k, iconv_t probe, bool host, ucs4_t c);

/* Whether that encoder composes C and D, once compose_first was
   asked.  */
bool compose_pair (struct compose const *k, ucs4_t c, ucs4_t d);

#endif
