/* The single-byte charsets of iconv(3) as tables.

   Specification: what iconv(3) (glibc, or GNU libiconv) does with the
   charset, one byte at a time: the output is the one the exact bridge
   (iconv_bridge.c) gives, byte for byte, with the same errors.

   A charset is a table when its decoder reads one byte per character
   and keeps no state, which is told from what iconv(3) does, never from
   the charset's name.  At the first open of the charset in the process,
   an iconv_t converts each byte alone from its initial state: each must
   give one value with nothing left to flush, or be illegal (EILSEQ; an
   undefined byte, which stays an error of one byte, ERR_INVALID_BYTE, as
   the bridge reports it).  A byte consumed without a value (a shift such
   as IBM930's SO, or a letter held back to combine with a following
   mark, as in CP1255, CP1258 and TCVN), an incomplete one (EINVAL: a
   multi-byte charset), or one that gives several values, makes the
   charset go to the bridge.  Then all the defined bytes, in one stream
   forwards and then backwards, must decode to their values, with
   nothing to flush at the end: no byte changes how the next one reads,
   and none combines with the next.  (Every pair in one stream, 65,536
   of them, costs some 7 million instructions at each start, as much as
   converting 100 KiB; decoders that combine hold the first character
   back, which the bytes alone show, and test_iconv_reference.c
   compares every charset with iconv(3) on random text.)

   The decoder is that table of 256 values.  When bytes 00..7F are ASCII
   both ways, the codec is CODEC_SINGLE_BYTE and CODEC_ASCII_BYTES, so
   that the fast paths of fast.c (the kernels that serve CP1252) build
   their tables from it; otherwise (EBCDIC, some ISO 646 variants) it
   decodes with its table one byte at a time.

   The encoder reads the encoders' memo (iconv_memo.h): at the probe,
   iconv(3) is asked what each value of the table encodes to (so that
   where two bytes decode to the same character, iconv(3)'s choice is
   kept, and a one-way mapping stays unencodable); any other character
   is asked the first time it is met, from the initial state, with the
   flush after it, and the answer kept.  An encoder of a charset whose
   decoder keeps no state keeps none either: each character's bytes do
   not depend on what came before.  Lone surrogates and values above
   U+10FFFF are never encodable, as in the bridge.

   A charset's table is made once per process and kept (with its
   encoding iconv_t) until the program ends: -f auto opens the same
   candidates for every file.  */

#include <config.h>

#include "iconv_table.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "c-strcase.h"
#include "xalloc.h"

#include "iconv_memo.h"
#include "step.h"

struct table_codec
{
  struct codec codec;           /* First: what the rest of utf8conv sees.  */
  ucs4_t dec[256];
  struct enc_memo memo;         /* What each character encodes to.  */
  iconv_t cd;                   /* From UTF-32LE: asked what the memo
                                   does not know.  */
  struct table_codec *next;
};

/* The charsets probed so far: those that are tables, and those that
   are not (their names only).  */
static struct table_codec *tables;

struct refused
{
  char *name;
  struct refused *next;
};

static struct refused *refusals;

static struct table_codec *
table_of (struct codec const *c)
{
  return (struct table_codec *) c;
}

/* What CD gives when flushed, into OUT[0..ROOM); the bytes.  */
static size_t
flush_into (iconv_t cd, uint8_t *out, size_t room)
{
  char *op = (char *) out;
  size_t ol = room;
  iconv (cd, NULL, NULL, &op, &ol);
  return room - ol;
}

/* Ask iconv(3) what T's encoder makes of C, from its initial state,
   and keep the answer in T's memo; the memo's entry.  */
static uint64_t
table_ask (struct table_codec *t, ucs4_t c)
{
  uint8_t in[4], out[MAX_ENCODED];
  size_t used, bytes;
  int err;

  if ((0xD800 <= c && c < 0xE000) || 0x10FFFF < c)
    return ENC_NONE;
  in[0] = (uint8_t) c;
  in[1] = (uint8_t) (c >> 8);
  in[2] = (uint8_t) (c >> 16);
  in[3] = (uint8_t) (c >> 24);
  iconv (t->cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (t->cd, in, sizeof in, out, sizeof out, &used,
                          &err);
  if (err == 0)
    bytes += flush_into (t->cd, out + bytes, sizeof out - bytes);
  return enc_memo_put (&t->memo, c, out, bytes,
                       err != 0 || bytes == 0 || ENC_MAX_BYTES < bytes);
}

static inline int
table_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
            ucs4_t *cp, enum err_kind *kind)
{
  ucs4_t c = table_of (d->codec)->dec[s[0]];
  (void) n, (void) last;
  if (c == TABLE_UNDEFINED)
    {
      *kind = ERR_INVALID_BYTE;
      return -1;
    }
  *cp = c;
  return 1;
}

