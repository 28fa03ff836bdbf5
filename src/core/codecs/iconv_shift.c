/* The bridge's memo across shifts: the charsets of two states, like the
   IBM EBCDIC double-byte code pages (IBM930, IBM933, IBM935, IBM937,
   IBM939, IBM1364, IBM1371, IBM1388, IBM1390, IBM1399 in glibc), where
   SO (0x0E) leads to the double-byte state and SI (0x0F) back, or
   ISO-2022-JP, where ESC $ B and ESC ( B do (the encoders are in
   iconv_shift_enc.c).

   Specification: none of its own.  As iconv_memo.c, this reproduces what
   the bridge's one-character-per-call decoding (iconv_bridge.c) gives.
   A shift is consumed without a value, which ends the use of the plain
   memo for good (the decoder has left the state its memo was learned
   in).  Here the decoder instead follows the shifts itself and keeps a
   memo per state, so that text that shifts often still decodes without
   iconv(3) once its characters have been seen.

   What makes that exact is told from what the decoder does, never from
   the charset's name:

   - The probe (shift_probe_charset, once per charset, after
     memo_probe_charset):
     from the initial state exactly two bytes are consumed alone without
     a value and nothing to flush, and every other byte passes the
     stateless probe of iconv_memo.c.  One of them, SO, is followed by
     characters of two bytes (a few found after it, the wide sentinel);
     SO, the wide sentinel, the other byte SI and all the single bytes,
     converted together, give exactly their values; SO again after SO
     keeps the wide reading, SI after SI (or SI alone) the single one;
     and an error keeps the state it happened in: after SO and an
     illegal pair, the wide sentinel still reads wide, and after an
     illegal single byte, the single bytes still read as they do.

   - Shifts of several bytes (escape_note): a charset whose probe found
     no such byte (ISO-2022-JP) may still be one of two states whose
     shifts are escape sequences, as the text shows them.  The first
     sequence consumed alone that changes how some single byte reads
     puts the decoder in limbo (its state unknown: no memo is read or
     learned); a later one after which every single byte reads as
     before becomes SI, the first SO, if the checks above pass with
     them (for good, for the charset: once tried).  A sequence after
     which every single byte reads as before, and SO, the wide sentinel
     and SI as before, changes nothing the memos know (ISO-2022-KR's
     header); any other (ISO-2022-JP's ESC ( J, after which 5C is the
     yen sign) ends both memos for good.

   - The tracking: the decoder's state is the initial one until a call
     consumes SO or SI alone without a value (the shortest-prefix loop
     always shows them alone), then the state those lead to; a flush
     returns it to the initial state.  Any other bytes consumed without a
     value end the use of both memos for good, as before.

   - The check: a character seen twice in the initial state is checked
     as iconv_memo.c checks it.  Those of the other state are learned
     the first time, as there are thousands of them (each costs a call
     the first time), and checked by SHIFT_BATCH in one call of a probe
     iconv_t of their own (or fewer, when one of them is seen again):
     from its initial state, SO, each character followed by one of the
     wide sentinel, another of it, SI and two of the single sentinel
     must give exactly their values, with nothing to flush after.  So
     each was read in that state, and it left the reading of the next
     character as it was; they are used only once they pass, and any
     surprise ends the use of both memos for good.  Errors are never
     learned.

   - Learning ahead: where the loop below meets, after SO, two bytes it
     does not know whose first its memo knows as a valid beginning (one
     iconv() call said EINVAL about it alone), it asks the probe about
     them and the pairs like them that follow, up to AHEAD, in one call
     checked as above (each pair followed by a character of the wide
     sentinel); those before the first surprise are used at once, and
     that one is left to iconv() for good (memo_leave: an error, a
     character of two values, ...).  A pair the call reads as one value,
     with the sentinel after it read right, is one character of that
     state: were it the beginning of a longer one, or did it change the
     state, the sentinel would read otherwise.

   - The loop (shift_decode): at each place where a character may begin,
     SO and SI change the state and count as bytes consumed without a
     value (they belong to the next value, whose offset is theirs, as in
     the bridge); any other bytes are read with the memo of the state,
     and it stops where that memo does not know them, so the calls of
     the bridge do the rest, from the same state: iconv() saw none of
     the shifts the loop read, so when the loop ends in the other state,
     the decoder's iconv_t is given the last shift alone, which leads
     there from either state.

   What the probe cannot see is a character that gives its value and
   silently changes the state; test_iconv_reference.c compares the bridge
   with iconv(3) for these charsets on text in which characters repeat
   and shifts come often, under every policy and block size.  */

