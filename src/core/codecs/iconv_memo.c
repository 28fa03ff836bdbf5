/* The iconv(3) bridge's memo: the characters a bridged decoder of a
   stateless charset has seen iconv(3) decode, kept so that it decodes
   them again without calling iconv(3).

   Specification: none of its own.  The memo reproduces what the
   bridge's one-character-per-call decoding (iconv_bridge.c) gives, where
   that depends on the bytes of the character alone; the comment at the
   top of iconv_bridge.c says how and when the bridge uses it, and this
   one why that is exact.  This file holds the probe that decides, once
   per charset, whether its decoder looks stateless; the check of each
   character before it is used; the trie of the characters' bytes; and
   the loop that decodes with it.

   The probe converts each byte alone from the initial state: the memo
   is not used when a byte is consumed without a value (a shift like
   IBM930's SO, a letter held back like CP1255's), gives several values,
   or leaves something to flush; nor when the characters of one byte
   converted together, forwards and backwards, give anything but their
   values alone (a byte that changes how the next ones read).  It keeps
   what it found (the single bytes, and up to two bytes consumed alone
   without a value) for iconv_shift.c, which decides whether those are
   the SO and SI of a charset of two states, with a memo per state.

   The check: a character seen twice is used only when the probe
   iconv_t, from its initial state, converts its bytes followed by a few
   characters of one byte (the sentinel) into its value and theirs, with
   nothing to flush after.  So the decoder read it as the initial state
   does, and it holds nothing back, changes nothing of how the sentinel
   reads, and does not combine with what follows.  Held characters and
   shift sequences (ISO-2022-JP, BIG5-HKSCS, SHIFT_JISX0213) also show
   as bytes consumed without a value, which ends the memo's use
   (iconv_bridge.c).  What none of this can see is a character of
   several bytes that gives its value and silently changes how later
   ones read; test_iconv_reference.c compares the bridge with iconv(3)
   for every charset iconv(3) lists, on text in which characters
   repeat.

   How the bridge (iconv_bridge.c) uses it.  One call per character
   costs some 500 instructions a byte, mostly iconv()'s per-call
   machinery, 10 times what iconv() takes for a whole text.  So a
   decoder keeps, in a trie of their bytes, the characters that one call converted whole
   into one value from where no character was begun, and each of their
   shorter beginnings as one iconv() said EINVAL about: what the
   shortest-prefix loop found out.  A character is noted the first
   time and used from the second on (once it is checked, above), so that text in which nothing repeats costs little more
   (the characters of one byte, which the probe converted alone and
   together, are all used from the first new one on), and
   decoders that convert one character (the code pages' tables are
   built so) open no probe.  Wherever no character is begun (no carry,
   no prefix, no blamed byte), the decoder first reads what its memo
   knows, each character with the offset and length the call would
   have given it, and the tail it would have left.  It stops at bytes
   the memo does not know, which go to iconv() (and are learned), at a
   beginning cut by the end of the buffer, and where the pivot has
   less than BRIDGE_MAX_VALUES of room after a value, as the calls do.
   For bytes it does not know, the shortest-prefix loop starts after
   the beginning the memo knows.  Errors are never learned.

   This is exact while the decoder keeps no state: the same bytes
   decode the same wherever they are.  That is told from what the
   decoder does, never from its name (the probe of each charset, the
   check of each character before it is used); the Unicode
   forms (CODEC_UNICODE) never use a memo.  A decoder that consumes
   bytes without a value (a shift sequence, a held character), whose
   character the check reads otherwise, or whose bytes its memo knows
   otherwise, stops using its memo for good: it may have left the
   initial state its memo was learned in; but a decoder of SO and SI
   (IBM930 and the other EBCDIC double-byte pages) follows its shifts,
   with a memo per state (iconv_shift.c).  */

#include <config.h>

#include "iconv_memo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "unicode/utf8.h"

enum
{
  /* The most nodes of a memo, 1 KiB each: enough for the characters of
     any text in a CJK code page (GB18030's four-byte characters take a
     node per three-byte beginning), while what a decoder holds stays
     small, whatever its input.  */
  MEMO_MAX_NODES = 1024,
  /* memo_learn_around: units a call, and calls that stop at a unit
     that is no character, in each direction.  */
  ROW_BATCH = 32,
  ROW_FAILS = 4
};

