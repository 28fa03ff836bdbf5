/* Unit tests of the single-byte codecs: ISO-8859-1, US-ASCII, CP1252.

   Every byte is decoded and every value from U+0000 to U+10FFFF (lone
   surrogates included) is encoded, so that each table is checked both
   ways in full.  CP1252 is also compared with the WHATWG Encoding
   Standard's own index-windows-1252.txt, read from $UTF8CONV_TESTDATA
   (default ../shared/testdata): the test is skipped when it is absent.  */

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"

/* The reference mappings, written out independently of the generated
   tables: bytes 80..9F of CP1252 (A0..FF are ISO-8859-1).  */
static ucs4_t const cp1252_80_9f[32] = {
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178
};

/* The value of byte B in encoding NAME, or -1 if B is ill-formed.  */
static long
reference (char const *name, unsigned int b)
{
  if (strcmp (name, "US-ASCII") == 0)
    return b < 0x80 ? (long) b : -1;
  if (strcmp (name, "CP1252") == 0 && 0x80 <= b && b < 0xA0)
    return (long) cp1252_80_9f[b - 0x80];
  return (long) b;
}

/* Decode the one byte B; returns the value, or -1 after an error of
   exactly that byte as an invalid byte, or -2 on anything else.  */
static long
decode_byte (struct codec const *c, uint8_t b)
{
  struct decoder d;
  ucs4_t cp[4];
  int64_t off[4];
  uint8_t nb[4];
  struct pivot p = { cp, off, nb, 0, 4 };
  size_t len = 1;
  enum decode_status st;
  long r = -2;

  decoder_init (&d, c);
  st = c->decode (&d, &b, &len, true, &p);
  if (st == DECODE_INPUT_EMPTY && len == 1 && p.len == 1 && off[0] == 0)
    r = (long) cp[0];
  else if (st == DECODE_MALFORMED && len == 1 && p.len == 0
           && d.error.len == 1 && d.error.bytes[0] == b
           && d.error.kind == ERR_INVALID_BYTE && d.error.rel_offset == 0)
    r = -1;
  decoder_release (&d);
  return r;
}

/* Encode the value V; returns the byte, or -1 when it is unencodable,
   or -2 on anything else.  */
static int
encode_value (struct codec const *c, ucs4_t v)
{
  struct encoder e;
  uint8_t out[MAX_ENCODED];
  size_t n = 1, len = 0;
  enum encode_status st;
  int r = -2;

  encoder_init (&e, c);
  st = c->encode (&e, &v, &n, out, &len, sizeof out);
  if (st == ENCODE_INPUT_EMPTY && n == 1 && len == 1)
    r = out[0];
  else if (st == ENCODE_UNENCODABLE && n == 0 && len == 0)
    r = -1;
  if (c->flush && r >= -1 && c->flush (&e, out) != 0)
    r = -2;
  encoder_release (&e);
  return r;
}

static void
test_codec (char const *name)
{
  struct codec const *c = codec (name);
  int byte_of[0x10000];
  unsigned int b, bad = 0;
  ucs4_t v;

  ok (!(c->flags & (CODEC_UNICODE | CODEC_WIDE_UNITS | CODEC_BOM_ALWAYS
                    | CODEC_KEEPS_SURROGATES | CODEC_STATEFUL))
      && (c->flags & CODEC_SINGLE_BYTE) && c->flush == NULL,
      "%s: a legacy single-byte codec", name);

  /* Decoding, byte by byte.  */
  for (v = 0; v < 0x10000; v++)
    byte_of[v] = -1;
  for (b = 0; b < 256; b++)
    {
      long got = decode_byte (c, (uint8_t) b), want = reference (name, b);
      if (got != want)
        {
          if (bad++ < 5)
            diag ("%s: byte %02X decodes to %ld, not %ld", name, b, got,
                  want);
        }
      if (want >= 0)
        byte_of[want] = (int) b;
    }
  ok (bad == 0, "%s: all 256 bytes decode as the reference says", name);

  /* Decoding all 256 bytes in one call: the same values, one per byte
     (or an error), at the right offsets.  */
  {
    uint8_t all[256];
    ucs4_t cp[256];
    int64_t off[256];
    uint8_t nb[256];
    struct decoder d;
    size_t pos = 0, got = 0;
    bool same = true;
    for (b = 0; b < 256; b++)
      all[b] = (uint8_t) b;
    decoder_init (&d, c);
    while (pos < 256 && same)
      {
        struct pivot p = { cp + got, off + got, nb + got, 0, 256 - got };
        size_t len = 256 - pos;
        enum decode_status st = c->decode (&d, all + pos, &len, true, &p);
        size_t k;
        for (k = 0; k < p.len; k++)
          same &= (long) p.cp[k] == reference (name, (unsigned int)
                                               (pos + (size_t) p.off[k]))
                  && reference (name, (unsigned int) (pos + (size_t)
                                                      p.off[k])) >= 0;
        got += p.len;
        if (st == DECODE_MALFORMED)
          same &= reference (name, (unsigned int) (pos + len - 1)) < 0
                  && d.error.len == 1;
        else
          same &= st == DECODE_INPUT_EMPTY && len == 256 - pos;
        pos += len;
      }
    decoder_release (&d);
    ok (same && pos == 256, "%s: the 256 bytes in one buffer", name);
  }

  /* Encoding every value: the byte that decodes to it, or unencodable.  */
  bad = 0;
  for (v = 0; v <= 0x10FFFF; v++)
    {
      int want = v < 0x10000 ? byte_of[v] : -1;
      int got = encode_value (c, v);
      if (got != want && bad++ < 5)
        diag ("%s: U+%04lX encodes to %d, not %d", name, (unsigned long) v,
              got, want);
    }
  ok (bad == 0, "%s: every value U+0000..U+10FFFF encodes as the reference"
      " says (lone surrogates unencodable)", name);
}

