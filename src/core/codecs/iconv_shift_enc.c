/* The bridge's encoders of a charset of two shift states (SO and SI,
   found by iconv_shift.c's probe): what iconv(3) encodes each character
   to in the state it leads to, learned and checked, written with the
   shifts between them (iconv_shift.h).

   Specification: none of its own; as iconv_shift.c, this reproduces
   what the bridge's one-character-per-call encoding (iconv_encode.c)
   gives.  */

#include <config.h>

#include "iconv_shift.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iconv_compose.h"
#include "xalloc.h"

#include "unicode/utf8.h"

/* The encoders.  A charset found of SO and SI by the probe above is
   encoded by iconv(3) one character per call, as iconv_bridge.c does,
   until a character has been learned: the probe iconv_t, from its
   initial state, must encode it as one byte (a character of the initial
   state) with nothing to flush after, or as SO and two bytes (one of the
   other state) with SI alone to flush after; and what the encoder wrote,
   in the state of what came before, must be those bytes, with SI or SO
   before them where that state was the other.  Then it is written
   without iconv(3), with the shift its state needs; before iconv(3) is
   called again (or flushed), its iconv_t is brought to the state of
   what was written by encoding a character known of that state, whose
   bytes are thrown away.  So the bytes are those one call per character
   gives, as long as the state of the encoder is that of the last
   character it encoded, which is what each character learned showed,
   and the flush after it.  A character iconv(3) cannot encode, for the
   probe too, is known as such; anything else ends the learning for
   good (a character held back to combine with the next comes out of
   no call of its own).  The bridge's encoder first lets it learn ahead
   the new characters that follow one it does not know
   (shift_enc_learn_ahead): a learner of its own, from the initial state
   its flush brings it back to, encodes them one call each in turn, each
   in the state the one before left, which must give its bytes after the
   shift the two states need (learn_each), and the flush the last's; the
   encoder's own call is then not needed to know the character.  (Given
   twice in a call, as it was, a character cost glibc's IBM1388 622
   instructions; alone, 449.)  A head written before the
   first character after the initial state (ISO-2022-KR's ESC $ ) C,
   what a flush from that state writes) is skipped in what the probe,
   the learner and the encoder's first call give, and written by the
   memo when it writes first.

   SO and SI may also be escape sequences that designate a set to G0
   (ISO-2022-JP's ESC $ B and ESC ( B): the encoder of a charset that
   shows state otherwise, or whose encoders' memo found it stateful at
   a character (iconv_encode.c), learns them from the first character
   of the other state, as the probe encodes it from its initial state
   and flushes it; then each character is checked as above, with those
   sequences for SO and SI, and in the other state too (other_state:
   glibc's ISO-2022-JP-2 writes a character in the set it is in when
   that set holds it, as JIS X 0212 holds the tilde; the characters of
   one byte learned before SO and SI are learned again).  Such a
   sequence invokes the set it designates, so it is written the same
   wherever the state changes; a designation to G1 followed by SO is not
   learned, since it is not written again while it holds (ISO-2022-CN's
   ESC $ ) A), nor is any character written with another sequence
   (ISO-2022-JP's ¥ after ESC ( J), which ends the learning.  */

struct shift_enc *
shift_enc_learning (char const *tocode)
{
  struct shift_enc *se = xzalloc (sizeof *se);
  se->known.narrow = true;
  se->synced = true;
  se->tocode = tocode;
  return se;
}

struct shift_enc *
shift_enc_new (struct memo_charset const *cs, char const *tocode)
{
  struct shift_enc *se;
  bool bytes = cs->shifting && cs->so_len == 1 && cs->si_len == 1;
  /* Not for a charset the memo or the encoders' memo serves.  */
  if (!cs->decided || (!bytes && (cs->suits || cs->holds)))
    return NULL;
  se = shift_enc_learning (tocode);
  if (bytes)
    {
      se->so[0] = cs->so;
      se->si[0] = cs->si;
      se->so_len = se->si_len = 1;
    }
  return se;
}

/* Whether the N bytes at S are a shift SE may learn as SO (SHIFT_OUT)
   or SI: SO or SI themselves (0E, 0F), or an escape sequence that
   designates a set to G0 (ESC ( F, ESC $ F, ESC $ ( F, with a final
   byte F of 40..7E), which invokes it at once and is written the same
   wherever it is needed.  A designation to G1 and SO (ISO-2022-CN's
   ESC $ ) A SO, then SO alone while it holds) is not.  */