size_t
memo_flush_gives (iconv_t cd)
{
  uint8_t out[4 * PIVOT_MIN_ROOM];
  char *op = (char *) out;
  size_t ol = sizeof out;
  iconv (cd, NULL, NULL, &op, &ol);
  return sizeof out - ol;
}

/* Whether CD (to UCS-4 in the machine's order when HOST, else to
   UTF-32LE), from its initial state, decodes the N characters of one
   byte IN[0..N) given together (in reverse order if BACKWARDS) to their
   values CP[0..N), as each alone, and then holds nothing back.  */
static bool
same_together (iconv_t cd, bool host, uint8_t const *in, ucs4_t const *cp,
               size_t n, bool backwards)
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
    if (memo_value_at (host, out + 4 * k) != cp[backwards ? n - 1 - k : k])
      return false;
  return memo_flush_gives (cd) == 0;
}

bool
memo_probe_in (struct memo_charset *s, char const *fromcode, bool host)
{
  iconv_t cd = iconv_open (host ? "WCHAR_T" : "UTF-32LE", fromcode);
  uint8_t *single = s->single, *shift = s->shift;
  ucs4_t *cp = s->single_cp;
  size_t n = 0, k, show, shifts = 0;
  unsigned int b;

  s->decided = true;
  s->probe_host = host;
  s->suits = s->shifting = s->together = s->holds = false;
  s->nsingle = s->shifts = 0;
  if (cd == (iconv_t) -1)
    return !host;
  for (b = 0; b < 256; b++)
    {
      uint8_t byte = (uint8_t) b, out[4 * PIVOT_MIN_ROOM];
      size_t used, bytes;
      int err;
      /* CD is in its initial state, as each byte is tried: new, or
         given a byte it consumed nothing of, or flushed (no call in
         three spent on a reset: ISO-2022-JP's probe took 30% of the
         instructions of a start).  */
      bytes = bridge_convert (cd, &byte, 1, out, sizeof out, &used, &err);
      if (used == 0 && bytes == 0)
        continue;               /* A valid beginning, or illegal.  */
      /* A byte consumed alone without a value may be one of the two
         shifts of iconv_shift.c, which decides; or a letter held back,
         which the flush gives.  */
      if (used == 1 && bytes == 0 && err == 0)
        {
          size_t held = memo_flush_gives (cd);
          if (held == 0 && shifts < 2)
            {
              shift[shifts++] = byte;
              continue;
            }
          s->holds = held != 0;
          iconv_close (cd);
          return true;
        }
      /* A byte that gives several values, or something held back
         after one: the decoder keeps state.  */
      if (used != 1 || bytes != 4 || err != 0 || memo_flush_gives (cd) != 0)
        {
          iconv_close (cd);
          return true;
        }
      single[n] = byte;
      if ((cp[n++] = memo_value_at (host, out)) == UINT32_MAX)
        {
          iconv_close (cd);
          return false;
        }
    }
  /* A byte that gives a value and changes how the next ones read would
     show here.  */
  s->together = (same_together (cd, host, single, cp, n, false)
                 && same_together (cd, host, single, cp, n, true));
  s->suits = s->together && shifts == 0;
  s->nsingle = (unsigned int) n;
  s->shifts = (unsigned int) shifts;
  /* The sentinel: characters of one byte from all over the range.  */
  show = n < MEMO_SENTINEL ? n : MEMO_SENTINEL;
  for (k = 0; k < show; k++)
    {
      s->sentinel[k] = single[k * n / show];
      s->sentinel_cp[k] = cp[k * n / show];
    }
  s->sentinel_len = (unsigned int) show;
  iconv_close (cd);
  return true;
}

void
memo_probe_charset (struct memo_charset *s, char const *fromcode)
{
  if (!memo_host_form () || !memo_probe_in (s, fromcode, true))
    memo_probe_in (s, fromcode, false);
}

