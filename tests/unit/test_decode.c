/* Unit tests of the Unicode decoders: UTF-8, UTF-16 and UTF-32 (each
   byte order, and unmarked with a BOM or without), the step contract of
   codec.h, and split invariance across all of them.

   Every decoder test runs the same input under many ways of splitting it
   into buffers (whole, byte by byte, at every split point, with empty
   buffers in between, with a pivot of one value) and checks that they
   all give the same values and errors (helpers.h gives the text form of
   a decode).  Every input of these tests is then run again under every
   decoder, and so are pseudo-random ones.

   The expected values follow Unicode 15 §3.9 (maximal subparts) and
   Python 3's codecs (checked with python3 when the tests were written);
   they are written out here, never computed by a second decoder.  */

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
/* Every decoder configuration, and every input the fixed tests used.  */

struct config
{
  char const *codec;
  bool lone_ok;
};

static struct config const configs[] = {
  { "UTF-8", false }, { "UTF-8", true },
  { "UTF-16LE", false }, { "UTF-16LE", true },
  { "UTF-16BE", false }, { "UTF-16BE", true },
  { "UTF-16", false }, { "UTF-16", true },
  { "UTF-32LE", false }, { "UTF-32LE", true },
  { "UTF-32BE", false }, { "UTF-32BE", true },
  { "UTF-32", false }, { "UTF-32", true },
};

struct saved_input
{
  uint8_t *bytes;
  size_t n;
};

static struct saved_input saved[2048];
static size_t nsaved;

static void
save_input (uint8_t const *in, size_t n)
{
  size_t i;
  for (i = 0; i < nsaved; i++)
    if (saved[i].n == n && memcmp (saved[i].bytes, in, n) == 0)
      return;
  if (nsaved == COUNT (saved) || n > 64)
    return;
  saved[nsaved].bytes = malloc (n + 1);
  if (!saved[nsaved].bytes)
    abort ();
  memcpy (saved[nsaved].bytes, in, n);
  saved[nsaved].n = n;
  nsaved++;
}

/* Check IN under every decoder configuration: splits agree and the
   values cover the input.  */
static bool
all_decoders_agree (uint8_t const *in, size_t n, struct sb *why)
{
  size_t k;
  for (k = 0; k < COUNT (configs); k++)
    {
      struct codec const *cd = codec (configs[k].codec);
      struct collect ref;
      bool good;
      decode_whole (&ref, cd, configs[k].lone_ok, in, n);
      good = splits_agree (cd, configs[k].lone_ok, in, n, sb_str (&ref.full),
                           why)
             && covers_input (cd, configs[k].lone_ok, in, n, why)
             && strchr (sb_str (&ref.full), '?') == NULL;
      if (!good && why->len == 0)
        sb_printf (why, "%s: contract broken: %s", cd->name,
                   sb_str (&ref.full));
      collect_free (&ref);
      if (!good)
        return false;
    }
  return true;
}

/* Decode IN with codec NAME and compare with WANT.  If an item of WANT
   that is a value carries an offset ("61@0"), offsets of values are
   compared too.  Then check that all split patterns agree.  */
static void
check_decode (char const *name, bool lone_ok, uint8_t const *in, size_t n,
              char const *want, char const *desc)
{
  struct codec const *cd = codec (name);
  struct collect c;
  struct sb why = { NULL, 0, 0 };
  bool offsets = false;
  char const *p;
  char const *got;

  for (p = want; *p; )
    {
      size_t len = strcspn (p, " ");
      if (*p != '!' && memchr (p, '@', len))
        offsets = true;
      p += len;
      p += strspn (p, " ");
    }
  decode_whole (&c, cd, lone_ok, in, n);
  got = offsets ? sb_str (&c.full) : sb_str (&c.plain);
  if (!ok (strcmp (got, want) == 0, "%s%s: %s: [%s]", name,
           lone_ok ? " (lone surrogates ok)" : "", desc, hex (in, n)))
    diag ("got  %s\nwant %s", got, want);
  if (!ok (splits_agree (cd, lone_ok, in, n, sb_str (&c.full), &why),
           "%s%s: %s: every split gives the same", name,
           lone_ok ? " (lone surrogates ok)" : "", desc))
    diag ("%s", sb_str (&why));
  collect_free (&c);
  sb_free (&why);
  save_input (in, n);
}

/* ------------------------------------------------------------------ */
/* UTF-8 decoding.  */

