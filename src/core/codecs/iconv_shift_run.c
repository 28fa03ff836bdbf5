/* The loop of the decoders of iconv_shift.c (shift_decode,
   shift_decode_utf8), which follows the shifts itself and reads each
   state's characters with the memo of that state, and its learning
   ahead after SO: iconv_shift.c says what makes them exact.  */

#include <config.h>

#include "iconv_shift.h"

#include <string.h>

#include "unicode/utf8.h"

enum
{
  /* The characters learn_ahead asks about in one call, each followed by
     a character of the sentinel, and what that call reads.  */
  AHEAD = 128,
  ASK_MAX = 4 * AHEAD + 2 * SHIFT_SEQ_MAX + 4
};

/* The decoder's memo M is that of the state of T, which CD is in; CD
   and M are to be in the other state, which the shift B[0..LEN) leads
   to from either state.  */
static void
shift_to (struct shift_track *t, struct memo *m, iconv_t cd,
          uint8_t const *b, size_t len)
{
  uint8_t out[4 * PIVOT_MIN_ROOM];
  size_t used, bytes;
  int err;
  shift_swap_memos (t, m);
  bytes = bridge_convert (cd, b, len, out, sizeof out, &used, &err);
  /* Never seen: the probe found B consumed so.  Should it happen, CD's
     state is not known any more.  */
  if (used != len || bytes != 0 || err != 0)
    t->on = false;
}

/* Ask T's probe, in one call from its initial state, what the N
   characters at AT[0..N) (two bytes each) are after SO: SO, each
   followed by the first character of the wide sentinel, then the last,
   SI and the first and last of the single one must convert whole, the
   sentinels to their values.  Sets CP[0..N) and returns N, or returns
   how many characters came before the first that did not convert so.  */
