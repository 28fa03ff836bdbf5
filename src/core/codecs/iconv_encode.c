/* The iconv(3) bridge's encoders: each value from UTF-32LE (or glibc's
   own UCS-4), one per iconv() call or a run per call, and the encoders'
   memo of a charset that keeps no state (iconv_memo.h), or that of its
   shifts (iconv_shift.h); see the comment at the top of
   iconv_bridge.c.  */

#include <config.h>

#include "iconv_encode.h"

#include <errno.h>
#include <locale.h>
#include <string.h>

#include "iconv_handle.h"
#include "iconv_units.h"
#include "simd/kernels.h"

#include "unicode/utf8.h"

/* glibc's iconv() stops at the value it cannot encode, with all
   before it encoded, and counts irreversible conversions only under
   //TRANSLIT and //IGNORE: a run of values in one call gives what one
   value a call does.  Elsewhere (musl writes '*' for a character the
   charset lacks, and counts it) each value has a call of its own.  */
#if defined __GLIBC__
enum { RUNS = 1 };
#else
enum { RUNS = 0 };
#endif

enum
{
  RUN_MAX = 1024,               /* Values a run converted as UTF-32LE.  */
  RUN_ROOM = 1024               /* Output room for a run of the memo's.  */
};

/* Let H's iconv_t read UCS-4 in the machine's order, which saves
   iconv() a step of each call, where enc_learner_open finds that
   WCHAR_T is that.  The iconv_t it tried that with is not the one: a
   new one has never been called, as H's has not (glibc's ISO-2022-KR
   writes its header at the first call, flush included).  */
static void
open_host (struct handle *h, char const *tocode)
{
  bool host;
  iconv_t cd = enc_learner_open (tocode, &host);
  if (cd != (iconv_t) -1)
    iconv_close (cd);
  if (!host || (cd = iconv_open (tocode, "WCHAR_T")) == (iconv_t) -1)
    return;
  iconv_close (h->cd);
  h->cd = cd;
  h->host = true;
}

void
bridge_encoder_open (struct encoder *e)
{
  struct bridge const *b = bridge_of (e->codec);
  /* Runs of units, no memo: unless it transliterates or EXACT is.  */
  bool units = !b->translit && b->to_name == b->name && !b->exact && b->unit;
  char const *ucs4 = units ? "UTF-32LE" : b->ucs4;
  struct handle *h = bridge_open_handle (b->to_name, ucs4);
  e->impl = h;
  if (units)
    {
      h->unit = b->unit;
      h->order = UNITS_UNKNOWN;
      return;
    }
  if (strcmp (ucs4, "WCHAR_T") == 0)
    h->host = true;
  else
    open_host (h, b->to_name);
  /* Not for a Unicode form (a BOM written once, UTF-7's base64), nor
     with //TRANSLIT; and only for a charset whose decoder keeps no
     state as far as the probe can tell.  */
  if ((b->sc.codec.flags & CODEC_UNICODE) || b->translit
      || b->to_name != b->name)
    {
      /* A form without fixed units (UTF-7): runs from UTF-8.  */
      h->runs7 = h->enc_base = RUNS && (b->sc.codec.flags & CODEC_UNICODE)
                               && !b->translit && b->to_name == b->name
                               && !b->exact;
      return;
    }
  if (!b->charset->decided)
    shift_probe_charset (b->charset, b->name);
  /* Or whose decoder only holds a letter back (CP1255): its encoder is
     checked character by character, and one that holds a character
     back too (BIG5-HKSCS's) shows at its first, for good.  A charset
     of SO and SI: the encoder follows its shifts.  */
  h->enc_on = b->charset->suits || (b->charset->holds && !b->enc->stateful);
  h->senc = b->exact ? NULL : shift_enc_new (b->charset, b->to_name);
  if (h->senc)
    h->senc->comp = &h->comp;
}

/* The probe of H (of B): an iconv_t to its charset from UTF-32LE,
   opened the first time.  */
static iconv_t
probe_of (struct bridge const *b, struct handle *h)
{
  if (h->probe == (iconv_t) -1)
    h->probe = bridge_iconv_open (b->to_name, b->ucs4);
  return h->probe;
}

/* Whether the encoder of H (of B) writes C as the first of a pair it
   composes (iconv_compose.h).  */
static bool
composes (struct bridge const *b, struct handle *h, ucs4_t c)
{
  return compose_candidate (c)
         && compose_first (&h->comp, probe_of (b, h), false, c);
}