static bool
shift_learnable (uint8_t const *s, size_t n, bool shift_out)
{
  if (n == 1)
    return s[0] == (shift_out ? 0x0E : 0x0F);
  if (n < 3 || SHIFT_SEQ_MAX < n || s[0] != 0x1B || s[n - 1] < 0x40
      || 0x7E < s[n - 1])
    return false;
  return n == 3 ? s[1] == 0x24 || s[1] == 0x28
                : s[1] == 0x24 && s[2] == 0x28;
}

/* SO and SI of SE from what the probe, from its initial state, encodes
   a character of the other state to (ONE[0..BYTES): SO and two bytes)
   and its flush (FL[0..FLEN): SI), if SE has none yet and they are
   shifts it may learn.  */
static void
learn_shifts (struct shift_enc *se, uint8_t const *one, size_t bytes,
              uint8_t const *fl, size_t flen)
{
  if (se->so_len != 0 || bytes < 3 || !shift_learnable (one, bytes - 2, true)
      || !shift_learnable (fl, flen, false) || (bytes == 3) != (flen == 1))
    return;
  memcpy (se->so, one, bytes - 2);
  memcpy (se->si, fl, flen);
  se->so_len = (unsigned int) bytes - 2;
  se->si_len = (unsigned int) flen;
  se->learned = true;
  /* The characters of one byte learned so far were not checked after
     SO: learned again.  */
  enc_memo_free (&se->known);
}

/* Keep in SE, the first time, what CD writes when flushed from its
   initial state: what an encoder of the charset writes once before its
   first character after it (ISO-2022-KR's ESC $ ) C), none for most.  */
static void
know_head (struct shift_enc *se, iconv_t cd)
{
  uint8_t buf[4 * MAX_ENCODED];
  char *op = (char *) buf;
  size_t ol = sizeof buf;
  if (se->head_known)
    return;
  iconv (cd, NULL, NULL, NULL, NULL);
  iconv (cd, NULL, NULL, &op, &ol);
  se->head_len = sizeof buf - ol;
  if (sizeof se->head < se->head_len)   /* Then nothing will match.  */
    se->head_len = 0;
  memcpy (se->head, buf, se->head_len);
  se->head_known = true;
}

/* Whether the N bytes at *P start with SE's head: then skip it.  */
static bool
skip_head (struct shift_enc const *se, uint8_t const **p, size_t *n)
{
  if (se->head_len == 0)
    return true;
  if (*n < se->head_len || memcmp (*p, se->head, se->head_len) != 0)
    return false;
  *p += se->head_len;
  *n -= se->head_len;
  return true;
}

/* For know: C, which SE's memo has just taken, gets ENC_HELD when the
   encoder composes it with a character that may follow, as PROBE (see
   compose_first) shows.  Out of line: few characters are candidates,
   and most encoders compose nothing.  */
static __attribute__ ((noinline)) void
mark_held (struct shift_enc *se, iconv_t probe, bool host, ucs4_t c)
{
  if (se->comp && compose_first (se->comp, probe, host, c))
    se->known.page32[c >> 8][c & 0xFF] |= ENC_HELD;
}

/* Put C in SE's memo as the LEN bytes at S (LEN 0: iconv(3) cannot
   encode it), with ENC_HELD if mark_held says so.  */
static inline void
know (struct shift_enc *se, iconv_t probe, bool host, ucs4_t c,
      uint8_t const *s, size_t len)
{
  enc_memo_put (&se->known, c, s, len, len == 0);
  if (compose_candidate (c) && len != 0)
    mark_held (se, probe, host, c);
}

/* Whether what follows a character at IN[AT..N) is surely no mark a
   character of ENC_HELD may compose with: a character that is none (a
   byte of ASCII, or one of two or three bytes), not the end of IN, nor
   anything ill-formed or of four bytes, which the state machine
   takes.  Out of the memo's loops: rarely asked.  */
static __attribute__ ((noinline, cold)) bool
no_mark_at (uint8_t const *in, size_t at, size_t n)
{
  ucs4_t d;
  if (at == n)
    return false;
  return in[at] < 0x80 || (utf8_short (in + at, n - at, &d) != 0
                           && !compose_mark (d));
}

/* Write the entry V of SE's memo (a character it knows, not ENC_NONE)
   at OUT[W..], after SE's head if it has not been written yet (*HEAD
   false, then true), and after the shift it needs from the state
   *SHIFTED (set to its own): the position after it.  OUT has
   MAX_ENCODED bytes of room at W.  (*HEAD and *SHIFTED are the
   caller's copies of SE's, which a byte written to OUT could be, as far
   as the compiler knows.)  */