static size_t
ask_ahead (struct shift_track *t, struct memo_charset const *cs,
           uint8_t const *const *at, size_t n, ucs4_t *cp)
{
  uint8_t in[ASK_MAX], out[4 * ASK_MAX + 4 * PIVOT_MIN_ROOM];
  size_t len = 0, used, bytes, k, w = cs->wide_len - 1;
  size_t z = cs->sentinel_len - 1, good;
  bool host = t->probe_host;
  char *op = (char *) out;
  int err;

  memcpy (in, cs->so_seq, cs->so_len);
  len = cs->so_len;
  for (k = 0; k < n; k++)
    {
      memcpy (in + len, at[k], 2);
      memcpy (in + len + 2, cs->wide, 2);
      len += 4;
    }
  memcpy (in + len, cs->wide + 2 * w, 2);
  memcpy (in + len + 2, cs->si_seq, cs->si_len);
  len += 2 + cs->si_len;
  in[len++] = cs->sentinel[0];
  in[len++] = cs->sentinel[z];
  iconv (t->probe, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (t->probe, in, len, out, sizeof out, &used, &err);
  /* The characters whose sentinel came out right, before any surprise.  */
  for (good = 0; good < n && 8 * good + 8 <= bytes
       && (cp[good] = memo_value_at (host, out + 8 * good)) != UINT32_MAX
       && memo_value_at (host, out + 8 * good + 4) == cs->wide_cp[0]; good++)
    continue;
  if (good < n || err != 0 || used != len || bytes != 8 * n + 12
      || memo_value_at (host, out + 8 * n) != cs->wide_cp[w]
      || memo_value_at (host, out + 8 * n + 4) != cs->sentinel_cp[0]
      || memo_value_at (host, out + 8 * n + 8) != cs->sentinel_cp[z])
    return good < n ? good : n - 1;
  bytes = sizeof out;
  iconv (t->probe, NULL, NULL, &op, &bytes);
  return bytes == sizeof out ? n : n - 1;
}

/* The memo M of the state after SO does not know the character at IN,
   of IN[0..N): learn it and those of two bytes that follow it before
   the next shift (or, for shifts of a byte each, up to AHEAD after the
   shifts that follow), from T's probe (ask_ahead), that M knows to begin
   with a byte alone that is a valid beginning.  Returns false when nothing
   was learned; sets T's `on' to false if M knows one otherwise.  */
static bool
learn_ahead (struct shift_track *t, struct memo *m,
             struct memo_charset const *cs, uint8_t const *in, size_t n)
{
  uint8_t const *at[AHEAD];
  ucs4_t cp[AHEAD];
  size_t entry[AHEAD];          /* Where each is in M's nodes.  */
  size_t j = 0, count = 0, k;
  bool bytes = cs->so_len == 1 && cs->si_len == 1;

  while (j + 1 < n && count < AHEAD)
    {
      uint32_t e;
      size_t x;
      if (in[j] == cs->so || in[j] == cs->si)
        {
          /* Shifts of a byte each (IBM1388's): on to the pairs after the
             next SO, past the bytes of the initial state.  Where they
             came from does not matter to what the probe says of them:
             each is asked about alone.  */
          uint8_t const *so;
          if (!bytes || in[j] == cs->so
              || !(so = memchr (in + j, cs->so, n - j)))
            break;
          j = (size_t) (so - in) + 1;
          continue;
        }
      e = m->node[in[j]];
      if (!(e & MEMO_CHILD))
        break;
      x = 256 * (size_t) (e & MEMO_INDEX) + in[j + 1];
      e = m->node[x];
      if ((e & MEMO_CHILD) || e == MEMO_LEFT)
        break;
      if (!(e & MEMO_CHAR))
        {
          entry[count] = x;
          at[count++] = in + j;
        }
      j += 2;
    }
  if (count == 0 || !shift_probe_ready (t, cs))
    return false;
  k = ask_ahead (t, cs, at, count, cp);
  /* Again with those before the surprise, which may be an error.  */
  if (k < count && k > 0)
    k = ask_ahead (t, cs, at, k, cp) == k ? k : 0;
  /* The first is left to iconv() from now on, not asked about again:
     an error, several values (IBM1390's pairs), or a surprise.  */
  if (k == 0)
    memo_leave (m, at[0], 2);
  if (k < count)
    count = k;
  /* No node was added since the walk above: each entry is where it
     found it.  A pair met twice is put twice, the same.  */
  for (k = 0; k < count; k++)
    if (!memo_put_entry (m, entry[k], cp[k]))
      {
        t->on = false;
        return false;
      }
  return count > 0;
}

/* The shift that IN[0..N) starts with, its first byte being SO's or
   SI's of CS (SEQS: either is longer): 1 for SO, 2 for SI, with its
   length in *SL; <= 0, as the bridge would take it alone without a
   value, when cut short or another sequence.  */
static inline int
shift_here (struct memo_charset const *cs, bool seqs, uint8_t const *in,
            size_t n, size_t *sl)
{
  int w = in[0] == cs->so ? 1 : 2;
  *sl = 1;
  if (seqs && (w = shift_at (cs, in, n)) > 0)
    *sl = w == 1 ? cs->so_len : cs->si_len;
  return w;
}

static inline size_t
min_size (size_t a, size_t b)
{
  return a < b ? a : b;
}

/* Where shift_run puts the values: to P (its length in LEN), with room
   for ROOM values after any, at REL in the buffer; or as UTF-8 to
   OUT[0..CAP) (its length in PRODUCED).  */
struct shift_sink
{
  struct pivot *p;
  size_t len;
  size_t room;
  int64_t rel;
  uint8_t *out;
  size_t cap;
  size_t produced;
  uint64_t newlines;
};

/* As memo_pairs_utf8, for the run of ASCII at IN[I] that the memo's nodes ND
   read as itself, IN[I] being such a byte.  */
static inline size_t
ascii_utf8 (uint32_t const *nd, uint8_t const *in, size_t i, size_t n,
            uint8_t *out, size_t *o, size_t max, uint64_t *newlines,
            size_t *start)
{
  size_t run = min_size (n - i, max + 1 - *o);
  run = memo_ascii_run (nd, in + i, run, out + *o, newlines);
  *o += run;
  *start = i + run - 1;
  return i + run;
}

/* shift_run's loops of their own into UTF-8, from IN[I], whose entry in
   the nodes ND is E (SHIFTED: after SO): pairs after SO, runs of ASCII
   that decode to themselves, and other characters of a byte.  Returns
   where the one that ran stopped, or I.  */
static inline size_t
runs_utf8 (uint32_t const *nd, uint32_t e, bool shifted, uint8_t const *in,
           size_t i, size_t n, uint8_t *out, size_t *o, size_t max,
           uint64_t *newlines, size_t *start)
{
  if (shifted && (e & MEMO_CHILD))
    return memo_pairs_utf8 (nd, e, in, i, n, out, o, max, newlines, start);
  if (e == (MEMO_CHAR | in[i]) && in[i] < 0x80)
    return ascii_utf8 (nd, in, i, n, out, o, max, newlines, start);
  if ((e & (MEMO_CHILD | MEMO_CHAR)) == MEMO_CHAR)
    return memo_singles_utf8 (nd, e, in, i, n, out, o, max, newlines,
                              start);
  return i;
}

/* For shift_run at IN[0..N), whose first byte is SO's or SI's of CS
   and whose entry in the memo of the state is E (nothing, or a node):
   the shift there, its length in *SL, when it is one; else -1 where E
   is nothing, 0 where E may begin bytes of no character (memo_lone),
   which the walk finds.  */
static inline int
shift_or_lone (struct memo_charset const *cs, uint8_t const *in, size_t n,
               uint32_t e, size_t *sl)
{
  int w = shift_here (cs, cs->so_len > 1 || cs->si_len > 1, in, n, sl);
  return w > 0 ? w : e == 0 ? -1 : 0;
}

/* shift_run's bytes of no character at IN[I] (K of them, whose entry in
   the nodes ND is E, a MEMO_LONE: memo_lone), their values into the
   UTF-8 of SI from *O, or (not UTF8) into the pivot of SI from *LEN, as
   the one call that read them all gave them: each where the first
   began, the first with the bytes, PRE bytes of shifts before included.
   False when they do not fit.  */
static inline bool
lone_put (uint32_t const *nd, uint32_t e, uint8_t const *in, size_t i,
          size_t k, struct shift_sink *si, bool utf8, size_t *o,
          size_t *len, int64_t pre, uint64_t *newlines)
{
  ucs4_t v[MEMO_DEPTH];
  size_t j;
  int64_t at = si->rel + (int64_t) i - pre;
  if ((utf8 ? si->cap - *o < 4 * k : si->p->cap - *len < k)
      || !memo_lone_values (nd, e, in + i, k, v))
    return false;
  for (j = 0; j < k; j++)
    {
      if (utf8)
        *o += (size_t) utf8_put (v[j], si->out + *o);
      else
        {
          si->p->cp[*len] = v[j];
          si->p->off[*len] = at;
          si->p->n[(*len)++] = (uint8_t) (j == 0 ? k + (size_t) pre : 0);
        }
      *newlines += v[j] == 0x0A;
    }
  return true;
}

/* The root of a memo that knows nothing.  */
static uint32_t const none[256];

/* shift_decode, into the pivot of S, or (UTF8) into its UTF-8.  */
static inline __attribute__ ((always_inline)) size_t
shift_run (struct shift_track *t, struct memo *m, iconv_t cd,
           struct memo_charset const *cs, uint8_t const *in, size_t n,
           struct shift_sink *s, bool utf8, int64_t *prefix, bool *gave,
           size_t *last)
{
  uint32_t const *node[2], *nd;
  struct memo *mem[2];
  ucs4_t *cp = utf8 ? NULL : s->p->cp;
  int64_t *off = utf8 ? NULL : s->p->off, pre = *prefix;
  uint8_t *nb = utf8 ? NULL : s->p->n;
  size_t i = 0, len = s->len, o = s->produced, start = 0, asked = SIZE_MAX;
  /* As the bridge: no value once less than ROOM is left after any.  */
  size_t max = (utf8 ? (s->cap >= 4 ? s->cap - 4 : 0)
                : s->p->cap >= s->room ? s->p->cap - s->room : 0);
  uint64_t newlines = 0;
  bool shifted = t->shifted, any = false;
  if (utf8 && s->cap < 4)
    n = 0;
  mem[shifted] = m;
  mem[!shifted] = &t->other;
 nodes:
  node[0] = mem[0]->nodes ? mem[0]->node : none;
  node[1] = mem[1]->nodes ? mem[1]->node : none;
  nd = node[shifted];
  while (i < n && (utf8 ? o <= max : len <= max))
    {
      uint32_t e = nd[in[i]];
      size_t k, sl;
      int w;
      /* Into UTF-8: runs in loops of their own.  */
      if (utf8 && (k = runs_utf8 (nd, e, shifted, in, i, n, s->out, &o, max,
                                  &newlines, &start)) != i)
        {
          pre = 0;
          any = true;
          i = k;
          continue;
        }
      /* SO and SI are never known to a memo as characters: iconv()
         consumes them alone, without a value.  Their first byte may
         begin bytes of no character, the first alone (memo_lone).  */
      if ((e == 0 || (e & MEMO_CHILD))
          && (in[i] == cs->so || in[i] == cs->si)
          && (w = shift_or_lone (cs, in + i, n - i, e, &sl)) != 0)
        {
          if (w < 0)
            break;
          nd = node[shifted = w == 1];
          pre += (int64_t) sl;
          i += sl;
          continue;
        }
      e = memo_walk (nd, e, in + i, n - i, &k);
      if (e & MEMO_CHILD)
        goto out;
      if ((e & (MEMO_CHAR | MEMO_LONE)) == MEMO_LONE)
        {
          if (!lone_put (nd, e, in, i, k, s, utf8, &o, &len, pre, &newlines))
            break;
        }
      else if (!(e & MEMO_CHAR))
        {
          /* After SO, learn what follows from the probe, once here.  */
          if (!shifted || asked == i || nd == none
              || !learn_ahead (t, mem[1], cs, in + i, n - i))
            break;
          asked = i;
          goto nodes;
        }
      else
        {
          ucs4_t c = e & MEMO_VALUE;
          if (utf8 && 0xD800 <= c && c < 0xE000)
            break;              /* Left to the state machine.  */
          if (utf8)
            o += (size_t) utf8_put (c, s->out + o);
          else
            {
              /* STEP_PUSH, with the shifts before the value as the
                 bridge's prefix.  */
              cp[len] = c;
              off[len] = s->rel + (int64_t) i - pre;
              nb[len++] = (uint8_t) (k + (size_t) pre);
            }
          newlines += c == 0x0A;
        }
      pre = 0;
      any = true;
      start = i;
      i += k;
    }
 out:
  /* iconv() saw none of the shifts: show it the last, alone.  */
  if (shifted != t->shifted)
    shift_to (t, m, cd, shifted ? cs->so_seq : cs->si_seq,
              shifted ? cs->so_len : cs->si_len);
  *last = start;
  *gave = any;
  *prefix = pre;
  s->len = len;
  s->produced = o;
  s->newlines = newlines;
  return i;
}

size_t
shift_decode (struct shift_track *t, struct memo *m, iconv_t cd,
              struct memo_charset const *cs, struct decoder *d,
              uint8_t const *in, size_t n, int64_t rel, struct pivot *p,
              size_t room, int64_t *prefix, bool *gave, size_t *last)
{
  struct shift_sink s = { p, p->len, room, rel, NULL, 0, 0, 0 };
  size_t i = shift_run (t, m, cd, cs, in, n, &s, false, prefix, gave, last);
  p->len = s.len;
  d->newlines += s.newlines;
  return i;
}

size_t
shift_decode_utf8 (struct shift_track *t, struct memo *m, iconv_t cd,
                   struct memo_charset const *cs, uint8_t const *in,
                   size_t n, uint8_t *out, size_t cap, size_t *produced,
                   uint64_t *newlines, int64_t *prefix, bool *gave,
                   size_t *last)
{
  struct shift_sink s = { NULL, 0, 0, 0, out, cap, 0, 0 };
  size_t i = shift_run (t, m, cd, cs, in, n, &s, true, prefix, gave, last);
  *produced = s.produced;
  *newlines = s.newlines;
  return i;
}
