/* UTF-16 and UTF-32 input without a byte order in the name (-f UTF-16,
   -f UTF-32): a wrapping decoder (CODEC_WRAPPER) that chooses the byte
   order of each file and reads the file with the UTF-16LE/BE or
   UTF-32LE/BE decoder.

   Specification: RFC 2781 §4.3, Unicode 15 §3.10 (D98, D101) and SPEC
   §6 of the project.  A BOM decides: FF FE or FE FF for UTF-16,
   FF FE 00 00 or 00 00 FE FF for UTF-32; it is decoded as U+FEFF,
   which the pipeline treats as a signature.  Without one, the NUL
   pattern of the file's first NUL_PATTERN_WINDOW bytes decides where it
   can (nulpattern.h: `h\0i\0' is little-endian, as glibc's iconv and
   Python read it, and so is `h\0\0\0' in UTF-32), and big-endian
   (RFC 2781) where it cannot.

   Until it has decided, the decoder holds the bytes it has seen (at
   most NUL_PATTERN_WINDOW of them) and decodes nothing, so that the
   decision depends on those bytes only, never on how the input was
   split into reads.  Then it replays those of earlier calls through the
   inner decoder, with their offsets, reads the window's bytes of the
   current call from the caller's buffer, and stops after the window, so
   that the caller can read the rest with the fast path of the form it
   chose.  The decoder's `endian' says the byte order chosen.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "codecs.h"
#include "nulpattern.h"

/* The state of an unmarked UTF-16 or UTF-32 decoder.  */
struct unmarked_state
{
  struct decoder inner;         /* The chosen form's; its codec is NULL
                                   until the byte order is decided.  */
  enum detect_how how;          /* How it was decided.  */
  unsigned int look_len;        /* Bytes held in LOOK.  */
  unsigned int look_pos;        /* Of which replayed already.  */
  uint8_t look[NUL_PATTERN_WINDOW];
  /* The NUL pattern's counts of LOOK's bytes so far (UTF-16), kept so
     that each call counts only its own bytes: recounting the window at
     every call made input that comes a byte per read quadratic.  */
  struct nul_count count;
};

/* The form of the unmarked codec C (UTF-16 or UTF-32) that the window
   W[0..N) says, FINAL when no byte follows it; NULL while more bytes
   could still change the answer.  Sets *HOW.  COUNT holds the NUL
   pattern's counts of the bytes of W given in earlier calls.  */
static struct codec const *
choose (struct codec const *c, uint8_t const *w, size_t n, bool final,
        struct nul_count *count, enum detect_how *how)
{
  static uint8_t const bom_le[4] = { 0xFF, 0xFE, 0, 0 };
  static uint8_t const bom_be16[2] = { 0xFE, 0xFF };
  static uint8_t const bom_be32[4] = { 0, 0, 0xFE, 0xFF };
  bool u32 = (c->flags & CODEC_UNITS_32) != 0;
  struct codec const *le = u32 ? &codec_utf32le : &codec_utf16le;
  struct codec const *be = u32 ? &codec_utf32be : &codec_utf16be;
  size_t unit = u32 ? 4 : 2;
  enum nul_pattern v;

  final = final || NUL_PATTERN_WINDOW <= n;
  if (n < unit && !final)
    return NULL;
  *how = DETECT_BOM;
  if (unit <= n && memcmp (w, bom_le, unit) == 0)
    return le;
  if (unit <= n && memcmp (w, u32 ? bom_be32 : bom_be16, unit) == 0)
    return be;
  if (u32)
    v = nul_pattern_find32 (w, n, final);
  else
    {
      /* The same counts as nul_pattern_find (W, N, FINAL) makes.  */
      if (count->bytes < n)
        nul_pattern_add (count, w + count->bytes, n - count->bytes);
      v = nul_pattern_verdict (count, final);
    }
  if (v == NUL_PATTERN_UNDECIDED)
    return NULL;
  *how = v == NUL_PATTERN_NONE ? DETECT_DEFAULT : DETECT_NUL_PATTERN;
  return v == NUL_PATTERN_LE ? le : be;
}

/* Decode IN[0..*INLEN) with the inner decoder, on behalf of D.  */
static enum decode_status
decode_inner (struct decoder *d, struct unmarked_state *s, uint8_t const *in,
              size_t *inlen, bool last, struct pivot *p)
{
  uint64_t before = s->inner.newlines;
  enum decode_status st = s->inner.codec->decode (&s->inner, in, inlen,
                                                  last, p);
  d->newlines += s->inner.newlines - before;
  if (st == DECODE_MALFORMED)
    d->error = s->inner.error;
  return st;
}

/* Decode what is left of LOOK, the bytes held from earlier calls,
   which come right before the caller's buffer: the offsets are made
   relative to that buffer (negative).  More input follows.  */
static enum decode_status
replay (struct decoder *d, struct unmarked_state *s, struct pivot *p)
{
  size_t before = p->len, len = s->look_len - s->look_pos, k;
  int64_t shift = (int64_t) s->look_pos - (int64_t) s->look_len;
  enum decode_status st = decode_inner (d, s, s->look + s->look_pos, &len,
                                        false, p);
  for (k = before; k < p->len; k++)
    p->off[k] += shift;
  if (st == DECODE_MALFORMED)
    d->error.rel_offset += shift;
  s->look_pos += (unsigned int) len;
  if (s->look_pos == s->look_len)
    s->look_pos = s->look_len = 0;
  return st;
}