/* Each boundary of the lengths and of the surrogates.  */
static struct
{
  uint8_t b[4];
  size_t n;
  char const *want;
} const utf8_boundaries[] = {
  { { 0x7F }, 1, "7F" },
  { { 0xC2, 0x80 }, 2, "80" },
  { { 0xDF, 0xBF }, 2, "7FF" },
  { { 0xE0, 0xA0, 0x80 }, 3, "800" },
  { { 0xED, 0x9F, 0xBF }, 3, "D7FF" },
  { { 0xEE, 0x80, 0x80 }, 3, "E000" },
  { { 0xEF, 0xBF, 0xBF }, 3, "FFFF" },
  { { 0xF0, 0x90, 0x80, 0x80 }, 4, "10000" },
  { { 0xF4, 0x8F, 0xBF, 0xBF }, 4, "10FFFF" },
  { { 0xF4, 0x90, 0x80, 0x80 }, 4,
    "!F4@0:BIG !90@1:CONT !80@2:CONT !80@3:CONT" },
};

/* Overlong forms, and the 5- and 6-byte forms of old.  */
static struct
{
  uint8_t b[6];
  size_t n;
  char const *want;
} const utf8_overlongs[] = {
  { { 0xC0, 0x80 }, 2, "!C0@0:OVERLONG !80@1:CONT" },
  { { 0xC1, 0xBF }, 2, "!C1@0:OVERLONG !BF@1:CONT" },
  { { 0xC0, 0xAF }, 2, "!C0@0:OVERLONG !AF@1:CONT" },
  { { 0xE0, 0x80, 0x80 }, 3, "!E0@0:OVERLONG !80@1:CONT !80@2:CONT" },
  { { 0xE0, 0x9F, 0xBF }, 3, "!E0@0:OVERLONG !9F@1:CONT !BF@2:CONT" },
  { { 0xE0, 0x80, 0xAF }, 3, "!E0@0:OVERLONG !80@1:CONT !AF@2:CONT" },
  { { 0xF0, 0x80, 0x80, 0x80 }, 4,
    "!F0@0:OVERLONG !80@1:CONT !80@2:CONT !80@3:CONT" },
  { { 0xF0, 0x8F, 0xBF, 0xBF }, 4,
    "!F0@0:OVERLONG !8F@1:CONT !BF@2:CONT !BF@3:CONT" },
  { { 0xF8, 0x88, 0x80, 0x80, 0x80 }, 5,
    "!F8@0:BIG !88@1:CONT !80@2:CONT !80@3:CONT !80@4:CONT" },
  { { 0xFC, 0x84, 0x80, 0x80, 0x80, 0x80 }, 6,
    "!FC@0:BIG !84@1:CONT !80@2:CONT !80@3:CONT !80@4:CONT !80@5:CONT" },
};

/* Sequences cut short, at the end and before another character.  */
static struct
{
  uint8_t b[6];
  size_t n;
  char const *want;
} const utf8_truncated[] = {
  { { 0x61, 0xC2 }, 2, "61@0 !C2@1:TRUNC" },
  { { 0x61, 0xDF }, 2, "61@0 !DF@1:TRUNC" },
  { { 0x61, 0xE1 }, 2, "61@0 !E1@1:TRUNC" },
  { { 0x61, 0xE1, 0x80 }, 3, "61@0 !E1.80@1:TRUNC" },
  { { 0x61, 0xE0, 0xA0 }, 3, "61@0 !E0.A0@1:TRUNC" },
  { { 0x61, 0xED, 0x9F }, 3, "61@0 !ED.9F@1:TRUNC" },
  { { 0x61, 0xEF, 0xBF }, 3, "61@0 !EF.BF@1:TRUNC" },
  { { 0x61, 0xF1 }, 2, "61@0 !F1@1:TRUNC" },
  { { 0x61, 0xF1, 0x80 }, 3, "61@0 !F1.80@1:TRUNC" },
  { { 0x61, 0xF1, 0x80, 0x80 }, 4, "61@0 !F1.80.80@1:TRUNC" },
  { { 0x61, 0xF0, 0x90, 0x80 }, 4, "61@0 !F0.90.80@1:TRUNC" },
  { { 0x61, 0xF4, 0x8F, 0xBF }, 4, "61@0 !F4.8F.BF@1:TRUNC" },
  { { 0xF0, 0x90, 0x80, 0x41 }, 4, "!F0.90.80@0:TRUNC 41@3" },
  { { 0xE1, 0x80, 0xF1, 0x80, 0x80, 0xC2 }, 6,
    "!E1.80@0:TRUNC !F1.80.80@2:TRUNC !C2@5:TRUNC" },
  { { 0xE1, 0x80, 0xE1, 0x80, 0x80 }, 5,
    "!E1.80@0:TRUNC 1000@2" },
  { { 0xC2, 0xC2, 0x80 }, 3, "!C2@0:TRUNC 80@1" },
};