static inline __attribute__ ((always_inline)) size_t
put_known (struct shift_enc *se, uint64_t v, bool *head, bool *shifted,
           uint8_t *out, size_t w)
{
  unsigned int len = (unsigned int) (v & 0xF);
  if (!*head)
    {
      /* What the encoder would have written first.  */
      memcpy (out + w, se->head, se->head_len);
      w += se->head_len;
      *head = true;
      se->synced = false;
    }
  if ((len == 2) != *shifted)
    {
      uint8_t const *seq = len == 2 ? se->so : se->si;
      unsigned int sl = len == 2 ? se->so_len : se->si_len;
      *shifted = len == 2;
      /* SO and SI of a byte each (most): no call of memcpy.  */
      out[w] = seq[0];
      if (sl > 1)
        memcpy (out + w + 1, seq + 1, sl - 1);
      w += sl;
      se->synced = false;
    }
  out[w] = (uint8_t) (v >> 8);
  out[w + 1] = (uint8_t) (v >> 16);
  return w + len;
}

/* MAX_ENCODED bytes of room at W while W is below this, for CAP.  */
static inline size_t
room_end (size_t cap)
{
  return cap >= MAX_ENCODED ? cap - MAX_ENCODED + 1 : 0;
}

bool
shift_enc_run (struct shift_enc *se, ucs4_t const *cp, size_t *i, size_t n,
               uint8_t *out, size_t *o, size_t cap)
{
  size_t k = *i, w = *o, end = room_end (cap);
  uint64_t const *ascii = se->known.ascii;
  uint32_t *const *page = se->known.page32;
  bool none = false, shifted = se->shifted, head = se->head_out;
  if (!page)
    return false;
  while (k < n && w < end)
    {
      uint64_t v;
      ucs4_t c = cp[k];
      if (c < 0x80 && enc_memo_ascii (ascii, c) && !shifted && head)
        {
          /* A run of ASCII written as itself in the initial state.  */
          do
            out[w++] = (uint8_t) c;
          while (++k < n && w < end && (c = cp[k]) < 0x80
                 && enc_memo_ascii (ascii, c));
          continue;
        }
      v = c <= 0x10FFFF ? enc_memo_page32_get (page, c) : 0;
      /* Not known, known not to be encodable, or ENC_HELD (a character
         the encoder may compose) before a mark or the end.  */
      if ((uint32_t) (v & 0x1F) - 1 > 1
          && !((v & ENC_HELD) && k + 1 < n && !compose_mark (cp[k + 1])))
        {
          none = (v & 0xF) == ENC_NONE;
          break;
        }
      w = put_known (se, v, &head, &shifted, out, w);
      k++;
    }
  se->shifted = shifted;
  se->head_out = head;
  *i = k;
  *o = w;
  return none;
}

/* For shift_enc_utf8, in the state of two bytes: from IN[*I..N) the
   characters of three bytes of UTF-8 that PAGE (a memo's) writes in
   two bytes, to OUT[*W..], while *W is below END.  It leaves one of
   ENC_HELD to shift_enc_utf8's loop, which looks at the next: IBM1390's
   Japanese text takes 3% more instructions so than if this loop took
   it, which cost IBM930's 1.1% more, and other charsets' random text
   0.2%.  */
static inline void
pairs_utf8 (uint32_t *const *page, uint8_t const *in, size_t *i, size_t n,
            uint8_t *out, size_t *w, size_t end)
{
  size_t k = *i, o = *w;
  while (k + 3 <= n && o < end)
    {
      uint32_t b = in[k], c1 = in[k + 1] ^ 0x80u, c2 = in[k + 2] ^ 0x80u;
      ucs4_t c = (b & 0x0F) << 12 | c1 << 6 | c2;
      uint32_t const *pg;
      uint32_t v;
      if ((b & 0xF0) != 0xE0 || (c1 | c2) >= 0x40 || c < 0x800
          || c - 0xD800 < 0x800 || !(pg = page[c >> 8])
          || ((v = pg[c & 0xFF]) & 0x1F) != 2)
        break;
      out[o] = (uint8_t) (v >> 8);
      out[o + 1] = (uint8_t) (v >> 16);
      o += 2;
      k += 3;
    }
  *i = k;
  *w = o;
}

/* For shift_enc_utf8, in the state of one byte: from IN[*I..N) the
   characters of one or two bytes of UTF-8 that PAGE writes in one
   byte, to OUT[*W..], while *W is below END; their line feeds added to
   *NL.  It leaves ASCII that the memo writes as itself (its ASCII,
   unless NULL) to shift_enc_utf8's faster loop of that.  */