/* The encoder of H encoded C to OUT[0..LEN) (ERR: iconv()'s errno): let
   its memo, or that of its shifts, learn it with the probe's help; or
   stop using them for good, and say so to the fast path (`stateful').  */
static void
encode_learn (struct bridge const *b, struct handle *h, ucs4_t c,
              uint8_t const *out, size_t len, int err)
{
  if (h->enc_on || h->senc)
    probe_of (b, h);
  if (h->enc_on && !enc_memo_learn (b->enc, h->probe, c, out, len, err))
    {
      h->enc_on = false;
      b->enc->stateful = true;
      /* The state C showed may be a shift (ISO-2022-JP's ESC $ B, of a
         charset whose decoder the memo serves): the encoder, before C
         in the state its memo had kept, may learn its shifts from C.  */
      if (!b->exact && !h->senc)
        {
          h->senc = shift_enc_learning (b->to_name);
          h->senc->comp = &h->comp;
        }
    }
  if (h->senc)
    shift_enc_learn (&h->senc, h->probe, c, out, len, err);
}

void
bridge_encoder_close (struct encoder *e)
{
  if (((struct handle *) e->impl)->held_on)
    bridge_of (e->codec)->enc->busy = false;
  shift_enc_free (((struct handle *) e->impl)->senc);
  bridge_close_handle ((struct handle *) e->impl);
}

/* Encode C with the iconv_t of H (of B) into OUT[0..ROOM): the bytes
   written, and in ERR iconv()'s errno, or 0.  */
static size_t
encode_one (struct bridge const *b, struct handle *h, ucs4_t c,
            uint8_t *out, size_t room, int *err)
{
  uint8_t buf[4];
  ICONV_CONST char *ip = (ICONV_CONST char *) buf;
  char *op = (char *) out;
  size_t il = sizeof buf, ol = room, r;

  enc_learner_unit (h->host, c, buf);
  r = iconv (h->cd, &ip, &il, &op, &ol);
  h->order = UNITS_UNKNOWN;
  *err = r == (size_t) -1 ? errno : 0;
  /* musl's iconv() writes '*' for a character the charset lacks and
     counts it as an irreversible conversion, where glibc's and GNU
     libiconv's say EILSEQ: without //TRANSLIT that is the same
     unencodable value, and its '*' is taken back.  */
  if (*err == 0 && r != 0 && !b->translit)
    {
      *err = EILSEQ;
      return 0;
    }
  return room - ol;
}

/* How many of the N values at CP, from the first, are Unicode scalar
   values (no surrogate, none beyond U+10FFFF).  */
static size_t
scalar_run (ucs4_t const *cp, size_t n)
{
  size_t run = 0, k;
  /* Blocks of 16 with one branch each, which compilers vectorise:
     D800..DFFF are the values whose bits above the 11th read 1B.  */
  for (; run + 16 <= n; run += 16)
    {
      unsigned int bad = 0;
      for (k = 0; k < 16; k++)
        bad |= (cp[run + k] >> 11 == 0x1B) | (cp[run + k] >> 16 > 0x10);
      if (bad)
        break;
    }
  while (run < n && !(cp[run] - 0xD800 < 0x800) && cp[run] <= 0x10FFFF)
    run++;
  return run;
}

/* Encode with the iconv_t of H, in one call, the values of CP[*I..N)
   up to the first that is no Unicode scalar value, into OUT at *O
   (room up to CAP), and move *I and *O past what it took: with
   ENCODE_UNENCODABLE when iconv() cannot encode CP[*I], and
   ENCODE_OUTPUT_FULL when it ran out of room after taking some; else
   ENCODE_INPUT_EMPTY, when it took them all, or else none (then
   CP[*I] goes the way of one value a call).  A run does not end with
   the first of a pair the encoder composes.  */