#include <config.h>

#include "iconv_shift.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "unicode/utf8.h"

enum
{
  /* Enough for SO, SI, the wide sentinel and every single byte.  */
  SEQ_MAX = 4 + MEMO_DEPTH + 2 * MEMO_SENTINEL + 256,
  /* find_wide: the tries in a row that finds no character before it
     is left.  */
  ROW_TRIES = 16
};

/* Bytes to convert, and the values they must give.  */
struct seq
{
  uint8_t b[SEQ_MAX];
  ucs4_t cp[SEQ_MAX];
  size_t n, count;
};

static void
seq_add (struct seq *q, uint8_t const *b, size_t n, ucs4_t const *cp,
         size_t count)
{
  memcpy (q->b + q->n, b, n);
  q->n += n;
  /* A shift byte comes with no value (CP NULL), and memcpy takes no
     null pointer, even for no bytes.  */
  if (count > 0)
    memcpy (q->cp + q->count, cp, count * sizeof *cp);
  q->count += count;
}

/* Add SO, or SI, of the charset S to Q.  */
static void
seq_so (struct seq *q, struct memo_charset const *s)
{
  seq_add (q, s->so_seq, s->so_len, NULL, 0);
}

static void
seq_si (struct seq *q, struct memo_charset const *s)
{
  seq_add (q, s->si_seq, s->si_len, NULL, 0);
}

int
shift_at (struct memo_charset const *cs, uint8_t const *s, size_t n)
{
  int k;
  for (k = 1; k <= 2; k++)
    {
      uint8_t const *q = k == 1 ? cs->so_seq : cs->si_seq;
      size_t len = k == 1 ? cs->so_len : cs->si_len, j, m = n < len ? n : len;
      /* A byte at a time: at most SHIFT_SEQ_MAX, where a call of memcmp
         cost ISO-2022-JP's text 10% of its instructions.  */
      for (j = 0; j < m && s[j] == q[j]; j++)
        ;
      if (j == m)
        return n < len ? -1 : k;
    }
  return 0;
}


/* Whether CD (to UCS-4 in the machine's order when HOST, else to
   UTF-32LE), first put in its initial state when RESET, converts the
   bytes of Q to its values exactly; with nothing to flush after when
   FLUSH.  */
static bool
gives_as (iconv_t cd, bool host, bool reset, struct seq const *q,
          bool flush)
{
  uint8_t out[4 * SEQ_MAX + 4 * PIVOT_MIN_ROOM];
  size_t used, bytes, k;
  int err;

  if (reset)
    iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, q->b, q->n, out, sizeof out, &used, &err);
  if (err != 0 || used != q->n || bytes != 4 * q->count)
    return false;
  for (k = 0; k < q->count; k++)
    if (memo_value_at (host, out + 4 * k) != q->cp[k])
      return false;
  if (flush)
    {
      char *op = (char *) out;
      size_t ol = sizeof out;
      iconv (cd, NULL, NULL, &op, &ol);
      return ol == sizeof out;
    }
  return true;
}

/* What CD, from its initial state, does with the bytes S[0..N): the
   bytes used and values given; sets *ERR.  */
static size_t
try_bytes (iconv_t cd, uint8_t const *s, size_t n, size_t *bytes, int *err)
{
  uint8_t out[4 * PIVOT_MIN_ROOM];
  size_t used;
  iconv (cd, NULL, NULL, NULL, NULL);
  *bytes = bridge_convert (cd, s, n, out, sizeof out, &used, err);
  return used;
}

/* Find the wide sentinel of S after its SO, from all over the range of
   first bytes, with CD (to UCS-4 in the machine's order when HOST, else
   to UTF-32LE), and an illegal pair BAD after SO; false if either is
   missing, and *REFUSED when CD gave a value that UTF-32LE refuses.  */