static inline __attribute__ ((always_inline)) void
singles_utf8 (uint32_t *const *page, uint64_t const *ascii,
              uint8_t const *in, size_t *i, size_t n, uint8_t *out,
              size_t *w, size_t end, uint64_t *nl)
{
  size_t k = *i, o = *w;
  uint64_t lines = 0;
  /* The page of U+0000..U+00FF, which most characters of one byte are
     in (the others' pages are read for each).  */
  uint32_t const *low = page[0];
  /* A byte written for one or two read: one bound does for both.  */
  size_t lim = end - o < n - k ? k + (end - o) : n;
  while (k < lim)
    {
      ucs4_t c = in[k];
      uint32_t const *pg = low;
      uint32_t v;
      if (c < 0x80)
        {
          if ((ascii && enc_memo_ascii (ascii, c)) || !pg
              || ((v = pg[c]) & 0x1F) != 1)
            break;
          out[o++] = (uint8_t) (v >> 8);
          lines += c == 0x0A;
          k++;
          continue;
        }
      else
        {
          uint32_t c1;
          if (c < 0xC2 || c >= 0xE0 || k + 2 > n
              || (c1 = in[k + 1] ^ 0x80u) >= 0x40)
            break;
          c = (c & 0x1F) << 6 | c1;
        }
      if (c >= 0x100)
        pg = page[c >> 8];
      if (!pg || ((v = pg[c & 0xFF]) & 0x1F) != 1)
        break;
      out[o++] = (uint8_t) (v >> 8);
      k += 2;
    }
  *i = k;
  *w = o;
  *nl += lines;
}

size_t
shift_enc_utf8 (struct shift_enc *se, uint8_t const *in, size_t n,
                uint8_t *out, size_t *o, size_t cap, uint64_t *newlines,
                bool *none)
{
  size_t i = 0, w = *o, end = room_end (cap);
  uint64_t const *ascii = se->known.ascii;
  uint64_t nl = 0;
  uint32_t *const *page = se->known.page32;
  bool shifted = se->shifted, head = se->head_out;
  /* ASCII's letters as themselves (ISO-2022-KR): runs of ASCII are
     worth a loop; EBCDIC's few controls are not.  */
  bool letters = enc_memo_ascii (ascii, 'a');
  *none = false;
  if (!page)
    return 0;
  while (i < n && w < end)
    {
      uint64_t v;
      ucs4_t c;
      int r = 1;
      if (head)
        {
          /* Runs in the state they need: no shift, no head.  */
          if (shifted)
            pairs_utf8 (page, in, &i, n, out, &w, end);
          else
            {
              if (letters)
                singles_utf8 (page, ascii, in, &i, n, out, &w, end, &nl);
              else
                singles_utf8 (page, NULL, in, &i, n, out, &w, end, &nl);
            }
          if (i == n || w >= end)
            break;
        }
      c = in[i];
      if (c >= 0x80)
        {
          if ((r = utf8_short (in + i, n - i, &c)) == 0)
            break;
        }
      else if (enc_memo_ascii (ascii, c) && !shifted && head)
        {
          /* A run of ASCII written as itself in the initial state.  */
          do
            {
              out[w++] = (uint8_t) c;
              nl += c == 0x0A;
            }
          while (++i < n && w < end && (c = in[i]) < 0x80
                 && enc_memo_ascii (ascii, c));
          continue;
        }
      v = enc_memo_page32_get (page, c);       /* C is below U+10000.  */
      /* Not known, known not to be encodable, or ENC_HELD before a
         mark: one test for all, in the loop.  */
      if ((uint32_t) (v & 0x1F) - 1 > 1
          && !((v & ENC_HELD) && no_mark_at (in, i + (size_t) r, n)))
        {
          *none = (v & 0xF) == ENC_NONE;
          break;
        }
      w = put_known (se, v, &head, &shifted, out, w);
      nl += c == 0x0A;
      i += (size_t) r;
    }
  se->shifted = shifted;
  se->head_out = head;
  *o = w;
  *newlines += nl;
  return i;
}

void
shift_enc_sync (struct shift_enc *se, iconv_t cd, bool host, bool flush)
{
  if (!se->synced)
    {
      uint8_t in[4], out[4 * MAX_ENCODED];
      size_t used;
      int err;
      enc_learner_unit (host, se->sample[se->shifted], in);
      /* Its bytes are thrown away: only the state counts.  */
      bridge_convert (cd, in, 4, out, sizeof out, &used, &err);
      se->synced = true;
    }
  if (flush)                    /* Back to the initial state.  */
    se->shifted = se->head_out = false;
}

/* What PROBE, from its initial state, encodes C to after SE's head, in
   OUT (at most MAX_ENCODED bytes), and then its flush, in *FLUSHED (*FL
   bytes).  Returns the bytes before the flush, or 0 for an error (or no
   head first).  */