static enum encode_status
encode_run (struct bridge const *b, struct handle *h, ucs4_t const *cp,
            size_t *i, size_t n, uint8_t *out, size_t *o, size_t cap)
{
  uint8_t le[4 * RUN_MAX];
  ICONV_CONST char *ip;
  char *op = (char *) out + *o;
  size_t run, k, il, ol = cap - *o, taken, r;
  int err;

  run = scalar_run (cp + *i, h->host || n - *i < RUN_MAX ? n - *i : RUN_MAX);
  /* The run's last character may compose with the next, which the
     next call gives: it is the state machine's.  */
  if (run > 0 && composes (b, h, cp[*i + run - 1]))
    run--;
  if (run == 0)
    return ENCODE_INPUT_EMPTY;
  if (h->host)
    ip = (ICONV_CONST char *) (cp + *i);
  else
    {
      for (k = 0; k < run; k++)
        enc_learner_unit (false, cp[*i + k], le + 4 * k);
      ip = (ICONV_CONST char *) le;
    }
  il = 4 * run;
  r = iconv (h->cd, &ip, &il, &op, &ol);
  err = r == (size_t) -1 ? errno : 0;
  h->order = UNITS_UNKNOWN;
  taken = run - il / 4;
  *i += taken;
  *o = (size_t) ((uint8_t *) op - out);
  if (err == EILSEQ)
    return ENCODE_UNENCODABLE;
  return err == E2BIG && taken > 0 ? ENCODE_OUTPUT_FULL : ENCODE_INPUT_EMPTY;
}

/* Encode with H (of B) a run of CP[*I..N) into OUT at *O (room up to
   CAP), if it converts runs: of a Unicode form's units (iconv_units.c),
   or of values, for an encoder that shows state, without //TRANSLIT
   (encode_run, which says what this returns).  */
static enum encode_status
encode_runs (struct bridge const *b, struct handle *h, ucs4_t const *cp,
             size_t *i, size_t n, uint8_t *out, size_t *o, size_t cap)
{
  if (h->unit)
    {
      bool exact = true;
      *i += units_encode (h->cd, h->unit, &h->order, cp + *i, n - *i, out,
                          o, cap, &exact);
      if (!exact)
        h->unit = 0;
      return ENCODE_INPUT_EMPTY;
    }
  if (!RUNS || h->enc_on || h->senc || b->translit || b->exact || *i == n)
    return ENCODE_INPUT_EMPTY;
  if (cap - *o < MAX_ENCODED)
    return ENCODE_OUTPUT_FULL;
  return encode_run (b, h, cp, i, n, out, o, cap);
}

/* H holds back the character H->held of the memo, which the next one,
   CP[*I], lets out as its own bytes unless they compose: write them to
   OUT at *O if the memo says they do not (learning CP[*I] ahead if need
   be), or the character they compose to, and move *I past CP[*I]; else
   stop using the memo for good, and give H->held to iconv(3), which
   holds it back as it should.  */
static enum encode_status
release_held (struct bridge const *b, struct handle *h, ucs4_t const *cp,
              size_t *i, size_t count, uint8_t *out, size_t *o, size_t cap)
{
  int err, one;
  if (cap - *o < MAX_ENCODED)
    return ENCODE_OUTPUT_FULL;
  if (enc_memo_get (b->enc, cp[*i]) == 0)
    enc_memo_learn_ahead (b->enc, cp + *i, count - *i);
  one = enc_memo_pair (b->enc, h->held, cp[*i], out + *o);
  if (one == 0)
    *o += (size_t) enc_memo_write (enc_memo_get (b->enc, h->held), out + *o);
  else if (one > 0)
    {
      *o += (size_t) one;
      ++*i;
    }
  else
    {
      h->enc_on = false;
      b->enc->stateful = true;
      *o += encode_one (b, h, h->held, out + *o, cap - *o, &err);
    }
  h->held_on = b->enc->busy = false;
  return ENCODE_INPUT_EMPTY;
}

/* Write C alone with H (of B) to OUT at *O (room up to CAP, at least
   2 * MAX_ENCODED), where the character after it does not compose with
   it: from the memo of the shifts, or in a call of its own (it encodes
   alone, as compose_first found), which that memo learns from.  */
static void
write_alone (struct bridge const *b, struct handle *h, ucs4_t c,
             uint8_t *out, size_t *o, size_t cap)
{
  size_t bytes;
  int err;
  if (h->senc && shift_enc_put (h->senc, c, out, o))
    return;
  if (h->senc)
    shift_enc_sync (h->senc, h->cd, h->host, false);
  bytes = encode_one (b, h, c, out + *o, cap - *o, &err);
  *o += bytes;
  encode_learn (b, h, c, out + *o - bytes, bytes, err);
}

/* Encode C and D, a pair the encoder of H composes, in one call,
   to OUT at *O (MAX_ENCODED bytes of room), and say how many of them
   it took in *TOOK: ENCODE_UNENCODABLE when it stopped before one.
   The memo of the shifts follows the state it left.  */