/* The fixed UTF-8 cases: Table 3-8, the tables above, surrogates,
   noncharacters, a BOM, impossible bytes.  */
static void
test_utf8_decode (void)
{
  size_t i;

  check_decode ("UTF-8", false,
                BYTES (0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80,
                       0x63, 0x80, 0xBF, 0x64),
                "61@0 !F1.80.80@1:TRUNC !E1.80@4:TRUNC !C2@6:TRUNC 62@7 "
                "!80@8:CONT 63@9 !80@10:CONT !BF@11:CONT 64@12",
                "Unicode Table 3-8 example");
  check_decode ("UTF-8", false, STR (""), "", "empty input");
  check_decode ("UTF-8", false, STR ("a\0b\n"), "61@0 0@1 62@2 A@3",
                "ASCII with NUL and newline");
  check_decode ("UTF-8", false,
                BYTES (0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80,
                       0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xEF, 0xBF, 0xBF,
                       0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF),
                "7F@0 80@1 7FF@3 800@5 D7FF@8 E000@11 FFFF@14 10000@17 "
                "10FFFF@21", "every boundary in a row, with offsets");
  for (i = 0; i < COUNT (utf8_boundaries); i++)
    check_decode ("UTF-8", false, utf8_boundaries[i].b, utf8_boundaries[i].n,
                  utf8_boundaries[i].want, "boundary");
  for (i = 0; i < COUNT (utf8_overlongs); i++)
    check_decode ("UTF-8", false, utf8_overlongs[i].b, utf8_overlongs[i].n,
                  utf8_overlongs[i].want, "overlong");
  check_decode ("UTF-8", false, BYTES (0xED, 0xA0, 0x80),
                "!ED@0:SURR !A0@1:CONT !80@2:CONT", "surrogate D800");
  check_decode ("UTF-8", false, BYTES (0xED, 0xBF, 0xBF),
                "!ED@0:SURR !BF@1:CONT !BF@2:CONT", "surrogate DFFF");
  check_decode ("UTF-8", true, BYTES (0xED, 0xA0, 0x80),
                "!ED@0:SURR !A0@1:CONT !80@2:CONT",
                "lone_surrogates_ok does not make UTF-8 surrogates valid");
  check_decode ("UTF-8", false,
                BYTES (0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
                "!ED@0:SURR !A0@1:CONT !BD@2:CONT !ED@3:SURR !B8@4:CONT "
                "!80@5:CONT", "surrogate pair D83D DE00 (CESU-8 form)");
  for (i = 0; i < COUNT (utf8_truncated); i++)
    check_decode ("UTF-8", false, utf8_truncated[i].b, utf8_truncated[i].n,
                  utf8_truncated[i].want, "truncated");
  check_decode ("UTF-8", false, BYTES (0xEF, 0xBF, 0xBE, 0xEF, 0xBF, 0xBF,
                                        0xEF, 0xB7, 0x90, 0xF4, 0x8F, 0xBF,
                                        0xBE),
                "FFFE@0 FFFF@3 FDD0@6 10FFFE@9", "noncharacters are valid");
  check_decode ("UTF-8", false, BYTES (0xEF, 0xBB, 0xBF, 0x41),
                "FEFF@0 41@3", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-8", false, BYTES (0xFE, 0xFF, 0xC0, 0xC1, 0xF5, 0xFD),
                "!FE@0:INVALID !FF@1:INVALID !C0@2:OVERLONG !C1@3:OVERLONG "
                "!F5@4:BIG !FD@5:BIG", "impossible bytes");
}

/* Each byte 80..FF alone, followed by 80, and followed by 41; and the
   decoder's count of newlines.  */
static void
test_utf8_lead_bytes (void)
{
  int b;
  struct collect c;

  for (b = 0x80; b <= 0xFF; b++)
    {
      char const *kind = (b < 0xC0 ? "CONT" : b < 0xC2 ? "OVERLONG"
                          : b < 0xF5 ? "TRUNC" : b < 0xFE ? "BIG"
                          : "INVALID");
      char want[64];
      char desc[64];
      uint8_t in[2];

      in[0] = (uint8_t) b;
      snprintf (want, sizeof want, "!%02X@0:%s", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X alone", b);
      check_decode ("UTF-8", false, in, 1, want, desc);

      in[1] = 0x41;
      snprintf (want, sizeof want, "!%02X@0:%s 41@1", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X then 41", b);
      check_decode ("UTF-8", false, in, 2, want, desc);

      in[1] = 0x80;
      if (0xC2 <= b && b <= 0xDF)
        snprintf (want, sizeof want, "%X@0", (b & 0x1F) << 6);
      else if (b == 0xE0 || b == 0xF0)
        snprintf (want, sizeof want, "!%02X@0:OVERLONG !80@1:CONT", b);
      else if (0xE1 <= b && b <= 0xF4)
        snprintf (want, sizeof want, "!%02X.80@0:TRUNC", b);
      else
        snprintf (want, sizeof want, "!%02X@0:%s !80@1:CONT", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X then 80", b);
      check_decode ("UTF-8", false, in, 2, want, desc);
    }

  /* Newlines are counted in the decoder.  */
  decode_whole (&c, codec ("UTF-8"), false, STR ("\n\na\n\xC2\x85\n"));
  ok (c.dec.newlines == 4, "UTF-8: decoder counts 4 newlines (got %"
      PRIu64 ")", c.dec.newlines);
  collect_free (&c);
}

/* ------------------------------------------------------------------ */
/* UTF-16 decoding.  */

/* UTF-16LE: pairs, lone surrogates everywhere, odd bytes; and with lone
   surrogates allowed.  */
static void
test_utf16le_decode (void)
{
  check_decode ("UTF-16LE", false,
                BYTES (0x41, 0x00, 0xE9, 0x00, 0xAC, 0x20, 0xFF, 0xFF),
                "41@0 E9@2 20AC@4 FFFF@6", "BMP characters");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xD8, 0x00, 0xDC, 0x3D, 0xD8, 0x00, 0xDE,
                       0xFF, 0xDB, 0xFF, 0xDF),
                "10000@0 1F600@4 10FFFF@8", "surrogate pairs");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xD7, 0x00, 0xE0),
                "D7FF@0 E000@2", "around the surrogates");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x41, 0x00),
                "!00.D8@0:LONE 41@2", "lone high then a non-surrogate");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xD8, 0x00, 0xD8, 0x00, 0xDC),
                "!00.D8@0:LONE 10000@2", "high, high, low");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x00, 0xE0),
                "!00.D8@0:LONE E000@2", "high then E000");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xDB, 0xFF, 0xD7),
                "!FF.DB@0:LONE D7FF@2", "high then D7FF");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xDC, 0x41, 0x00),
                "!00.DC@0:LONE 41@2", "lone low");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0xFF, 0xDF),
                "41@0 !FF.DF@2:LONE", "lone low at the end");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xDC, 0x00, 0xD8, 0x00, 0xDC),
                "!00.DC@0:LONE 10000@2", "low, high, low");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xDC, 0x00, 0xD8),
                "!00.DC@0:LONE !00.D8@2:TRUNC", "low, then high at the end");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0x00, 0xD8),
                "41@0 !00.D8@2:TRUNC", "high at the end (2 bytes)");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x41),
                "!00.D8.41@0:TRUNC", "high and one byte at the end");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x00),
                "!00.D8.00@0:TRUNC", "high and 00 at the end");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0x42),
                "41@0 !42@2:TRUNC", "odd trailing byte");
  check_decode ("UTF-16LE", false, BYTES (0x41), "!41@0:TRUNC",
                "a single byte");
  check_decode ("UTF-16LE", false, STR (""), "", "empty input");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "FEFF@0 41@2", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-16LE", false, BYTES (0xFE, 0xFF, 0x41, 0x00),
                "FFFE@0 41@2", "FE FF is U+FFFE in little-endian");

  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x41, 0x00),
                "D800@0 41@2", "lone high passes");
  check_decode ("UTF-16LE", true, BYTES (0x41, 0x00, 0x00, 0xD8),
                "41@0 D800@2", "high at the very end passes");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xDC, 0x80, 0xDC),
                "DC00@0 DC80@2", "lone lows pass");
  check_decode ("UTF-16LE", true,
                BYTES (0x00, 0xDC, 0x00, 0xD8, 0x00, 0xDC),
                "DC00@0 10000@2", "pairs are still joined");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x41),
                "D800@0 !41@2:TRUNC", "high then odd byte");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x00, 0xD8),
                "D800@0 D800@2", "two highs");
}

