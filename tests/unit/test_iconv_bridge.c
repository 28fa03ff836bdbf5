/* Unit tests of the iconv(3) bridge: per-value offsets, errors, and
   input split at every byte (the carry of an incomplete character);
   what a decoder holds back comes out before an error, and a stateful
   decoder keeps its state after one (SPEC §10).  */

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"

enum { MAX_VALUES = 64 };

/* A decoded stream: values, their absolute offsets, and the errors as
   "offset:len:kind" entries, values and errors in order.  */
struct result
{
  long item[MAX_VALUES];        /* Value, or -1000 - error index.  */
  int64_t off[MAX_VALUES];
  size_t n;
  char errors[256];
  char order[512];              /* Values and errors' bytes, in order.  */
};

/* Decode IN[0..N) with C, fed in two chunks split at SPLIT.  */
static void
decode_split (struct codec const *c, uint8_t const *in, size_t n,
              size_t split, struct result *r)
{
  struct decoder d;
  ucs4_t cp[MAX_VALUES];
  int64_t off[MAX_VALUES];
  uint8_t nb[MAX_VALUES];
  size_t bounds[3] = { 0, split, n }, k;
  int chunk;

  memset (r, 0, sizeof *r);
  decoder_init (&d, c);
  for (chunk = 0; chunk < 2; chunk++)
    {
      size_t pos = bounds[chunk], end = bounds[chunk + 1];
      bool last = chunk == 1;
      for (;;)
        {
          struct pivot p = { cp, off, nb, 0, 3 };
          size_t len = end - pos;
          enum decode_status st = c->decode (&d, in + pos, &len, last, &p);
          for (k = 0; k < p.len && r->n < MAX_VALUES; k++, r->n++)
            {
              size_t l = strlen (r->order);
              r->item[r->n] = (long) cp[k];
              r->off[r->n] = (int64_t) pos + off[k];
              snprintf (r->order + l, sizeof r->order - l, "%s%lX",
                        l ? " " : "", (unsigned long) cp[k]);
            }
          if (st == DECODE_MALFORMED)
            {
              size_t l = strlen (r->errors);
              snprintf (r->errors + l, sizeof r->errors - l, "%lld:%u:%d ",
                        (long long) ((int64_t) pos + d.error.rel_offset),
                        d.error.len, (int) d.error.kind);
              l = strlen (r->order);
              snprintf (r->order + l, sizeof r->order - l, "%s!%s",
                        l ? " " : "", hex (d.error.bytes, d.error.len));
            }
          pos += len;
          if (st == DECODE_INPUT_EMPTY && pos == end)
            break;
        }
    }
  decoder_release (&d);
}

static bool
same (struct result const *a, struct result const *b)
{
  size_t k;
  if (a->n != b->n || strcmp (a->errors, b->errors) != 0
      || strcmp (a->order, b->order) != 0)
    return false;
  for (k = 0; k < a->n; k++)
    if (a->item[k] != b->item[k] || a->off[k] != b->off[k])
      return false;
  return true;
}

static struct codec const *
lookup (char const *name)
{
  struct codec const *c = registry_lookup (name);
  if (!c)
    {
      printf ("Bail out! iconv(3) does not know %s\n", name);
      exit (1);
    }
  return c;
}

static void
test_split (char const *name, uint8_t const *in, size_t n,
            long const *values, int64_t const *offs, size_t nvalues,
            char const *errors)
{
  struct codec const *c = lookup (name);
  struct result whole, part;
  size_t split, k;
  bool good;

  decode_split (c, in, n, n, &whole);
  good = whole.n == nvalues && strcmp (whole.errors, errors) == 0;
  for (k = 0; good && k < nvalues; k++)
    good = whole.item[k] == values[k] && whole.off[k] == offs[k];
  if (!ok (good, "%s: values, offsets and errors", name))
    {
      for (k = 0; k < whole.n; k++)
        diag ("U+%04lX at %lld", whole.item[k], (long long) whole.off[k]);
      diag ("errors: %s", whole.errors);
    }
  good = true;
  for (split = 0; split <= n; split++)
    {
      decode_split (c, in, n, split, &part);
      if (!same (&whole, &part))
        {
          diag ("split at %zu differs", split);
          good = false;
        }
    }
  ok (good, "%s: the same split at every byte", name);
}

/* The values and errors of IN[0..N) in NAME, in order, must be WANT
   ("61 !81 62": values in hex, errors as "!" and their bytes), fed
   whole and split at every byte, which also give the same offsets.  */
static void
test_order (char const *name, uint8_t const *in, size_t n,
            char const *want, char const *desc)
{
  struct codec const *c = lookup (name);
  struct result whole, part;
  size_t split;
  bool good = true;

  decode_split (c, in, n, n, &whole);
  if (!ok (strcmp (whole.order, want) == 0, "%s: %s", name, desc))
    diag ("got  %s\nwant %s", whole.order, want);
  for (split = 0; split <= n; split++)
    {
      decode_split (c, in, n, split, &part);
      if (!same (&whole, &part))
        {
          diag ("split at %zu: %s", split, part.order);
          good = false;
        }
    }
  ok (good, "%s: %s, the same split at every byte", name, desc);
}