static enum encode_status
encode_pair (struct handle *h, ucs4_t c, ucs4_t d, uint8_t *out, size_t *o,
             size_t *took)
{
  uint8_t in[8];
  size_t used, bytes;
  int err;
  enc_learner_unit (h->host, c, in);
  enc_learner_unit (h->host, d, in + 4);
  if (h->senc)
    shift_enc_sync (h->senc, h->cd, h->host, false);
  bytes = bridge_convert (h->cd, in, sizeof in, out + *o, MAX_ENCODED,
                          &used, &err);
  h->order = UNITS_UNKNOWN;
  if (h->senc)
    shift_enc_wrote (&h->senc, out + *o, bytes);
  *o += bytes;
  *took = used / 4;
  return err != 0 ? ENCODE_UNENCODABLE : ENCODE_INPUT_EMPTY;
}

/* H (of B) holds back H->first, the first of a pair its encoder may
   compose, which CP[*I] (when *I is below COUNT) follows: write them
   to OUT at *O as one call would, and move *I past CP[*I] if it took
   it.  */
static enum encode_status
release_first (struct bridge const *b, struct handle *h, ucs4_t const *cp,
               size_t *i, size_t count, uint8_t *out, size_t *o,
               size_t cap)
{
  size_t took;
  enum encode_status st;
  if (cap - *o < 2 * MAX_ENCODED)
    return ENCODE_OUTPUT_FULL;
  h->first_on = false;
  if (*i == count || !compose_pair (&h->comp, h->first, cp[*i]))
    {
      write_alone (b, h, h->first, out, o, cap);
      return ENCODE_INPUT_EMPTY;
    }
  st = encode_pair (h, h->first, cp[*i], out, o, &took);
  /* The first was taken in an earlier call: only the second counts.  */
  *i += took == 2;
  return st;
}

/* What H (of B) held back at the end of the last call, which CP[*I]
   follows: release_held's, or release_first's.  */
static enum encode_status
release (struct bridge const *b, struct handle *h, ucs4_t const *cp,
         size_t *i, size_t count, uint8_t *out, size_t *o, size_t cap)
{
  if (h->held_on)
    return release_held (b, h, cp, i, count, out, o, cap);
  return release_first (b, h, cp, i, count, out, o, cap);
}

/* bridge_encode for C = CP[*I], the first of a pair the encoder of H
   composes: hold it back when the call ends with it; write it
   with CP[*I + 1] in one call when they compose (then *I moves past
   the first), or alone from the memo of the shifts.  Returns whether
   it did any of that, and in *ST the status.  */
static bool
encode_first (struct handle *h, ucs4_t const *cp, size_t *i, size_t count,
              uint8_t *out, size_t *o, enum encode_status *st)
{
  ucs4_t c = cp[*i];
  size_t took;
  *st = ENCODE_INPUT_EMPTY;
  if (*i + 1 == count)
    {
      h->first = c;
      h->first_on = true;
      return true;
    }
  if (compose_pair (&h->comp, c, cp[*i + 1]))
    {
      *st = encode_pair (h, c, cp[*i + 1], out, o, &took);
      /* Past the first, or at the value iconv() stopped before.  */
      *i += took - (took == 2 || *st == ENCODE_INPUT_EMPTY);
      return true;
    }
  return h->senc && shift_enc_put (h->senc, c, out, o);
}

/* For bridge_encode, at CP[*I] (of COUNT), which the memo of H (of B),
   or that of its shifts, does not know: let them learn ahead; or, on
   text whose new characters seldom come back, write a run through the
   memo's learner (iconv_memo_run.c) to OUT at *O (room up to CAP) and
   move *O past it.  Whether either came; *I is then one before the
   value the loop goes on with.  */
static bool
learn_or_run (struct bridge const *b, struct handle *h, ucs4_t const *cp,
              size_t *i, size_t count, uint8_t *out, size_t *o, size_t cap)
{
  if (h->enc_on && !h->senc && cap - *o >= RUN_ROOM
      && enc_memo_runs_now (b->enc))
    {
      size_t w, took = enc_memo_through (b->enc, cp + *i, count - *i,
                                         out + *o, cap - *o, &w);
      if (took != 0)
        {
          *i += took - 1;
          *o += w;
          return true;
        }
    }
  if (h->enc_on ? !h->senc && enc_memo_learn_ahead (b->enc, cp + *i,
                                                    count - *i) != 0
      : h->senc && shift_enc_learn_ahead (h->senc, cp + *i, count - *i))
    {
      --*i;
      return true;
    }
  return false;
}

