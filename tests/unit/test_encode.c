/* Unit tests of the Unicode encoders: exact bytes and statuses, the
   room an encoder needs, a tight output buffer, and round trips through
   the decoders.  */

#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* Encoders.  */

static void
check_encode (char const *name, ucs4_t const *cp, size_t n,
              uint8_t const *want, size_t wantlen,
              enum encode_status want_st, size_t want_n, char const *desc)
{
  struct codec const *cd = codec (name);
  struct encoder e;
  uint8_t out[512];
  size_t count = n, outlen = 3;
  enum encode_status st;

  memcpy (out, "xyz", 3);
  encoder_init (&e, cd);
  st = cd->encode (&e, cp, &count, out, &outlen, sizeof out);
  if (!ok (st == want_st && count == want_n && outlen == 3 + wantlen
           && memcmp (out, "xyz", 3) == 0
           && (wantlen == 0 || memcmp (out + 3, want, wantlen) == 0),
           "encode %s: %s", name, desc))
    diag ("got status %d, n %zu, [%s]\nwant status %d, n %zu, [%s]",
          (int) st, count, hex (out + 3, outlen - 3), (int) want_st, want_n,
          hex (want, wantlen));
}

/* Every boundary value, and a few others.  */
static ucs4_t const text[] = {
  0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
  0x1F600, 0x10FFFF, 0x0A, 0xE9, 0x20AC, 0x42
};

/* The Unicode encoders.  */
static char const *const wide[] = {
  "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE",
  "UTF-32"
};