static inline int
table_encode_step (struct encoder *e, ucs4_t c, uint8_t *out)
{
  struct table_codec *t = table_of (e->codec);
  uint64_t v = enc_memo_get (&t->memo, c);
  int r;
  if (v == 0)
    v = table_ask (t, c);
  r = enc_memo_write (v, out);
  return r < 0 ? STEP_UNENCODABLE : r;
}

static DEFINE_BATCH_DECODER (table_decode_ascii, table_step, 1)
static DEFINE_BATCH_DECODER (table_decode_any, table_step, 0)
static DEFINE_BATCH_ENCODER (table_encode_ascii, table_encode_step, 1)
static DEFINE_BATCH_ENCODER (table_encode_any, table_encode_step, 0)

/* Whether CD, from its initial state, decodes the N defined bytes
   DEF[0..N) (whose values are in DEC) given together, in that order if
   not BACKWARDS, to their values, with nothing held at the end.  */
static bool
together (iconv_t cd, uint8_t const *def, size_t n, ucs4_t const *dec,
          bool backwards)
{
  uint8_t in[256], out[4 * 256 + 4 * PIVOT_MIN_ROOM];
  size_t k, used, bytes;
  int err;

  for (k = 0; k < n; k++)
    in[k] = def[backwards ? n - 1 - k : k];
  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, in, n, out, sizeof out, &used, &err);
  if (err != 0 || used != n || bytes != 4 * n)
    return false;
  for (k = 0; k < n; k++)
    if (get32le (out + 4 * k) != dec[in[k]])
      return false;
  return flush_into (cd, out, sizeof out) == 0;
}

/* Fill DEC from what CD, opened to decode NAME, makes of each byte;
   false when NAME is no table charset (see the top).  */
static bool
probe_decode (iconv_t cd, ucs4_t *dec)
{
  /* ESC, SO, SI, UTF-7's '+' and HZ's '~' first, then 80..FF and
     00..7F: a charset of several bytes or of shifts shows in a few
     calls (GB18030 and Big5 at their first lead, ISO-2022-KR and
     IBM937 at SO, UTF-7 at '+'), where it took up to 130.  */
  static uint8_t const first[] = { 0x1B, 0x0E, 0x0F, '+', '~' };
  enum { FIRST = sizeof first };
  uint8_t def[256];
  size_t n = 0;
  unsigned int k, b;

  for (k = 0; k < FIRST + 256; k++)
    {
      uint8_t byte = k < FIRST ? first[k] : (uint8_t) (k - FIRST + 0x80);
      uint8_t out[4 * PIVOT_MIN_ROOM];
      size_t used, bytes;
      ucs4_t c;
      int err;
      if (k >= FIRST)
        {
          unsigned int j;
          for (j = 0; j < FIRST && first[j] != byte; j++)
            ;
          if (j < FIRST)
            continue;           /* One of FIRST, probed already.  */
        }
      /* CD is in its initial state: new, reset after an error, or
         flushed after a value.  */
      bytes = bridge_convert (cd, &byte, 1, out, sizeof out, &used, &err);
      if (used == 0 && bytes == 0 && err == EILSEQ)
        {
          dec[byte] = TABLE_UNDEFINED;
          iconv (cd, NULL, NULL, NULL, NULL);
          continue;
        }
      if (used != 1 || bytes != 4 || err != 0
          || flush_into (cd, out, sizeof out) != 0)
        return false;
      /* What UTF-32LE refuses, WCHAR_T lets through (memo_ucs4).  */
      c = get32le (out);
      if (0x10FFFF < c || (0xD800 <= c && c < 0xE000))
        return false;
      dec[byte] = c;
    }
  for (b = 0; b < 256; b++)
    if (dec[b] != TABLE_UNDEFINED)
      def[n++] = (uint8_t) b;
  return (n > 0 && together (cd, def, n, dec, false)
          && together (cd, def, n, dec, true));
}

