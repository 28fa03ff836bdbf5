/* Decoding, without iconv(3), the single-byte charsets whose decoder
   holds a letter back (glibc's CP1255, CP1258, TCVN).

   Specification: none of its own.  What this gives is what the bridge's
   one-byte-per-call decoding gives (iconv_bridge.c): the same values,
   each with the same offset and length.  Such a decoder holds a letter
   (a Hebrew letter, a Vietnamese vowel) until the next byte, which may
   be a mark that composes with it; the memo (iconv_memo.c) is not used
   for it, as a byte consumed without a value means state to the memo.

   The table says, for each byte, what it does.  A byte is HOLD_PLAIN
   when, converted alone from the initial state, it gives one value and
   leaves nothing to flush, and HOLD_HELD when it gives nothing and the
   flush gives one value.  Then each such byte B is converted after each
   HOLD_HELD byte H: B must give H's value (and its own, if HOLD_PLAIN)
   and leave its own class's state behind (nothing to flush, or its own
   value); a byte that does anything else is HOLD_STOP, and so is every
   byte that is illegal or does something else alone.

   Except a mark: a byte HOLD_PLAIN alone which, after a held letter,
   gives either the letter and then its own value (as HOLD_PLAIN), or
   what the two compose to and nothing held (CP1258's tone marks), or
   nothing, holding what they compose to for a mark that may follow
   (CP1255's points: shin and shin dot, until a dagesh).  Such a letter
   is a state of its own, by its value; what each mark does in each
   state is learned from a call of the bytes that lead there and the
   mark, then a flush.  The table is then checked, in one call a mark,
   with triples (a held letter, the mark, a byte of any kind: each held
   letter and each byte is in one), and in one call for each letter
   composed and held, with the bytes that first led there before each
   byte.  Anything else, and every mark is HOLD_STOP.  So, from the
   initial state, any sequence of HOLD_PLAIN, HOLD_HELD and HOLD_MARK
   bytes goes through states the table has seen: nothing held, or one
   letter held as it was.

   The bridge's bookkeeping, which hold_decode follows: each call
   consumes one byte (the charset has no longer character).  A call
   that gives values gives them the offset of the first byte consumed
   since the last call that gave values, and the first of them the
   length of the bytes from there on (the others 0).  So a letter held
   from the initial state gets its own offset and a length of 2; a
   letter held after another, whose call gave that one out, the offset
   of the byte after it and a length of 1.

   hold_decode runs only from the initial state, and ends after a
   HOLD_PLAIN or HOLD_MARK byte after which nothing is held and the
   bridge's bookkeeping is back where it started; what came after that byte it
   takes back and leaves to iconv(3).  The bridge knows it is in the
   initial state again when a call at a HOLD_PLAIN byte, after a call
   that gave values, gives that byte's value alone.  */

#include <config.h>

#include "iconv_hold.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "iconv_memo.h"
#include "unicode/utf16.h"

/* Convert S[0..LEN) with CD from where it is, then flush it: the
   values given before the flush into *GAVE (up to two), how many into
   *NGAVE, and the values of the flush into *NFLUSH (and *FLUSHED).
   False when CD did not consume it all or said an error.  */
static bool
convert_then_flush (iconv_t cd, uint8_t const *s, size_t len, ucs4_t *gave,
                    size_t *ngave, ucs4_t *flushed, size_t *nflush)
{
  uint8_t out[4 * PIVOT_MIN_ROOM];
  char *op = (char *) out;
  size_t used, bytes, ol = sizeof out, k;
  int err;

  bytes = bridge_convert (cd, s, len, out, sizeof out, &used, &err);
  if (err != 0 || used != len || bytes % 4 != 0 || bytes > 8)
    return false;
  *ngave = bytes / 4;
  for (k = 0; k < *ngave; k++)
    gave[k] = get32le (out + 4 * k);
  iconv (cd, NULL, NULL, &op, &ol);
  bytes = sizeof out - ol;
  *nflush = bytes / 4;
  if (bytes % 4 != 0 || *nflush > 1)
    return false;
  if (*nflush)
    *flushed = get32le (out);
  return true;
}

/* Classify each byte alone, from the initial state of CD; whether any
   is held back.  */
