/* The single-byte charsets of iconv(3) as tables (SPEC §14,
   src/core/codecs/iconv_table.c): which charsets become tables and
   which keep the exact bridge, the tables against iconv(3) byte by
   byte, undefined bytes, the encoder's answers, the per-process cache,
   and -f auto reading the tables.  test_iconv_reference.c compares
   whole conversions of every charset both ways.  */

#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codecs/iconv_bridge.h"
#include "codecs/iconv_table.h"
#include "detect_score.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

/* What iconv(3) makes of the byte B of NAME alone: its value, or
   TABLE_UNDEFINED.  */
static ucs4_t
iconv_byte (char const *name, uint8_t b)
{
  iconv_t cd = iconv_open ("UTF-32LE", name);
  uint8_t out[16];
  ICONV_CONST char *ip = (ICONV_CONST char *) &b;
  char *op = (char *) out;
  size_t il = 1, ol = sizeof out;
  ucs4_t c = TABLE_UNDEFINED;
  if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1 && ol == 12)
    c = (out[0] | (ucs4_t) out[1] << 8 | (ucs4_t) out[2] << 16
         | (ucs4_t) out[3] << 24);
  iconv_close (cd);
  return c;
}

/* Whether NAME is a table whose 256 entries are what iconv(3) makes of
   each byte alone.  */
static bool
table_is_iconvs (char const *name)
{
  struct codec const *c = registry_lookup (name);
  ucs4_t const *t = c ? iconv_table_of (c) : NULL;
  unsigned int b;
  if (!t)
    return false;
  for (b = 0; b < 256; b++)
    if (t[b] != iconv_byte (name, (uint8_t) b))
      return false;
  return true;
}

/* Encode the one value C with the codec NAME into OUT; its length, or
   -1 when it cannot be encoded.  */
static int
encode_one (char const *name, ucs4_t c, uint8_t *out)
{
  struct codec const *cd = registry_lookup (name);
  struct encoder e;
  size_t n = 1, len = 0;
  enum encode_status st;
  encoder_init (&e, cd);
  st = cd->encode (&e, &c, &n, out, &len, MAX_ENCODED);
  encoder_release (&e);
  return st == ENCODE_INPUT_EMPTY ? (int) len : -1;
}

static void
count_table (char const *name, void *arg)
{
  size_t *counts = arg;
  struct codec const *c = iconv_bridge_find (name, false, NULL);
  counts[0]++;
  if (c && iconv_table_of (c))
    counts[1]++;
}

int
main (void)
{
  static char const *const tables[] = {
    "KOI8-R", "KOI8-U", "CP1250", "CP1251", "CP1253", "CP1254", "CP1256",
    "CP1257", "CP437", "CP850", "CP866", "ISO-8859-2", "ISO-8859-3",
    "ISO-8859-4", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8",
    "ISO-8859-9", "ISO-8859-10", "ISO-8859-11", "ISO-8859-13",
    "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "MACINTOSH", "IBM037"
  };
  static char const *const bridged[] = {
    "CP1255", "CP1258", "TCVN", "IBM930", "ISO-2022-JP", "ISO-2022-KR",
    "UTF-7", "UCS-2", "SHIFT_JIS", "GB18030", "BIG5", "EUC-KR"
  };
  struct codec const *c;
  size_t k, counts[2] = { 0, 0 };
  bool all = true;
  uint8_t out[MAX_ENCODED];

  if (!iconv_has_all (tables, COUNT (tables))
      || !iconv_has_all (bridged, COUNT (bridged)))
    return 0;

  for (k = 0; k < COUNT (tables); k++)
    if (!table_is_iconvs (tables[k]))
      {
        diag ("%s is no table, or not iconv(3)'s", tables[k]);
        all = false;
      }
  ok (all, "single-byte code pages are tables of what iconv(3) makes of "
      "each byte alone");

  all = true;
  for (k = 0; k < COUNT (bridged); k++)
    if (!(c = registry_lookup (bridged[k])) || iconv_table_of (c)
        || !(c->flags & CODEC_STATEFUL))
      {
        diag ("%s is not bridged", bridged[k]);
        all = false;
      }
  ok (all, "held letters (CP1255, CP1258, TCVN), shifts (IBM930, "
      "ISO-2022-*, UTF-7), Unicode forms and multi-byte charsets keep the "
      "bridge");

  c = registry_lookup ("KOI8-R");
  ok (c && (c->flags & CODEC_SINGLE_BYTE) && (c->flags & CODEC_ASCII_BYTES)
      && !(c->flags & (CODEC_STATEFUL | CODEC_UNICODE))
      && registry_lookup ("koi8-r") == c && registry_lookup ("KOI8-R") == c,
      "KOI8-R: a table with the single-byte kernels' flags, made once per "
      "process");
  c = registry_lookup ("IBM037");
  ok (c && iconv_table_of (c) && !(c->flags & CODEC_SINGLE_BYTE)
      && !(c->flags & CODEC_ASCII_BYTES),
      "IBM037 (EBCDIC): a table, but not ASCII, so no ASCII kernels");

  {
    struct collect col;
    c = registry_lookup ("CP1251");
    decode_whole (&col, c, false, (uint8_t const *) "a\x98\xc0", 3);
    ok (strcmp (sb_str (&col.plain), "61 !98@1:INVALID 410") == 0,
        "CP1251: the undefined byte 98 is an error of one byte, then "
        "decoding goes on (%s)", sb_str (&col.plain));
    collect_free (&col);
  }

  ok (encode_one ("KOI8-R", 0x2500, out) == 1 && out[0] == 0x80
      && encode_one ("KOI8-R", 0x44F, out) == 1 && out[0] == 0xD1
      && encode_one ("KOI8-R", 0x20AC, out) == -1
      && encode_one ("KOI8-R", 0xD800, out) == -1
      && encode_one ("KOI8-R", 0x110000, out) == -1
      && encode_one ("KOI8-R", 0x20AC, out) == -1,
      "KOI8-R encodes U+2500 and U+044F, not U+20AC (asked twice), a lone "
      "surrogate or U+110000");

  {
    uint32_t legacy[128];
    ucs4_t const *t = iconv_table_of (registry_lookup ("CP1251"));
    all = legacy_single_byte (registry_lookup ("CP1251"), legacy);
    for (k = 0; k < 128 && all; k++)
      all = legacy[k] == (t[k + 128] == TABLE_UNDEFINED ? LEGACY_UNDEFINED
                          : t[k + 128]);
    ok (all, "-f auto reads CP1251's table");
  }

  if (iconv_bridge_names (count_table, counts))
    {
      diag ("%zu of the %zu names iconv(3) lists are tables", counts[1],
            counts[0]);
      ok (counts[1] > 100, "more than 100 of iconv(3)'s names are tables");
    }
  else
    printf ("ok %d # SKIP iconv(3) lists no charsets\n", ++tap_count);
  return done_testing ();
}
