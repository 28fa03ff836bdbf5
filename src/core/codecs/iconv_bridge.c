/* The iconv(3) bridge: every encoding that is not built in.

   Specification: POSIX iconv_open(3), iconv(3), iconv_close(3), as
   implemented by glibc or GNU libiconv.  A bridged decoder converts its
   input to UTF-32LE and reads the values little-endian; a bridged encoder
   converts each pivot value from UTF-32LE.  The pivot needs the input
   offset of every value, and policy.c needs to know exactly which value
   cannot be encoded, so both directions convert one character per
   iconv() call (a decoder of a stateless charset also remembers the
   characters it has converted so, and reads them again by itself: the
   memo, below):

   - Decoding gives iconv() the shortest prefix of the input it can do
     something with (1 byte, then 2, ... while it says EINVAL), so each
     call converts one character or one shift sequence, or finds one
     error.  Feeding the shortest prefix makes what each call consumes
     independent of where the buffers were split: given more, iconv()
     would also swallow a shift sequence after a character when the
     input ends there, but not when another character follows.  Bytes
     consumed without output (shift sequences) belong to the next value,
     which gets their offset.  The output has room for BRIDGE_MAX_VALUES
     values (the pivot is made to have that much), since a character may
     become several (some CJK encodings map one code to a base letter
     plus a combining mark), and all its values get its offset.  Less
     room is not only slower: glibc's SHIFT_JISX0213 and EUC-JISX0213,
     given room for one value of such a pair, queue the second one and
     then write it again at every later call that runs out of room, for
     ever.

   - iconv() reports an illegal input sequence (EILSEQ) at its first
     byte without saying how long it is, so the unit of a decoding error
     for a bridged input is one byte (ERR_INVALID_BYTE): under replace,
     each such byte becomes one U+FFFD, and decoding resumes at the next
     byte.  An incomplete character (EINVAL) at the end of a buffer is
     kept in the decoder's carry until more input comes; at the end of
     input it is one truncated-sequence error of the bytes left.

   - Some decoders hold a letter back that a following mark may compose
     with (glibc's CP1255, CP1258, TCVN, BIG5-HKSCS, EUC-JISX0213,
     SHIFT_JISX0213).  What was read before an error is written first
     (SPEC §10), but iconv (cd, NULL, NULL, &out, &left), the only way to
     get a held letter out, also resets the decoder, which would lose
     ISO-2022-JP's or UTF-7's shift state when a policy goes on.  So a
     second iconv_t, the probe (opened at the first error), converts from
     its initial state the bytes consumed since the start of the last call
     that gave values (the "tail"), and is flushed; only when that gives
     values is the real decoder flushed too, and what it held is pushed
     before the error.  That is exact for the decoders that hold, which
     keep no other state; for the stateful ones the probe gives nothing.
     One that would both shift and hold (ISO-2022-JP-3 after ESC $ ( Q)
     may be told wrong: its held letter then comes after the error's
     replacement, never lost.

   - Runs.  The Unicode forms of fixed code units (UCS-2, UCS-4, ...)
     are converted a run per call (iconv_units.c says why that is exact).
     So is UTF-7 on fast.c's path to UTF-8 (decode_run_utf8): glibc
     reads it a byte at a time, and a run stops before an illegal byte
     in the state one call a byte leaves there, from which the decoder
     goes on one call a byte (the split-dependent answers of glibc's
     UTF-7, tests/README's "Decided findings", come only from calling
     it again with what follows an error).  Where the decoder is surely
     outside base64, the bytes that read as themselves are read without
     iconv() (iconv_units.h's units_probe_runs says which, and which
     bytes end base64 whatever came before, which a run is cut after).

   - The memo (iconv_memo.c, which says how the bridge uses it and why
     that is exact): a stateless decoder keeps the characters one call
     converted, in a trie of their bytes, and reads them again by
     itself; a decoder of SO and SI (the EBCDIC double-byte pages)
     follows its shifts with a memo per state (iconv_shift.c); and a
     single-byte decoder that holds letters back (CP1255, CP1258, TCVN)
     reads text without marks from a table of what its bytes do
     (iconv_hold.c).

   - Encoding converts one value per call, so EILSEQ (or EINVAL) names
     exactly the value iconv() cannot encode, which is reported as
     unencodable for the policy layer; the encoders' memo (iconv_memo.h)
     learns ahead what a charset that keeps no state encodes each value
     to.  An encoder that shows state converts a run of values per call
     with glibc, whose iconv() stops at the value it cannot encode
     (iconv_encode.c says why that is the same), and reads glibc's own
     UCS-4 where WCHAR_T is that.  Lone surrogates are never encodable.  The flush hook writes iconv()'s shift-reset sequence
     (iconv (cd, NULL, NULL, &out, &left)) at the end of each file and at
     a strict stop.

   A bridged encoding is a legacy one unless its name is a Unicode form
   (iconv_bridge_flags, iconv_list.c).  With //TRANSLIT on the target,
   iconv is opened with NAME//TRANSLIT, in the locale
   iconv_translit_locale gives (iconv_list.c says why).  */