static bool
find_wide (struct memo_charset *s, iconv_t cd, bool host, uint8_t *bad,
           bool *refused)
{
  unsigned int j, lo, found = 0;
  bool have_bad = false;

  for (j = 0; j < 256 && (found < MEMO_SENTINEL || !have_bad); j++)
    {
      uint8_t in[SHIFT_SEQ_MAX + 2];
      size_t o = s->so_len;
      bool row = false;
      size_t alone, bytes1;
      int err1;
      bool refuses;
      memcpy (in, s->so_seq, o);
      in[o] = (uint8_t) (j * 37 + 0x40);
      if (in[o] == s->so || in[o] == s->si)
        continue;
      /* Once a pair that is none is known, a row is left at its first
         character, at once when the decoder refuses its first byte
         alone where a beginning would want more (ISO-2022-KR and
         ISO-2022-CN refuse most), and after ROW_TRIES tries that found
         none (IBM937's rows of nothing): each row took 64 calls.  On
         every charset glibc lists, the same pairs are found.  */
      alone = try_bytes (cd, in, o + 1, &bytes1, &err1);
      refuses = alone == o && bytes1 == 0 && err1 == EILSEQ;
      for (lo = 0;
           lo < 64 && !((row || refuses || lo >= ROW_TRIES) && have_bad);
           lo++)
        {
          uint8_t out[4 * PIVOT_MIN_ROOM];
          size_t used, bytes;
          int err;
          /* A third of each row, from the middle up: enough to find
             characters where there are any, at little cost where there
             are none (a search order only: what is found is what
             counts).  */
          in[o + 1] = (uint8_t) (3 * lo + 0x40);
          iconv (cd, NULL, NULL, NULL, NULL);
          bytes = bridge_convert (cd, in, o + 2, out, sizeof out, &used,
                                  &err);
          if (used == o + 2 && bytes == 4 && err == 0 && !row
              && found < MEMO_SENTINEL && in[o + 1] != s->so
              && in[o + 1] != s->si)
            {
              s->wide[2 * found] = in[o];
              s->wide[2 * found + 1] = in[o + 1];
              s->wide_cp[found] = memo_value_at (host, out);
              if (s->wide_cp[found++] == UINT32_MAX)
                {
                  *refused = true;
                  return false;
                }
              row = true;
            }
          else if (used == o && bytes == 0 && err == EILSEQ && !have_bad)
            {
              bad[0] = in[o];
              bad[1] = in[o + 1];
              have_bad = true;
            }
        }
    }
  s->wide_len = found;
  return found > 1 && have_bad;
}

/* The checks of the comment at the top, with SO and SI as S says, with
   CD (to UCS-4 in the machine's order when HOST, else to UTF-32LE).  */
static bool
shift_checks (struct memo_charset const *s, iconv_t cd, bool host,
              uint8_t const *bad, uint8_t const *single, ucs4_t const *cp,
              size_t n)
{
  struct seq q;
  size_t b, bytes;
  int err;

  /* SO, wide, SI, singles; SO SO, wide; SI, singles; SO SI SI, singles.  */
  q.n = q.count = 0;
  seq_so (&q, s);
  seq_add (&q, s->wide, 2 * s->wide_len, s->wide_cp, s->wide_len);
  seq_si (&q, s);
  seq_add (&q, single, n, cp, n);
  if (!gives_as (cd, host, true, &q, true))
    return false;
  q.n = q.count = 0;
  seq_so (&q, s);
  seq_so (&q, s);
  seq_add (&q, s->wide, 2 * s->wide_len, s->wide_cp, s->wide_len);
  if (!gives_as (cd, host, true, &q, true))
    return false;
  q.n = q.count = 0;
  seq_si (&q, s);
  seq_add (&q, single, n, cp, n);
  if (!gives_as (cd, host, true, &q, true))
    return false;
  q.n = q.count = 0;
  seq_so (&q, s);
  seq_si (&q, s);
  seq_si (&q, s);
  seq_add (&q, single, n, cp, n);
  if (!gives_as (cd, host, true, &q, true))
    return false;

  /* An error after SO keeps the wide reading; SI then the single one.  */
  {
    uint8_t in[SHIFT_SEQ_MAX + 2];
    memcpy (in, s->so_seq, s->so_len);
    in[s->so_len] = bad[0];
    in[s->so_len + 1] = bad[1];
    if (try_bytes (cd, in, s->so_len + 2, &bytes, &err) != s->so_len
        || bytes != 0 || err != EILSEQ)
      return false;
    q.n = q.count = 0;
    seq_add (&q, s->wide, 2 * s->wide_len, s->wide_cp, s->wide_len);
    seq_si (&q, s);
    seq_add (&q, single, n, cp, n);
    if (!gives_as (cd, host, false, &q, true))
      return false;
  }
  /* An illegal single byte keeps the single reading.  */
  for (b = 0; b < 256; b++)
    {
      uint8_t in = (uint8_t) b;
      if (in != s->so && in != s->si
          && try_bytes (cd, &in, 1, &bytes, &err) == 0 && bytes == 0
          && err == EILSEQ)
        {
          q.n = q.count = 0;
          seq_add (&q, single, n, cp, n);
          return gives_as (cd, host, false, &q, true);
        }
    }
  return true;
}

