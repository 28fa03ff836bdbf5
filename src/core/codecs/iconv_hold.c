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
   value); a byte that does anything else (a mark that composes with
   some letter) is HOLD_STOP, and so is every byte that is illegal or
   does something else alone.  So, from the initial state, any sequence
   of HOLD_PLAIN and HOLD_HELD bytes goes through states the table has
   seen: nothing held, or one letter held as it was.

   The bridge's bookkeeping, which hold_decode follows: each call
   consumes one byte (the charset has no longer character).  A call
   that gives values gives them the offset of the first byte consumed
   since the last call that gave values, and the first of them the
   length of the bytes from there on (the others 0).  So a letter held
   from the initial state gets its own offset and a length of 2; a
   letter held after another, whose call gave that one out, the offset
   of the byte after it and a length of 1.

   hold_decode runs only from the initial state, and ends after a
   HOLD_PLAIN byte, after which nothing is held and the bridge's
   bookkeeping is back where it started; what came after that byte it
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

/* Whether CD, from its initial state, decodes B (held back alone when
   B_HELD) after each held byte of T, HELD[0..NHELD), as the table says:
   H1 B H2 B ... HN B in one call, then a flush.  Each held byte gives
   out the letter before it and is held; B gives out the letter before
   it and then its own value, or is held.  So B is tried after each held
   letter, and each held letter after B, in one call instead of one a
   pair.  */
static bool
follows_each (iconv_t cd, struct hold_table const *t, uint8_t b, bool b_held,
              uint8_t const *held, size_t nheld)
{
  uint8_t s[512], out[4 * 512 + 4 * PIVOT_MIN_ROOM];
  char *op;
  size_t k, m = 0, used, bytes, ol, len = 2 * nheld;
  ucs4_t prev = 0;
  bool holding = false;
  int err;

  for (k = 0; k < len; k++)
    s[k] = k % 2 ? b : held[k / 2];
  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, s, len, out, sizeof out, &used, &err);
  if (err != 0 || used != len)
    return false;
  op = (char *) out + bytes;
  ol = sizeof out - bytes;
  iconv (cd, NULL, NULL, &op, &ol);
  bytes = sizeof out - ol;
  /* What the table says they give: each letter held is given out at
     the next byte, or by the flush.  */
  for (k = 0; k <= len; k++)
    {
      if (holding)
        {
          if (4 * m + 4 > bytes || get32le (out + 4 * m) != prev)
            return false;
          m++;
        }
      if (k == len)
        break;
      prev = t->value[s[k]];
      holding = k % 2 ? b_held : true;
      if (!holding)
        {
          if (4 * m + 4 > bytes || get32le (out + 4 * m) != prev)
            return false;
          m++;
        }
    }
  return 4 * m == bytes;
}

static struct hold_table *
hold_table_new (char const *fromcode)
{
  iconv_t cd = iconv_open ("UTF-32LE", fromcode);
  struct hold_table *t;
  uint8_t held[256];
  size_t nheld = 0;
  unsigned int b;

  if (cd == (iconv_t) -1)
    return NULL;
  t = xmalloc (sizeof *t);
  if (!classify_alone (cd, t))
    {
      iconv_close (cd);
      free (t);
      return NULL;
    }
  for (b = 0; b < 256; b++)
    if (t->cls[b] == HOLD_HELD)
      held[nheld++] = (uint8_t) b;
  /* A byte that does otherwise after some held letter (a mark that
     composes with it, or the like), or after which some held letter
     does otherwise: iconv(3) decides what it does.  */
  for (b = 0; b < 256; b++)
    if (t->cls[b] != HOLD_STOP
        && !follows_each (cd, t, (uint8_t) b, t->cls[b] == HOLD_HELD, held,
                          nheld))
      t->cls[b] = HOLD_STOP;
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
      cs->hold = hold_table_new (fromcode);
      cs->hold_decided = true;
    }
  return cs->hold;
}

size_t
hold_decode (struct hold_table const *t, struct decoder *d,
             uint8_t const *in, size_t n, int64_t rel, struct pivot *p,
             size_t room)
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
  /* The letter held (HOLDING), and the bytes consumed since the last
     call that gave values (0 or 1: SINCE).  */
  ucs4_t held = 0;
  bool holding = false;
  unsigned int since = 0;

  for (i = 0; i < n && len <= max; i++)
    {
      uint8_t b = in[i], c = cls[b];
      int64_t at = rel + (int64_t) i - since;
      if (c == HOLD_STOP)
        break;
      if (holding)
        {
          cp[len] = held;
          off[len] = at;
          nb[len] = (uint8_t) (since + 1);
          newlines += held == 0x0A;
          len++;
        }
      if (c == HOLD_HELD)
        {
          since = !holding;
          held = value[b];
          holding = true;
          continue;
        }
      cp[len] = value[b];
      off[len] = at;
      nb[len] = (uint8_t) (holding ? 0 : 1);
      newlines += value[b] == 0x0A;
      len++;
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