static bool
classify_alone (iconv_t cd, struct hold_table *t)
{
  bool any = false;
  unsigned int b;
  for (b = 0; b < 256; b++)
    {
      uint8_t byte = (uint8_t) b;
      ucs4_t gave[2], flushed = 0;
      size_t ngave, nflush;
      t->cls[b] = HOLD_STOP;
      iconv (cd, NULL, NULL, NULL, NULL);
      if (!convert_then_flush (cd, &byte, 1, gave, &ngave, &flushed,
                               &nflush))
        continue;
      if (ngave == 1 && nflush == 0)
        {
          t->cls[b] = HOLD_PLAIN;
          t->value[b] = gave[0];
        }
      else if (ngave == 0 && nflush == 1)
        {
          t->cls[b] = HOLD_HELD;
          t->value[b] = flushed;
          any = true;
        }
    }
  return any;
}

/* One step of T from the state *ST (*HOLDING: one is held) at the byte
   B: the values it gives into OUT (up to two); how many.  */
static size_t
step (struct hold_table const *t, unsigned int *st, bool *holding,
      uint8_t b, ucs4_t *out)
{
  uint8_t c = t->cls[b];
  uint32_t a = c == HOLD_MARK && *holding ? t->act[t->mark[b]][*st] : 0;
  size_t m = 0;
  if (a & HOLD_KEEP)
    {
      *st = a & HOLD_WHAT;
      return 0;
    }
  if (a & HOLD_GIVE)
    {
      out[0] = a & HOLD_WHAT;
      *holding = false;
      return 1;
    }
  if (*holding)
    out[m++] = t->held[*st];
  *holding = c == HOLD_HELD;
  *st = b;
  if (!*holding)
    out[m++] = t->value[b];
  return m;
}

/* What T says the bytes S[0..LEN) give from the initial state, flush
   included: the values, into OUT (room for LEN); how many.  */
static size_t
simulate (struct hold_table const *t, uint8_t const *s, size_t len,
          ucs4_t *out)
{
  size_t m = 0, k;
  unsigned int st = 0;
  bool holding = false;
  for (k = 0; k < len; k++)
    m += step (t, &st, &holding, s[k], out + m);
  if (holding)
    out[m++] = t->held[st];
  return m;
}

/* Sequences tried in one call: up to HOLD_PATH + 1 bytes for each byte
   value.  */
enum { TRY_MAX = (HOLD_PATH + 1) * 256 };

/* Whether CD, from its initial state, decodes S[0..LEN) in one call,
   then a flush, as T says it does.  */
static bool
agrees (iconv_t cd, struct hold_table const *t, uint8_t const *s, size_t len)
{
  uint8_t out[4 * TRY_MAX + 4 * PIVOT_MIN_ROOM];
  ucs4_t want[TRY_MAX];
  char *op;
  size_t k, m, used, bytes, ol;
  int err;

  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, s, len, out, sizeof out, &used, &err);
  if (err != 0 || used != len)
    return false;
  op = (char *) out + bytes;
  ol = sizeof out - bytes;
  iconv (cd, NULL, NULL, &op, &ol);
  bytes = sizeof out - ol;
  m = simulate (t, s, len, want);
  if (bytes != 4 * m)
    return false;
  for (k = 0; k < m; k++)
    if (get32le (out + 4 * k) != want[k])
      return false;
  return true;
}

/* Whether CD, from its initial state, decodes B after each held byte,
   HELD[0..NHELD), as T says: H1 B H2 B ... HN B in one call, then a
   flush.  So B is tried after each held letter, and each held letter
   after B, in one call instead of one a pair.  */
static bool
follows_each (iconv_t cd, struct hold_table const *t, uint8_t b,
              uint8_t const *held, size_t nheld)
{
  uint8_t s[TRY_MAX];
  size_t k, len = 2 * nheld;
  for (k = 0; k < len; k++)
    s[k] = k % 2 ? b : held[k / 2];
  return agrees (cd, t, s, len);
}

/* Whether CD, from its initial state, decodes PATH[0..LEN) (which leads
   to a state of T) before each byte T decodes, ALL[0..NALL), as T
   says, in one call.  */
