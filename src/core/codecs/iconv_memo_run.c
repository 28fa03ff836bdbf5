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
   run ends only where that cannot matter: after a character of ASCII,
   which is the first of no pair, or after one the memo knows is held
   back by nothing.  Runs are given only to an encoder of which the
   memo learned characters beyond ASCII a call each (RUN_PROVEN), each
   one showing that the encoder keeps no state after it, and a run must
   end in the initial state, with nothing to flush, or it is not used:
   an encoder of shifts that the memo has not found out yet
   (ISO-2022-JP's, whose ASCII alone it learned) would write from the
   initial state what it writes otherwise after an earlier character
   (ISO-2022-JP-2's Greek after ESC . F, designated once).  Where the
   encoder cannot encode a character, the run is given again up to
   where it may end before that character, and the state machine takes
   what follows.  */

#include <config.h>

#include <errno.h>
#include <stdint.h>

#include "iconv_memo.h"

enum
{
  RUN_MIN = 8,                  /* The fewest worth a call.  */
  /* Characters beyond ASCII that the memo learned a call each, each
     showing that the encoder writes it alone and keeps no state after
     it, before runs are given to it: an encoder of shifts that the
     memo has not found out yet shows one at its first such character
     (ISO-2022-JP-2, whose runs would designate again what an earlier
     character designated).  */
  RUN_PROVEN = 16,
  RUN_LE = 512,                 /* The most, for a learner of UTF-32LE.  */
  /* The memo learns while what it knew, of characters beyond ASCII,
     is so many times what it learned: a character learned costs a call
     (some 500 instructions), and each time it comes back the memo
     saves a run some 25.  Instructions ÷ iconv(1)'s on random text at
     1, 4, 24 and 32: EUC-KR 0.98, 1.06, 0.85, 0.83; JOHAB 1.12, 0.78,
     0.75, 0.75; SHIFT_JIS 0.87, 0.89, 0.80, 0.77; on Zipf's GB18030
     text 0.56, 0.56, 0.57, 0.57.  */
  RUN_PAYS = 24,
  RUN_SAMPLE = 8                /* One in so many characters sampled.  */
};

bool
enc_memo_runs_now (struct enc_memo const *m)
{
  return (m->tocode && m->ahead_form != AHEAD_NONE
          && m->learned_wide >= RUN_PROVEN
          && m->hits < (uint64_t) m->learned * RUN_PAYS);
}

/* Whether a run of C, the last of the run, and then the character that
   M's fast path goes on with, are written as the two apart.  */
static inline bool
ends_run (struct enc_memo const *m, ucs4_t c)
{
  uint64_t v = enc_memo_get (m, c);
  return v != 0 && (v & 0xF) != ENC_NONE && !(v & ENC_HELD);
}

/* The end of a run of the first K values at CP: after the last of
   ASCII, or one that M knows is held back by nothing; 0 if none.  */
static size_t
run_end (struct enc_memo const *m, ucs4_t const *cp, size_t k)
{
  while (k > 0 && cp[k - 1] >= 0x80 && !ends_run (m, cp[k - 1]))
    k--;
  return k;
}

/* Encode CP[0..END) (IN: those values in the learner's form) with M's
   learner from its initial state into OUT[0..ROOM), and its flush: the
   values taken, all or up to the first it cannot encode, and in *WROTE
   the bytes; SIZE_MAX for any other error, or when the flush wrote
   anything after all were taken (a shift back to the initial state:
   the encoder keeps a state after all).  */
static size_t
through (struct enc_memo *m, uint8_t const *in, size_t end, uint8_t *out,
         size_t room, size_t *wrote)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) out;
  size_t il = 4 * end, ol = room, r, taken, before;
  iconv (m->ahead, NULL, NULL, NULL, NULL);
  r = iconv (m->ahead, &ip, &il, &op, &ol);
  taken = end - il / 4;
  /* An irreversible conversion is an error too: the state machine's
     encoder says so of it.  */
  if (r == (size_t) -1 ? errno != EILSEQ : r != 0)
    return SIZE_MAX;
  before = ol;
  if (iconv (m->ahead, NULL, NULL, &op, &ol) == (size_t) -1
      || (taken == end && ol != before))
    return SIZE_MAX;
  *wrote = room - ol;
  return taken;
}

size_t
enc_memo_through (struct enc_memo *m, ucs4_t const *cp, size_t k,
                  uint8_t *out, size_t room, size_t *wrote)
{
  uint8_t le[4 * RUN_LE];
  uint8_t const *in = (uint8_t const *) cp;
  size_t end, taken, j;

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
  if ((end = run_end (m, cp, k)) < RUN_MIN)
    return 0;
  if (m->ahead_form == AHEAD_LE)
    {
      for (j = 0; j < end; j++)
        enc_learner_unit (false, cp[j], le + 4 * j);
      in = le;
    }
  taken = through (m, in, end, out, room, wrote);
  /* Stopped before a value it cannot encode: again, up to where a run
     may end before it (the flush wrote what an encoder of shifts would
     not have written there, or a character held back).  What the run
     wrote is written again, or by the state machine.  */
  if (taken != SIZE_MAX && taken < end)
    taken = ((end = run_end (m, cp, taken)) < RUN_MIN ? SIZE_MAX
             : through (m, in, end, out, room, wrote));
  if (taken == SIZE_MAX || taken < end || taken == 0)
    return 0;
  /* How many the memo knew, in a sample (see enc_memo_runs_now).  */
  for (j = 0; j < taken; j += RUN_SAMPLE)
    if (cp[j] >= 0x80 && enc_memo_get (m, cp[j]) != 0)
      m->hits += RUN_SAMPLE;
  return taken;
}
