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
#include "registry.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* Policies.  */

/* The whole substitute of S as values, into OUT[0..CAP): its values,
   then its format applied to each of its values, expanded by pieces of
   3 values.  Returns the number of values.  */
static size_t
substitute (struct verdict const *s, ucs4_t *out, size_t cap)
{
  size_t n = 0, i;
  for (i = 0; i < s->len && n < cap; i++)
    out[n++] = s->cp[i];
  for (i = 0; s->format && i < s->nvalues; i++)
    {
      size_t pos = 0, k;
      while (n < cap
             && (k = policy_format_expand (s->format, s->values[i], &pos,
                                           out + n,
                                           cap - n < 3 ? cap - n : 3)) > 0)
        n += k;
    }
  return n;
}

static char const *
values_text (struct verdict const *s)
{
  static char buf[1024];
  ucs4_t v[256];
  size_t i, o = 0, n = substitute (s, v, COUNT (v));
  buf[0] = 0;
  for (i = 0; i < n && o + 12 < sizeof buf; i++)
    o += (size_t) snprintf (buf + o, sizeof buf - o, "%s%" PRIX32,
                            i ? " " : "", v[i]);
  return buf;
}

/* True if SUB holds exactly the ASCII text TEXT as values.  */
static bool
sub_is_text (struct verdict const *sub, char const *text)
{
  ucs4_t v[256];
  size_t i, n = strlen (text);
  if (sub->stop || sub->raw_byte >= 0 || substitute (sub, v, COUNT (v)) != n)
    return false;
  for (i = 0; i < n; i++)
    if (v[i] != (unsigned char) text[i])
      return false;
  return true;
}

/* The formats parsed by fmt, freed at the end.  */
static struct subst_format *parsed[64];
static size_t nparsed;

/* S parsed as a format, which must be valid.  */
static struct subst_format const *
fmt (char const *s)
{
  enum format_problem why;
  struct subst_format *f = policy_format_parse (s, &why);
  if (!f)
    {
      diag ("bad format in a test: %s", s);
      exit (EXIT_FAILURE);
    }
  if (nparsed == COUNT (parsed))
    abort ();
  return parsed[nparsed++] = f;
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
  ucs4_t v[16];

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
  cfg.byte_fmt = fmt ("<%02X>");
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "<E1><80>"),
      "decode error, escape with <%%02X>: <E1><80> (got %s)",
      values_text (&sub));
  cfg.byte_fmt = fmt ("%%%d;");
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "%225;%128;"),
      "decode error, escape with %%%%%%d;: %%225;%%128; (got %s)",
      values_text (&sub));
  cfg.byte_fmt = fmt ("\xC3\xA9%x");
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && substitute (&sub, v, COUNT (v)) == 6 && v[0] == 0xE9
      && v[1] == 'e' && v[2] == '1' && v[3] == 0xE9 && v[5] == '0',
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
      cfg.unicode_fmt = k->fmt ? fmt (k->fmt) : NULL;
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

/* ------------------------------------------------------------------ */
/* Formats.  */

/* FMT applied to VALUE by policy_format_expand, in pieces of PIECE
   values, as a string (every value here is ASCII), into BUF[0..CAP).
   False if it does not fit.  */
static bool
expand_ascii (struct subst_format const *f, ucs4_t value, size_t piece,
              char *buf, size_t cap)
{
  ucs4_t v[64];
  size_t pos = 0, n = 0, k, i;
  while ((k = policy_format_expand (f, value, &pos, v, piece)) > 0)
    for (i = 0; i < k; i++)
      {
        if (n + 1 >= cap || v[i] > 0x7F)
          return false;
        buf[n++] = (char) v[i];
      }
  buf[n] = '\0';
  return pos == n;
}

/* policy_format_expand writes what snprintf writes, for every flag,
   width, precision and conversion on a few values, in pieces of every
   size from 1.  */