/* UTF-16BE, and unmarked UTF-16: the BOM decides, else the NUL pattern
   (SPEC §6), else big-endian.  */
static void
test_utf16_decode (void)
{
  struct collect c;

  check_decode ("UTF-16BE", false,
                BYTES (0x00, 0x41, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00,
                       0xDB, 0xFF, 0xDF, 0xFF),
                "41@0 20AC@2 1F600@4 10FFFF@8", "BMP and pairs");
  check_decode ("UTF-16BE", false, BYTES (0xD8, 0x00, 0x00, 0x41),
                "!D8.00@0:LONE 41@2", "lone high then a non-surrogate");
  check_decode ("UTF-16BE", false, BYTES (0xDC, 0x00, 0x00, 0x41),
                "!DC.00@0:LONE 41@2", "lone low");
  check_decode ("UTF-16BE", false, BYTES (0x00, 0x41, 0xD8, 0x00),
                "41@0 !D8.00@2:TRUNC", "high at the end");
  check_decode ("UTF-16BE", false, BYTES (0xD8, 0x00, 0x00),
                "!D8.00.00@0:TRUNC", "high and one byte at the end");
  check_decode ("UTF-16BE", false, BYTES (0x00, 0x41, 0x42),
                "41@0 !42@2:TRUNC", "odd trailing byte");
  check_decode ("UTF-16BE", true, BYTES (0xD8, 0x00, 0x00, 0x41),
                "D800@0 41@2", "lone high passes");
  check_decode ("UTF-16BE", true, BYTES (0x00, 0x41, 0xDB, 0xFF),
                "41@0 DBFF@2", "high at the very end passes");

  check_decode ("UTF-16", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "FEFF@0 41@2", "FF FE: little-endian, BOM decoded");
  check_decode ("UTF-16", false, BYTES (0xFE, 0xFF, 0x00, 0x41),
                "FEFF@0 41@2", "FE FF: big-endian, BOM decoded");
  check_decode ("UTF-16", false, BYTES (0x00, 0x41, 0x00, 0x42),
                "41@0 42@2", "no BOM: NULs first, big-endian");
  check_decode ("UTF-16", false, BYTES (0x41, 0x00),
                "41@0", "no BOM: NULs second, little-endian (as iconv)");
  check_decode ("UTF-16", false, BYTES (0x68, 0x00, 0x69, 0x00, 0x0A, 0x00),
                "68@0 69@2 A@4", "no BOM: h i LF little-endian");
  check_decode ("UTF-16", false, BYTES (0x4E, 0x2D, 0x65, 0x87),
                "4E2D@0 6587@2", "no BOM and no NULs: big-endian");
  check_decode ("UTF-16", false,
                BYTES (0x41, 0x00, 0x00, 0x42, 0x43, 0x00, 0x00, 0x44),
                "4100@0 42@2 4300@4 44@6",
                "no BOM, NULs on both sides: big-endian");
  check_decode ("UTF-16", false, BYTES (0xFF, 0xFE, 0xFF, 0xFE),
                "FEFF@0 FEFF@2", "only the first unit decides");
  check_decode ("UTF-16", false,
                BYTES (0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8),
                "FEFF@0 1F600@2 !00.D8@6:TRUNC", "LE pair and a high at end");
  check_decode ("UTF-16", false, BYTES (0xFF), "!FF@0:TRUNC",
                "a single byte");
  /* The NUL pattern's counts are kept from call to call (unmarked.c):
     byte by byte, as at every other split, they decide as the whole
     window does.  */
  check_decode ("UTF-16", false,
                BYTES (0x3F, 0x04, 0x40, 0x04, 0x38, 0x04, 0x32, 0x04, 0x35,
                       0x04, 0x42, 0x04, 0x3C, 0x04, 0x38, 0x04, 0x40, 0x04),
                "43F@0 440@2 438@4 432@6 435@8 442@10 43C@12 438@14 440@16",
                "no BOM, Cyrillic without NULs: the script rule, "
                "little-endian, at every split");
  check_decode ("UTF-16", true, BYTES (0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x41),
                "FEFF@0 D800@2 41@4", "BE, lone high passes");

  decode_whole (&c, codec ("UTF-16"), false, BYTES (0xFF, 0xFE, 0x41, 0x00));
  ok (c.dec.endian == ENDIAN_LITTLE, "UTF-16: FF FE sets the decoder "
      "little-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16"), false, BYTES (0xFE, 0xFF, 0x00, 0x41));
  ok (c.dec.endian == ENDIAN_BIG, "UTF-16: FE FF sets the decoder "
      "big-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16"), false, BYTES (0x41, 0x00));
  ok (c.dec.endian == ENDIAN_LITTLE, "UTF-16: no BOM, 41 00 sets the "
      "decoder little-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16"), false, BYTES (0x4E, 0x2D));
  ok (c.dec.endian == ENDIAN_BIG, "UTF-16: no BOM, no NUL sets the decoder "
      "big-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16LE"), false,
                BYTES (0x0A, 0x00, 0x0A, 0x20, 0x0A, 0x00));
  ok (c.dec.newlines == 2, "UTF-16LE: decoder counts 2 newlines (got %"
      PRIu64 ")", c.dec.newlines);
  collect_free (&c);
}