enum encode_status
bridge_encode (struct encoder *e, ucs4_t const *cp, size_t *n, uint8_t *out,
               size_t *outlen, size_t cap)
{
  struct bridge const *b = bridge_of (e->codec);
  struct handle *h = e->impl;
  size_t i, count = *n, o = *outlen;
  enum encode_status status = ENCODE_INPUT_EMPTY;
  /* //TRANSLIT: C.UTF-8's rules while this call lasts.  */
  locale_t user = b->translit ? uselocale (b->translit) : (locale_t) 0;

  /* Where the encoder is after what this converts is not followed.  */
  h->enc_base = false;

  for (i = 0; i < count; i++)
    {
      ucs4_t c;
      size_t bytes;
      int err;

      if ((h->held_on || h->first_on)
          && ((status = release (b, h, cp, &i, count, out, &o, cap))
              != ENCODE_INPUT_EMPTY || i == count))
        break;
      /* What the memo knows, in a loop of its own.  */
      if (h->enc_on ? enc_memo_run (b->enc, cp, &i, count, out, &o, cap)
          : h->senc && shift_enc_run (h->senc, cp, &i, count, out, &o, cap))
        {
          status = ENCODE_UNENCODABLE;
          break;
        }
      if ((status = encode_runs (b, h, cp, &i, count, out, &o, cap))
          != ENCODE_INPUT_EMPTY || i == count)
        break;
      c = cp[i];
      if (cap - o < MAX_ENCODED)
        {
          status = ENCODE_OUTPUT_FULL;
          break;
        }
      if (b->exact)
        {
          struct encoder x;
          size_t one = 1;
          encoder_init (&x, b->exact);
          if (b->exact->encode (&x, &c, &one, out, &o, cap)
              == ENCODE_INPUT_EMPTY)
            continue;
        }
      if ((0xD800 <= c && c < 0xE000) || 0x10FFFF < c)
        {
          status = ENCODE_UNENCODABLE;
          break;
        }
      /* The first of a pair the encoder composes: given with the next
         one, or kept until it shows.  */
      if (composes (b, h, c)
          && encode_first (h, cp, &i, count, out, &o, &status))
        {
          if (status != ENCODE_INPUT_EMPTY)
            break;
          continue;
        }
      /* A character the encoder holds back: kept until the next one.  */
      if (h->enc_on && (enc_memo_get (b->enc, c) & ENC_HELD))
        {
          h->held = c;
          h->held_on = b->enc->busy = true;
          continue;
        }
      /* The memo's loop takes C once learned (I goes round to it), or
         what follows a run.  */
      if (learn_or_run (b, h, cp, &i, count, out, &o, cap))
        continue;
      if (h->senc)
        shift_enc_sync (h->senc, h->cd, h->host, false);
      bytes = encode_one (b, h, c, out + o, cap - o, &err);
      o += bytes;
      if (err == E2BIG && o > *outlen)
        {
          status = ENCODE_OUTPUT_FULL;
          break;
        }
      encode_learn (b, h, c, out + o - bytes, bytes, err);
      if (err != 0)
        {
          /* EILSEQ or EINVAL: iconv() cannot encode C.  */
          status = ENCODE_UNENCODABLE;
          break;
        }
    }
  if (b->translit)
    uselocale (user);
  *n = i;
  *outlen = o;
  return status;
}

/* Whether the encoder of H (of B) takes runs of values a call, with no
   memo (encode_runs, encode_run): the charsets whose encoder neither
   memo follows (ISO-2022-CN's, which designates to G1 before SO).  */
static bool
runs_plain (struct bridge const *b, struct handle const *h)
{
  return (RUNS && !h->enc_on && !h->senc && !h->runs7 && !h->unit
          && !b->translit && !b->exact);
}

bool
iconv_bridge_encode_lasts (struct encoder const *e)
{
  struct handle const *h = e->impl;
  return (e->codec->encode == bridge_encode
          && ((!h->enc_on && h->senc && !bridge_of (e->codec)->translit)
              || h->runs7 || runs_plain (bridge_of (e->codec), h)));
}

enum
{
  /* The most bytes UTF-7 writes for a character, the end of base64
     before it included.  */
  RUN_MAX_BYTES = 8,
  /* The bytes of the text that say whether it is worth it.  */
  RUN_SAMPLE = 16384
};