/* The probe of S's shifts after memo_probe_charset's (which read values
   in the machine's order when HOST): false when HOST met a value that
   UTF-32LE refuses.  */
static bool
probe_shifts (struct memo_charset *s, char const *fromcode, bool host)
{
  unsigned int k;
  uint8_t bad[2];
  iconv_t cd;
  bool refused = false;

  if (!s->together || s->shifts != 2 || s->sentinel_len == 0
      || (cd = iconv_open (host ? "WCHAR_T" : "UTF-32LE", fromcode))
         == (iconv_t) -1)
    return true;
  for (k = 0; k < 2 && !s->shifting && !refused; k++)
    {
      s->so = s->so_seq[0] = s->shift[k];
      s->si = s->si_seq[0] = s->shift[1 - k];
      s->so_len = s->si_len = 1;
      s->shifting = (find_wide (s, cd, host, bad, &refused)
                     && shift_checks (s, cd, host, bad, s->single,
                                      s->single_cp, s->nsingle));
    }
  iconv_close (cd);
  return !refused;
}

void
shift_probe_charset (struct memo_charset *s, char const *fromcode)
{
  memo_probe_charset (s, fromcode);
  /* Where UTF-32LE would have seen an error: all of it again so.  */
  if (!probe_shifts (s, fromcode, s->probe_host))
    {
      memo_probe_in (s, fromcode, false);
      probe_shifts (s, fromcode, false);
    }
}

void
shift_swap_memos (struct shift_track *t, struct memo *m)
{
  struct memo tmp = *m;
  *m = t->other;
  t->other = tmp;
  t->shifted = !t->shifted;
}


/* gives, from its initial state, for T's probe.  */
static bool
probe_gives (struct shift_track const *t, struct seq const *q, bool flush)
{
  return gives_as (t->probe, t->probe_host, true, q, flush);
}

/* Whether the sequence S[0..USED), which the decoder of T consumed
   without a value in its initial state, changes nothing its memos know
   (ISO-2022-KR's header ESC $ ) C, which designates what SO reads
   anyway; not ISO-2022-JP's ESC ( J, after which 5C is the yen sign):
   from its initial state, the probe reads S and every single byte as
   those alone, and S, SO, the wide sentinel and SI as those alone, with
   nothing to flush after.  */
static bool
changes_nothing (struct shift_track *t, struct memo_charset const *cs,
                 uint8_t const *s, size_t used)
{
  struct seq q;
  if (t->shifted || used > MAX_ERROR_BYTES || !shift_probe_ready (t, cs))
    return false;
  q.n = q.count = 0;
  seq_add (&q, s, used, NULL, 0);
  seq_add (&q, cs->single, cs->nsingle, cs->single_cp, cs->nsingle);
  if (!probe_gives (t, &q, true))
    return false;
  q.n = q.count = 0;
  seq_add (&q, s, used, NULL, 0);
  seq_so (&q, cs);
  seq_add (&q, cs->wide, 2 * cs->wide_len, cs->wide_cp, cs->wide_len);
  seq_si (&q, cs);
  return probe_gives (t, &q, true);
}

/* Whether the probe of T, from its initial state, reads every single
   byte of CS (what memo_probe_charset found) after S[0..USED) as it
   does alone, with nothing to flush after.  */
static bool
singles_after (struct shift_track *t, struct memo_charset const *cs,
               uint8_t const *s, size_t used)
{
  struct seq q;
  if (!shift_probe_ready (t, cs))
    return false;
  q.n = q.count = 0;
  seq_add (&q, s, used, NULL, 0);
  seq_add (&q, cs->single, cs->nsingle, cs->single_cp, cs->nsingle);
  return probe_gives (t, &q, true);
}

/* The decoder of a charset CS not (yet) known of two states consumed the
   escape sequence S[0..USED) alone.  One that leaves every single byte
   read as before changes nothing the memo knows.  The first other puts
   T in limbo, its state unknown, and the memo waits; another that
   leads back to the single bytes' reading may then make CS a charset of
   two states (ISO-2022-JP's ESC $ B and ESC ( B): with the first as SO
   and it as SI, the checks of shift_probe_charset must pass, and
   decoding goes on in the initial state, with the memo.  False when the
   memo must stop.  */