static void
test_format_like_printf (void)
{
  static char const *const flags[] = {
    "", "#", "0", "-", "#0", "#-", "0-", "#0-", "00", "-0"
  };
  static char const *const widths[] = { "", "1", "5", "12" };
  static char const *const precisions[] = { "", ".", ".0", ".1", ".3", ".8" };
  static char const convs[] = "diouxX";
  static ucs4_t const values[] = {
    0, 1, 7, 8, 0x10, 0x7F, 0xFF, 0x20AC, 0xDC80, 0x10FFFF, 0x80000000,
    0xFFFFFFFF
  };
  size_t a, b, c, d, e, bad = 0, tried = 0;

  for (a = 0; a < COUNT (flags); a++)
    for (b = 0; b < COUNT (widths); b++)
      for (c = 0; c < COUNT (precisions); c++)
        for (d = 0; convs[d]; d++)
          {
            char spec[64];
            struct subst_format *f;
            enum format_problem why;
            snprintf (spec, sizeof spec, "<%%%s%s%s%c>%%%%", flags[a],
                      widths[b], precisions[c], convs[d]);
            f = policy_format_parse (spec, &why);
            if (!f)
              {
                if (bad++ < 5)
                  diag ("not parsed: %s", spec);
                continue;
              }
            for (e = 0; e < COUNT (values); e++)
              {
                char want[64], got[64];
                size_t piece = 1 + (tried % 7);
#if __GNUC__
# pragma GCC diagnostic push
# pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
                if (convs[d] == 'd' || convs[d] == 'i')
                  snprintf (want, sizeof want, spec, (int) values[e]);
                else
                  snprintf (want, sizeof want, spec,
                            (unsigned int) values[e]);
#if __GNUC__
# pragma GCC diagnostic pop
#endif
                tried++;
                if (!expand_ascii (f, values[e], piece, got, sizeof got)
                    || strcmp (got, want) != 0)
                  if (bad++ < 5)
                    diag ("%s on %" PRIX32 ": \"%s\", printf \"%s\"", spec,
                          values[e], got, want);
              }
            policy_format_free (f);
          }
  ok (bad == 0, "policy_format_expand writes as snprintf does "
      "(%zu formatted values, %zu differ)", tried, bad);
}

/* Widths beyond any fixed buffer: written whole, in pieces.  */
static void
test_format_wide (void)
{
  enum format_problem why;
  struct subst_format *f = policy_format_parse ("<0x%010000x>", &why);
  ucs4_t piece[100];
  size_t pos = 0, total = 0, k, i, zeros = 0, calls = 0;
  bool shape = true;

  while (f && (k = policy_format_expand (f, 0xAB, &pos, piece, 100)) > 0)
    {
      calls++;
      for (i = 0; i < k; i++, total++)
        {
          ucs4_t c = piece[i];
          zeros += total >= 3 && total < 3 + 9998 && c == '0';
          if ((total == 0 && c != '<') || (total == 1 && c != '0')
              || (total == 2 && c != 'x')
              || (total == 3 + 9998 && c != 'a')
              || (total == 3 + 9999 && c != 'b')
              || (total == 3 + 10000 && c != '>'))
            shape = false;
        }
    }
  ok (f && total == 10004 && zeros == 9998 && shape && calls == 101,
      "%%010000x: <0x, 9998 zeros, ab, > in 101 pieces of at most 100 "
      "(got %zu values, %zu zeros, %zu pieces)", total, zeros, calls);
  policy_format_free (f);

  f = policy_format_parse ("%-70d|", &why);
  pos = 0;
  total = 0;
  while (f && (k = policy_format_expand (f, 255, &pos, piece, 100)) > 0)
    total += k;
  ok (f && total == 71 && piece[0] == '2' && piece[3] == ' '
      && piece[70] == '|', "%%-70d|: 255, 67 spaces and |");
  policy_format_free (f);
}

/* What policy_format_parse refuses, and why; text around the conversion
   and %%.  */
static void
test_format_parse (void)
{
  enum format_problem why;
  struct subst_format *f;

  f = policy_format_parse ("\xFF%x", &why);
  ok (!f && why == FORMAT_NOT_UTF8, "\\xFF%%x: not UTF-8");
  f = policy_format_parse ("%2147483648x", &why);
  ok (!f && why == FORMAT_TOO_WIDE, "%%2147483648x: too wide");
  f = policy_format_parse ("%.2147483648x", &why);
  ok (!f && why == FORMAT_TOO_WIDE, "%%.2147483648x: too wide");
  f = policy_format_parse ("%99999999999999999999999x", &why);
  ok (!f && why == FORMAT_TOO_WIDE, "%%99999999999999999999999x: too wide");
  f = policy_format_parse ("%x%x", &why);
  ok (!f && why == FORMAT_INVALID, "%%x%%x: invalid");
  f = policy_format_parse ("%2147483647x", &why);
  ok (f && f->width == 2147483647, "%%2147483647x: the largest width");
  policy_format_free (f);
  f = policy_format_parse ("\xE2\x82\xAC%%[%x]%%\xC3\xA9", &why);
  ok (f && f->prefix_len == 3 && f->text[0] == 0x20AC && f->text[1] == '%'
      && f->text[2] == '[' && f->suffix_len == 3 && f->text[3] == ']'
      && f->text[4] == '%' && f->text[5] == 0xE9,
      "the text around the conversion, as values, %%%% as %%");
  policy_format_free (f);
}

