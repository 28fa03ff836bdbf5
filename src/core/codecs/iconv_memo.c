/* The iconv(3) bridge's memo: the characters a bridged decoder of a
   stateless charset has seen iconv(3) decode, kept so that it decodes
   them again without calling iconv(3).

   Specification: none of its own.  The memo reproduces what the
   bridge's one-character-per-call decoding (iconv_bridge.c) gives, where
   that depends on the bytes of the character alone; the comment at the
   top of iconv_bridge.c says when the bridge uses it, and why that is
   exact.  This file holds the probe that decides, once per charset,
   whether its decoder looks stateless; the check of each character
   before it is learned; the trie of the characters' bytes; and the loop
   that decodes with it.  */

#include <config.h>

#include "iconv_memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* A memo's entries (see iconv_memo.h).  */
#define MEMO_CHILD UINT32_C (0x80000000)
#define MEMO_CHAR UINT32_C (0x40000000)
#define MEMO_INDEX UINT32_C (0x00FFFFFF)

enum
{
  /* The most nodes of a memo, 1 KiB each: enough for the characters of
     any text in a CJK code page (GB18030's four-byte characters take a
     node per three-byte beginning), while what a decoder holds stays
     small, whatever its input.  */
  MEMO_MAX_NODES = 1024
};

size_t
bridge_convert (iconv_t cd, uint8_t const *s, size_t len, uint8_t *out,
                size_t room, size_t *used, int *err)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) s;
  char *op = (char *) out;
  size_t il = len, ol = room;
  *err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;
  *used = len - il;
  return room - ol;
}

/* The output bytes CD gives when flushed, which returns it to its
   initial state.  */
static size_t
flush_gives (iconv_t cd)
{
  uint8_t out[4 * PIVOT_MIN_ROOM];
  char *op = (char *) out;
  size_t ol = sizeof out;
  iconv (cd, NULL, NULL, &op, &ol);
  return sizeof out - ol;
}

/* Whether CD, from its initial state, decodes the N characters of one
   byte IN[0..N) given together (in reverse order if BACKWARDS) to their
   values CP[0..N), as each alone, and then holds nothing back.  */
static bool
same_together (iconv_t cd, uint8_t const *in, ucs4_t const *cp, size_t n,
               bool backwards)
{
  uint8_t s[256], out[4 * 256 + 4 * PIVOT_MIN_ROOM];
  size_t k, used, bytes;
  int err;

  for (k = 0; k < n; k++)
    s[k] = in[backwards ? n - 1 - k : k];
  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, s, n, out, sizeof out, &used, &err);
  if (err != 0 || used != n || bytes != 4 * n)
    return false;
  for (k = 0; k < n; k++)
    if (get32le (out + 4 * k) != cp[backwards ? n - 1 - k : k])
      return false;
  return flush_gives (cd) == 0;
}

void
memo_probe_charset (struct memo_charset *s, char const *fromcode)
{
  iconv_t cd = iconv_open ("UTF-32LE", fromcode);
  uint8_t single[256];
  ucs4_t cp[256];
  size_t n = 0, k, show;
  unsigned int b;

  s->decided = true;
  s->suits = false;
  if (cd == (iconv_t) -1)
    return;
  for (b = 0; b < 256; b++)
    {
      uint8_t byte = (uint8_t) b, out[4 * PIVOT_MIN_ROOM];
      size_t used, bytes;
      int err;
      iconv (cd, NULL, NULL, NULL, NULL);
      bytes = bridge_convert (cd, &byte, 1, out, sizeof out, &used, &err);
      if (used == 0 && bytes == 0)
        continue;               /* A valid beginning, or illegal.  */
      /* A byte consumed without a value (a shift, a held letter), or
         that gives several, or something held back after it: the
         decoder keeps state.  */
      if (used != 1 || bytes != 4 || err != 0 || flush_gives (cd) != 0)
        {
          iconv_close (cd);
          return;
        }
      single[n] = byte;
      cp[n++] = get32le (out);
    }
  /* A byte that gives a value and changes how the next ones read would
     show here.  */
  s->suits = (same_together (cd, single, cp, n, false)
              && same_together (cd, single, cp, n, true));
  iconv_close (cd);
  /* The sentinel: characters of one byte from all over the range.  */
  show = n < MEMO_SENTINEL ? n : MEMO_SENTINEL;
  for (k = 0; k < show; k++)
    {
      s->sentinel[k] = single[k * n / show];
      s->sentinel_cp[k] = cp[k * n / show];
    }
  s->sentinel_len = (unsigned int) show;
}