bool
memo_check_values (iconv_t probe, bool host, struct memo_charset const *cs,
                   uint8_t const *s, size_t len, ucs4_t const *v, size_t nv)
{
  uint8_t in[MEMO_DEPTH + MEMO_SENTINEL];
  uint8_t out[4 * (MEMO_DEPTH + MEMO_SENTINEL) + 4 * PIVOT_MIN_ROOM];
  size_t n = len + cs->sentinel_len, used, bytes, k;
  int err;

  if (len > MEMO_DEPTH || nv > len)
    return false;
  memcpy (in, s, len);
  memcpy (in + len, cs->sentinel, cs->sentinel_len);
  iconv (probe, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (probe, in, n, out, sizeof out, &used, &err);
  if (err != 0 || used != n
      || bytes != 4 * (nv + (size_t) cs->sentinel_len))
    return false;
  for (k = 0; k < nv; k++)
    if (memo_value_at (host, out + 4 * k) != v[k])
      return false;
  for (k = 0; k < cs->sentinel_len; k++)
    if (memo_value_at (host, out + 4 * (nv + k)) != cs->sentinel_cp[k])
      return false;
  return memo_flush_gives (probe) == 0;
}

bool
memo_check (iconv_t probe, bool host, struct memo_charset const *cs,
            uint8_t const *s, size_t len, ucs4_t c)
{
  return memo_check_values (probe, host, cs, s, len, &c, 1);
}

/* A new node of M, all unknown; 0 (the root's index, never a child's)
   when M has as many as it may.  Room for all is taken at the first,
   and each is written when it is made: a node never moves, and the
   pages of those never made are never touched (a realloc that doubled
   copied them, and each new page costs the kernel a fault).  */
static uint32_t
new_node (struct memo *m)
{
  if (m->nodes == MEMO_MAX_NODES)
    return 0;
  if (!m->node)
    m->node = xnmalloc (MEMO_MAX_NODES, 256 * sizeof *m->node);
  memset (m->node + 256 * m->nodes, 0, 256 * sizeof *m->node);
  return (uint32_t) m->nodes++;
}

/* The entry of M for the character S[0..LEN), with the nodes of its
   beginnings, made if need be (when MAKE); NULL when there is none, or
   a character of fewer bytes ends there (*CLASH).  */
static uint32_t *
entry_of (struct memo *m, uint8_t const *s, size_t len, bool make,
          bool *clash)
{
  uint32_t node = 0;
  size_t k;

  *clash = false;
  if (m->nodes == 0)
    {
      if (!make)
        return NULL;
      new_node (m);             /* The root.  */
    }
  for (k = 0; k + 1 < len; k++)
    {
      uint32_t entry = m->node[256 * node + s[k]];
      if (!(entry & MEMO_CHILD))
        {
          uint32_t child;
          *clash = entry != 0;
          if (entry != 0 || !make || (child = new_node (m)) == 0)
            return NULL;
          entry = MEMO_CHILD | child;
          m->node[256 * node + s[k]] = entry;
        }
      node = entry & MEMO_INDEX;
    }
  return &m->node[256 * node + s[len - 1]];
}

enum memo_sight
memo_note (struct memo *m, uint8_t const *s, size_t len, ucs4_t c)
{
  bool clash;
  uint32_t *e;

  if (len == 0 || len > MEMO_DEPTH || c > 0x10FFFF)
    return MEMO_KNOWN;
  e = entry_of (m, s, len, true, &clash);
  if (!e)
    return clash ? MEMO_CLASH : MEMO_KNOWN;
  if (*e == 0)
    {
      *e = MEMO_SEEN | c;
      return MEMO_FIRST;
    }
  return (*e == (MEMO_SEEN | c) ? MEMO_AGAIN
          : *e == (MEMO_CHAR | c) ? MEMO_KNOWN : MEMO_CLASH);
}

size_t
memo_beginning (struct memo const *m, uint8_t const *s, size_t n)
{
  uint32_t node = 0, e;
  size_t k = 0;
  if (m->nodes == 0)
    return 0;
  while (k < n && ((e = m->node[256 * node + s[k]]) & MEMO_CHILD))
    {
      node = e & MEMO_INDEX;
      k++;
    }
  return k;
}

void
memo_leave (struct memo *m, uint8_t const *s, size_t len)
{
  bool clash;
  uint32_t *e;
  if (len == 0 || len > MEMO_DEPTH)
    return;
  e = entry_of (m, s, len, true, &clash);
  if (e && *e == 0)
    *e = MEMO_LEFT;
}

/* The entry E of the character S[0..LEN) is to say C: count in M's
   ascii_same an ASCII byte that this makes decode to itself.  */
static void
note_same (struct memo *m, uint8_t const *s, size_t len, uint32_t e,
           ucs4_t c)
{
  m->ascii_same += (len == 1 && s[0] < 0x80 && c == s[0]
                    && e != (MEMO_CHAR | c));
}

void
memo_learn_singles (struct memo *m, struct memo_charset const *cs)
{
  size_t k;
  for (k = 0; k < cs->nsingle; k++)
    {
      bool clash;
      uint32_t *e = entry_of (m, cs->single + k, 1, true, &clash);
      ucs4_t c = cs->single_cp[k];
      if (e && c <= 0x10FFFF && (*e == 0 || *e == (MEMO_SEEN | c)))
        {
          note_same (m, cs->single + k, 1, *e, c);
          *e = MEMO_CHAR | c;
        }
    }
}

bool
memo_lone (struct memo *m, uint8_t const *s, size_t len, ucs4_t c)
{
  bool clash;
  uint32_t *e;
  if (len < 2 || len > MEMO_DEPTH || c > 0x10FFFF
      || (0xD800 <= c && c < 0xE000))
    return true;
  e = entry_of (m, s, len, true, &clash);
  if (!e)
    return !clash;
  if (*e != 0 && *e != (MEMO_LONE | c))
    return false;
  *e = MEMO_LONE | c;
  return true;
}

void
memo_trust (struct memo *m, uint8_t const *s, size_t len)
{
  bool clash;
  uint32_t *e = entry_of (m, s, len, false, &clash);
  if (e && (*e & MEMO_SEEN))
    {
      note_same (m, s, len, *e, *e & MEMO_VALUE);
      *e = MEMO_CHAR | (*e & MEMO_VALUE);
    }
}

/* The entries of M for the bytes after the beginning S[0..LEN), or NULL
   when M has no node for it.  */
static uint32_t *
row_of (struct memo *m, uint8_t const *s, size_t len)
{
  uint32_t node = 0;
  size_t k;
  if (m->nodes == 0)
    return NULL;
  for (k = 0; k < len; k++)
    {
      uint32_t entry = m->node[256 * node + s[k]];
      if (!(entry & MEMO_CHILD))
        return NULL;
      node = entry & MEMO_INDEX;
    }
  return m->node + 256 * node;
}

/* Convert with PROBE the N units of UNIT bytes at IN, each a character
   of UNIT - 1 bytes and a byte of the sentinel of CS (the K-th unit
   its K-th byte, round), and note in ROW, by their last bytes, the
   characters of the units before the first one iconv() stops at; their
   count into *GOOD.  Returns 1 when all N were, 0 when iconv() stopped
   at the start of a unit (that unit is not one character of that
   length), -1 when anything else came out: what the units give is not
   sure.  */
static int
learn_units (uint32_t *row, iconv_t probe, bool host,
             struct memo_charset const *cs, uint8_t const *in, size_t n,
             size_t unit, size_t *good)
{
  uint8_t out[4 * 2 * ROW_BATCH + 4 * PIVOT_MIN_ROOM];
  size_t used, bytes, k;
  int err;

  iconv (probe, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (probe, in, n * unit, out, sizeof out, &used, &err);
  *good = used / unit;
  if (used % unit != 0 || bytes != 8 * *good
      || (err == 0 && memo_flush_gives (probe) != 0)
      || (err != 0 && err != EILSEQ && err != EINVAL))
    return -1;
  for (k = 0; k < *good; k++)
    if (memo_value_at (host, out + 8 * k + 4)
        != cs->sentinel_cp[k % cs->sentinel_len]
        || memo_value_at (host, out + 8 * k) > 0x10FFFF)
      return -1;
  for (k = 0; k < *good; k++)
    row[in[unit * k + unit - 2]] = MEMO_CHAR | memo_value_at (host,
                                                              out + 8 * k);
  return err == 0;
}

void
memo_learn_around (struct memo *m, iconv_t probe, bool host,
                   struct memo_charset const *cs, uint8_t const *s,
                   size_t len)
{
  uint8_t in[ROW_BATCH * (MEMO_DEPTH + 1)];
  size_t unit = len + 1, k;
  uint32_t *row;
  int dir;

  if (len < 2 || len > MEMO_DEPTH || cs->sentinel_len == 0 || !cs->suits
      || !(row = row_of (m, s, len - 1)))
    return;
  /* The K-th unit of a call: S's beginning, a last byte, the K-th byte
     of the sentinel (round); only the last byte changes.  */
  for (k = 0; k < ROW_BATCH; k++)
    {
      memcpy (in + k * unit, s, len - 1);
      in[k * unit + len] = cs->sentinel[k % cs->sentinel_len];
    }
  for (dir = 1; dir >= -1; dir -= 2)
    {
      int t = s[len - 1] + dir, fails = 0, tt[ROW_BATCH];
      while (0 <= t && t <= 255 && fails < ROW_FAILS)
        {
          size_t n = 0, good;
          int r;
          for (; n < ROW_BATCH && 0 <= t && t <= 255; t += dir)
            if (row[t] == 0)
              {
                in[n * unit + len - 1] = (uint8_t) t;
                tt[n++] = t;
              }
          if (n == 0)
            break;
          r = learn_units (row, probe, host, cs, in, n, unit, &good);
          /* iconv() stops before the end only at a unit (GOOD < N).  */
          if (r < 0 || (r == 0 && good >= n))
            break;
          if (r == 0)
            {
              /* The unit iconv() stopped at: go on after it.  */
              fails++;
              t = tt[good] + dir;
            }
        }
    }
}

void
memo_free (struct memo *m)
{
  free (m->node);
  m->node = NULL;
  m->nodes = 0;
  m->ascii_same = 0;
}

void
enc_memo_note_ascii (struct enc_memo *m, ucs4_t c, uint64_t v)
{
  uint64_t bit;
  if (0x80 <= c)
    return;
  bit = (uint64_t) 1 << (c & 63);
  if (v == (1 | (uint64_t) c << 8))
    m->ascii[c >> 6] |= bit;
  else
    m->ascii[c >> 6] &= ~bit;
}

/* Note that M has a page of C.  */
static void
note_page (struct enc_memo *m, ucs4_t c)
{
  if (m->page_end <= c >> 8)
    m->page_end = (c >> 8) + 1;
}

uint32_t *
enc_memo_page32_of (struct enc_memo *m, ucs4_t c)
{
  if (!m->page32)
    m->page32 = xcalloc (ENC_PAGES, sizeof *m->page32);
  if (!m->page32[c >> 8])
    {
      m->page32[c >> 8] = xcalloc (256, sizeof **m->page32);
      note_page (m, c);
    }
  return m->page32[c >> 8];
}

/* enc_memo_put's entry V of C in the narrow memo M, if it fits: V, or
   0 when it does not (more than 3 bytes).  */
static uint64_t
enc_memo_put32 (struct enc_memo *m, ucs4_t c, uint64_t v)
{
  if (UINT32_MAX < v)
    return 0;
  enc_memo_page32_of (m, c)[c & 0xFF] = (uint32_t) v;
  enc_memo_note_ascii (m, c, v);
  return v;
}

uint64_t
enc_memo_put (struct enc_memo *m, ucs4_t c, uint8_t const *s, size_t len,
              bool none)
{
  uint64_t v = ENC_NONE;
  size_t k;
  if (0x10FFFF < c)
    return v;
  if (!none)
    {
      v = len;
      for (k = 0; k < len; k++)
        v |= (uint64_t) s[k] << (8 + 8 * k);
    }
  if (m->narrow)
    return enc_memo_put32 (m, c, v);
  if (!m->page)
    m->page = xcalloc (ENC_PAGES, sizeof *m->page);
  if (!m->page[c >> 8])
    {
      m->page[c >> 8] = xcalloc (256, sizeof **m->page);
      note_page (m, c);
    }
  m->page[c >> 8][c & 0xFF] = v;
  enc_memo_note_ascii (m, c, v);
  return v;
}

bool
enc_memo_learn (struct enc_memo *m, iconv_t probe, ucs4_t c,
                uint8_t const *out, size_t len, int err)
{
  uint8_t in[8], tmp[4 * MAX_ENCODED];
  size_t used, bytes, k;
  int perr;

  iconv (probe, NULL, NULL, NULL, NULL);
  for (k = 0; k < 8; k++)
    in[k] = (uint8_t) (c >> (8 * (k % 4)));
  bytes = bridge_convert (probe, in, sizeof in, tmp, sizeof tmp, &used,
                          &perr);
  if (err != 0 && perr != 0 && used == 0 && bytes == 0)
    {
      enc_memo_put (m, c, NULL, 0, true);
      return true;
    }
  if (err == 0 && perr == 0 && 0 < len && len <= ENC_MAX_BYTES
      && bytes == 2 * len && memcmp (tmp, out, len) == 0
      && memcmp (tmp + len, out, len) == 0)
    {
      char *op = (char *) tmp;
      size_t ol = sizeof tmp;
      iconv (probe, NULL, NULL, &op, &ol);
      if (ol == sizeof tmp)
        {
          enc_memo_put (m, c, out, len, false);
          return true;
        }
    }
  return false;
}

void
enc_learner_unit (bool host, ucs4_t c, uint8_t *out)
{
  size_t k;
  if (host)
    memcpy (out, &c, 4);
  else
    for (k = 0; k < 4; k++)
      out[k] = (uint8_t) (c >> (8 * k));
}

/* Convert C twice with M's learner, from where it is: the bytes of C
   once to OUT (their number); ENC_NONE when it cannot encode C and
   consumed nothing; the number with ENC_HELD when the learner held C
   back (the first C came out at the second, which it held, and its
   flush, which brings it back to its initial state, gave the same
   bytes again); or 0 for anything else (any other error, an
   irreversible conversion, two encodings that differ).  */
static size_t
encode_twice (struct enc_memo const *m, ucs4_t c, uint8_t *out)
{
  uint8_t in[8], tmp[4 * MAX_ENCODED];
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) tmp;
  size_t il = sizeof in, ol = sizeof tmp, r, len, got;

  enc_learner_unit (m->ahead_form == AHEAD_HOST, c, in);
  enc_learner_unit (m->ahead_form == AHEAD_HOST, c, in + 4);
  r = iconv (m->ahead, &ip, &il, &op, &ol);
  got = sizeof tmp - ol;
  len = got / 2;
  if (r == (size_t) -1)
    return errno == EILSEQ && il == sizeof in && got == 0 ? ENC_NONE : 0;
  if (r != 0 || il != 0 || got == 0)
    return 0;
  if (got == 2 * len && len <= ENC_MAX_BYTES)
    {
      /* A byte at a time: they are a few, and a call of memcmp() and
         of memcpy() would cost more.  */
      size_t k;
      for (k = 0; k < len && tmp[k] == tmp[len + k]; k++)
        out[k] = tmp[k];
      /* (Bytes held back that read as twice the same show at the
         batch's flush.)  */
      if (k == len)
        return len;
    }
  if (got <= ENC_MAX_BYTES && got * 2 <= sizeof tmp)
    {
      /* Held back: the flush gives the same bytes once more.  */
      iconv (m->ahead, NULL, NULL, &op, &ol);
      if (sizeof tmp - ol == 2 * got && memcmp (tmp, tmp + got, got) == 0)
        {
          memcpy (out, tmp, got);
          return got | ENC_HELD;
        }
    }
  return 0;
}

/* Encode the N values of WANT with M's learner from its initial
   state, each twice in a call of its own, into GOT and LEN (see
   encode_twice); how many came through before the first that did
   not.  */
static size_t
encode_each (struct enc_memo const *m, ucs4_t const *want, size_t n,
             uint8_t (*got)[ENC_MAX_BYTES], uint8_t *len)
{
  size_t k;
  iconv (m->ahead, NULL, NULL, NULL, NULL);
  for (k = 0; k < n; k++)
    {
      size_t l = encode_twice (m, want[k], got[k]);
      if (l == 0)
        break;
      len[k] = (uint8_t) l;
    }
  return k;
}

/* What CD encodes C to alone from its initial state, as UTF-32LE or
   (HOST) in the machine's order, into OUT (MAX_ENCODED bytes): their
   number, or -1 for an error.  */
static int
encode_alone (iconv_t cd, ucs4_t c, bool host, uint8_t *out)
{
  uint8_t in[4];
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) out;
  size_t il = sizeof in, ol = MAX_ENCODED;
  enc_learner_unit (host, c, in);
  iconv (cd, NULL, NULL, NULL, NULL);
  if (iconv (cd, &ip, &il, &op, &ol) == (size_t) -1
      || iconv (cd, NULL, NULL, &op, &ol) == (size_t) -1)
    return -1;
  return (int) (MAX_ENCODED - ol);
}

