/* Unit tests of the policies: the substitution formats, the names, and
   what each policy makes of a decoding error and of a character the
   output cannot hold.  */

#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "policy.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* Policies.  */

static char const *
values_text (struct verdict const *s)
{
  static char buf[1024];
  size_t i, o = 0;
  buf[0] = 0;
  for (i = 0; i < s->len && o + 12 < sizeof buf; i++)
    o += (size_t) snprintf (buf + o, sizeof buf - o, "%s%" PRIX32,
                            i ? " " : "", s->cp[i]);
  return buf;
}

/* True if SUB holds exactly the ASCII text TEXT as values.  */
static bool
sub_is_text (struct verdict const *sub, char const *text)
{
  size_t i, n = strlen (text);
  if (sub->stop || sub->raw_byte >= 0 || sub->len != n)
    return false;
  for (i = 0; i < n; i++)
    if (sub->cp[i] != (unsigned char) text[i])
      return false;
  return true;
}

/* The byte and Unicode substitution formats; the names of the policies
   and the verbs the diagnostics use.  */
static void
test_policy_names (void)
{
  static char const *const good_fmts[] = {
    "\\x%02x", "<%02X>", "[U+%04X]", "%d", "%%%x", "%x%%", "&#%d;",
    "%#x", "%-4d|", "%.3o", "%u", "%i", "\xC3\xA9%X", "%08X",
  };
  static char const *const bad_fmts[] = {
    "%s", "%x%x", "", "%", "%n", "%lx", "%*d", "abc", "%%", "x%", "%c",
    "%hhx", "%.*d", "%1$x", "\xFF%x", "%p", "%f",
  };
  size_t i;
  enum policy p;

  for (i = 0; i < COUNT (good_fmts); i++)
    ok (policy_format_ok (good_fmts[i]), "policy_format_ok accepts \"%s\"",
        good_fmts[i]);
  for (i = 0; i < COUNT (bad_fmts); i++)
    ok (!policy_format_ok (bad_fmts[i]), "policy_format_ok rejects \"%s\"",
        bad_fmts[i]);

  ok (policy_parse ("strict", &p) && p == POLICY_STRICT
      && policy_parse ("replace", &p) && p == POLICY_REPLACE
      && policy_parse ("escape", &p) && p == POLICY_ESCAPE
      && policy_parse ("surrogateescape", &p) && p == POLICY_SURROGATEESCAPE
      && policy_parse ("ignore", &p) && p == POLICY_IGNORE,
      "policy_parse knows the five policies");
  ok (!policy_parse ("Strict", &p) && !policy_parse ("", &p)
      && !policy_parse ("backslashreplace", &p),
      "policy_parse rejects other names");
  ok (strcmp (policy_name (POLICY_SURROGATEESCAPE), "surrogateescape") == 0
      && strcmp (policy_verb (POLICY_REPLACE), "replaced") == 0
      && strcmp (policy_verb (POLICY_ESCAPE), "escaped") == 0
      && strcmp (policy_verb (POLICY_SURROGATEESCAPE), "escaped") == 0
      && strcmp (policy_verb (POLICY_IGNORE), "dropped") == 0,
      "policy names and verbs");
}

/* Decoding errors, on the truncated sequence E1 80 and a few others.  */
static void
test_policy_decode_error (void)
{
  struct policy_config cfg = { POLICY_STRICT, NULL, NULL, 0 };
  struct codec_error err;
  struct verdict sub;

  memset (&err, 0, sizeof err);
  err.bytes[0] = 0xE1;
  err.bytes[1] = 0x80;
  err.len = 2;
  err.kind = ERR_TRUNCATED;

  cfg.policy = POLICY_STRICT;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop && sub.len == 0 && sub.raw_byte < 0,
      "decode error, strict: stop");
  cfg.policy = POLICY_REPLACE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 1 && sub.cp[0] == 0xFFFD && sub.raw_byte < 0,
      "decode error, replace: one U+FFFD for E1 80 (got %s)",
      values_text (&sub));
  cfg.policy = POLICY_ESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "\\xe1\\x80"),
      "decode error, escape: \\xe1\\x80 (got %s)", values_text (&sub));
  cfg.byte_fmt = "<%02X>";
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "<E1><80>"),
      "decode error, escape with <%%02X>: <E1><80> (got %s)",
      values_text (&sub));
  cfg.byte_fmt = "%%%d;";
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "%225;%128;"),
      "decode error, escape with %%%%%%d;: %%225;%%128; (got %s)",
      values_text (&sub));
  cfg.byte_fmt = "\xC3\xA9%x";
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 6 && sub.cp[0] == 0xE9 && sub.cp[1] == 'e'
      && sub.cp[2] == '1' && sub.cp[3] == 0xE9 && sub.cp[5] == '0',
      "decode error, escape with a UTF-8 format: U+00E9 e 1 U+00E9 8 0 "
      "(got %s)", values_text (&sub));
  cfg.byte_fmt = NULL;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 2 && sub.cp[0] == 0xDCE1
      && sub.cp[1] == 0xDC80 && sub.raw_len == 0,
      "decode error, surrogateescape: DCE1 DC80 (got %s)",
      values_text (&sub));
  cfg.to_flags = CODEC_ASCII_BYTES;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 0 && sub.raw_len == 2 && sub.raw[0] == 0xE1
      && sub.raw[1] == 0x80,
      "decode error, surrogateescape to an output that writes ASCII as "
      "itself: the raw bytes E1 80, no values");
  cfg.to_flags = 0;
  cfg.policy = POLICY_IGNORE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 0 && sub.raw_byte < 0,
      "decode error, ignore: nothing");

  /* An error holding a byte below 0x80 cannot be surrogate-escaped.  */
  err.bytes[0] = 0x42;
  err.len = 1;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop, "decode error, surrogateescape: stop on [42]");
  err.bytes[0] = 0x00;
  err.bytes[1] = 0x00;
  err.bytes[2] = 0x11;
  err.bytes[3] = 0x00;
  err.len = 4;
  err.kind = ERR_TOO_BIG;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop, "decode error, surrogateescape: stop on [00 00 11 00]");
  cfg.policy = POLICY_ESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "\\x00\\x00\\x11\\x00"),
      "decode error, escape: each of 4 bytes (got %s)", values_text (&sub));
  err.bytes[0] = 0xFF;
  err.len = 1;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 1 && sub.cp[0] == 0xDCFF,
      "decode error, surrogateescape: FF gives DCFF");
}