/* ------------------------------------------------------------------ */
/* UTF-32 decoding.  */

static void
test_utf32_decode (void)
{
  check_decode ("UTF-32LE", false,
                BYTES (0x41, 0, 0, 0, 0xFF, 0xD7, 0, 0, 0x00, 0xE0, 0, 0,
                       0x00, 0xF6, 0x01, 0, 0xFF, 0xFF, 0x10, 0),
                "41@0 D7FF@4 E000@8 1F600@12 10FFFF@16", "valid units");
  check_decode ("UTF-32LE", false, BYTES (0x00, 0x00, 0x11, 0x00),
                "!00.00.11.00@0:BIG", "110000");
  check_decode ("UTF-32LE", false, BYTES (0xFF, 0xFF, 0xFF, 0xFF, 0x41, 0,
                                           0, 0),
                "!FF.FF.FF.FF@0:BIG 41@4", "FFFFFFFF");
  check_decode ("UTF-32LE", true, BYTES (0x00, 0x00, 0x11, 0x00),
                "!00.00.11.00@0:BIG",
                "110000 even with lone surrogates ok");
  check_decode ("UTF-32LE", false, BYTES (0x00, 0xD8, 0, 0, 0xFF, 0xDF, 0,
                                           0),
                "!00.D8.00.00@0:SURR !FF.DF.00.00@4:SURR",
                "surrogate units");
  check_decode ("UTF-32LE", true, BYTES (0x00, 0xD8, 0, 0, 0xFF, 0xDF, 0,
                                          0),
                "D800@0 DFFF@4", "surrogate units pass");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42),
                "41@0 !42@4:TRUNC", "1-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42, 0),
                "41@0 !42.00@4:TRUNC", "2-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42, 0, 0),
                "41@0 !42.00.00@4:TRUNC", "3-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                "FEFF@0 41@4", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-32LE", false, STR (""), "", "empty input");

  check_decode ("UTF-32BE", false,
                BYTES (0, 0, 0, 0x41, 0, 0x01, 0xF6, 0x00, 0, 0x10, 0xFF,
                       0xFF),
                "41@0 1F600@4 10FFFF@8", "valid units");
  check_decode ("UTF-32BE", false, BYTES (0, 0x11, 0, 0),
                "!00.11.00.00@0:BIG", "110000");
  check_decode ("UTF-32BE", false, BYTES (0, 0, 0xDC, 0x80),
                "!00.00.DC.80@0:SURR", "surrogate unit");
  check_decode ("UTF-32BE", true, BYTES (0, 0, 0xDC, 0x80),
                "DC80@0", "surrogate unit passes");
  check_decode ("UTF-32BE", false, BYTES (0, 0, 0, 0x41, 0, 0),
                "41@0 !00.00@4:TRUNC", "2-byte tail");

  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                "FEFF@0 41@4", "FF FE 00 00: little-endian");
  check_decode ("UTF-32", false, BYTES (0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41),
                "FEFF@0 41@4", "00 00 FE FF: big-endian");
  check_decode ("UTF-32", false, BYTES (0, 0, 0, 0x41),
                "41@0", "no BOM: big-endian by the first unit");
  check_decode ("UTF-32", false, BYTES (0x41, 0, 0, 0),
                "41@0", "no BOM: little-endian by the first unit");
  check_decode ("UTF-32", false, BYTES (0, 0, 0, 0, 0x41, 0, 0, 0),
                "0@0 41@4", "no BOM: a NUL unit does not decide, the next "
                "does");
  check_decode ("UTF-32", false, BYTES (0x41, 0x42, 0x43, 0x44),
                "!41.42.43.44@0:BIG",
                "no BOM, no unit decides: big-endian");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "!FF.FE.41.00@0:BIG",
                "FF FE without 00 00 is not a UTF-32 BOM");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0x00, 0x01, 0x41, 0, 0,
                                        0),
                "!FF.FE.00.01@0:BIG 41@4",
                "FF FE 00 01 is not a BOM: the next unit says "
                "little-endian");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0),
                "!FF.FE.00@0:TRUNC", "3-byte input");
}