#include <config.h>

#include "iconv_bridge.h"

#include <errno.h>
#include <iconv.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "c-ctype.h"
#include "c-strcase.h"
#include "error.h"
#include "xalloc.h"

#include "iconv_encode.h"
#include "iconv_handle.h"
#include "iconv_table.h"
#include "iconv_units.h"
#include "step.h"
#include "unicode/utf8.h"

static struct bridge *bridges;



static void
bridge_decoder_open (struct decoder *d)
{
  struct bridge const *b = bridge_of (d->codec);
  struct handle *h;
  /* UCS-4 that lets nothing through which UTF-32LE refuses: a Unicode
     form (UCS-4's surrogates, UTF-8's 5 bytes) is read in UTF-32LE.  */
  if (!b->charset->ucs4_from)
    b->charset->ucs4_from = ((b->sc.codec.flags & CODEC_UNICODE) || b->unit
                             || strcmp (b->ucs4, "WCHAR_T") != 0
                             ? "UTF-32LE" : memo_ucs4_from (b->name));
  h = bridge_open_handle (b->charset->ucs4_from, b->name);
  h->charset = b->charset;
  h->unit = b->unit;
  h->order = UNITS_UNKNOWN;
  /* A Unicode form keeps state: the byte order, UTF-7's base64.  Runs
     of units need no memo.  */
  h->memo_on = !(b->sc.codec.flags & CODEC_UNICODE) && h->unit == 0;
  h->hold_try = h->memo_on;
  h->hold_clear = true;
  h->run_base = true;
  d->impl = h;
}

static void
bridge_decoder_close (struct decoder *d)
{
  struct handle *h = d->impl;
  memo_free (&h->memo);
  shift_free (&h->shift);
  bridge_close_handle (h);
}

/* Push the values in OUT[0..BYTES) to P with the offset REL: they came
   from the N input bytes there, which the first value is given.  */
static void
push_values (struct decoder *d, struct pivot *p, uint8_t const *out,
             size_t bytes, int64_t rel, size_t n)
{
  size_t k, len = p->len;
  for (k = 0; k + 4 <= bytes; k += 4)
    {
      ucs4_t c = get32le (out + k);
      STEP_PUSH (p, len, c, rel, k ? 0 : n, d);
    }
  p->len = len;
}

/* What iconv() is shown in one step of bridge_decode: the carry, then
   the buffer from I on.  */
struct view
{
  uint8_t tmp[BRIDGE_VIEW];     /* Carry and buffer together.  */
  uint8_t const *s;
  size_t len;
  int64_t rel;                  /* Offset of S[0] in the buffer.  */
  bool whole;                   /* It reaches the end of the buffer.  */
};

/* Set V to the bytes from the carry of D and IN[I..N); false when there
   are none.  */
static bool
make_view (struct decoder const *d, uint8_t const *in, size_t i, size_t n,
           struct view *v)
{
  unsigned int cl = d->carry_len;
  size_t t;

  if (cl > 0)
    {
      t = n - i < sizeof v->tmp - cl ? n - i : sizeof v->tmp - cl;
      memcpy (v->tmp, d->carry, cl);
      memcpy (v->tmp + cl, in + i, t);
      v->s = v->tmp;
      v->len = cl + t;
      v->rel = (int64_t) i - cl;
    }
  else if (i < n)
    {
      t = n - i < BRIDGE_VIEW ? n - i : BRIDGE_VIEW;
      v->s = in + i;
      v->len = t;
      v->rel = (int64_t) i;
    }
  else
    return false;
  v->whole = i + t == n;
  return true;
}