/* glibc's WCHAR_T is its own form, UCS-4 in the machine's order,
   which saves iconv() a step of each call; where WCHAR_T is anything
   else (UTF-16, a locale's wide characters), these values, one at
   least of every width, do not all encode as their UTF-32LE do.  */
iconv_t
enc_learner_open (char const *tocode, bool *host)
{
  static ucs4_t const tell[] = { 0x41, 0x0A, 0xE9, 0x3B1, 0x4E2D, 0xAC00,
                                 0x20AC, 0xFF21, 0x20B9F, 0x1F600 };
  iconv_t le, wide;
  size_t k;

  /* Where memo_ucs4 () is WCHAR_T, it reads every scalar value as
     UTF-32LE does: nothing to compare.  glibc opens nothing from
     WCHAR_T to WCHAR_T.  */
  *host = false;
  if (strcmp (memo_ucs4 (), "WCHAR_T") == 0)
    {
      wide = iconv_open (tocode, "WCHAR_T");
      *host = wide != (iconv_t) -1;
      return *host ? wide : iconv_open (tocode, "UTF-32LE");
    }
  le = iconv_open (tocode, "UTF-32LE");
  wide = iconv_open (tocode, "WCHAR_T");
  if (le == (iconv_t) -1 || wide == (iconv_t) -1)
    {
      if (wide != (iconv_t) -1)
        iconv_close (wide);
      return le;
    }
  for (k = 0; k < sizeof tell / sizeof *tell; k++)
    {
      uint8_t a[MAX_ENCODED], b[MAX_ENCODED];
      int la = encode_alone (le, tell[k], false, a);
      if (la != encode_alone (wide, tell[k], true, b)
          || (0 < la && memcmp (a, b, (size_t) la) != 0))
        {
          iconv_close (wide);
          return le;
        }
    }
  iconv_close (le);
  *host = true;
  return wide;
}