/* Decode into CP the UTF-8 at IN[*I..N) for a run of an iconv_t: up to
   an ill-formed or incomplete sequence, ROOM characters, or the first
   character of RUN_ENDS in CLS after which RUN_DIRECT_MIN - 1 of
   RUN_DIRECT come, which is the run's last; moves *I past them and
   counts their U+000A into *LINES.  Returns the characters.  */
static size_t
run_from_utf8 (uint8_t const *cls, uint8_t const *in, size_t *i, size_t n,
               ucs4_t *cp, size_t room, uint64_t *lines)
{
  size_t k = 0, at = *i, streak = 0, first = 0, first_at = 0;
  uint64_t nl = 0, first_nl = 0;
  size_t stop = n - at < room ? n : at + room;
  /* Each character is a byte at least: while AT is below STOP, K is
     below ROOM.  */
  while (at < stop)
    {
      ucs4_t c = in[at];
      int r;
      enum err_kind kind;
      if (c < 0x80)
        {
          /* A streak starts at a character that ends base64.  */
          streak = cls[c] & (streak ? RUN_DIRECT : RUN_ENDS) ? streak + 1 : 0;
          cp[k++] = c;
          at++;
          if (streak == 1)
            {
              first = k;
              first_at = at;
              first_nl = nl;
            }
          nl += c == 0x0A;
          if (streak == RUN_DIRECT_MIN)
            {
              at = first_at;
              k = first;
              nl = first_nl + (cp[k - 1] == 0x0A);
              break;
            }
          continue;
        }
      if ((r = utf8_short (in + at, n - at, &c)) == 0
          && (r = utf8_sequence (&utf8_form, in + at, n - at, false, &c,
                                 &kind)) <= 0)
        break;
      at += (size_t) r;
      cp[k++] = c;
      streak = 0;
    }
  *i = at;
  *lines = nl;
  return k;
}

/* The bytes of IN[0..N) in pieces of RUN_DIRECT_MIN bytes or more of
   RUN_DIRECT in CLS.  */
static size_t
direct_share (uint8_t const *cls, uint8_t const *in, size_t n)
{
  size_t k, streak = 0, share = 0;
  for (k = 0; k <= n; k++)
    {
      if (k < n && in[k] < 0x80 && (cls[in[k]] & RUN_DIRECT))
        {
          streak++;
          continue;
        }
      share += streak >= RUN_DIRECT_MIN ? streak : 0;
      streak = 0;
    }
  return share;
}

/* Whether the text at IN[0..N) is mostly base64, or breaks the bytes
   that are their own (RUN_DIRECT in CLS) into short pieces: then fewer
   than a quarter of its first RUN_SAMPLE bytes are in stretches of
   RUN_DIRECT_MIN or more.  The fuzzer's short random inputs
   (RUN_PROBE_MIN, iconv_units.h, is its threshold of the probe) take
   either way, by their first byte.  */
static bool
base64_text (uint8_t const *cls, uint8_t const *in, size_t n)
{
#ifdef UTF8CONV_FUZZING
  (void) cls;
  (void) n;
  return in[0] & 1;
#else
  size_t sample = n < RUN_SAMPLE ? n : RUN_SAMPLE;
  return 4 * direct_share (cls, in, sample) < sample;
#endif
}

/* Decode into CP the UTF-8 at IN[*I..N) for a run of an iconv_t, as
   run_from_utf8 does, but with no look for stretches of RUN_DIRECT, by
   the kernels (which runs_utf8's caller has): up to an ill-formed or
   incomplete sequence, or the bytes of ROOM characters.  One character
   where the kernels stop short before a well-formed one.  */
static size_t
plain_from_utf8 (uint8_t const *in, size_t *i, size_t n, ucs4_t *cp,
                 size_t room, uint64_t *lines)
{
  size_t k, v = kernels_utf8_to_values (in + *i, n - *i < room ? n - *i
                                        : room, cp, &k, lines);
  int r;
  enum err_kind kind;
  if (v == 0 && n > *i && room > 0
      && (r = utf8_sequence (&utf8_form, in + *i, n - *i, false, cp,
                             &kind)) > 0)
    {
      v = (size_t) r;
      k = 1;
      *lines = cp[0] == 0x0A;
    }
  *i += v;
  return k;
}

/* Give the K values at CP to the iconv_t of H in one call (as UCS-4 in
   the machine's order, or as UTF-32LE through LE, room for K), into OUT
   at *O (room up to CAP), and move *O past what it wrote: how many it
   took.  */