void
handle_note_consumed (struct handle *h, uint8_t const *s, size_t used, bool gave)
{
  if (gave)
    h->tail_len = 0;
  else if (h->hold_try)
    h->hold = hold_table_of (h->charset, h->fromcode);
  h->hold_try = h->hold_try && !h->charset->hold_decided;
  h->hold_clear = h->hold_clear && gave;
  if (h->tail_len + (int64_t) used <= BRIDGE_VIEW)
    memcpy (h->tail + h->tail_len, s, used);
  h->tail_len += (int64_t) used;
}

/* A call consumed S[0..USED) and gave the BYTES at OUT (pushed): the
   decoder holds nothing if that is a HOLD_PLAIN (or HOLD_MARK) byte's
   value alone, right after values or from the initial state.  */
static void
gave_values (struct handle *h, uint8_t const *s, size_t used, size_t bytes,
             uint8_t const *out)
{
  h->hold_clear = (h->hold && used == 1 && bytes == 4 && h->prefix == 0
                   && (h->hold->cls[s[0]] == HOLD_PLAIN
                       || h->hold->cls[s[0]] == HOLD_MARK)
                   && get32le (out) == h->hold->value[s[0]]);
  h->prefix = 0;
  handle_note_consumed (h, s, used, true);
}

/* Whether CD (to UCS-4 in the machine's order) decodes the sentinel of
   CS to its values, with nothing to flush after.  */
static bool
reads_sentinel (iconv_t cd, struct memo_charset const *cs)
{
  uint8_t out[4 * MEMO_SENTINEL + 4 * PIVOT_MIN_ROOM];
  size_t used, bytes, k;
  int err;
  if (cs->sentinel_len == 0)
    return false;
  bytes = bridge_convert (cd, cs->sentinel, cs->sentinel_len, out,
                          sizeof out, &used, &err);
  if (err != 0 || used != cs->sentinel_len
      || bytes != 4 * (size_t) cs->sentinel_len)
    return false;
  for (k = 0; k < cs->sentinel_len; k++)
    if (memo_value_at (true, out + 4 * k) != cs->sentinel_cp[k])
      return false;
  return memo_flush_gives (cd) == 0;
}

/* The probe of H, opened if need be, in its initial state: to UCS-4 in
   the machine's order (glibc's WCHAR_T, one step where UTF-32LE is two:
   GB18030's characters are learned in some 40% fewer instructions)
   once the charset's probe has run and WCHAR_T reads its sentinel so,
   else to UTF-32LE.  */
static iconv_t
probe_of (struct handle *h)
{
  if (h->probe == (iconv_t) -1)
    {
      h->probe_host = false;
      if (h->charset->decided
          && (h->probe = iconv_open ("WCHAR_T", h->fromcode)) != (iconv_t) -1)
        {
          h->probe_host = reads_sentinel (h->probe, h->charset);
          if (!h->probe_host)
            {
              iconv_close (h->probe);
              h->probe = (iconv_t) -1;
            }
        }
      if (h->probe == (iconv_t) -1)
        h->probe = bridge_iconv_open ("UTF-32LE", h->fromcode);
    }
  iconv (h->probe, NULL, NULL, NULL, NULL);
  return h->probe;
}

/* Whether the decoder of H holds a character back, as far as the probe
   can tell: whether, given the tail from its initial state, it has
   something to flush.  */
static bool
holds_character (struct handle *h)
{
  uint8_t out[4 * BRIDGE_MAX_VALUES * BRIDGE_VIEW];
  size_t used, left = sizeof out;
  char *op = (char *) out;
  int err;

  if (h->tail_len == 0 || h->tail_len > BRIDGE_VIEW)
    return false;
  bridge_convert (probe_of (h), h->tail, (size_t) h->tail_len, out,
                  sizeof out, &used, &err);
  if (err != 0 || used != (size_t) h->tail_len)
    return false;
  iconv (h->probe, NULL, NULL, &op, &left);
  return left < sizeof out;
}

/* The values a flush gives come from the bytes consumed without values
   (the prefix), or else from the tail: their offset is END less that,
   and this many bytes, as a pivot entry can say.  */
static size_t
held_bytes (struct handle const *h)
{
  int64_t len = h->prefix > 0 ? h->prefix : h->tail_len;
  return len < UINT8_MAX ? (size_t) len : UINT8_MAX;
}

/* Push to P what the decoder D holds back, which comes from the bytes
   just before the offset END, by flushing its iconv_t; give up at
   ROOM values.  This also returns the iconv_t to its initial state.  */