/* UTF-8: each boundary, and the lone surrogates it cannot hold.  */
static void
test_utf8_encode (void)
{
  check_encode ("UTF-8", VALS (0x00, 0x41, 0x7F), BYTES (0x00, 0x41, 0x7F),
                ENCODE_INPUT_EMPTY, 3, "ASCII");
  check_encode ("UTF-8", VALS (0x80), BYTES (0xC2, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+0080");
  check_encode ("UTF-8", VALS (0x7FF), BYTES (0xDF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+07FF");
  check_encode ("UTF-8", VALS (0x800), BYTES (0xE0, 0xA0, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+0800");
  check_encode ("UTF-8", VALS (0xD7FF), BYTES (0xED, 0x9F, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+D7FF");
  check_encode ("UTF-8", VALS (0xE000), BYTES (0xEE, 0x80, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+E000");
  check_encode ("UTF-8", VALS (0xFFFF), BYTES (0xEF, 0xBF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+FFFF");
  check_encode ("UTF-8", VALS (0x10000), BYTES (0xF0, 0x90, 0x80, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+10000");
  check_encode ("UTF-8", VALS (0x10FFFF), BYTES (0xF4, 0x8F, 0xBF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+10FFFF");
  check_encode ("UTF-8", VALS (0xFEFF), BYTES (0xEF, 0xBB, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+FEFF");
  check_encode ("UTF-8", VALS (0x41, 0xD800, 0x42), BYTES (0x41),
                ENCODE_UNENCODABLE, 1, "lone D800 is unencodable at index 1");
  check_encode ("UTF-8", VALS (0xDFFF), NULL, 0, ENCODE_UNENCODABLE, 0,
                "lone DFFF is unencodable at index 0");
  check_encode ("UTF-8", VALS (0xE9, 0x20AC, 0xDC80), BYTES (0xC3, 0xA9,
                                                            0xE2, 0x82,
                                                            0xAC),
                ENCODE_UNENCODABLE, 2, "DC80 is unencodable at index 2");
  check_encode ("UTF-8", NULL, 0, NULL, 0, ENCODE_INPUT_EMPTY, 0,
                "no values");
}

/* UTF-16 and UTF-32: pairs, lone surrogates as units, byte orders.  */
static void
test_utf16_utf32_encode (void)
{
  check_encode ("UTF-16LE", VALS (0x41, 0x20AC, 0xFFFF),
                BYTES (0x41, 0x00, 0xAC, 0x20, 0xFF, 0xFF),
                ENCODE_INPUT_EMPTY, 3, "BMP");
  check_encode ("UTF-16LE", VALS (0x10000, 0x1F600, 0x10FFFF),
                BYTES (0x00, 0xD8, 0x00, 0xDC, 0x3D, 0xD8, 0x00, 0xDE,
                       0xFF, 0xDB, 0xFF, 0xDF),
                ENCODE_INPUT_EMPTY, 3, "supplementary as pairs");
  check_encode ("UTF-16LE", VALS (0xD800, 0x41, 0xDC80),
                BYTES (0x00, 0xD8, 0x41, 0x00, 0x80, 0xDC),
                ENCODE_INPUT_EMPTY, 3, "lone surrogates as units");
  check_encode ("UTF-16BE", VALS (0x41, 0x1F600, 0xDBFF),
                BYTES (0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00, 0xDB, 0xFF),
                ENCODE_INPUT_EMPTY, 3, "BMP, pair, lone unit");
  check_encode ("UTF-16", VALS (0x41, 0x10FFFF),
                BYTES (0x41, 0x00, 0xFF, 0xDB, 0xFF, 0xDF),
                ENCODE_INPUT_EMPTY, 2,
                "unmarked: little-endian, no BOM from the encoder");
  check_encode ("UTF-32LE", VALS (0x41, 0x1F600, 0x10FFFF, 0xD800),
                BYTES (0x41, 0, 0, 0, 0x00, 0xF6, 0x01, 0, 0xFF, 0xFF, 0x10,
                       0, 0x00, 0xD8, 0, 0),
                ENCODE_INPUT_EMPTY, 4, "units, lone surrogate as a unit");
  check_encode ("UTF-32BE", VALS (0x41, 0x1F600, 0xDFFF),
                BYTES (0, 0, 0, 0x41, 0, 0x01, 0xF6, 0x00, 0, 0, 0xDF,
                       0xFF),
                ENCODE_INPUT_EMPTY, 3, "units");
  check_encode ("UTF-32", VALS (0xFEFF, 0x41),
                BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                ENCODE_INPUT_EMPTY, 2, "unmarked: little-endian");
}

/* Output room: less than MAX_ENCODED left is "full".  */
static void
test_encode_room (void)
{
  struct codec const *u8 = codec ("UTF-8");
  struct encoder e;
  uint8_t out[256];
  size_t count, outlen;
  enum encode_status st;

  encoder_init (&e, u8);
  count = 3;
  outlen = 10;
  st = u8->encode (&e, text, &count, out, &outlen, 10 + MAX_ENCODED - 1);
  ok (st == ENCODE_OUTPUT_FULL && count == 0 && outlen == 10,
      "encode: cap - outlen = MAX_ENCODED - 1 gives ENCODE_OUTPUT_FULL "
      "at once");
  count = 3;
  outlen = 10;
  st = u8->encode (&e, text, &count, out, &outlen, 10 + MAX_ENCODED);
  ok (st == ENCODE_OUTPUT_FULL && count == 1 && outlen == 11,
      "encode: room for exactly one value: one value, then full "
      "(got n %zu outlen %zu)", count, outlen);
  count = 5;
  outlen = 0;
  st = u8->encode (&e, text, &count, out, &outlen, 4 + MAX_ENCODED);
  ok (st == ENCODE_OUTPUT_FULL && count == 4 && outlen == 6,
      "encode: stops when less than MAX_ENCODED is left (got n %zu "
      "outlen %zu)", count, outlen);
}

/* Driving an encoder with a tight output gives the same bytes.  */
static void
test_encode_tight (void)
{
  struct encoder e;
  uint8_t out[256], one[256];
  size_t count, outlen, onelen, i;
  enum encode_status st;
  bool good;

  for (i = 0; i < COUNT (wide); i++)
    {
      struct codec const *cd = codec (wide[i]);
      size_t done = 0, calls = 0;
      encoder_init (&e, cd);
      count = COUNT (text);
      onelen = 0;
      st = cd->encode (&e, text, &count, one, &onelen, sizeof one);
      good = st == ENCODE_INPUT_EMPTY && count == COUNT (text);
      encoder_init (&e, cd);
      outlen = 0;
      while (good && done < COUNT (text) && calls++ < 100)
        {
          count = COUNT (text) - done;
          st = cd->encode (&e, text + done, &count, out, &outlen,
                           outlen + MAX_ENCODED + (calls % 3));
          done += count;
          good = st == (done < COUNT (text) ? ENCODE_OUTPUT_FULL
                        : ENCODE_INPUT_EMPTY);
        }
      if (cd->flush)
        outlen += cd->flush (&e, out + outlen);
      ok (good && done == COUNT (text) && outlen == onelen
          && memcmp (out, one, onelen) == 0,
          "encode %s: a tight output buffer gives the same bytes", wide[i]);
    }
}

/* Round trip: every boundary value through every encoder and back.  */
static void
test_encode_round_trip (void)
{
  struct codec const *u8 = codec ("UTF-8");
  struct encoder e;
  uint8_t out[256];
  size_t count, outlen, i;

  for (i = 0; i < COUNT (wide); i++)
    {
      struct codec const *cd = codec (wide[i]);
      struct collect c;
      struct sb want = { NULL, 0, 0 };
      size_t k;
      encoder_init (&e, cd);
      count = COUNT (text);
      outlen = 0;
      if (strcmp (wide[i], "UTF-16") == 0 || strcmp (wide[i], "UTF-32") == 0)
        {
          /* Unmarked output is little-endian: give the decoder a BOM.  */
          ucs4_t bom = 0xFEFF;
          size_t nb = 1;
          cd->encode (&e, &bom, &nb, out, &outlen, sizeof out);
          sb_printf (&want, "FEFF");
        }
      cd->encode (&e, text, &count, out, &outlen, sizeof out);
      for (k = 0; k < COUNT (text); k++)
        sb_printf (&want, "%s%" PRIX32, want.len ? " " : "", text[k]);
      decode_whole (&c, cd, false, out, outlen);
      if (!ok (strcmp (sb_str (&c.plain), sb_str (&want)) == 0,
               "%s: encode then decode gives the values back", wide[i]))
        diag ("got  %s\nwant %s", sb_str (&c.plain), sb_str (&want));
      collect_free (&c);
      sb_free (&want);
    }

  ok (u8->flush == NULL || u8->flush (&e, out) == 0,
      "UTF-8 encoder holds nothing back");
  encoder_init (&e, codec ("UTF-16LE"));
  ok (e.pending == 0 && e.codec == codec ("UTF-16LE"),
      "encoder_init sets the codec and nothing pending");
}

int
main (void)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  test_utf8_encode ();
  test_utf16_utf32_encode ();
  test_encode_room ();
  test_encode_tight ();
  test_encode_round_trip ();
  return done_testing ();
}