static bool
escape_note (struct shift_track *t, struct memo_charset *cs,
             char const *fromcode, uint8_t const *s, size_t used)
{
  uint8_t bad[2];
  iconv_t cd;
  bool refused = false, host;
  if (used < 2 || SHIFT_SEQ_MAX < used || cs->escapes_tried
      || !cs->together || cs->shifts != 0 || cs->sentinel_len == 0)
    return false;
  if (t->limbo && used == t->cand_len && memcmp (s, t->cand, used) == 0)
    return true;
  if (!singles_after (t, cs, s, used))
    {
      if (t->limbo)
        return false;
      memcpy (t->cand, s, used);
      t->cand_len = (unsigned int) used;
      t->limbo = true;
      return true;
    }
  if (!t->limbo)
    return true;
  cs->escapes_tried = true;
  memcpy (cs->so_seq, t->cand, t->cand_len);
  memcpy (cs->si_seq, s, used);
  cs->so_len = t->cand_len;
  cs->si_len = (unsigned int) used;
  cs->so = cs->so_seq[0];
  cs->si = cs->si_seq[0];
  host = strcmp (memo_ucs4 (), "WCHAR_T") == 0;
  if ((cd = iconv_open (memo_ucs4 (), fromcode)) == (iconv_t) -1)
    return false;
  cs->shifting = (find_wide (cs, cd, host, bad, &refused)
                  && shift_checks (cs, cd, host, bad, cs->single,
                                   cs->single_cp, cs->nsingle));
  iconv_close (cd);
  if (!cs->shifting)
    return false;
  t->limbo = false;
  t->on = true;
  return true;
}

bool
shift_note (struct shift_track *t, struct memo *m,
            struct memo_charset *cs, char const *fromcode,
            uint8_t const *s, size_t used, int err)
{
  int w;
  if (err != 0 || used == 0)
    return false;
  if (!cs->decided)
    shift_probe_charset (cs, fromcode);
  t->fromcode = fromcode;
  if (!cs->shifting)
    return escape_note (t, cs, fromcode, s, used);
  w = shift_at (cs, s, used);
  if (w <= 0 || used != (w == 1 ? cs->so_len : cs->si_len))
    return used > 1 && changes_nothing (t, cs, s, used);
  /* Until the first shift the decoder is in its initial state: it has
     shown no other (the caller's memo is still in use).  */
  t->on = true;
  if ((w == 1) != t->shifted)
    shift_swap_memos (t, m);
  return true;
}

bool
shift_in_values (struct memo_charset *cs, char const *fromcode,
                 uint8_t const *s, size_t used)
{
  if (used < 2)
    return false;
  if (!cs->decided)
    shift_probe_charset (cs, fromcode);
  return (cs->shifting
          && (memchr (s, cs->so, used) || memchr (s, cs->si, used)));
}

bool
shift_after_values (struct shift_track *t, struct memo *m,
                    struct memo_charset const *cs, uint8_t const *s,
                    size_t used, uint8_t const *out, size_t bytes)
{
  ucs4_t cp[PIVOT_MIN_ROOM];
  struct seq q;
  size_t k, count = bytes / 4, sl = 0;
  int w = 0;

  if (!cs->shifting || used < 2 || MAX_ERROR_BYTES < used
      || PIVOT_MIN_ROOM < count || !shift_probe_ready (t, cs))
    return false;
  /* The last shift whole, and no byte that may begin one before it.  */
  for (k = 1; k < used && w <= 0; k++)
    if ((w = shift_at (cs, s + k, used - k)) > 0)
      sl = used - k;
  if (w <= 0 || sl != (w == 1 ? cs->so_len : cs->si_len)
      || memchr (s, cs->so, used - sl) || memchr (s, cs->si, used - sl))
    return false;
  for (k = 0; k < count; k++)
    cp[k] = get32le (out + 4 * k);
  q.n = q.count = 0;
  if (t->shifted)
    seq_so (&q, cs);
  seq_add (&q, s, used - sl, cp, count);
  seq_add (&q, s + used - sl, sl, NULL, 0);
  if (!probe_gives (t, &q, false))
    return false;
  t->on = true;
  if ((w == 1) != t->shifted)
    shift_swap_memos (t, m);
  return true;
}