static bool
path_agrees (iconv_t cd, struct hold_table const *t, uint8_t const *path,
             size_t len, uint8_t const *all, size_t nall)
{
  uint8_t s[TRY_MAX];
  size_t k, n = 0;
  for (k = 0; k < nall; k++)
    {
      memcpy (s + n, path, len);
      n += len;
      s[n++] = all[k];
    }
  return agrees (cd, t, s, n);
}

/* What the mark B does in the state ST of T, which the held bytes
   S[0..LEN) lead to, from what CD gives for them and B from its initial
   state, then for a flush, into *ACT: without HOLD_KEEP's state, whose
   value goes to *KEPT.  False for anything else.  */
static bool
mark_act (iconv_t cd, struct hold_table const *t, uint8_t const *s,
          size_t len, unsigned int st, uint8_t b, uint32_t *act,
          ucs4_t *kept)
{
  uint8_t path[HOLD_PATH + 1];
  ucs4_t gave[2], flushed = 0;
  size_t ngave, nflush;
  memcpy (path, s, len);
  path[len] = b;
  iconv (cd, NULL, NULL, NULL, NULL);
  if (!convert_then_flush (cd, path, len + 1, gave, &ngave, &flushed,
                           &nflush))
    return false;
  if (ngave == 2 && nflush == 0 && gave[0] == t->held[st]
      && gave[1] == t->value[b])
    *act = 0;
  else if (ngave == 1 && nflush == 0 && gave[0] != 0
           && gave[0] != t->held[st] && gave[0] <= HOLD_WHAT)
    *act = HOLD_GIVE | gave[0];
  else if (ngave == 0 && nflush == 1 && flushed != 0
           && flushed <= HOLD_WHAT)
    {
      *act = HOLD_KEEP;
      *kept = flushed;
    }
  else
    return false;
  return true;
}

/* The state of T that holds the composed letter W, which the bytes
   S[0..LEN) lead to, made if need be (with them as its path), or -1
   when T has no room for it.  */
static int
state_of (struct hold_table *t, ucs4_t w, uint8_t const *s, size_t len)
{
  unsigned int k;
  for (k = 0; k < t->composed; k++)
    if (t->held[256 + k] == w)
      return 256 + (int) k;
  if (k == HOLD_COMPOSED || len > HOLD_PATH)
    return -1;
  t->held[256 + k] = w;
  memcpy (t->path[k], s, len);
  t->path_len[k] = (uint8_t) len;
  t->composed++;
  return 256 + (int) k;
}

/* Learn what each mark MARKS[R] (row R) does in each state of T: after
   each held byte HELD[0..NHELD), and after each letter composed and
   held, as they come.  Whether all did what a table can say.  */
static bool
learn_acts (iconv_t cd, struct hold_table *t, uint8_t const *marks,
            size_t nmarks, uint8_t const *held, size_t nheld)
{
  size_t q, r;

  for (q = 0; q < nheld + t->composed; q++)
    {
      bool byte = q < nheld;
      unsigned int st = byte ? held[q] : 256 + (unsigned int) (q - nheld);
      uint8_t const *s = byte ? held + q : t->path[q - nheld];
      size_t len = byte ? 1 : t->path_len[q - nheld];
      for (r = 0; r < nmarks; r++)
        {
          uint32_t a;
          ucs4_t kept = 0;
          uint8_t next[HOLD_PATH + 1];
          int to;
          if (!mark_act (cd, t, s, len, st, marks[r], &a, &kept))
            return false;
          if (a == HOLD_KEEP)
            {
              memcpy (next, s, len);
              next[len] = marks[r];
              if ((to = state_of (t, kept, next, len + 1)) < 0)
                return false;
              a |= (uint32_t) to;
            }
          t->act[r][st] = a;
        }
    }
  return true;
}

/* Learn the marks of T, the bytes that alone were HOLD_PLAIN but did
   otherwise after some held letter, CAND[0..NCAND): each HOLD_MARK,
   if they all do as T then says, or else HOLD_STOP.  */
