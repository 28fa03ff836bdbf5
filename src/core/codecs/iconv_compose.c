/* Which candidate pairs an encoder of iconv(3) composes (see
   iconv_compose.h): asked of the encoder itself, all of them the first
   time the first character of one is to be encoded.

   Specification: JIS X 0213:2004's sequences of two characters mapped
   to one code (the kana and U+309A, æ, ɔ, ʌ, ə, ɚ and a grave or acute
   accent, the tone letters ˩˥ and ˥˩), as Unicode lists them in its
   mapping notes; which of them an encoder composes is what it does.  */

#include <config.h>

#include "iconv_compose.h"

#include <string.h>

#include "iconv_memo.h"

/* The candidate pairs, in the order of their first characters.  */
static struct
{
  ucs4_t first, second;
} const pairs[COMPOSE_PAIRS] = {
  { 0x00E6, 0x0300 },
  { 0x0254, 0x0300 }, { 0x0254, 0x0301 },
  { 0x0259, 0x0300 }, { 0x0259, 0x0301 },
  { 0x025A, 0x0300 }, { 0x025A, 0x0301 },
  { 0x028C, 0x0300 }, { 0x028C, 0x0301 },
  { 0x02E5, 0x02E9 }, { 0x02E9, 0x02E5 },
  { 0x304B, 0x309A }, { 0x304D, 0x309A }, { 0x304F, 0x309A },
  { 0x3051, 0x309A }, { 0x3053, 0x309A },
  { 0x30AB, 0x309A }, { 0x30AD, 0x309A }, { 0x30AF, 0x309A },
  { 0x30B1, 0x309A }, { 0x30B3, 0x309A }, { 0x30BB, 0x309A },
  { 0x30C4, 0x309A }, { 0x30C8, 0x309A },
  { 0x31F7, 0x309A }
};

/* The first pair whose first character is C, or COMPOSE_PAIRS.  */
static unsigned int
first_pair (ucs4_t c)
{
  unsigned int lo = 0, hi = COMPOSE_PAIRS;
  if (!compose_candidate (c))
    return COMPOSE_PAIRS;
  /* The first pair whose first character is not below C.  */
  while (lo < hi)
    {
      unsigned int mid = (lo + hi) / 2;
      if (pairs[mid].first < c)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < COMPOSE_PAIRS && pairs[lo].first == c ? lo : COMPOSE_PAIRS;
}

/* What PROBE (see compose_first), from its initial state, writes for
   the N values at IN given in one call (ONE) or a call each, with its
   flush, into OUT (ROOM bytes): their number, or SIZE_MAX when it could
   not encode them all.  */
static size_t
encode_pair (iconv_t probe, uint8_t const *in, size_t n, bool one,
             uint8_t *out, size_t room)
{
  size_t k, w = 0, used;
  char *op;
  int err;
  iconv (probe, NULL, NULL, NULL, NULL);
  for (k = 0; k < n; k += one ? n : 1)
    {
      size_t len = one ? 4 * n : 4;
      w += bridge_convert (probe, in + 4 * k, len, out + w, room - w, &used,
                           &err);
      if (err != 0 || used != len)
        return SIZE_MAX;
    }
  op = (char *) out + w;
  room -= w;
  if (iconv (probe, NULL, NULL, &op, &room) == (size_t) -1)
    return SIZE_MAX;
  return (size_t) ((uint8_t *) op - out);
}

/* Whether PROBE (see compose_first) writes the pair IN[0..8) in one
   call otherwise than in a call each, and writes its first alone.  */
static bool
composes (iconv_t probe, uint8_t const *in)
{
  uint8_t joint[4 * MAX_ENCODED], apart[4 * MAX_ENCODED];
  size_t jl = encode_pair (probe, in, 2, true, joint, sizeof joint), al;
  /* Most encoders cannot write the pair at all.  */
  if (jl == SIZE_MAX)
    return false;
  al = encode_pair (probe, in, 2, false, apart, sizeof apart);
  return ((al != jl || memcmp (joint, apart, jl) != 0)
          && encode_pair (probe, in, 1, true, apart, sizeof apart)
             != SIZE_MAX);
}

bool
compose_first (struct compose *k, iconv_t probe, bool host, ucs4_t c)
{
  unsigned int p = first_pair (c);
  uint32_t mine = 0;
  if (p == COMPOSE_PAIRS)
    return false;
  /* All the pairs at once, the first time: an encoder that composes
     none is not asked again.  */
  if (!k->tried)
    {
      unsigned int q;
      for (q = 0; q < COMPOSE_PAIRS; q++)
        {
          uint8_t in[8];
          enc_learner_unit (host, pairs[q].first, in);
          enc_learner_unit (host, pairs[q].second, in + 4);
          if (composes (probe, in))
            k->yes |= UINT32_C (1) << q;
        }
      k->tried = true;
    }
  for (; p < COMPOSE_PAIRS && pairs[p].first == c; p++)
    mine |= UINT32_C (1) << p;
  return (k->yes & mine) != 0;
}

bool
compose_pair (struct compose const *k, ucs4_t c, ucs4_t d)
{
  unsigned int p = first_pair (c);
  if (!compose_mark (d))
    return false;
  for (; p < COMPOSE_PAIRS && pairs[p].first == c; p++)
    if (pairs[p].second == d)
      return (k->yes >> p) & 1;
  return false;
}