static void
flush_decoder (struct decoder *d, struct handle *h, struct pivot *p,
               int64_t end, size_t room)
{
  uint8_t out[4 * BRIDGE_MAX_VALUES];
  char *op = (char *) out;
  size_t ol = 4 * (room < BRIDGE_MAX_VALUES ? room : BRIDGE_MAX_VALUES);
  iconv (h->cd, NULL, NULL, &op, &ol);
  push_values (d, p, out, (size_t) ((uint8_t *) op - out),
               end - (int64_t) held_bytes (h), held_bytes (h));
  h->order = UNITS_UNKNOWN;
  h->prefix = 0;
  h->tail_len = 0;
  h->hold_clear = true;
  shift_reset (&h->shift, &h->memo);
}

/* Before an error at offset REL, push to P the character that the
   decoder D holds back, if it holds one (see the comment at the top).
   Returns false when P has no room for it yet.  */
static bool
release_held (struct decoder *d, struct handle *h, struct pivot *p,
              int64_t rel)
{
  size_t room = p->cap - p->len;
  if (!holds_character (h))
    return true;
  if (room < BRIDGE_MAX_VALUES && p->len > 0)
    return false;
  flush_decoder (d, h, p, rel, room);
  return true;
}

/* iconv() did nothing with the K bytes of V and said ERR (END: no input
   follows).  Keep an incomplete character in the carry of D and return
   true, or return false: it is an error.  */
static bool
keep_incomplete (struct decoder *d, struct view const *v, size_t k, int err,
                 bool end)
{
  if (err == EINVAL && !end && v->whole && k <= MAX_ERROR_BYTES)
    {
      memcpy (d->carry, v->s, k);
      d->carry_len = (unsigned int) k;
      return true;
    }
  return false;
}

/* Record the error that iconv() said ERR about at the K bytes of V (END:
   no input follows), and return its length.  */
static size_t
bridge_failure (struct decoder *d, struct handle *h, struct view const *v,
                size_t k, int err, bool end)
{
  unsigned int elen = 1;
  enum err_kind kind = ERR_INVALID_BYTE;

  if (err == EINVAL && end)
    {
      elen = k < MAX_ERROR_BYTES ? (unsigned int) k : MAX_ERROR_BYTES;
      kind = ERR_TRUNCATED;
    }
  /* EILSEQ, or anything iconv() should never say here: the unit of the
     error is one byte.  */
  step_error (d, v->s, elen, kind, v->rel);
  h->prefix = 0;
  h->tail_len = 0;
  h->blame_next = false;
  h->hold_clear = false;
  return elen;
}

/* The end of the input, all of it used, at offset N: push what iconv()
   still holds back; or, when iconv() blamed the byte after the last
   ones, which does not exist, record the error of those instead.  */
static enum decode_status
finish_input (struct decoder *d, struct handle *h, struct pivot *p,
              size_t n)
{
  size_t room = p->cap - p->len;
  if (room < BRIDGE_MAX_VALUES && p->len > 0)
    return DECODE_OUTPUT_FULL;
  if (h->blame_next)
    {
      int64_t rel = (int64_t) n - h->blamed_len;
      if (!release_held (d, h, p, rel))
        return DECODE_OUTPUT_FULL;
      step_error (d, h->blamed, h->blamed_len, ERR_INVALID_BYTE, rel);
      h->blame_next = false;
      h->prefix = 0;
      return DECODE_MALFORMED;
    }
  flush_decoder (d, h, p, (int64_t) n, room);
  return DECODE_INPUT_EMPTY;
}

void
handle_memo_stop (struct handle *h)
{
  h->memo_on = false;
  memo_free (&h->memo);
  shift_free (&h->shift);
}

/* Decode with the memo of H what it knows of IN[*I..N) into P, from
   where no character is begun, and move *I past it.  */