/* Whether an output encoding holds the text of a format.  */
static void
test_format_encodable (void)
{
  struct codec const *latin1 = registry_find ("ISO-8859-1");
  struct codec const *ascii = registry_find ("US-ASCII");
  struct codec const *u16 = registry_find ("UTF-16LE");
  struct subst_format const *euro = fmt ("\xE2\x82\xAC%x");
  struct subst_format const *e_acute = fmt ("<%x\xC3\xA9>");
  ucs4_t c = 0;

  ok (latin1 && ascii && u16, "ISO-8859-1, US-ASCII and UTF-16LE found");
  if (!(latin1 && ascii && u16))
    return;
  ok (!policy_format_encodable (euro, latin1, &c) && c == 0x20AC,
      "ISO-8859-1 cannot hold the euro sign of a format");
  ok (policy_format_encodable (euro, u16, &c), "UTF-16LE can");
  ok (policy_format_encodable (e_acute, latin1, &c),
      "ISO-8859-1 holds U+00E9 after the conversion");
  c = 0;
  ok (!policy_format_encodable (e_acute, ascii, &c) && c == 0xE9,
      "US-ASCII does not, and says U+00E9");
}

/* What policy_decode_error's verdict V writes as bytes without an
   encoder, with U+FFFD encoded as FFFD[0..FFFD_LEN) and an output whose
   flags are TO_FLAGS, into OUT: the number of bytes, or -1 when the
   verdict needs more (a stop, a format, values to encode).  */
static int
verdict_bytes (struct verdict const *v, unsigned int to_flags,
               uint8_t const *fffd, size_t fffd_len, uint8_t *out)
{
  size_t i;
  if (v->stop || v->format)
    return -1;
  if (v->raw_len > 0)
    {
      memcpy (out, v->raw, v->raw_len);
      return (int) v->raw_len;
    }
  if (v->len == 0)
    return 0;
  if (v->len == 1 && v->cp[0] == 0xFFFD && fffd_len > 0)
    {
      memcpy (out, fffd, fffd_len);
      return (int) fffd_len;
    }
  if (!v->ascii || !(to_flags & CODEC_ASCII_BYTES))
    return -1;
  for (i = 0; i < v->len; i++)
    out[i] = (uint8_t) v->cp[i];
  return (int) v->len;
}

/* policy_bytes_write, as policy_bytes_plan decides, writes what
   policy_decode_error's verdict says, or declines: every policy, with
   and without a format, to an output that writes ASCII as itself and
   U+FFFD (UTF-8), one that writes ASCII as itself but not U+FFFD
   (ISO-8859-1), and one that does not (UTF-16LE), on errors of 1 to 4
   bytes.  */
static void
test_policy_bytes (void)
{
  static uint8_t const errors[][5] = {
    { 2, 0xE1, 0x80 }, { 1, 0x42 }, { 1, 0xC0 }, { 1, 0x80 },
    { 3, 0xF4, 0x90, 0x80 }, { 4, 0xFF, 0x00, 0x7F, 0xFE }
  };
  static char const *const outputs[] = { "UTF-8", "ISO-8859-1", "UTF-16LE" };
  struct subst_format const *hex_fmt = fmt ("<%02X>");
  size_t cases = 0, bad = 0, e, f, t;
  int p;

  for (p = POLICY_STRICT; p <= POLICY_IGNORE; p++)
    for (f = 0; f < 2; f++)
      for (t = 0; t < COUNT (outputs); t++)
        for (e = 0; e < COUNT (errors); e++)
          {
            struct codec const *to = registry_find (outputs[t]);
            struct policy_config cfg = { (enum policy) p, NULL, NULL, 0 };
            struct policy_bytes pb;
            struct codec_error err;
            struct verdict v;
            uint8_t want[POLICY_BYTES_MAX], got[POLICY_BYTES_MAX];
            bool lost = false;
            int wn, gn;
            memset (&err, 0, sizeof err);
            err.len = errors[e][0];
            memcpy (err.bytes, errors[e] + 1, err.len);
            err.kind = ERR_TRUNCATED;
            cfg.byte_fmt = f ? hex_fmt : NULL;
            cfg.to_flags = to->flags;
            policy_decode_error (&cfg, &err, &v);
            policy_bytes_plan (&cfg, to, &pb);
            wn = verdict_bytes (&v, to->flags, pb.fffd, pb.fffd_len, want);
            gn = policy_bytes_write (&pb, &err, got, &lost);
            cases++;
            if (wn != gn || (gn > 0 && memcmp (want, got, (size_t) gn))
                || (gn >= 0 && lost != v.lost))
              {
                if (bad++ < 5)
                  diag ("policy %s, format %zu, to %s, error %zu: %d bytes, "
                        "wanted %d", policy_name ((enum policy) p), f,
                        outputs[t], e, gn, wn);
              }
          }
  ok (bad == 0, "decode error as bytes agrees with the verdict in %zu "
      "cases", cases);
}

int
main (void)
{
  size_t i;

  setvbuf (stdout, NULL, _IOLBF, 0);
  test_policy_names ();
  test_policy_decode_error ();
  test_policy_bytes ();
  test_policy_encode_error ();
  test_format_like_printf ();
  test_format_wide ();
  test_format_parse ();
  test_format_encodable ();
  for (i = 0; i < nparsed; i++)
    policy_format_free (parsed[i]);
  return done_testing ();
}