/* Decode IN[0..*INLEN), stopping after the first UPTO bytes when they
   give values, so that the caller may read the rest with the fast path
   of the form chosen.  */
static enum decode_status
decode_upto (struct decoder *d, struct unmarked_state *s, uint8_t const *in,
             size_t *inlen, size_t upto, bool last, struct pivot *p)
{
  size_t n = *inlen, len = upto, rest, k, before;
  enum decode_status st = decode_inner (d, s, in, &len, last && upto == n,
                                        p);
  *inlen = len;
  if (st != DECODE_INPUT_EMPTY || upto == n)
    return st;
  if (p->len > 0)
    return DECODE_OUTPUT_FULL;
  rest = n - upto;
  before = p->len;
  st = decode_inner (d, s, in + upto, &rest, last, p);
  for (k = before; k < p->len; k++)
    p->off[k] += (int64_t) upto;
  if (st == DECODE_MALFORMED)
    d->error.rel_offset += (int64_t) upto;
  *inlen = upto + rest;
  return st;
}

enum decode_status
unmarked_decode (struct decoder *d, uint8_t const *in, size_t *inlen,
                 bool last, struct pivot *p)
{
  struct unmarked_state *s = d->impl;
  size_t n = *inlen, upto = n;

  if (!s->inner.codec)
    {
      struct codec const *c;
      size_t room = NUL_PATTERN_WINDOW - s->look_len;
      size_t took = n < room ? n : room;
      memcpy (s->look + s->look_len, in, took);
      s->look_len += (unsigned int) took;
      c = choose (d->codec, s->look, s->look_len, last && took == n,
                  &s->count, &s->how);
      if (!c)
        /* Not decided: the window is not full, so TOOK is N.  */
        return DECODE_INPUT_EMPTY;
      decoder_init (&s->inner, c);
      s->inner.lone_surrogates_ok = d->lone_surrogates_ok;
      d->endian = c->endian;
      /* The bytes of this call are read from IN itself; those held from
         earlier calls are replayed first.  */
      s->look_len -= (unsigned int) took;
      if (took < n)
        upto = took;
    }
  if (s->look_pos < s->look_len)
    {
      enum decode_status st = replay (d, s, p);
      if (st != DECODE_INPUT_EMPTY || p->len > 0)
        {
          *inlen = 0;
          return st == DECODE_INPUT_EMPTY ? DECODE_OUTPUT_FULL : st;
        }
    }
  return decode_upto (d, s, in, inlen, upto, last, p);
}

void
unmarked_open (struct decoder *d)
{
  struct unmarked_state *s = xzalloc (sizeof *s);
  d->impl = s;
}

void
unmarked_close (struct decoder *d)
{
  struct unmarked_state *s = d->impl;
  if (s->inner.codec)
    decoder_release (&s->inner);
  free (s);
}

/* Until the window is replayed, every byte goes through the decoder
   (the fast paths must wait).  */
bool
unmarked_holds_input (struct decoder const *d)
{
  struct unmarked_state const *s = d->impl;
  return (s->look_len > 0
          || (s->inner.codec && decoder_holds_input (&s->inner)));
}

bool
unmarked_detected (struct decoder const *d, struct detection *det)
{
  struct unmarked_state const *s = d->impl;
  if (!s->inner.codec)
    return false;
  memset (det, 0, sizeof *det);
  det->codec = s->inner.codec;
  det->how = s->how;
  /* As -f auto says it: a BOM is certain, the NUL pattern nearly so,
     and big-endian without either is RFC 2781's guess.  */
  det->kind = (s->how == DETECT_BOM ? KIND_BOM
               : s->how == DETECT_NUL_PATTERN ? KIND_NUL_PATTERN : KIND_NONE);
  det->confidence = (s->how == DETECT_BOM ? 100
                     : s->how == DETECT_NUL_PATTERN ? 99 : 50);
  return true;
}

/* The forms that nulpattern.h's verdicts name (see codecs.h).  */

struct codec const *
nul_pattern_codec (struct nul_count const *count, bool final,
                   bool *undecided)
{
  static struct codec const *const forms[2][2] = {
    { &codec_utf16le, &codec_utf16be },
    { &codec_utf32le, &codec_utf32be }
  };
  int k;

  *undecided = false;
  for (k = 0; k < 2; k++)
    switch (k ? nul_pattern_verdict32 (count, final)
            : nul_pattern_verdict (count, final))
      {
      case NUL_PATTERN_LE:
        return forms[k][0];
      case NUL_PATTERN_BE:
        return forms[k][1];
      case NUL_PATTERN_UNDECIDED:
        *undecided = true;
        return NULL;
      default:
        break;
      }
  return NULL;
}

struct codec const *
nul_pattern_form (uint8_t const *buf, size_t n, bool complete)
{
  struct nul_count count;
  bool undecided;
  memset (&count, 0, sizeof count);
  nul_pattern_add (&count, buf, n);
  return nul_pattern_codec (&count, complete, &undecided);
}
