/* The encoders' memo (iconv_memo.h) on text of many characters that
   repeat little: runs of characters given to its learner, a few hundred
   a call, as iconv(1) gives its whole input, instead of a call for each
   new character.

   A memo learns a character in a call of iconv(3) of its own (about 500
   instructions with what goes round it), which pays once the character
   comes back a few times.  In what 512 KiB of random bytes decode to,
   GB18030's 298,948 characters are 24,024 different ones: learning them
   all made the encoder slower than iconv(1) (33.3 million instructions
   to 23.2).  The learner's iconv_t is from UCS-4, the same step iconv(1)
   takes after its own UTF-8 decoder, and a run through it costs that
   step and one call a run.

   Exactness.  glibc's encoders of charsets that keep no state write a
   run given in one call as they write its characters a call each
   (iconv_encode.c, RUNS), except where one composes two characters into
   one code: then the run writes what iconv(1) writes, and what the
   memo writes with its pairs (enc_memo_pair) too.  Such an encoder
   holds the first of a pair back until the next character shows; so a
   run ends only where that cannot matter: before a character of ASCII,
   which is the second of no pair, or after one the memo knows is held
   back by nothing.  The learner's flush at the end of a run writes
   what it held.  Where the encoder cannot encode a character, the run
   stops before it with all before it written (the flush too), and the
   state machine takes it.  */

#include <config.h>

#include <errno.h>

#include "iconv_memo.h"


enum
{
  RUN_MIN = 8,                  /* The fewest worth a call.  */
  RUN_LE = 512,                 /* The most, for a learner of UTF-32LE.  */
  /* The memo learns while what it knew, of characters beyond ASCII,
     is so many times what it learned.  */
  RUN_PAYS = 1,
  RUN_SAMPLE = 8                /* One in so many characters sampled.  */
};

bool
enc_memo_runs_now (struct enc_memo const *m)
{
  return m->tocode && m->ahead_form != AHEAD_NONE
         && m->hits < (uint64_t) m->learned * RUN_PAYS;
}

/* Whether a run of C, the last of the run, and then the character that
   M's fast path goes on with, are written as the two apart.  */
static inline bool
ends_run (struct enc_memo const *m, ucs4_t c)
{
  uint64_t v = enc_memo_get (m, c);
  return v != 0 && (v & 0xF) != ENC_NONE && !(v & ENC_HELD);
}

size_t
enc_memo_through (struct enc_memo *m, ucs4_t const *cp, size_t k,
                  uint8_t *out, size_t room, size_t *wrote)
{
  uint8_t le[4 * RUN_LE];
  size_t end, il, ol, taken, j, r;
  ICONV_CONST char *ip = (ICONV_CONST char *) cp;
  char *op = (char *) out;

  if (!m->tocode || room < 2 * MAX_ENCODED)
    return 0;
  if (m->ahead_form == AHEAD_UNTRIED)
    enc_memo_open_ahead (m);
  if (m->ahead_form != AHEAD_LE && m->ahead_form != AHEAD_HOST)
    return 0;
  /* Room for all the run writes, and its flush.  */
  if (room / MAX_ENCODED - 1 < k)
    k = room / MAX_ENCODED - 1;
  if (m->ahead_form == AHEAD_LE && RUN_LE < k)
    k = RUN_LE;
  /* The run ends after its last character of ASCII, or one that the
     memo knows is held by nothing.  */
  for (end = k; end > 0 && cp[end - 1] >= 0x80 && !ends_run (m, cp[end - 1]);
       end--)
    continue;
  if (end < RUN_MIN)
    return 0;
  if (m->ahead_form == AHEAD_LE)
    {
      for (j = 0; j < end; j++)
        enc_learner_unit (false, cp[j], le + 4 * j);
      ip = (ICONV_CONST char *) le;
    }
  iconv (m->ahead, NULL, NULL, NULL, NULL);
  il = 4 * end;
  ol = room;
  r = iconv (m->ahead, &ip, &il, &op, &ol);
  taken = end - il / 4;
  /* Anything but EILSEQ (an irreversible conversion too: the state
     machine's encoder says so of it), or a run that took nothing, is
     the state machine's; what the run wrote is written again.  */
  if ((r == (size_t) -1 ? errno != EILSEQ : r != 0) || taken == 0)
    return 0;
  if (iconv (m->ahead, NULL, NULL, &op, &ol) == (size_t) -1)
    return 0;
  /* How many the memo knew, in a sample (see enc_memo_runs_now).  */
  for (j = 0; j < taken; j += RUN_SAMPLE)
    if (cp[j] >= 0x80 && enc_memo_get (m, cp[j]) != 0)
      m->hits += RUN_SAMPLE;
  *wrote = room - ol;
  return taken;
}