static size_t
run_call (struct handle *h, ucs4_t const *cp, size_t k, uint8_t *le,
          uint8_t *out, size_t *o, size_t cap)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) cp;
  char *op = (char *) out + *o;
  size_t j, il = 4 * k, ol = cap - *o;
  if (!h->host)
    {
      for (j = 0; j < k; j++)
        enc_learner_unit (false, cp[j], le + 4 * j);
      ip = (ICONV_CONST char *) le;
    }
  iconv (h->cd, &ip, &il, &op, &ol);
  h->order = UNITS_UNKNOWN;
  *o = cap - ol;
  return k - il / 4;
}

/* The bytes of the UTF-8 form of the N values at CP.  */
static size_t
utf8_bytes (ucs4_t const *cp, size_t n)
{
  size_t j, bytes = 0;
  for (j = 0; j < n; j++)
    bytes += 1 + (cp[j] >= 0x80) + (cp[j] >= 0x800) + (cp[j] >= 0x10000);
  return bytes;
}

/* iconv_bridge_encode_utf8 for an encoder of RUNS7: where the encoder
   is surely outside base64, the characters that are their bytes are
   copied; the others go to iconv() a run a call, which ends at one of
   those characters that many more follow, or where the room does.  On
   text that is mostly base64 (RUNS7_PLAIN), every character goes to
   iconv(), runs of up to RUN_MAX decoded by the kernels: what 512 KiB
   of random bytes decode to in UTF-7 takes 13.3 million instructions
   so (iconv(1) 15.8), 18.3 with the look for stretches, and 16.7
   through the state machine, which took such text before.  */
static size_t
runs_utf8 (struct bridge const *b, struct handle *h, uint8_t const *in,
           size_t n, uint8_t *out, size_t *o, size_t cap,
           uint64_t *newlines)
{
  struct memo_charset *cs = b->charset;
  uint8_t const *cls = cs->enc_run_class;
  ucs4_t cp[RUN_MAX];
  uint8_t le[4 * RUN_MAX];
  size_t i = 0;
  uint64_t nl = 0;

  if (!h->runs7_tried && n >= RUN_PROBE_MIN)
    {
      if (!cs->enc_runs_tried)
        units_probe_enc_runs (b->to_name, cs->enc_run_class);
      cs->enc_runs_tried = h->runs7_tried = true;
      h->runs7_plain = base64_text (cls, in, n);
    }
  while (i < n && cap - *o >= MAX_ENCODED)
    {
      size_t k, j, taken, start, room = (cap - *o) / RUN_MAX_BYTES;
      uint64_t lines;
      if (h->enc_base && !h->runs7_plain)
        {
          size_t stop = i + (n - i < cap - *o ? n - i : cap - *o);
          for (; i < stop && in[i] < 0x80 && (cls[in[i]] & RUN_DIRECT); i++)
            {
              out[(*o)++] = in[i];
              nl += in[i] == 0x0A;
            }
          if (i == stop)
            continue;
        }
      start = i;
      k = (h->runs7_plain
           ? plain_from_utf8 (in, &i, n, cp, room < RUN_MAX ? room : RUN_MAX,
                              &lines)
           : run_from_utf8 (cls, in, &i, n, cp,
                            room < RUN_MAX ? room : RUN_MAX, &lines));
      if (k == 0)
        break;
      taken = run_call (h, cp, k, le, out, o, cap);
      if (taken < k)
        {
          i = start + utf8_bytes (cp, taken);
          for (lines = 0, j = 0; j < taken; j++)
            lines += cp[j] == 0x0A;
        }
      nl += lines;
      if (taken > 0)
        h->enc_base = cp[taken - 1] < 0x80
                      && (cls[cp[taken - 1]] & RUN_ENDS);
      /* iconv() could not encode one, or ran out of room: the state
         machine's.  */
      if (taken < k)
        {
          h->enc_base = false;
          break;
        }
    }
  *newlines = nl;
  return i;
}

/* The U+000A among the N values at CP.  */
static uint64_t
values_lf (ucs4_t const *cp, size_t n)
{
  size_t j;
  uint64_t lines = 0;
  for (j = 0; j < n; j++)
    lines += cp[j] == 0x0A;
  return lines;
}

/* iconv_bridge_encode_utf8 for an encoder that takes runs of values
   (runs_plain): what the state machine gives encode_run, runs of up to
   RUN_MAX values that the kernels decode, without its pivot; a run
   leaves its last character to the state machine when the encoder may
   compose it with the next, and stops at one iconv() cannot encode or
   room it lacks.  ISO-2022-CN's random text took 44% of its
   instructions in the state machine's UTF-8 decoder and encode_run
   (4.0 million of 9.2; iconv(1) 8.7).  */