static void
learn_marks (iconv_t cd, struct hold_table *t, uint8_t const *cand,
             size_t ncand, uint8_t const *held, size_t nheld)
{
  uint8_t all[256] = { 0 }, trio[3 * 256];
  size_t k, j, n, nall = 0;
  bool ok = ncand <= HOLD_MARKS;
  unsigned int b;

  for (k = 0; k < ncand && ok; k++)
    {
      t->cls[cand[k]] = HOLD_MARK;
      t->mark[cand[k]] = (uint8_t) k;
    }
  ok = ok && learn_acts (cd, t, cand, ncand, held, nheld);
  for (b = 0; b < 256; b++)
    if (t->cls[b] != HOLD_STOP)
      all[nall++] = (uint8_t) b;
  /* Each mark after each held letter, before each byte; then each
     letter composed and held, by the bytes that led to it the first
     time, before each byte.  */
  n = nheld > nall ? nheld : nall;
  ok = ok && nall > 0 && nheld > 0;
  for (k = 0; k < ncand && ok; k++)
    {
      for (j = 0; j < n; j++)
        {
          trio[3 * j] = held[j % nheld];
          trio[3 * j + 1] = cand[k];
          trio[3 * j + 2] = all[j % nall];
        }
      ok = agrees (cd, t, trio, 3 * n);
    }
  for (k = 0; k < t->composed && ok; k++)
    ok = path_agrees (cd, t, t->path[k], t->path_len[k], all, nall);
  if (!ok)
    {
      for (k = 0; k < ncand; k++)
        t->cls[cand[k]] = HOLD_STOP;
      t->composed = 0;
    }
  t->marks = ok;
}

static struct hold_table *
hold_table_new (char const *fromcode, char const *ucs4)
{
  iconv_t cd = iconv_open (ucs4, fromcode);
  struct hold_table *t;
  uint8_t held[256], cand[256];
  size_t nheld = 0, ncand = 0;
  unsigned int b;

  if (cd == (iconv_t) -1)
    return NULL;
  t = xzalloc (sizeof *t);
  if (!classify_alone (cd, t))
    {
      iconv_close (cd);
      free (t);
      return NULL;
    }
  for (b = 0; b < 256; b++)
    if (t->cls[b] == HOLD_HELD)
      {
        held[nheld++] = (uint8_t) b;
        t->held[b] = t->value[b];
      }
  /* A byte that does otherwise after some held letter, or after which
     some held letter does otherwise: iconv(3) decides what it does,
     unless it is a mark.  */
  for (b = 0; b < 256; b++)
    if (t->cls[b] != HOLD_STOP
        && !follows_each (cd, t, (uint8_t) b, held, nheld))
      {
        if (t->cls[b] == HOLD_PLAIN)
          cand[ncand++] = (uint8_t) b;
        t->cls[b] = HOLD_STOP;
      }
  if (ncand > 0)
    learn_marks (cd, t, cand, ncand, held, nheld);
  t->fast = ncand == 0 || t->marks;
  iconv_close (cd);
  return t;
}

struct hold_table const *
hold_table_of (struct memo_charset *cs, char const *fromcode)
{
  /* The table costs some hundred iconv() calls: a short file does
     without it.  */
  if (!cs->hold_decided && ++cs->hold_seen >= HOLD_AFTER)
    {
      cs->hold = hold_table_new (fromcode, cs->ucs4_from ? cs->ucs4_from
                                           : "UTF-32LE");
      cs->hold_decided = true;
    }
  return cs->hold;
}

/* hold_decode, for a table with marks (MARKS) or without, where the
   test of a mark would cost each byte.  */