/* ------------------------------------------------------------------ */
/* Pivot and status details.  */

static void
test_decode_contract (void)
{
  ucs4_t cp[4] = { 0x1234, 0, 0, 0 };
  int64_t off[4] = { 77, 0, 0, 0 };
  uint8_t nb[4] = { 1, 0, 0, 0 };
  struct pivot p = { cp, off, nb, 1, 4 };
  struct decoder d;
  struct codec const *u8 = codec ("UTF-8");
  size_t n;
  enum decode_status st;

  decoder_init (&d, u8);
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "AB", &n, true, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 2 && p.len == 3 && cp[0] == 0x1234
      && off[0] == 77 && cp[1] == 'A' && off[1] == 0 && cp[2] == 'B'
      && off[2] == 1, "decode appends after the pivot's length");

  p.len = 4;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "CD", &n, true, &p);
  ok (st == DECODE_OUTPUT_FULL && n == 0 && p.len == 4,
      "a full pivot: DECODE_OUTPUT_FULL, nothing consumed");

  decoder_init (&d, u8);
  p.len = 0;
  n = 3;
  st = u8->decode (&d, (uint8_t const *) "A\xE2\x82", &n, false, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 3 && p.len == 1 && d.carry_len == 2,
      "a partial sequence at the end of a buffer is consumed and held");
  p.len = 0;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "\xAC" "B", &n, false, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 2 && p.len == 2 && cp[0] == 0x20AC
      && off[0] == -2 && cp[1] == 'B' && off[1] == 1 && d.carry_len == 0,
      "it is finished by the next buffer, at a negative offset");

  decoder_init (&d, u8);
  p.len = 0;
  n = 2;
  /* The first two bytes of a 4-byte sequence: held, nothing to check.  */
  (void) u8->decode (&d, (uint8_t const *) "\xF1\x80", &n, false, &p);
  p.len = 0;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "\x80" "A", &n, false, &p);
  ok (st == DECODE_MALFORMED && d.error.len == 3 && d.error.rel_offset == -2
      && d.error.kind == ERR_TRUNCATED && n == 1 && p.len == 0,
      "an error spanning buffers: rel_offset -2, 3 bytes, 1 consumed "
      "(got len %u rel %" PRId64 " n %zu)", d.error.len,
      d.error.rel_offset, n);

  decoder_init (&d, u8);
  p.len = 0;
  n = 4;
  st = u8->decode (&d, (uint8_t const *) "ab\x80" "c", &n, true, &p);
  ok (st == DECODE_MALFORMED && n == 3 && p.len == 2 && d.error.len == 1
      && d.error.rel_offset == 2 && d.error.kind == ERR_CONTINUATION,
      "DECODE_MALFORMED: consumed includes the error, pivot what came "
      "before");

  decoder_init (&d, codec ("UTF-16"));
  ok (d.endian == ENDIAN_UNKNOWN && d.carry_len == 0 && d.newlines == 0
      && !d.lone_surrogates_ok, "decoder_init: UTF-16 starts undecided");
  decoder_release (&d);
  decoder_init (&d, codec ("UTF-16BE"));
  ok (d.endian == ENDIAN_BIG, "decoder_init: UTF-16BE is big-endian");
  decoder_init (&d, codec ("UTF-32LE"));
  ok (d.endian == ENDIAN_LITTLE, "decoder_init: UTF-32LE is little-endian");
}