static size_t
plain_runs_utf8 (struct bridge const *b, struct handle *h,
                 uint8_t const *in, size_t n, uint8_t *out, size_t *o,
                 size_t cap, uint64_t *newlines)
{
  ucs4_t cp[RUN_MAX];
  uint8_t le[4 * RUN_MAX];
  size_t i = 0;
  uint64_t nl = 0;
  while (i < n && cap - *o >= MAX_ENCODED)
    {
      size_t start = i, k, taken;
      uint64_t lines;
      k = plain_from_utf8 (in, &i, n, cp, RUN_MAX, &lines);
      if (k > 0 && composes (b, h, cp[k - 1]))
        {
          k--;
          i = start + utf8_bytes (cp, k);
          lines = values_lf (cp, k);
        }
      if (k == 0)
        {
          i = start;
          break;
        }
      taken = run_call (h, cp, k, le, out, o, cap);
      if (taken < k)
        {
          /* It could not encode one, or ran out of room: the state
             machine's.  */
          i = start + utf8_bytes (cp, taken);
          nl += values_lf (cp, taken);
          break;
        }
      nl += lines;
    }
  *newlines = nl;
  return i;
}

/* bridge_encode's first steps, for a character the memo of the shifts
   knows, or learns ahead: no character is held back (only the encoders'
   memo holds any, off here), nor does a run of units or an exact codec
   come first (neither has a memo of shifts).  */
size_t
iconv_bridge_encode_utf8 (struct encoder *e, uint8_t const *in, size_t n,
                          uint8_t *out, size_t *o, size_t cap,
                          uint64_t *newlines)
{
  struct handle *h = e->impl;
  size_t i = 0, asked = SIZE_MAX;
  *newlines = 0;
  if (h->runs7)
    return runs_utf8 (bridge_of (e->codec), h, in, n, out, o, cap,
                      newlines);
  /* A pair's first that the state machine holds back is its own.  */
  if (runs_plain (bridge_of (e->codec), h))
    return h->first_on ? 0 : plain_runs_utf8 (bridge_of (e->codec), h, in,
                                              n, out, o, cap, newlines);
  /* The first of a pair held back: written alone before a character
     that does not compose with it; the state machine takes any other
     (and an ill-formed sequence, before which it is released).  */
  if (h->first_on)
    {
      ucs4_t d = n > 0 ? in[0] : 0;
      if (n == 0 || cap - *o < 2 * MAX_ENCODED
          || (d >= 0x80 && utf8_short (in, n, &d) == 0)
          || compose_pair (&h->comp, h->first, d))
        return 0;
      h->first_on = false;
      write_alone (bridge_of (e->codec), h, h->first, out, o, cap);
    }
  /* The memo's loop stops where it does not know a character, or with
     less than MAX_ENCODED bytes of room.  */
  while (i < n && h->senc && iconv_bridge_encode_lasts (e))
    {
      bool none;
      i += shift_enc_utf8 (h->senc, in + i, n - i, out, o, cap, newlines,
                           &none);
      if (none || i == n || cap - *o < MAX_ENCODED || asked == i
          || !shift_enc_learn_utf8 (h->senc, in + i, n - i))
        break;
      asked = i;
    }
  return i;
}

size_t
bridge_flush (struct encoder *e, uint8_t *out)
{
  struct handle *h = e->impl;
  size_t w = bridge_drain (e, out);
  char *op = (char *) out + w;
  size_t ol = MAX_ERROR_BYTES;
  h->order = UNITS_UNKNOWN;
  if (h->senc)
    shift_enc_sync (h->senc, h->cd, h->host, true);
  iconv (h->cd, NULL, NULL, &op, &ol);
  return w + MAX_ERROR_BYTES - ol;
}

size_t
bridge_drain (struct encoder *e, uint8_t *out)
{
  struct bridge const *b = bridge_of (e->codec);
  struct handle *h = e->impl;
  size_t w = 0;
  /* A character held back comes out alone.  */
  if (h->held_on)
    {
      w = (size_t) enc_memo_write (enc_memo_get (b->enc, h->held), out);
      h->held_on = b->enc->busy = false;
    }
  if (h->first_on)
    {
      h->first_on = false;
      write_alone (b, h, h->first, out, &w, 2 * MAX_ENCODED);
    }
  return w;
}