static size_t
encode_once (struct shift_enc const *se, iconv_t probe, ucs4_t c,
             uint8_t *out, uint8_t *flushed, size_t *fl)
{
  uint8_t in[4], got[2 * MAX_ENCODED];
  uint8_t const *g = got;
  size_t used, bytes, k, ol = MAX_ENCODED;
  char *op = (char *) flushed;
  int err;
  iconv (probe, NULL, NULL, NULL, NULL);
  for (k = 0; k < 4; k++)
    in[k] = (uint8_t) (c >> (8 * k));
  bytes = bridge_convert (probe, in, 4, got, sizeof got, &used, &err);
  iconv (probe, NULL, NULL, &op, &ol);
  *fl = MAX_ENCODED - ol;
  if (err != 0 || used != 4 || !skip_head (se, &g, &bytes)
      || MAX_ENCODED < bytes)
    return 0;
  memcpy (out, g, bytes);
  return bytes;
}

/* The bytes, in WANT, that SE's sample of the other state C gives after
   SO, then SI and the byte X: what a character of one byte, X, must
   give after C from the initial state, once SO and SI were learned.
   Their number.  */
static size_t
after_so (struct shift_enc const *se, uint8_t x, uint8_t *want)
{
  uint64_t v = enc_memo_get (&se->known, se->sample[1]);
  size_t n = se->so_len;
  memcpy (want, se->so, n);
  want[n++] = (uint8_t) (v >> 8);
  want[n++] = (uint8_t) (v >> 16);
  memcpy (want + n, se->si, se->si_len);
  n += se->si_len;
  want[n++] = x;
  return n;
}

/* Whether C, learned as the LEN bytes at X (one: of the initial state;
   two: after SO) in one state, gives them in the other too, as CD (an
   iconv_t to the charset, from UCS-4 in the machine's order when HOST,
   else UTF-32LE) shows from its initial state: SO, the bytes of SE's
   sample of the other state, SI and X after that sample; or SO and X
   alone.  SE's SO and SI were learned: a set they designate may hold a
   character of the other (JIS X 0212 the tilde, KS C 5601 Greek), which
   glibc's ISO-2022-JP-2 writes in the set it is in.  */
static bool
other_state (struct shift_enc const *se, iconv_t cd, bool host, ucs4_t c,
             uint8_t const *x, size_t len)
{
  uint8_t in[8], got[4 * MAX_ENCODED], want[2 * SHIFT_SEQ_MAX + 3];
  uint8_t const *g = got;
  size_t used, bytes, n, ni = 0;
  int err;
  if (cd == (iconv_t) -1)
    return false;
  if (len == 1)
    {
      n = after_so (se, x[0], want);
      enc_learner_unit (host, se->sample[1], in);
      ni = 4;
    }
  else
    {
      memcpy (want, se->so, se->so_len);
      memcpy (want + se->so_len, x, 2);
      n = se->so_len + 2;
    }
  enc_learner_unit (host, c, in + ni);
  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, in, ni + 4, got, sizeof got, &used, &err);
  return (err == 0 && used == ni + 4 && skip_head (se, &g, &bytes)
          && bytes == n && memcmp (g, want, n) == 0);
}

/* SE's iconv_t for other_state in learn_each, opened the first time.  */
static iconv_t
check_of (struct shift_enc *se)
{
  bool host;
  if (!se->check_open)
    {
      se->check = enc_learner_open (se->tocode, &host);
      se->check_open = true;
      if (se->check != (iconv_t) -1 && host != se->ahead_host)
        {
          iconv_close (se->check);
          se->check = (iconv_t) -1;
        }
    }
  return se->check;
}

void
shift_enc_learn (struct shift_enc **sep, iconv_t probe, ucs4_t c,
                 uint8_t const *out, size_t len, int err)
{
  struct shift_enc *se = *sep;
  uint8_t one[MAX_ENCODED], fl[MAX_ENCODED];
  size_t flen, bytes;
  bool ok = false, wide = false, head;

  know_head (se, probe);
  bytes = encode_once (se, probe, c, one, fl, &flen);
  learn_shifts (se, one, bytes, fl, flen);
  /* The encoder's first bytes since its initial state: its head.  */
  head = se->head_out || skip_head (se, &out, &len);
  se->head_out = true;
  if (!head)
    ok = false;
  else if (err != 0)
    ok = len == 0 && bytes == 0 && flen == 0;
  else if (bytes == 1 && flen == 0)
    /* One byte, after SI where the state was the other (and then, SO
       and SI learned, from the other state too).  */
    ok = ((se->shifted ? len == se->si_len + 1
           && memcmp (out, se->si, se->si_len) == 0
           && out[se->si_len] == one[0]
           : len == 1 && out[0] == one[0])
          && (!se->learned || se->shifted
              || other_state (se, probe, false, c, one, 1)));
  else if (se->so_len != 0 && bytes == se->so_len + 2
           && memcmp (one, se->so, se->so_len) == 0 && flen == se->si_len
           && memcmp (fl, se->si, flen) == 0)
    {
      /* Two bytes, after SO where the state was the initial one.  */
      wide = true;
      ok = (se->shifted ? len == 2 && memcmp (out, one + se->so_len, 2) == 0
            : len == bytes && memcmp (out, one, bytes) == 0);
    }
  if (!ok)
    {
      shift_enc_free (se);
      *sep = NULL;
      return;
    }
  know (se, probe, false, c, one + (wide ? se->so_len : 0),
        err != 0 ? 0 : wide ? 2 : 1);
  if (err != 0)
    return;
  se->sample[wide] = c;
  se->shifted = wide;
}