/* ------------------------------------------------------------------ */
/* Split invariance on every fixed input and on pseudo-random ones.  */

static size_t
random_utf8 (uint8_t *s, size_t max)
{
  static uint8_t const special[] = {
    0xE0, 0xED, 0xF0, 0xF4, 0x9F, 0xA0, 0x8F, 0x90, 0xC0, 0xC1, 0xC2, 0xF5,
    0xFF, 0x0A, 0x00
  };
  size_t n = rng () % (max + 1), i;
  for (i = 0; i < n; i++)
    {
      uint32_t r = rng () % 100;
      if (r < 20)
        s[i] = (uint8_t) (0x20 + rng () % 0x60);
      else if (r < 55)
        s[i] = (uint8_t) (0x80 + rng () % 0x40);
      else if (r < 85)
        s[i] = (uint8_t) (0xC0 + rng () % 0x38);
      else if (r < 90)
        s[i] = (uint8_t) (0xF8 + rng () % 8);
      else
        s[i] = special[rng () % COUNT (special)];
    }
  return n;
}

static size_t
random_utf16 (uint8_t *s, size_t max)
{
  size_t n = 0;
  bool be = rng () % 2;
  if (rng () % 4 == 0)
    {
      s[n++] = be ? 0xFE : 0xFF;
      s[n++] = be ? 0xFF : 0xFE;
    }
  while (n + 2 <= max && rng () % 12 != 0)
    {
      uint32_t r = rng () % 10;
      uint8_t hi = (uint8_t) (r < 3 ? 0xD8 + rng () % 4
                              : r < 6 ? 0xDC + rng () % 4
                              : r < 8 ? 0x00 : rng () % 256);
      uint8_t lo = (uint8_t) (rng () % 3 ? 0x41 + rng () % 26 : rng () % 256);
      s[n++] = be ? hi : lo;
      s[n++] = be ? lo : hi;
    }
  if (n < max && rng () % 3 == 0)
    s[n++] = (uint8_t) rng ();
  return n;
}