static void
decode_known (struct decoder *d, struct handle *h, uint8_t const *in,
              size_t *i, size_t n, struct pivot *p)
{
  size_t done, last;
  bool gave = true;
  if (h->hold)
    {
      /* A charset that holds letters back: from the initial state, up
         to a byte after which nothing is held again.  */
      if (h->hold_clear && d->carry_len == 0 && !h->blame_next && *i < n
          && (done = hold_decode (h->hold, d, in + *i, n - *i, (int64_t) *i,
                                  p, BRIDGE_MAX_VALUES)) > 0)
        {
          handle_note_consumed (h, in + *i + done - 1, 1, true);
          *i += done;
        }
      return;
    }
  if (!h->memo_on || h->shift.limbo || d->carry_len > 0
      || (h->prefix > 0 && !h->shift.on)
      || h->blame_next || *i == n)
    return;
  if (h->shift.on)
    {
      done = shift_decode (&h->shift, &h->memo, h->cd, h->charset, d,
                           in + *i, n - *i, (int64_t) *i, p,
                           BRIDGE_MAX_VALUES, &h->prefix, &gave, &last);
      if (!h->shift.on)
        handle_memo_stop (h);
    }
  else
    done = memo_decode (&h->memo, d, in + *i, n - *i, (int64_t) *i, p,
                        BRIDGE_MAX_VALUES, &last);
  if (done > 0)
    {
      /* As the calls would: the last character, then any shifts.  */
      handle_note_consumed (h, in + *i + last, done - last, gave);
      *i += done;
    }
}

static decode_fn bridge_decode;

bool
iconv_bridge_fast_lasts (struct decoder const *d)
{
  struct handle const *h = d->impl;
  return (d->codec->decode == bridge_decode
          && (handle_runs_to_utf8 (d) || h->unit != 0
              || (h->hold ? h->hold->fast : h->memo_on || h->hold_try)));
}

/* Decode a run of units of IN[*I..N) into P, if H converts runs, from
   where no character is begun (iconv_units.c); move *I past it.  */
static void
decode_units (struct decoder *d, struct handle *h, uint8_t const *in,
              size_t *i, size_t n, struct pivot *p)
{
  size_t room = p->cap - p->len, last = 0, used, before = p->len;
  bool exact = true;
  if (h->unit == 0 || d->carry_len > 0 || h->prefix > 0 || h->blame_next
      || *i == n || room < BRIDGE_MAX_VALUES)
    return;
  used = units_decode (h->cd, h->unit, &h->order, d, in + *i, n - *i,
                       (int64_t) *i, p, room - BRIDGE_MAX_VALUES + 1, &last,
                       &exact);
  h->unit = exact ? h->unit : 0;
  /* As if the last character was converted by one call; bytes without
     values (never seen) as a shift sequence.  */
  if (p->len == before)
    h->prefix += (int64_t) used;
  handle_note_consumed (h, in + *i + last, used - last, p->len > before);
  *i += used;
}

/* The call of iconv() on the K bytes at S, from where no character is
   begun, used them all and gave the value at OUT (ERR: its errno, 0 for
   none): let the memo of H learn that character the second time (after
   SO, the first: iconv_shift.c), if it may (see the comment at the top).  */
static void
learn (struct handle *h, uint8_t const *s, size_t k, int err,
       uint8_t const *out)
{
  ucs4_t c = get32le (out);
  enum memo_sight sight;

  if (!h->memo_on || h->shift.limbo || (h->prefix > 0 && !h->shift.on)
      || err != 0)
    return;
  sight = memo_note (&h->memo, s, k, c);
  if (sight == MEMO_FIRST && k == 1 && !h->shift.shifted)
    {
      /* A new character of one byte: all of them, as the probe found
         them, in the initial state or the one the memo follows.  */
      if (!h->charset->decided)
        shift_probe_charset (h->charset, h->fromcode);
      if (h->charset->suits || (h->charset->shifting && h->shift.on))
        memo_learn_singles (&h->memo, h->charset);
    }
  else if (sight == MEMO_FIRST && k >= 2 && !h->shift.shifted)
    {
      /* A new character of several bytes: learn its neighbours too.  */
      if (!h->charset->decided)
        shift_probe_charset (h->charset, h->fromcode);
      iconv_t probe = probe_of (h);
      memo_learn_around (&h->memo, probe, h->probe_host, h->charset, s, k);
    }
  else if (sight == MEMO_AGAIN && !h->shift.shifted)
    {
      if (!h->charset->decided)
        shift_probe_charset (h->charset, h->fromcode);
      if ((h->charset->suits || h->charset->shifting)
          && memo_check (probe_of (h), h->probe_host, h->charset, s, k,
                         c))
        memo_trust (&h->memo, s, k);
      else
        handle_memo_stop (h);
    }
  else if (h->shift.shifted
           ? !shift_learn (&h->shift, &h->memo, h->charset, h->fromcode, s,
                           k, c, sight)
           : sight == MEMO_CLASH)
    handle_memo_stop (h);
}

