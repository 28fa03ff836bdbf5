/* Unit tests of the registry: names and aliases to codecs, the flags and
   byte orders of the codecs, and the reasons given for errors.  */

#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* Registry.  */

static void
test_registry (void)
{
  static struct
  {
    char const *name, *canonical;
  } const names[] = {
    { "UTF-8", "UTF-8" }, { "utf-8", "UTF-8" }, { "UTF8", "UTF-8" },
    { "utf8", "UTF-8" },
    { "UTF-16LE", "UTF-16LE" }, { "utf-16le", "UTF-16LE" },
    { "UTF-16BE", "UTF-16BE" }, { "Utf-16", "UTF-16" },
    { "UTF-32LE", "UTF-32LE" }, { "ucs-4le", "UTF-32LE" },
    { "UCS-4BE", "UTF-32BE" }, { "utf-32", "UTF-32" },
    /* As ICU and WHATWG match labels: no case, '-', '_', '.', spaces,
       nor a 0 that starts a number.  */
    { "UTF-8 ", "UTF-8" }, { "utf16le", "UTF-16LE" },
    { "utf 16 le", "UTF-16LE" }, { "cp-1252", "CP1252" },
    { "Windows1252", "CP1252" }, { "windows_1252", "CP1252" },
    { "LATIN-1", "ISO-8859-1" }, { "ISO_8859-1", "ISO-8859-1" },
    { "ISO-8859-01", "ISO-8859-1" }, { "iso.8859.1", "ISO-8859-1" },
    /* glibc's and WHATWG's other names of the built-in charsets.  */
    { "MS-ANSI", "CP1252" }, { "x-cp1252", "CP1252" },
    { "IBM819", "ISO-8859-1" }, { "CSISOLATIN1", "ISO-8859-1" },
    { "ISO_8859-1:1987", "ISO-8859-1" }, { "us", "US-ASCII" },
    { "ISO646-US", "US-ASCII" }, { "ANSI_X3.4-1986", "US-ASCII" },
    { "ISO-10646/UTF-8", "UTF-8" },
  };
  static char const *const unknown[] = {
    "UTF-7", "", "UTF", "8", "CP12520", "UTF-8/", "ISO-8859-10",
    "UTF-88888888888888888888888888888888888888888888888888888888888888888"
  };
  size_t i;

  for (i = 0; i < COUNT (names); i++)
    {
      struct codec const *c = registry_find (names[i].name);
      ok (c && strcmp (c->name, names[i].canonical) == 0,
          "registry_find (\"%s\") is %s", names[i].name,
          names[i].canonical);
    }
  for (i = 0; i < COUNT (unknown); i++)
    ok (registry_find (unknown[i]) == NULL,
        "registry_find (\"%s\") is NULL", unknown[i]);
  ok ((codec ("UTF-16")->flags & CODEC_BOM_ALWAYS)
      && codec ("UTF-16")->unmarked == codec ("UTF-16BE")
      && (codec ("UTF-32")->flags & CODEC_BOM_ALWAYS)
      && codec ("UTF-32")->unmarked == codec ("UTF-32BE")
      && !(codec ("UTF-16LE")->flags & CODEC_BOM_ALWAYS)
      && !(codec ("UTF-8")->flags & CODEC_BOM_ALWAYS),
      "unmarked UTF-16/UTF-32 always write a BOM, else big-endian");
  ok ((codec ("UTF-8")->flags & CODEC_UNICODE)
      && !(codec ("UTF-8")->flags & CODEC_WIDE_UNITS)
      && (codec ("UTF-16LE")->flags & CODEC_WIDE_UNITS)
      && (codec ("UTF-32BE")->flags & CODEC_WIDE_UNITS)
      && codec ("UTF-16LE")->endian == ENDIAN_LITTLE
      && codec ("UTF-32BE")->endian == ENDIAN_BIG,
      "codec flags and byte orders");
  ok (strcmp (err_kind_text (ERR_CONTINUATION),
              "unexpected continuation byte") == 0
      && strcmp (err_kind_text (ERR_TRUNCATED), "truncated sequence") == 0
      && strcmp (err_kind_text (ERR_OVERLONG), "overlong encoding") == 0
      && strcmp (err_kind_text (ERR_SURROGATE), "surrogate") == 0
      && strcmp (err_kind_text (ERR_TOO_BIG), "beyond U+10FFFF") == 0
      && strcmp (err_kind_text (ERR_INVALID_BYTE), "invalid byte") == 0
      && strcmp (err_kind_text (ERR_LONE_SURROGATE), "lone surrogate") == 0
      && strcmp (err_kind_text (ERR_UNENCODABLE),
                 "unencodable character") == 0,
      "err_kind_text gives the reasons of DESIGN.md");
}

int
main (void)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  test_registry ();
  return done_testing ();
}