bool
memo_check (iconv_t probe, struct memo_charset const *cs, uint8_t const *s,
            size_t len, ucs4_t c)
{
  uint8_t in[MEMO_DEPTH + MEMO_SENTINEL];
  uint8_t out[4 * (1 + MEMO_SENTINEL) + 4 * PIVOT_MIN_ROOM];
  size_t n = len + cs->sentinel_len, used, bytes, k;
  int err;

  if (len > MEMO_DEPTH)
    return false;
  memcpy (in, s, len);
  memcpy (in + len, cs->sentinel, cs->sentinel_len);
  iconv (probe, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (probe, in, n, out, sizeof out, &used, &err);
  if (err != 0 || used != n || bytes != 4 * (1 + (size_t) cs->sentinel_len)
      || get32le (out) != c)
    return false;
  for (k = 0; k < cs->sentinel_len; k++)
    if (get32le (out + 4 + 4 * k) != cs->sentinel_cp[k])
      return false;
  return flush_gives (probe) == 0;
}

/* A new node of M, all unknown; 0 (the root's index, never a child's)
   when M has as many as it may.  */
static uint32_t
new_node (struct memo *m)
{
  if (m->nodes == m->alloc)
    {
      size_t alloc = m->alloc ? 2 * m->alloc : 16;
      if (m->alloc == MEMO_MAX_NODES)
        return 0;
      if (alloc > MEMO_MAX_NODES)
        alloc = MEMO_MAX_NODES;
      m->node = xnrealloc (m->node, alloc, 256 * sizeof *m->node);
      m->alloc = alloc;
    }
  memset (m->node + 256 * m->nodes, 0, 256 * sizeof *m->node);
  return (uint32_t) m->nodes++;
}

bool
memo_learn (struct memo *m, uint8_t const *s, size_t len, ucs4_t c)
{
  uint32_t node = 0, *e;
  size_t k;

  if (len == 0 || len > MEMO_DEPTH || c > 0x10FFFF)
    return true;
  if (m->nodes == 0)
    new_node (m);
  for (k = 0; k + 1 < len; k++)
    {
      uint32_t entry = m->node[256 * node + s[k]], child;
      if (entry & MEMO_CHAR)
        return false;           /* A character ended there.  */
      if (!(entry & MEMO_CHILD))
        {
          child = new_node (m);
          if (child == 0)
            return true;        /* Full: the character is not kept.  */
          entry = MEMO_CHILD | child;
          m->node[256 * node + s[k]] = entry;
        }
      node = entry & MEMO_INDEX;
    }
  e = &m->node[256 * node + s[len - 1]];
  if (*e == 0)
    *e = MEMO_CHAR | c;
  return *e == (MEMO_CHAR | c);
}

size_t
memo_decode (struct memo const *m, struct decoder *d, uint8_t const *in,
             size_t n, int64_t rel, struct pivot *p, size_t room,
             size_t *last)
{
  uint32_t const *node = m->node;
  ucs4_t *cp = p->cp;
  int64_t *off = p->off;
  uint8_t *nb = p->n;
  size_t i = 0, len = p->len, start = 0;
  /* As the bridge: no value once less than ROOM is left after any.  */
  size_t max = p->cap >= room ? p->cap - room : 0;
  uint64_t newlines = 0;

  if (m->nodes == 0)
    {
      *last = 0;
      return 0;
    }
  while (i < n && len <= max)
    {
      uint32_t e = node[in[i]];
      size_t k = 1;
      ucs4_t c;
      while (e & MEMO_CHILD)
        {
          if (i + k == n)
            goto out;
          e = node[256 * (e & MEMO_INDEX) + in[i + k]];
          k++;
        }
      if (e == 0)
        break;
      /* STEP_PUSH, with the pivot's arrays and the newlines kept in
         locals.  */
      c = e & ~MEMO_CHAR;
      cp[len] = c;
      off[len] = rel + (int64_t) i;
      nb[len] = (uint8_t) k;
      len++;
      newlines += c == 0x0A;
      start = i;
      i += k;
    }
 out:
  *last = start;
  p->len = len;
  d->newlines += newlines;
  return i;
}

void
memo_free (struct memo *m)
{
  free (m->node);
  m->node = NULL;
  m->nodes = m->alloc = 0;
}