/* Note in T's memo what iconv(3) encodes each value of its table to:
   all of them in one call when that gives each its own byte (one call
   instead of 256, at each start), else one by one.  */
static void
encode_table (struct table_codec *t)
{
  /* OWN is zeroed only for cppcheck, which takes a table with no
     defined byte for one whose bytes are unset.  */
  uint8_t in[4 * 256], out[256 + MAX_ENCODED], own[256] = { 0 };
  size_t n = 0, k, used, bytes;
  unsigned int b;
  int err;

  for (b = 0; b < 256; b++)
    if (t->dec[b] != TABLE_UNDEFINED)
      {
        ucs4_t c = t->dec[b];
        in[4 * n] = (uint8_t) c;
        in[4 * n + 1] = (uint8_t) (c >> 8);
        in[4 * n + 2] = (uint8_t) (c >> 16);
        in[4 * n + 3] = (uint8_t) (c >> 24);
        own[n++] = (uint8_t) b;
      }
  iconv (t->cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (t->cd, in, 4 * n, out, sizeof out, &used, &err);
  if (err == 0 && bytes == n && memcmp (out, own, n) == 0
      && flush_into (t->cd, out, sizeof out) == 0)
    for (k = 0; k < n; k++)
      enc_memo_put (&t->memo, t->dec[own[k]], own + k, 1, false);
  else
    for (b = 0; b < 256; b++)
      if (t->dec[b] != TABLE_UNDEFINED
          && !enc_memo_get (&t->memo, t->dec[b]))
        table_ask (t, t->dec[b]);
}

/* Make the table codec of NAME, or NULL.  */
static struct table_codec *
make_table (char const *name)
{
  static char const *const no_aliases[] = { NULL };
  struct table_codec *t;
  /* Each value probe_decode reads is checked to be a scalar value, and
     the encoder is given none other.  */
  char const *ucs4 = memo_ucs4 ();
  iconv_t cd = iconv_open (ucs4, name);
  bool ascii = true;
  unsigned int b;

  if (cd == (iconv_t) -1)
    return NULL;
  t = xzalloc (sizeof *t);
  if (!probe_decode (cd, t->dec)
      || (t->cd = iconv_open (name, ucs4)) == (iconv_t) -1)
    {
      iconv_close (cd);
      free (t);
      return NULL;
    }
  iconv_close (cd);
  encode_table (t);
  for (b = 0; b < 0x80 && ascii; b++)
    ascii = (t->dec[b] == b
             && enc_memo_get (&t->memo, b) == ((uint64_t) b << 8 | 1));
  t->codec.name = xstrdup (name);
  t->codec.aliases = no_aliases;
  t->codec.decode = ascii ? table_decode_ascii : table_decode_any;
  t->codec.encode = ascii ? table_encode_ascii : table_encode_any;
  t->codec.flush = NULL;
  t->codec.flags = ascii ? CODEC_SINGLE_BYTE | CODEC_ASCII_BYTES : 0;
  t->codec.endian = ENDIAN_UNKNOWN;
  t->codec.unmarked = NULL;
  t->codec.drain = NULL;
  return t;
}

struct codec const *
iconv_table_find (char const *name)
{
  struct table_codec *t;
  struct refused *r;

  for (t = tables; t; t = t->next)
    if (c_strcasecmp (t->codec.name, name) == 0)
      return &t->codec;
  for (r = refusals; r; r = r->next)
    if (c_strcasecmp (r->name, name) == 0)
      return NULL;
  t = make_table (name);
  if (!t)
    {
      r = xmalloc (sizeof *r);
      r->name = xstrdup (name);
      r->next = refusals;
      refusals = r;
      return NULL;
    }
  t->next = tables;
  tables = t;
  return &t->codec;
}

ucs4_t const *
iconv_table_of (struct codec const *c)
{
  if (c->decode != table_decode_ascii && c->decode != table_decode_any)
    return NULL;
  return table_of (c)->dec;
}

struct enc_memo const *
iconv_table_memo (struct codec const *c)
{
  if (c->decode != table_decode_ascii && c->decode != table_decode_any)
    return NULL;
  return &table_of (c)->memo;
}