/* iconv() consumed the USED bytes at S and then said EILSEQ: the byte
   after them is illegal, where it says (glibc's ISO-2022-CN and
   ISO-2022-CN-EXT consume a SO that no designation came before and
   blame the byte after it).  That holds whether or not the call gave
   values first: shown ESC SO as its shortest prefix, ISO-2022-CN-EXT
   writes the ESC and consumes the SO in the same call.  At the end of
   the input the blamed byte does not exist, and the error is the last
   byte consumed, as iconv(3)'s caller would see it.  The call consumed
   bytes without a value, so the decoder's memo is not used any more.  */
static void
blame_next_byte (struct handle *h, uint8_t const *s, size_t used)
{
  h->blame_next = true;
  h->blamed_len = 1;
  h->blamed[0] = s[used - 1];
  if (h->memo_on)
    handle_memo_stop (h);
}

/* The call of iconv() on the K bytes at S (2 or more, each shorter
   prefix a valid beginning: iconv() said EINVAL, or the memo knew it
   did), from where no character is begun, used them all and gave K
   values at OUT (ERR: its errno, 0 for none): let the memo of H read
   them so at once (memo_lone), if it may,
   when the first is S[0] alone (a lone ESC, which glibc's ISO-2022-JP
   reads as U+001B before a byte that begins no escape sequence) and
   those after it are the bytes after it read alone, as the probe shows
   from the initial state, before the sentinel.  In the initial state
   only, or the one the memo of the shifts follows, as memo_learn_singles
   (each state has its memo).  True when the memo reads them so (a
   shift among them would have given no value: the memo of the shifts
   has nothing to follow); false when it may not, or the memo stopped.  */
static bool
learn_lone (struct handle *h, uint8_t const *s, size_t k, int err,
            uint8_t const *out)
{
  ucs4_t v[MEMO_DEPTH];
  size_t j;

  if (!h->memo_on || h->shift.limbo || (h->prefix > 0 && !h->shift.on)
      || h->shift.shifted || h->hold || err != 0 || k > MEMO_DEPTH
      || h->memo.nodes == 0)
    return false;
  if (!h->charset->decided)
    shift_probe_charset (h->charset, h->fromcode);
  if (!(h->charset->suits || (h->charset->shifting && h->shift.on)))
    return false;
  for (j = 0; j < k; j++)
    v[j] = get32le (out + 4 * j);
  for (j = 1; j < k; j++)
    if (h->memo.node[s[j]] != (MEMO_CHAR | v[j]))
      return false;
  if (!memo_check_values (probe_of (h), h->probe_host, h->charset, s, k, v,
                          k))
    return false;
  if (!memo_lone (&h->memo, s, k, v[0]))
    {
      handle_memo_stop (h);
      return false;
    }
  return true;
}

/* Whether the K bytes at S (2 to 4) are in H's lone_seen, which keeps
   them otherwise.  */
static bool
lone_again (struct handle *h, uint8_t const *s, size_t k)
{
  uint32_t key = 0, *slot;
  size_t j;
  if (k > 4)
    return false;
  for (j = 0; j < k; j++)
    key |= (uint32_t) s[j] << (8 * j);
  slot = &h->lone_seen[(key * UINT32_C (2654435761)) >> 26];
  if (*slot == key)
    return true;
  *slot = key;
  return false;
}

/* A call of iconv() consumed S[0..USED) (K bytes shown, ERR its errno)
   and gave the values at OUT[0..BYTES): if that consumed a shift byte of
   the charset too (ISO-2022-KR's ESC SO), follow it (iconv_shift.c) or
   stop the memo of H, and return true.  Where the bytes were a value
   each, no shift was among them: the first byte of a shift, alone
   (ISO-2022-JP's ESC before "[31m" of a terminal's colours), which the
   memo reads once learn_lone has shown what they do.  */
static bool
shift_with_values (struct handle *h, uint8_t const *s, size_t used,
                   size_t k, int err, uint8_t const *out, size_t bytes)
{
  if (!h->memo_on || !shift_in_values (h->charset, h->fromcode, s, used))
    return false;
  if (used == k && bytes == 4 * k
      && (learn_lone (h, s, k, err, out) || !h->memo_on))
    return true;
  h->shift.fromcode = h->fromcode;
  if (!shift_after_values (&h->shift, &h->memo, h->charset, s, used, out,
                           bytes))
    handle_memo_stop (h);
  return true;
}