void
shift_reset (struct shift_track *t, struct memo *m)
{
  if (t->shifted)
    shift_swap_memos (t, m);
  t->limbo = false;
}

/* Whether T's probe is open, opened if need be: to UCS-4 in the
   machine's order (glibc's WCHAR_T, one step where UTF-32LE is two,
   which makes it read the characters of IBM1388 in less than half the
   instructions), when it reads the sentinels of CS, single and wide,
   as their values; else to UTF-32LE.  memo_value_at refuses in its values
   what UTF-32LE would, and a value refused is a surprise, as an error
   is, wherever the probe is used.  */
bool
shift_probe_ready (struct shift_track *t, struct memo_charset const *cs)
{
  if (!t->probe_open)
    {
      struct seq q;
      q.n = q.count = 0;
      seq_add (&q, cs->sentinel, cs->sentinel_len, cs->sentinel_cp,
               cs->sentinel_len);
      seq_so (&q, cs);
      seq_add (&q, cs->wide, 2 * cs->wide_len, cs->wide_cp, cs->wide_len);
      seq_si (&q, cs);
      t->probe_host = true;
      t->probe = iconv_open ("WCHAR_T", t->fromcode);
      if (t->probe != (iconv_t) -1
          && (q.count == 0 || !probe_gives (t, &q, true)))
        {
          iconv_close (t->probe);
          t->probe = (iconv_t) -1;
        }
      if (t->probe == (iconv_t) -1)
        {
          t->probe_host = false;
          t->probe = iconv_open ("UTF-32LE", t->fromcode);
        }
      if (t->probe == (iconv_t) -1)
        return false;
      t->probe_open = true;
    }
  return true;
}

/* Check the characters T learned after SO, in one call of its probe,
   from its initial state: SO, each followed by the first character of
   the wide sentinel, then the last, SI and the first and last of the
   single one, must give exactly their values, with nothing to flush
   after.  So each was read after SO, and left the reading of the next
   character of two bytes as it was, and SI still leads back.  Let the
   memo WIDE use them when they pass.  */
static bool
check_pending (struct shift_track *t, struct memo *wide,
               struct memo_charset const *cs, char const *fromcode)
{
  struct seq q;
  unsigned int k, w = cs->wide_len - 1, z = cs->sentinel_len - 1;
  bool ok;

  t->fromcode = fromcode;
  if (!shift_probe_ready (t, cs))
    return false;
  q.n = q.count = 0;
  seq_so (&q, cs);
  for (k = 0; k < t->npend; k++)
    {
      seq_add (&q, t->pend[k], t->pend_len[k], &t->pend_cp[k], 1);
      seq_add (&q, cs->wide, 2, cs->wide_cp, 1);
    }
  seq_add (&q, cs->wide + 2 * w, 2, cs->wide_cp + w, 1);
  seq_si (&q, cs);
  seq_add (&q, cs->sentinel, 1, cs->sentinel_cp, 1);
  seq_add (&q, cs->sentinel + z, 1, cs->sentinel_cp + z, 1);
  ok = probe_gives (t, &q, true);
  for (k = 0; ok && k < t->npend; k++)
    memo_trust (wide, t->pend[k], t->pend_len[k]);
  t->npend = 0;
  return ok;
}

bool
shift_learn (struct shift_track *t, struct memo *m,
             struct memo_charset const *cs, char const *fromcode,
             uint8_t const *s, size_t len, ucs4_t c, enum memo_sight sight)
{
  if (sight == MEMO_CLASH || !cs->shifting)
    return false;
  /* A character seen once is learned at once: there are thousands of
     them, each costing a call the first time, and a check shared with
     others costs much less.  One seen again is in demand: check now.  */
  if (sight == MEMO_FIRST)
    {
      memcpy (t->pend[t->npend], s, len);
      t->pend_len[t->npend] = (uint8_t) len;
      t->pend_cp[t->npend++] = c;
      if (t->npend < SHIFT_BATCH)
        return true;
    }
  else if (sight != MEMO_AGAIN || t->npend == 0)
    return true;
  return check_pending (t, m, cs, fromcode);
}

void
shift_free (struct shift_track *t)
{
  memo_free (&t->other);
  t->npend = 0;
  t->on = t->limbo = false;
  if (t->probe_open)
    iconv_close (t->probe);
  t->probe_open = false;
}