static size_t
random_utf32 (uint8_t *s, size_t max)
{
  static uint32_t const units[] = {
    0x41, 0x0A, 0xE9, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
    0xFEFF, 0xFFFE0000, 0x10FFFF, 0x110000, 0xFFFFFFFF, 0x1F600, 0x80000000
  };
  size_t n = 0;
  bool be = rng () % 2;
  while (n + 4 <= max && rng () % 8 != 0)
    {
      uint32_t u = units[rng () % COUNT (units)];
      int k;
      if (n == 0 && rng () % 3 == 0)
        u = 0xFEFF;
      for (k = 0; k < 4; k++)
        s[n + (size_t) (be ? 3 - k : k)] = (uint8_t) (u >> (8 * k));
      n += 4;
    }
  while (n < max && rng () % 3 == 0)
    s[n++] = (uint8_t) rng ();
  return n;
}

static void
test_split_invariance (void)
{
  size_t i;
  struct sb why = { NULL, 0, 0 };
  size_t fixed_bad = 0;

  /* Every input of the tests above, under every decoder.  */
  for (i = 0; i < nsaved; i += quick_step (4))
    if (!all_decoders_agree (saved[i].bytes, saved[i].n, &why))
      {
        if (fixed_bad++ < 5)
          diag ("%s", sb_str (&why));
        sb_free (&why);
      }
  ok (fixed_bad == 0, "all %zu fixed inputs: every decoder gives the same "
      "for every split, and covers its input (%zu failed)", nsaved,
      fixed_bad);

  for (i = 0; i < 300; i += quick_step (7))
    {
      uint8_t s[32];
      size_t n = (i % 3 == 0 ? random_utf8 (s, 24)
                  : i % 3 == 1 ? random_utf16 (s, 24)
                  : random_utf32 (s, 28));
      if (!ok (all_decoders_agree (s, n, &why),
               "random input %zu (%s-like, %zu bytes): splits agree in "
               "every decoder", i, i % 3 == 0 ? "UTF-8" : i % 3 == 1
               ? "UTF-16" : "UTF-32", n))
        diag ("%s", sb_str (&why));
      sb_free (&why);
    }
}

int
main (void)
{
  size_t i;

  setvbuf (stdout, NULL, _IOLBF, 0);
  test_utf8_decode ();
  test_utf8_lead_bytes ();
  test_utf16le_decode ();
  test_utf16_decode ();
  test_utf32_decode ();
  test_decode_contract ();
  test_split_invariance ();

  for (i = 0; i < nsaved; i++)
    free (saved[i].bytes);
  return done_testing ();
}