/* C, in a call of its own, with SE's learner, from where it is: the
   bytes it wrote, into OUT (4 * MAX_ENCODED bytes), with iconv()'s
   errno in *ERR and the input bytes it consumed in *USED.  */
static size_t
learn_one (struct shift_enc *se, ucs4_t c, uint8_t *out, int *err,
           size_t *used)
{
  uint8_t in[4];
  enc_learner_unit (se->ahead_host, c, in);
  return bridge_convert (se->ahead, in, 4, out, 4 * MAX_ENCODED, used,
                         err);
}

/* Whether the LEN bytes at S are SE's SI (SHIFT_OUT false) or SO.  */
static bool
is_shift (struct shift_enc const *se, uint8_t const *s, size_t len,
          bool shift_out)
{
  uint8_t const *q = shift_out ? se->so : se->si;
  size_t k;
  if (len != (shift_out ? se->so_len : se->si_len))
    return false;
  /* A byte or a few: a call of memcmp() would cost more.  */
  for (k = 0; k < len; k++)
    if (s[k] != q[k])
      return false;
  return true;
}

/* Encode the N values of WANT with SE's learner from its initial state,
   each in a call of its own, following its state: one byte (after SI
   where the state was the other), two bytes (after SO where it was
   not), or an error at once (LEN 0); SE's head first, SI or nothing to
   flush after the last, as the state says.  Where the state was the
   other and SI is a byte, SI and a byte are two bytes as a character of
   that state is: when the first is SI's, the character is encoded
   again, which gives its byte alone, or the same two bytes.  Each
   character shows the state the one before it left (a shift is written
   where, and only where, their states differ), and the flush the
   last's.  Into GOT and LEN; how many came through before the first
   that did not (one fewer than N when the flush gave anything else):
   the one before it is checked again by the caller, with the flush.  */
static size_t
learn_each (struct shift_enc *se, ucs4_t const *want, size_t n,
            uint8_t (*got)[2], uint8_t *len)
{
  bool shifted = false, headed = false;
  size_t k;
  iconv (se->ahead, NULL, NULL, NULL, NULL);
  for (k = 0; k < n; k++)
    {
      uint8_t buf[4 * MAX_ENCODED], again[4 * MAX_ENCODED];
      uint8_t const *out = buf;
      bool before = shifted, one, two;
      int err;
      size_t used, b2;
      size_t bytes = learn_one (se, want[k], buf, &err, &used);
      if (!headed && !skip_head (se, &out, &bytes))
        break;
      headed = true;
      len[k] = 0;
      if (err != 0 && used == 0 && bytes == 0)
        continue;               /* It cannot encode it, state unchanged.  */
      if (err != 0 || used != 4 || (se->so_len == 0 && bytes != 1))
        break;
      /* One byte, after SI where the state was the other; two bytes,
         after SO where it was not.  */
      one = (shifted ? bytes == se->si_len + 1
             && is_shift (se, out, se->si_len, false) : bytes == 1);
      two = (shifted ? bytes == 2 : bytes == se->so_len + 2
             && is_shift (se, out, se->so_len, true));
      if (one && two)
        {
          b2 = learn_one (se, want[k], again, &err, &used);
          one = err == 0 && used == 4 && b2 == 1 && again[0] == out[1];
          two = err == 0 && used == 4 && b2 == 2
                && memcmp (again, out, 2) == 0;
        }
      if (!one && !two)
        break;
      out += two ? (shifted ? 0 : se->so_len) : (shifted ? se->si_len : 0);
      memcpy (got[k], out, 1 + two);
      len[k] = (uint8_t) (1 + two);
      shifted = two;
      /* Shown in one state only: in the other too, SO and SI learned.  */
      if (se->learned && two == before
          && !other_state (se, check_of (se), se->ahead_host, want[k],
                           got[k], 1 + two))
        break;
    }
  if (k == n && headed)
    {
      uint8_t fl[MAX_ENCODED];
      char *op = (char *) fl;
      size_t ol = sizeof fl;
      iconv (se->ahead, NULL, NULL, &op, &ol);
      if (!(shifted ? is_shift (se, fl, sizeof fl - ol, false)
            : ol == sizeof fl))
        k--;
    }
  return k;
}