static inline __attribute__ ((always_inline)) size_t
hold_run (struct hold_table const *t, struct decoder *d, uint8_t const *in,
          size_t n, int64_t rel, struct pivot *p, size_t room, bool marks)
{
  ucs4_t *cp = p->cp;
  int64_t *off = p->off;
  uint8_t *nb = p->n;
  uint8_t const *cls = t->cls;
  ucs4_t const *value = t->value;
  size_t i, len = p->len, done = 0, done_len = p->len;
  /* As the bridge: no call once less than ROOM is left.  */
  size_t max = p->cap >= room ? p->cap - room : 0;
  uint64_t newlines = 0, done_newlines = 0;
  /* The state held (HOLDING), and the bytes consumed since the last
     call that gave values (SINCE).  */
  unsigned int st = 0, since = 0;
  bool holding = false;

  for (i = 0; i < n && len <= max; i++)
    {
      uint8_t b = in[i], c = cls[b];
      int64_t at = rel + (int64_t) i - since;
      uint32_t a;
      if (marks ? c >= HOLD_MARK
                  && (c == HOLD_STOP
                      || (holding && (a = t->act[t->mark[b]][st]) != 0))
                : c == HOLD_STOP)
        {
          if (c == HOLD_STOP)
            break;
          if (a & HOLD_KEEP)
            {
              /* Composed, and held again: a call without values.  */
              st = a & HOLD_WHAT;
              since++;
              continue;
            }
          /* The letter and the mark, composed: one value.  */
          cp[len] = a & HOLD_WHAT;
          off[len] = at;
          nb[len] = (uint8_t) (since + 1);
          len++;
        }
      else
        {
          if (holding)
            {
              cp[len] = t->held[st];
              off[len] = at;
              nb[len] = (uint8_t) (since + 1);
              newlines += t->held[st] == 0x0A;
              len++;
            }
          if (c == HOLD_HELD)
            {
              since = !holding;
              st = b;
              holding = true;
              continue;
            }
          cp[len] = value[b];
          off[len] = at;
          nb[len] = (uint8_t) (holding ? 0 : 1);
          newlines += value[b] == 0x0A;
          len++;
        }
      holding = false;
      since = 0;
      done = i + 1;
      done_len = len;
      done_newlines = newlines;
    }
  p->len = done_len;
  d->newlines += done_newlines;
  return done;
}

size_t
hold_decode (struct hold_table const *t, struct decoder *d,
             uint8_t const *in, size_t n, int64_t rel, struct pivot *p,
             size_t room)
{
  return (t->marks ? hold_run (t, d, in, n, rel, p, room, true)
          : hold_run (t, d, in, n, rel, p, room, false));
}

/* Write C at OUT in FORM (0 UTF-8, 1 UTF-16LE, 2 UTF-16BE): its
   bytes.  */
static inline size_t
put_form (ucs4_t c, uint8_t *out, int form)
{
  return (form == 0 ? (size_t) utf8_put (c, out)
          : utf16_put (c, out, form == 2));
}

/* hold_decode_form, the form a constant in each instance.  */
#if defined __GNUC__
__attribute__ ((always_inline))
#endif
static inline size_t
hold_decode_to (struct hold_table const *t, uint8_t const *in, size_t n,
                uint8_t *out, size_t cap, size_t *produced,
                uint64_t *newlines, int form)
{
  uint8_t const *cls = t->cls;
  ucs4_t const *value = t->value;
  size_t i, o = 0, done = 0, done_o = 0;
  uint64_t nl = 0, done_nl = 0;
  unsigned int st = 0;
  bool holding = false;

  /* Each byte gives at most two values, of up to four bytes each.  */
  for (i = 0; i < n && cap - o >= 8; i++)
    {
      uint8_t b = in[i], c = cls[b];
      uint32_t a;
      if (c == HOLD_HELD)
        {
          if (holding)
            {
              o += put_form (t->held[st], out + o, form);
              nl += t->held[st] == 0x0A;
            }
          st = b;
          holding = true;
          continue;
        }
      if (c >= HOLD_MARK
          && (c == HOLD_STOP
              || (holding && (a = t->act[t->mark[b]][st]) != 0)))
        {
          if (c == HOLD_STOP)
            break;
          if (a & HOLD_KEEP)
            {
              st = a & HOLD_WHAT;
              continue;
            }
          o += put_form (a & HOLD_WHAT, out + o, form);
        }
      else
        {
          if (holding)
            {
              o += put_form (t->held[st], out + o, form);
              nl += t->held[st] == 0x0A;
            }
          o += put_form (value[b], out + o, form);
          nl += value[b] == 0x0A;
        }
      holding = false;
      done = i + 1;
      done_o = o;
      done_nl = nl;
    }
  *produced = done_o;
  *newlines = done_nl;
  return done;
}

size_t
hold_decode_form (struct hold_table const *t, uint8_t const *in, size_t n,
                  uint8_t *out, size_t cap, size_t *produced,
                  uint64_t *newlines, int form)
{
  return (form == 0
          ? hold_decode_to (t, in, n, out, cap, produced, newlines, 0)
          : form == 1
          ? hold_decode_to (t, in, n, out, cap, produced, newlines, 1)
          : hold_decode_to (t, in, n, out, cap, produced, newlines, 2));
}