/* One call of bridge_decode's loop: iconv() converts the shortest prefix
   of V that it does something with into OUT (room for ROOM values).
   Sets *USED, *K (the prefix's length), *ERR; returns the bytes out.  */
static size_t
convert_one (struct handle *h, struct view const *v, size_t room,
             uint8_t *out, size_t *used, size_t *k, int *err)
{
  size_t bytes;
  /* The beginnings the memo knows would each say EINVAL again.  */
  *k = 1 + (h->memo_on && !h->shift.limbo
            && (h->prefix == 0 || h->shift.on)
            ? memo_beginning (&h->memo, v->s, v->len - 1) : 0);
  for (;; ++*k)
    {
      bytes = bridge_convert (h->cd, v->s, *k, out, 4 * room, used,
                              err);
      if (!(bytes == 0 && *used == 0 && *err == EINVAL && *k < v->len))
        return bytes;
    }
}

/* The call of iconv() on the K bytes of V gave the values at
   OUT[0..BYTES), having consumed USED bytes (ERR: its errno, 0 for
   none): learn from it, and push the values to P.  */
static void
gave (struct decoder *d, struct handle *h, struct view const *v,
      struct pivot *p, uint8_t const *out, size_t bytes, size_t used,
      size_t k, int err)
{
  if (shift_with_values (h, v->s, used, k, err, out, bytes))
    ;
  else if (used == k && bytes == 4)
    learn (h, v->s, k, err, out);
  else if (used == k && 2 <= k && bytes == 4 * k && lone_again (h, v->s, k))
    learn_lone (h, v->s, k, err, out);
  push_values (d, p, out, bytes, v->rel - h->prefix,
               used + (size_t) h->prefix);
  gave_values (h, v->s, used, bytes, out);
  /* With nothing consumed (a held character given out at the illegal
     byte), the next call finds the byte itself.  */
  if (err == EILSEQ && used > 0)
    blame_next_byte (h, v->s, used);
}

static enum decode_status
bridge_decode (struct decoder *d, uint8_t const *in, size_t *inlen,
               bool last, struct pivot *p)
{
  struct handle *h = d->impl;
  size_t n = *inlen, i = 0;
  enum decode_status status = DECODE_INPUT_EMPTY;
  struct view v;

  /* Where the decoder is after what this converts is not followed.  */
  h->run_base = false;

  for (;;)
    {
      uint8_t out[4 * BRIDGE_MAX_VALUES];
      size_t used, bytes, k, room;
      unsigned int cl;
      int err;

      decode_known (d, h, in, &i, n, p);
      decode_units (d, h, in, &i, n, p);
      if (!make_view (d, in, i, n, &v))
        break;
      cl = d->carry_len;
      room = p->cap - p->len;
      if (room > BRIDGE_MAX_VALUES)
        room = BRIDGE_MAX_VALUES;
      if (room < BRIDGE_MAX_VALUES && p->len > 0)
        {
          status = DECODE_OUTPUT_FULL;
          break;
        }
      if (h->blame_next)
        {
          /* The byte iconv() said was illegal: no need to ask again.  */
          bytes = used = 0;
          k = 1;
          err = EILSEQ;
        }
      else
        bytes = convert_one (h, &v, room, out, &used, &k, &err);
      h->order = UNITS_UNKNOWN;
      if (bytes == 0 && used == 0)
        {
          bool end = last && v.whole;
          if (keep_incomplete (d, &v, k, err, end))
            {
              i = n;
              break;
            }
          if (!release_held (d, h, p, v.rel))
            {
              status = DECODE_OUTPUT_FULL;
              break;
            }
          used = bridge_failure (d, h, &v, k, err, end);
          status = DECODE_MALFORMED;
        }
      else if (bytes > 0)
        gave (d, h, &v, p, out, bytes, used, k, err);
      else
        {
          /* A shift sequence, a held character, or the like: consume
             it, and let the next round deal with what follows.  */
          h->prefix += (int64_t) used;
          handle_note_consumed (h, v.s, used, false);
          if (h->memo_on && !shift_note (&h->shift, &h->memo, h->charset,
                                         h->fromcode, v.s, used, err))
            handle_memo_stop (h);
          if (err == EILSEQ)
            blame_next_byte (h, v.s, used);
        }

      /* Consume USED bytes: the carry first, then the buffer.  */
      if (used >= cl)
        {
          i += used - cl;
          d->carry_len = 0;
        }
      else
        {
          memmove (d->carry, d->carry + used, cl - used);
          d->carry_len = cl - (unsigned int) used;
        }
      if (status == DECODE_MALFORMED)
        break;
    }
  if (status == DECODE_INPUT_EMPTY && last && i == n && d->carry_len == 0)
    status = finish_input (d, h, p, n);
  *inlen = i;
  return status;
}