/* learn_each in one call, for a charset whose SO and SI are a byte each
   and were not learned from escape sequences: SE's learner, from its
   initial state, encodes the N values of WANT in one call, up to the
   first it cannot encode, and its flush; what it wrote (after SE's
   head) must read, a byte at a time, as characters of one byte, SO
   before characters of two bytes and SI before those of one again, one
   character for each value it took; and the flush SI or nothing, as
   the state says.  A pair the encoder composes gives one character for
   two values, a character it holds back at the end none: then, or at
   anything else, this returns 0 and learn_each learns them.  Into GOT
   and LEN; the values learned.  What it finds is learn_each's as long
   as the encoder writes each character as it does alone, which
   shift_enc_learn_ahead checks of the first batches.  */
static size_t
learn_batch (struct shift_enc *se, ucs4_t const *want, size_t n,
             uint8_t (*got)[2], uint8_t *len)
{
  uint8_t in[4 * ENC_BATCH], out[3 * ENC_BATCH + 2 * MAX_ENCODED];
  uint8_t const *p = out;
  char *op;
  size_t used, bytes, k, m, i = 0, j = 0, ol;
  bool shifted = false;
  int err;
  if (se->so_len != 1 || se->si_len != 1 || se->learned || n < 2
      || ENC_BATCH < n)
    return 0;
  for (k = 0; k < n; k++)
    enc_learner_unit (se->ahead_host, want[k], in + 4 * k);
  iconv (se->ahead, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (se->ahead, in, 4 * n, out, 3 * ENC_BATCH, &used,
                          &err);
  m = used / 4;
  if ((err != 0 && err != EILSEQ) || m == 0 || !skip_head (se, &p, &bytes))
    return 0;
  /* A byte at a time: SO, SI, a character of one byte or of two.  */
  while (i < bytes && j < m)
    {
      uint8_t b = p[i];
      if (b == se->so[0] || b == se->si[0])
        {
          if ((b == se->so[0]) == shifted)
            return 0;
          shifted = !shifted;
          i++;
          continue;
        }
      if (shifted && i + 2 > bytes)
        return 0;
      /* (Two stores, not a call of memcpy of a length it must read.)  */
      got[j][0] = p[i];
      got[j][1] = shifted ? p[i + 1] : 0;
      len[j++] = (uint8_t) (1 + shifted);
      i += 1 + shifted;
    }
  if (i != bytes || j != m)
    return 0;
  /* The flush: SI where the state is the other, else nothing.  */
  op = (char *) out + (p - out) + bytes;
  ol = 2 * MAX_ENCODED;
  iconv (se->ahead, NULL, NULL, &op, &ol);
  if (2 * MAX_ENCODED - ol != (shifted ? 1u : 0u)
      || (shifted && p[bytes] != se->si[0]))
    return 0;
  return m;
}

/* shift_enc_learn_ahead's learning of the K values of WANT into GOT and
   LEN: in one call (learn_batch) once the first BATCH_CHECKS batches
   gave what learn_each gives a call each; learn_each's otherwise.  The
   values learned, 0 when the first was not.  */
enum { BATCH_CHECKS = 4 };

static size_t
learn_some (struct shift_enc *se, ucs4_t const *want, size_t k,
            uint8_t (*got)[2], uint8_t *len)
{
  uint8_t got1[ENC_BATCH][2], len1[ENC_BATCH];
  size_t good, one = 0, j;
  if (se->batch_ok >= BATCH_CHECKS
      && (good = learn_batch (se, want, k, got, len)) != 0)
    return good;
  if (0 <= se->batch_ok && se->batch_ok < BATCH_CHECKS)
    one = learn_batch (se, want, k, got1, len1);
  good = learn_each (se, want, k, got, len);
  /* After one that did not come through, the learner's state is not
     known: again with those before it.  */
  if (good < k && (good == 0 || learn_each (se, want, good, got, len)
                                < good))
    return 0;
  if (one != 0)
    {
      /* The batch must be what a call each gave, as far as both went
         (learn_each goes on after a value it cannot encode).  */
      for (j = 0; j < one && j < good; j++)
        if (len1[j] != len[j] || memcmp (got1[j], got[j], len[j]) != 0)
          break;
      se->batch_ok = j == one && one <= good ? se->batch_ok + 1 : -1;
    }
  return good;
}

size_t
shift_enc_learn_ahead (struct shift_enc *se, ucs4_t const *cp, size_t n)
{
  ucs4_t want[ENC_BATCH];
  uint8_t got[ENC_BATCH][2], len[ENC_BATCH];
  size_t j, k, good;
  if (!se->ahead_open)
    {
      se->ahead = enc_learner_open (se->tocode, &se->ahead_host);
      se->ahead_open = true;
    }
  if (se->ahead == (iconv_t) -1)
    return 0;
  know_head (se, se->ahead);
  k = enc_memo_want (&se->known, cp, n, want);
  if (k == 0)
    return 0;
  good = learn_some (se, want, k, got, len);
  if (good == 0)
    return 0;
  for (j = 0; j < good; j++)
    {
      enc_memo_put_short (&se->known, want[j], got[j], len[j]);
      if (len[j] != 0)
        se->sample[len[j] - 1] = want[j];
    }
  /* Apart, and not once the encoder was found to compose nothing: the
     loop above stays as tight as it was.  */
  if (se->comp && !compose_none (se->comp))
    for (j = 0; j < good; j++)
      if (compose_candidate (want[j]) && len[j] != 0)
        mark_held (se, se->ahead, se->ahead_host, want[j]);
  return good;
}

/* The characters shift_enc_learn_utf8 looks at ahead.  Fewer than
   the ENC_AHEAD of the encoders' memo: what random bytes decode to in
   IBM937 encodes in 1.21 times iconv(1)'s instructions at 32 (1.24 at
   16 and at 128, 1.28 at 256, 1.31 at 512), IBM1388 in 1.18 (1.23 at
   256), ISO-2022-KR in 1.14 (1.25); text of their own characters in
   Zipf's proportions gains 2-11% too.  */
enum { SHIFT_AHEAD = 32 };

bool
shift_enc_learn_utf8 (struct shift_enc *se, uint8_t const *in, size_t n)
{
  ucs4_t cp[ENC_BATCH];
  uint64_t const *ascii = se->known.ascii;
  uint32_t *const *page = se->known.page32;
  size_t i = 0, k = 0, seen = 0;
  while (i < n && k < ENC_BATCH && seen++ < SHIFT_AHEAD)
    {
      ucs4_t c = in[i];
      int r = 1;
      if (c >= 0x80 && (r = utf8_short (in + i, n - i, &c)) == 0)
        break;
      i += (size_t) r;
      /* Only what SE does not know: IN[0] is such.  (C is below
         U+10000.)  */
      if (k == 0
          || ((!page || enc_memo_page32_get (page, c) == 0)
              && !(c < 0x80 && enc_memo_ascii (ascii, c))))
        cp[k++] = c;
    }
  return k > 0 && shift_enc_learn_ahead (se, cp, k) > 0;
}

bool
shift_enc_put (struct shift_enc *se, ucs4_t c, uint8_t *out, size_t *o)
{
  uint64_t v = (se->known.page32 && c <= 0x10FFFF
                ? enc_memo_page32_get (se->known.page32, c) : 0);
  bool head = se->head_out, shifted = se->shifted;
  if (v == 0 || (v & 0xF) == ENC_NONE)
    return false;
  *o = put_known (se, v, &head, &shifted, out, *o);
  se->head_out = head;
  se->shifted = shifted;
  return true;
}

void
shift_enc_wrote (struct shift_enc **sep, uint8_t const *out, size_t len)
{
  struct shift_enc *se = *sep;
  bool one, two;
  if (!se->head_out && !skip_head (se, &out, &len))
    len = 0;                    /* Then nothing matches.  */
  one = (se->shifted ? len == se->si_len + 1 && is_shift (se, out,
                                                          se->si_len, false)
         : len == 1);
  two = (se->shifted ? len == 2 : se->so_len != 0 && len == se->so_len + 2
         && is_shift (se, out, se->so_len, true));
  if (one == two)
    {
      /* Neither, or SI and a byte that read as two bytes of the other
         state: not followed.  */
      shift_enc_free (se);
      *sep = NULL;
      return;
    }
  se->head_out = se->synced = true;
  se->shifted = two;
}

void
shift_enc_free (struct shift_enc *se)
{
  if (!se)
    return;
  if (se->ahead_open && se->ahead != (iconv_t) -1)
    iconv_close (se->ahead);
  if (se->check_open && se->check != (iconv_t) -1)
    iconv_close (se->check);
  enc_memo_free (&se->known);
  free (se);
}