/* Encoding errors: each policy on a character the output cannot hold.  */
static struct encode_case
{
  enum policy policy;
  ucs4_t c;
  bool unicode_out, byte_out;
  int raw;                      /* >= 0: a raw byte; -2: stop; or:  */
  char const *fmt;
  char const *text;             /* Values as ASCII text.  */
} const encode_cases[] = {
  { POLICY_STRICT, 0xD800, true, true, -2, NULL, "" },
  { POLICY_STRICT, 0xDC80, true, true, -2, NULL, "" },
  { POLICY_STRICT, 0xE9, false, true, -2, NULL, "" },
  { POLICY_REPLACE, 0xD800, true, true, -1, NULL, "\xEF\xBF\xBD" },
  { POLICY_REPLACE, 0xDC80, true, true, -1, NULL, "\xEF\xBF\xBD" },
  { POLICY_REPLACE, 0xE9, false, true, -1, NULL, "?" },
  { POLICY_REPLACE, 0xDC80, false, true, -1, NULL, "?" },
  { POLICY_ESCAPE, 0xE9, false, true, -1, NULL, "\\xe9" },
  { POLICY_ESCAPE, 0xD800, true, true, -1, NULL, "\\ud800" },
  { POLICY_ESCAPE, 0xDC80, true, true, -1, NULL, "\\udc80" },
  { POLICY_ESCAPE, 0x20AC, false, true, -1, NULL, "\\u20ac" },
  { POLICY_ESCAPE, 0x1F600, false, true, -1, NULL, "\\U0001f600" },
  { POLICY_ESCAPE, 0x1F600, false, true, -1, "[U+%04X]", "[U+1F600]" },
  { POLICY_ESCAPE, 0xE9, false, true, -1, "&#%d;", "&#233;" },
  { POLICY_SURROGATEESCAPE, 0xDC80, true, true, 0x80, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xDCFF, false, true, 0xFF, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xDC80, true, false, -2, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xDC7F, true, true, -2, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xDD00, true, true, -2, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xD800, true, true, -2, NULL, "" },
  { POLICY_SURROGATEESCAPE, 0xE9, false, true, -2, NULL, "" },
  { POLICY_IGNORE, 0xD800, true, true, -1, NULL, "" },
  { POLICY_IGNORE, 0xE9, false, true, -1, NULL, "" },
};

static void
test_policy_encode_error (void)
{
  struct policy_config cfg = { POLICY_STRICT, NULL, NULL, 0 };
  struct verdict sub;
  size_t i;

  for (i = 0; i < COUNT (encode_cases); i++)
    {
      struct encode_case const *k = &encode_cases[i];
      bool good;
      cfg.policy = k->policy;
      cfg.byte_fmt = NULL;
      cfg.unicode_fmt = k->fmt;
      policy_encode_error (&cfg, k->c,
                           (k->unicode_out ? CODEC_UNICODE : 0)
                           | (k->byte_out ? 0 : CODEC_WIDE_UNITS),
                           false, &sub);
      if (k->raw == -2)
        good = sub.stop && sub.len == 0;
      else if (k->raw >= 0)
        good = !sub.stop && sub.raw_byte == k->raw && sub.len == 0;
      else if (strcmp (k->text, "\xEF\xBF\xBD") == 0)
        good = !sub.stop && sub.raw_byte < 0 && sub.len == 1
               && sub.cp[0] == 0xFFFD;
      else
        good = sub_is_text (&sub, k->text);
      ok (good, "encode error, %s, U+%04" PRIX32 "%s%s%s%s: %s",
          policy_name (k->policy), k->c,
          k->unicode_out ? ", Unicode output" : "",
          k->byte_out ? ", byte output" : "",
          k->fmt ? ", format " : "",
          k->fmt ? k->fmt : "",
          k->raw == -2 ? "stop" : k->raw >= 0 ? "raw byte"
          : *k->text ? k->text : "nothing");
    }
}

int
main (void)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  test_policy_names ();
  test_policy_decode_error ();
  test_policy_encode_error ();
  return done_testing ();
}
