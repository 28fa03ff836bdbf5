/* The iconv(3) bridge's encoders: each value from UTF-32LE, one per
   iconv() call, and the encoders' memo of a charset that keeps no state
   (iconv_memo.h), or that of its shifts (iconv_shift.h); see the
   comment at the top of iconv_bridge.c.  */

#include <config.h>

#include "iconv_encode.h"

#include <errno.h>
#include <locale.h>

#include "iconv_handle.h"
#include "iconv_units.h"

void
bridge_encoder_open (struct encoder *e)
{
  struct bridge const *b = bridge_of (e->codec);
  struct handle *h = bridge_open_handle (b->to_name, "UTF-32LE");
  e->impl = h;
  /* Runs of units, no memo: unless it transliterates or EXACT is.  */
  if (!b->translit && b->to_name == b->name && !b->exact && b->unit)
    {
      h->unit = b->unit;
      h->order = UNITS_UNKNOWN;
      return;
    }
  /* Not for a Unicode form (a BOM written once, UTF-7's base64), nor
     with //TRANSLIT; and only for a charset whose decoder keeps no
     state as far as the probe can tell.  */
  if ((b->sc.codec.flags & CODEC_UNICODE) || b->translit
      || b->to_name != b->name)
    return;
  if (!b->charset->decided)
    shift_probe_charset (b->charset, b->name);
  /* Or whose decoder only holds a letter back (CP1255): its encoder is
     checked character by character, and one that holds a character
     back too (BIG5-HKSCS's) shows at its first, for good.  A charset
     of SO and SI: the encoder follows its shifts.  */
  h->enc_on = b->charset->suits || (b->charset->holds && !b->enc->stateful);
  h->senc = b->exact ? NULL : shift_enc_new (b->charset, b->to_name);
}

/* The encoder of H encoded C to OUT[0..LEN) (ERR: iconv()'s errno): let
   its memo, or that of its shifts, learn it with the probe's help; or
   stop using them for good, and say so to the fast path (`stateful').  */
static void
encode_learn (struct bridge const *b, struct handle *h, ucs4_t c,
              uint8_t const *out, size_t len, int err)
{
  if ((h->enc_on || h->senc) && h->probe == (iconv_t) -1)
    h->probe = bridge_iconv_open (b->to_name, "UTF-32LE");
  if (h->enc_on && !enc_memo_learn (b->enc, h->probe, c, out, len, err))
    {
      h->enc_on = false;
      b->enc->stateful = true;
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

  buf[0] = (uint8_t) c;
  buf[1] = (uint8_t) (c >> 8);
  buf[2] = (uint8_t) (c >> 16);
  buf[3] = (uint8_t) (c >> 24);
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

enum encode_status
bridge_encode (struct encoder *e, ucs4_t const *cp, size_t *n, uint8_t *out,
               size_t *outlen, size_t cap)
{
  struct bridge const *b = bridge_of (e->codec);
  struct handle *h = e->impl;
  iconv_t cd = h->cd;
  size_t i, count = *n, o = *outlen;
  enum encode_status status = ENCODE_INPUT_EMPTY;
  /* //TRANSLIT: C.UTF-8's rules while this call lasts.  */
  locale_t user = b->translit ? uselocale (b->translit) : (locale_t) 0;

  for (i = 0; i < count; i++)
    {
      ucs4_t c;
      size_t bytes;
      int err;

      if (h->held_on
          && ((status = release_held (b, h, cp, &i, count, out, &o, cap))
              != ENCODE_INPUT_EMPTY || i == count))
        break;
      /* What the memo knows, in a loop of its own.  */
      if (h->enc_on ? enc_memo_run (b->enc, cp, &i, count, out, &o, cap)
          : h->senc && shift_enc_run (h->senc, cp, &i, count, out, &o, cap))
        {
          status = ENCODE_UNENCODABLE;
          break;
        }
      if (h->unit)
        {
          bool exact = true;
          i += units_encode (cd, h->unit, &h->order, cp + i, count - i, out,
                             &o, cap, &exact);
          if (!exact)
            h->unit = 0;
        }
      if (i == count)
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
      /* A character the encoder holds back: kept until the next one.  */
      if (h->enc_on && (enc_memo_get (b->enc, c) & ENC_HELD))
        {
          h->held = c;
          h->held_on = b->enc->busy = true;
          continue;
        }
      /* The memo's loop takes C once learned: I goes round to it.  */
      if (h->enc_on ? !h->senc && enc_memo_learn_ahead (b->enc, cp + i,
                                                        count - i) != 0
          : h->senc && shift_enc_learn_ahead (h->senc, cp + i, count - i))
        {
          i--;
          continue;
        }
      if (h->senc)
        shift_enc_sync (h->senc, cd, false);
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

size_t
bridge_flush (struct encoder *e, uint8_t *out)
{
  struct bridge const *b = bridge_of (e->codec);
  struct handle *h = e->impl;
  char *op = (char *) out;
  size_t ol = MAX_ERROR_BYTES;
  h->order = UNITS_UNKNOWN;
  if (h->senc)
    shift_enc_sync (h->senc, h->cd, true);
  /* A character held back comes out alone.  */
  if (h->held_on)
    {
      int len = enc_memo_write (enc_memo_get (b->enc, h->held), out);
      op += len;
      ol -= (size_t) len;
      h->held_on = b->enc->busy = false;
    }
  iconv (h->cd, NULL, NULL, &op, &ol);
  return MAX_ERROR_BYTES - ol;
}
