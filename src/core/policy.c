/* Error policies, once for every codec.

   The results match Python 3's codecs with the error handler in brackets:
   strict [strict], replace [replace], escape [backslashreplace],
   surrogateescape [surrogateescape] (PEP 383), ignore [ignore].  Where
   the SPEC decides otherwise (U+FFFD for an unencodable character in a
   Unicode output), the SPEC wins.  */

#include <config.h>

#include "policy.h"

#include "unicode/utf8.h"

#include <stdio.h>
#include <string.h>

static char const *const names[] = {
  "strict", "replace", "escape", "surrogateescape", "ignore"
};

static char const *const verbs[] = {
  "stopped", "replaced", "escaped", "escaped", "dropped"
};

bool
policy_parse (char const *name, enum policy *p)
{
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp (name, names[i]) == 0)
      {
        *p = (enum policy) i;
        return true;
      }
  return false;
}

char const *
policy_name (enum policy p)
{
  return names[p];
}

char const *
policy_verb (enum policy p)
{
  return verbs[p];
}

/* Append the UTF-8 text S[0..N) to V as values.  Formats are checked
   to be well-formed UTF-8 before use (policy_format_ok).  */
static void
append_text (struct verdict *v, char const *s, size_t n)
{
  uint8_t const *p = (uint8_t const *) s;
  size_t i = 0;
  while (i < n && v->len < sizeof v->cp / sizeof v->cp[0])
    {
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, p + i, n - i, true,
                             &v->cp[v->len], &kind);
      if (r <= 0)
        break;
      v->len++;
      i += (size_t) r;
    }
}

/* Append a backslash, LETTER and VALUE in DIGITS lowercase hexadecimal
   digits (VALUE < 16^DIGITS): the default escapes \xhh, \uhhhh and
   \Uhhhhhhhh, written without snprintf, which would cost more than all
   the rest of the handling of an error.  */
static void
append_escape (struct verdict *sub, char letter, int digits,
               ucs4_t value)
{
  static char const hex[] = "0123456789abcdef";
  size_t room = sizeof sub->cp / sizeof sub->cp[0] - sub->len;
  int k;

  if (room < (size_t) digits + 2)
    return;
  sub->cp[sub->len++] = '\\';
  sub->cp[sub->len++] = (ucs4_t) letter;
  for (k = digits - 1; k >= 0; k--)
    sub->cp[sub->len++] = (ucs4_t) hex[value >> (4 * k) & 0xF];
}

/* Append the default escape of the byte B, \\xhh: an error has at most
   MAX_ERROR_BYTES bytes, so there is always room.  */
static inline void
append_byte_escape (struct verdict *v, uint8_t b)
{
  static char const hex[] = "0123456789abcdef";
  ucs4_t *o = v->cp + v->len;
  o[0] = '\\';
  o[1] = 'x';
  o[2] = (ucs4_t) hex[b >> 4];
  o[3] = (ucs4_t) hex[b & 0xF];
  v->len += 4;
}

/* Format VALUE with FMT, a format that policy_format_ok accepted.  */
static void
append_formatted (struct verdict *sub, char const *fmt, ucs4_t value)
{
  char buf[SUBST_UNIT_MAX + 1];
  int n;
  char const *conv = fmt;

  /* Find the conversion, to pass VALUE with the type it expects.  */
  while ((conv = strchr (conv, '%')) && conv[1] == '%')
    conv += 2;
  /* policy_format_ok accepts no format without a conversion; if one came
     here all the same, it is text without a value.  */
  if (!conv)
    {
      append_text (sub, fmt, strnlen (fmt, SUBST_UNIT_MAX));
      return;
    }
  conv += strcspn (conv, "diouxX");
#if __GNUC__
# pragma GCC diagnostic push
# pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
  if (*conv == 'd' || *conv == 'i')
    n = snprintf (buf, sizeof buf, fmt, (int) value);
  else
    n = snprintf (buf, sizeof buf, fmt, (unsigned int) value);
#if __GNUC__
# pragma GCC diagnostic pop
#endif
  if (n < 0)
    n = 0;
  if ((size_t) n > SUBST_UNIT_MAX)
    n = SUBST_UNIT_MAX;
  append_text (sub, buf, (size_t) n);
}