/* Compare CP1252 with WHATWG's index-windows-1252.txt.  */
static void
test_whatwg_index (void)
{
  char const *dir = getenv ("UTF8CONV_TESTDATA");
  char path[4096], line[512];
  long index[128];
  FILE *f;
  unsigned int i, bad = 0, seen = 0;
  struct codec const *c = codec ("CP1252");

  snprintf (path, sizeof path, "%s/index-windows-1252.txt",
            dir && *dir ? dir : "../shared/testdata");
  f = fopen (path, "r");
  if (!f)
    {
      printf ("ok %d # SKIP %s not found (set UTF8CONV_TESTDATA)\n",
              ++tap_count, path);
      return;
    }
  for (i = 0; i < 128; i++)
    index[i] = -1;
  while (fgets (line, sizeof line, f))
    {
      unsigned int pointer;
      unsigned long code;
      if (line[0] == '#')
        continue;
      if (sscanf (line, " %u 0x%lx", &pointer, &code) == 2 && pointer < 128)
        {
          index[pointer] = (long) code;
          seen++;
        }
    }
  fclose (f);
  for (i = 0; i < 128; i++)
    {
      long got = decode_byte (c, (uint8_t) (0x80 + i));
      int back = index[i] >= 0 ? encode_value (c, (ucs4_t) index[i]) : -3;
      if (got != index[i] || back != (int) (0x80 + i))
        if (bad++ < 5)
          diag ("pointer %u: index says U+%04lX, CP1252 decodes %ld and "
                "encodes it back to %d", i, (unsigned long) index[i], got,
                back);
    }
  ok (seen == 128 && bad == 0,
      "CP1252 agrees with WHATWG's index-windows-1252.txt both ways "
      "(%u entries)", seen);
}

static void
test_names (void)
{
  static struct
  {
    char const *name, *canonical;
  } const names[] = {
    { "ISO-8859-1", "ISO-8859-1" }, { "latin1", "ISO-8859-1" },
    { "L1", "ISO-8859-1" }, { "iso8859-1", "ISO-8859-1" },
    { "ISO_8859-1", "ISO-8859-1" },
    { "US-ASCII", "US-ASCII" }, { "ascii", "US-ASCII" },
    { "ANSI_X3.4-1968", "US-ASCII" },
    { "CP1252", "CP1252" }, { "windows-1252", "CP1252" },
  };
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      struct codec const *c = registry_find (names[i].name);
      ok (c && strcmp (c->name, names[i].canonical) == 0,
          "registry_find (\"%s\") is %s", names[i].name,
          names[i].canonical);
    }
}

/* The spot checks the SPEC names.  */
static void
test_spec_examples (void)
{
  struct codec const *c = codec ("CP1252");
  static uint8_t const undefined[] = { 0x81, 0x8D, 0x8F, 0x90, 0x9D };
  size_t i;
  bool all = true;
  ok (decode_byte (c, 0x80) == 0x20AC && encode_value (c, 0x20AC) == 0x80,
      "CP1252: 80 is U+20AC (euro sign) both ways");
  for (i = 0; i < sizeof undefined; i++)
    all &= (decode_byte (c, undefined[i]) == undefined[i]
            && encode_value (c, undefined[i]) == undefined[i]);
  ok (all, "CP1252: 81 8D 8F 90 9D are U+0081 U+008D U+008F U+0090 U+009D"
      " both ways (WHATWG)");
  ok (encode_value (codec ("ISO-8859-1"), 0x20AC) == -1
      && encode_value (codec ("US-ASCII"), 0xE9) == -1
      && encode_value (codec ("CP1252"), 0xDC80) == -1,
      "unencodable characters are left to the policy layer");
  ok (decode_byte (codec ("US-ASCII"), 0x80) == -1
      && decode_byte (codec ("US-ASCII"), 0xFF) == -1,
      "US-ASCII: bytes 80..FF are one-byte invalid-byte errors");
}

int
main (void)
{
  test_codec ("ISO-8859-1");
  test_codec ("US-ASCII");
  test_codec ("CP1252");
  test_whatwg_index ();
  test_names ();
  test_spec_examples ();
  return done_testing ();
}