int
main (void)
{
  /* Shift_JIS: "a日" 80 (invalid) "本" then a truncated lead byte.  */
  static uint8_t const sjis[] = { 'a', 0x93, 0xFA, 0x80, 0x96, 0x7B, 0x93 };
  static long const sjis_v[] = { 'a', 0x65E5, 0x672C };
  static int64_t const sjis_o[] = { 0, 1, 4 };
  /* ISO-2022-JP: "a" ESC $ B "日本" ESC ( B "b": the shift sequences
     belong to the next character.  */
  static uint8_t const jis[] = { 'a', 0x1B, '$', 'B', 0x46, 0x7C, 0x4B,
                                 0x5C, 0x1B, '(', 'B', 'b' };
  static long const jis_v[] = { 'a', 0x65E5, 0x672C, 'b' };
  static int64_t const jis_o[] = { 0, 1, 6, 8 };
  struct codec const *c;

  test_split ("SHIFT_JIS", sjis, sizeof sjis, sjis_v, sjis_o, 3,
              "3:1:6 6:1:2 ");
  test_split ("ISO-2022-JP", jis, sizeof jis, jis_v, jis_o, 4, "");

  /* glibc's CP1258 holds each letter back (a tone mark may follow), and
     CP1255 each Hebrew letter (a point may follow): at an error the
     held letter comes first, and is not composed with a mark after the
     error.  */
  test_order ("CP1258", STR ("abc\x81"), "61 62 63 !81",
              "a held letter comes out before the error");
  test_order ("CP1258", STR ("A\x81\x81" "B"), "41 !81 !81 42",
              "errors in a row, the letters in order");
  test_order ("CP1255", STR ("\xfa\xfb"), "5EA !FB",
              "a held letter at the end, before the error");
  test_order ("CP1255", STR ("\xf9\xd1"), "FB2A",
              "shin and shin dot compose");
  test_order ("CP1255", STR ("\xf9\xfb\xd1"), "5E9 !FB 5C1",
              "but not across an error");
  /* ISO-2022-JP: after ESC $ B, invalid bytes, then more kanji, which
     still decode as kanji; UTF-7 stays in base64 after an error.  */
  test_order ("ISO-2022-JP", STR ("a\x1b$BF|\x80\x80K\\\x1b(Bb"),
              "61 65E5 !80 !80 672C 62", "the shift state survives errors");
  test_order ("UTF-7", STR ("+ZeV\x80nLA-"), "65E5 !80 672C",
              "base64 survives an error");
  /* glibc's ISO-2022-CN-EXT consumes a SO that no designation came
     before, then blames the next byte: the error is where it says, or
     the SO itself at the end of the input.  */
  test_order ("ISO-2022-CN-EXT", STR ("a\x0e" "b"), "61 !62",
              "the byte iconv(3) blames");
  test_order ("ISO-2022-CN-EXT", STR ("a\x0e"), "61 !0E",
              "the blamed byte at the end of the input");

  c = lookup ("KOI8-R");
  ok (strcmp (c->name, "KOI8-R") == 0 && (c->flags & CODEC_STATEFUL)
      && !(c->flags & CODEC_UNICODE) && lookup ("koi8-r") == c,
      "a bridged codec: uppercased name, legacy, made once");
  ok (registry_find ("KOI8-R") == NULL && registry_lookup ("NO-SUCH") == NULL
      && registry_lookup ("") == NULL,
      "registry_find knows only the built-ins; unknown names are NULL");

  /* Encoding: one value per call; the unencodable one is named; the
     flush writes the shift reset.  */
  {
    struct encoder e;
    ucs4_t const text[] = { 'a', 0x65E5, 0x20AC };
    uint8_t out[64];
    size_t n = 3, len = 0;
    enum encode_status st;
    c = lookup ("ISO-2022-JP");
    encoder_init (&e, c);
    st = c->encode (&e, text, &n, out, &len, sizeof out);
    len += c->flush (&e, out + len);
    encoder_release (&e);
    ok (st == ENCODE_UNENCODABLE && n == 2 && len == 9
        && memcmp (out, "a\x1b$BF|\x1b(B", 9) == 0,
        "ISO-2022-JP: stops at U+20AC; the flush returns to ASCII");
  }
  {
    struct encoder e;
    ucs4_t const text[] = { 0xD800 };
    uint8_t out[64];
    size_t n = 1, len = 0;
    c = lookup ("UTF-7");
    encoder_init (&e, c);
    ok (c->encode (&e, text, &n, out, &len, sizeof out) == ENCODE_UNENCODABLE
        && n == 0 && len == 0 && (c->flags & CODEC_UNICODE),
        "UTF-7: a Unicode form; a lone surrogate is never encodable");
    encoder_release (&e);
  }
  return done_testing ();
}