bool
policy_format_ok (char const *fmt)
{
  int conversions = 0;
  char const *p;
  size_t len = strlen (fmt);

  if (utf8_valid_len ((uint8_t const *) fmt, len) != len
      || len > SUBST_UNIT_MAX / 2)
    return false;
  for (p = fmt; *p; p++)
    {
      if (*p != '%')
        continue;
      p++;
      if (*p == '%')
        continue;
      p += strspn (p, "#0-");
      if (strspn (p, "0123456789") > 2)
        return false;
      p += strspn (p, "0123456789");
      if (*p == '.')
        {
          p++;
          if (strspn (p, "0123456789") > 2)
            return false;
          p += strspn (p, "0123456789");
        }
      if (!*p || !strchr ("diouxX", *p))
        return false;
      conversions++;
    }
  return conversions == 1;
}

static void
clear (struct verdict *v)
{
  v->stop = false;
  v->error = true;
  v->lost = false;
  v->raw_byte = -1;
  v->raw_len = 0;
  v->ascii = false;
  v->len = 0;
}

bool
policy_passes_lone_surrogates (struct policy_config const *cfg,
                               unsigned int to_flags)
{
  return (cfg->policy == POLICY_SURROGATEESCAPE
          || (to_flags & CODEC_SURROGATE_CARRIER) != 0);
}

void
policy_decode_error (struct policy_config const *cfg,
                     struct codec_error const *err, struct verdict *v)
{
  unsigned int i;

  clear (v);
  switch (cfg->policy)
    {
    case POLICY_STRICT:
      v->stop = true;
      break;
    case POLICY_REPLACE:
      v->cp[v->len++] = 0xFFFD;
      break;
    case POLICY_ESCAPE:
      if (cfg->byte_fmt)
        for (i = 0; i < err->len; i++)
          append_formatted (v, cfg->byte_fmt, err->bytes[i]);
      else
        {
          for (i = 0; i < err->len; i++)
            append_byte_escape (v, err->bytes[i]);
          v->ascii = true;
        }
      break;
    case POLICY_SURROGATEESCAPE:
      /* PEP 383: only bytes 0x80..0xFF can be escaped; an error holding
         any other byte is handled as under strict, as in Python.  */
      for (i = 0; i < err->len; i++)
        if (err->bytes[i] < 0x80)
          v->stop = true;
      if (v->stop)
        break;
      /* An output that writes ASCII as itself holds no surrogate, and
         policy_encode_error would turn each U+DC80..U+DCFF back into its
         byte there: say so at once.  */
      if (cfg->to_flags & CODEC_ASCII_BYTES)
        {
          for (i = 0; i < err->len; i++)
            v->raw[i] = err->bytes[i];
          v->raw_len = err->len;
        }
      else
        for (i = 0; i < err->len; i++)
          v->cp[v->len++] = 0xDC00 + err->bytes[i];
      break;
    case POLICY_IGNORE:
      v->lost = true;
      break;
    }
}

void
policy_encode_error (struct policy_config const *cfg, ucs4_t c,
                     unsigned int to_flags, bool replacement,
                     struct verdict *v)
{
  clear (v);
  switch (cfg->policy)
    {
    case POLICY_STRICT:
      v->stop = true;
      break;
    case POLICY_REPLACE:
      v->cp[v->len++] = to_flags & CODEC_UNICODE ? 0xFFFD : '?';
      break;
    case POLICY_ESCAPE:
      if (cfg->unicode_fmt)
        append_formatted (v, cfg->unicode_fmt, c);
      else
        {
          append_escape (v, (c < 0x100 ? 'x' : c < 0x10000 ? 'u' : 'U'),
                         (c < 0x100 ? 2 : c < 0x10000 ? 4 : 8), c);
          v->ascii = true;
        }
      break;
    case POLICY_SURROGATEESCAPE:
      /* A byte that surrogateescape escaped goes back as that byte, to a
         byte-oriented output.  */
      if (!(to_flags & CODEC_WIDE_UNITS) && 0xDC80 <= c && c <= 0xDCFF)
        v->raw_byte = (int) (c - 0xDC00);
      else
        v->stop = true;
      break;
    case POLICY_IGNORE:
      v->lost = true;
      break;
    }
  /* The replacement of a decoding error that the output cannot hold
     either (U+FFFD as '?'), and an escaped byte going back, are no
     second error: nothing to count or report, unless it stops.  */
  if (!v->stop && (replacement || v->raw_byte >= 0))
    v->error = false;
}