void
enc_memo_open_ahead (struct enc_memo *m)
{
  bool host;
  m->ahead = enc_learner_open (m->tocode, &host);
  m->ahead_form = (m->ahead == (iconv_t) -1 ? AHEAD_NONE
                   : host ? AHEAD_HOST : AHEAD_LE);
}

size_t
enc_memo_want (struct enc_memo const *m, ucs4_t const *cp, size_t n,
               ucs4_t *want)
{
  size_t j, k = 0;
  uint64_t seen = 0;             /* A bit for each value in WANT.  */
  for (j = 0; j < n && j < ENC_AHEAD && k < ENC_BATCH; j++)
    {
      ucs4_t c = cp[j];
      uint64_t bit;
      size_t t = 0;
      if ((c < 0x80 && enc_memo_ascii (m->ascii, c))
          || (0xD800 <= c && c < 0xE000) || 0x10FFFF < c
          || enc_memo_get (m, c) != 0)
        continue;
      bit = (uint64_t) 1 << ((c * 0x9E3779B1u) >> 26);
      if (seen & bit)
        while (t < k && want[t] != c)
          t++;
      else
        t = k;
      if (t == k)
        want[k++] = c;
      seen |= bit;
    }
  return k;
}

size_t
enc_memo_learn_ahead (struct enc_memo *m, ucs4_t const *cp, size_t n)
{
  ucs4_t want[ENC_BATCH];
  uint8_t got[ENC_BATCH][ENC_MAX_BYTES], len[ENC_BATCH];
  uint8_t tmp[4 * MAX_ENCODED];
  char *op = (char *) tmp;
  size_t k, j, good, ol = sizeof tmp;

  if (!m->tocode)
    return 0;
  if (m->ahead_form == AHEAD_UNTRIED)
    enc_memo_open_ahead (m);
  if (m->ahead_form == AHEAD_NONE)
    return 0;
  k = enc_memo_want (m, cp, n, want);
  if (k == 0)
    return 0;
  good = encode_each (m, want, k, got, len);
  /* After one that did not come through, the learner's state is not
     known: again with those before it.  */
  if (good < k && (good == 0 || encode_each (m, want, good, got, len)
                                < good))
    return 0;
  iconv (m->ahead, NULL, NULL, &op, &ol);
  if (ol != sizeof tmp)
    return 0;
  m->learned += good;
  /* (GOOD is at most K: encode_each counts among the K.)  */
  for (j = 0; j < good && j < k; j++)
    {
      bool none = len[j] == ENC_NONE;
      uint64_t v = enc_memo_put (m, want[j], got[j], none ? 0 : len[j] & 0xF,
                                 none);
      m->learned_wide += !none && want[j] >= 0x80;
      if (!none && (len[j] & ENC_HELD))
        {
          m->page[want[j] >> 8][want[j] & 0xFF] = v | ENC_HELD;
          enc_memo_note_ascii (m, want[j], v | ENC_HELD);
        }
    }
  return good;
}