/* Whether iconv(3) opens from UCS4 to NAME and from TO_NAME to it.  */
static bool
opens_both (char const *ucs4, char const *name, char const *to_name)
{
  return (iconv_bridge_opens (ucs4, name)
          && iconv_bridge_opens (to_name, ucs4));
}

struct codec const *
iconv_bridge_find (char const *name, bool translit,
                   struct codec const *exact)
{
  static char const *const no_aliases[] = { NULL };
  struct bridge *b;
  char *upper, *to_name;
  char const *ucs4;
  size_t k, len = strlen (name);

  /* An empty name would mean the locale's encoding to glibc, which
     also ignores some characters in names: take printable ASCII only.  */
  if (len == 0)
    return NULL;
  for (k = 0; k < len; k++)
    if (!c_isgraph (name[k]))
      return NULL;
  for (b = bridges; b; b = b->next)
    if (c_strcasecmp (b->name, name) == 0
        && (b->to_name != b->name) == translit)
      return &b->sc.codec;

  upper = xmalloc (len + 1);
  for (k = 0; k <= len; k++)
    upper[k] = (char) c_toupper (name[k]);
  /* A single-byte charset is a table (iconv_table.c), unless the
     encoder transliterates, which iconv(3) does at each call.  */
  if (!translit)
    {
      struct codec const *t = iconv_table_find (upper);
      if (t)
        {
          free (upper);
          return t;
        }
    }
  to_name = upper;
  if (translit)
    {
      to_name = xmalloc (len + sizeof "//TRANSLIT");
      memcpy (to_name, upper, len);
      strcpy (to_name + len, "//TRANSLIT");
    }
  /* UCS-4 as memo_ucs4 () names it, or UTF-32LE where that opens
     nothing (glibc's WCHAR_T, from and to itself).  */
  ucs4 = memo_ucs4 ();
  if (!opens_both (ucs4, upper, to_name)
      && (strcmp (ucs4, "UTF-32LE") == 0
          || !opens_both (ucs4 = "UTF-32LE", upper, to_name)))
    {
      if (to_name != upper)
        free (to_name);
      free (upper);
      return NULL;
    }

  b = xzalloc (sizeof *b);
  b->name = upper;
  b->to_name = to_name;
  b->ucs4 = ucs4;
  b->exact = exact;
  b->translit = translit ? iconv_translit_locale () : (locale_t) 0;
  b->charset = xzalloc (sizeof *b->charset);
  b->enc = xzalloc (sizeof *b->enc);
  b->enc->tocode = exact || translit ? NULL : to_name;
  b->unit = units_probe (upper);
  b->sc.codec.name = upper;
  b->sc.codec.aliases = no_aliases;
  b->sc.codec.decode = bridge_decode;
  b->sc.codec.encode = bridge_encode;
  b->sc.codec.flush = bridge_flush;
  b->sc.codec.drain = bridge_drain;
  b->sc.codec.flags = CODEC_STATEFUL | iconv_bridge_flags (upper);
  b->sc.codec.endian = ENDIAN_UNKNOWN;
  b->sc.codec.unmarked = NULL;
  b->sc.decoder_open = bridge_decoder_open;
  b->sc.decoder_close = bridge_decoder_close;
  b->sc.encoder_open = bridge_encoder_open;
  b->sc.encoder_close = bridge_encoder_close;
  b->next = bridges;
  bridges = b;
  return &b->sc.codec;
}

struct enc_memo *
iconv_bridge_enc_memo (struct codec const *c)
{
  struct bridge *b = bridges;
  while (b && &b->sc.codec != c)
    b = b->next;
  if (!b || (c->flags & CODEC_UNICODE) || b->translit
      || b->to_name != b->name || b->unit)
    return NULL;
  if (!b->charset->decided)
    shift_probe_charset (b->charset, b->name);
  return b->charset->suits || b->charset->holds ? b->enc : NULL;
}