enum
{
  PAIR_SLOTS = 1 << 14,         /* Plain pairs kept: 128 KiB.  */
  PAIR_PROBES = 8               /* Slots looked at for one.  */
};

int
enc_memo_pair (struct enc_memo *m, ucs4_t c, ucs4_t d, uint8_t *one)
{
  uint64_t key = ((uint64_t) c << 21 | d) + 1, vc, vd;
  size_t at = (size_t) ((key * 0x9E3779B97F4A7C15u) >> 50), k, free_at = 0;
  uint8_t in[8], tmp[4 * MAX_ENCODED], want[2 * ENC_MAX_BYTES];
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) tmp;
  size_t il = sizeof in, ol = sizeof tmp, got, fl;
  int lc, ld;
  bool found_free = false;

  if (!m->pairs)
    m->pairs = xcalloc (PAIR_SLOTS, sizeof *m->pairs);
  for (k = 0; k < PAIR_PROBES; k++)
    {
      size_t slot = (at + k) % PAIR_SLOTS;
      if (m->pairs[slot] == key)
        return 0;
      if (m->pairs[slot] == 0 && !found_free)
        {
          free_at = slot;
          found_free = true;
        }
    }
  vc = enc_memo_get (m, c);
  vd = enc_memo_get (m, d);
  lc = enc_memo_write (vc, want);
  /* D may be no character of the charset alone (U+309A), and compose.  */
  ld = vd != 0 && 0 < lc ? enc_memo_write (vd, want + lc) : -1;
  if (vc == 0 || lc <= 0
      || (m->ahead_form != AHEAD_LE && m->ahead_form != AHEAD_HOST))
    return -1;
  enc_learner_unit (m->ahead_form == AHEAD_HOST, c, in);
  enc_learner_unit (m->ahead_form == AHEAD_HOST, d, in + 4);
  iconv (m->ahead, NULL, NULL, NULL, NULL);
  if (iconv (m->ahead, &ip, &il, &op, &ol) != 0 || il != 0)
    return -1;
  got = sizeof tmp - ol;
  if (iconv (m->ahead, NULL, NULL, &op, &ol) == (size_t) -1)
    return -1;
  fl = sizeof tmp - ol - got;
  if (0 < ld && got + fl == (size_t) lc + (size_t) ld
      && memcmp (tmp, want, got + fl) == 0)
    {
      if (found_free)
        m->pairs[free_at] = key;
      return 0;
    }
  /* One character of the charset, and nothing held after it.  */
  if (fl != 0 || got == 0 || MAX_ENCODED < got)
    return -1;
  memcpy (one, tmp, got);
  return (int) got;
}

void
enc_memo_free (struct enc_memo *m)
{
  size_t k;
  if (m->ahead_form == AHEAD_LE || m->ahead_form == AHEAD_HOST)
    iconv_close (m->ahead);
  m->ahead_form = AHEAD_UNTRIED;
  m->ascii[0] = m->ascii[1] = 0;
  free (m->pairs);
  m->pairs = NULL;
  /* The pages made are below page_end: no look at the others.  */
  if (m->page32)
    {
      for (k = 0; k < m->page_end; k++)
        free (m->page32[k]);
      free (m->page32);
      m->page32 = NULL;
    }
  if (m->page)
    {
      for (k = 0; k < m->page_end; k++)
        free (m->page[k]);
      free (m->page);
      m->page = NULL;
    }
  m->page_end = 0;
}
