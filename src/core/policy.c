/* Error policies, once for every codec.

   The results match Python 3's codecs with the error handler in brackets:
   strict [strict], replace [replace], escape [backslashreplace],
   surrogateescape [surrogateescape] (PEP 383), ignore [ignore].  Where
   the SPEC decides otherwise (U+FFFD for an unencodable character in a
   Unicode output), the SPEC wins.  */

#include <config.h>

#include "policy.h"

#include "unicode/utf8.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

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

/* --- Formats ------------------------------------------------------------ */

/* Decode the UTF-8 text S[0..N) of a format, whose one conversion is
   elsewhere, into OUT: %% is one '%'.  Returns the number of values.  */
static size_t
decode_text (char const *s, size_t n, ucs4_t *out)
{
  uint8_t const *p = (uint8_t const *) s;
  size_t i = 0, len = 0;
  while (i < n)
    {
      enum err_kind kind;
      int r;
      if (p[i] == '%')
        {
          out[len++] = '%';
          i += 2;
          continue;
        }
      r = utf8_sequence (&utf8_form, p + i, n - i, true, &out[len], &kind);
      /* The text is well-formed: checked before.  */
      if (r <= 0)
        break;
      len++;
      i += (size_t) r;
    }
  return len;
}

/* Read the decimal number at *P, up to POLICY_FORMAT_WIDTH_MAX, into *N
   and move *P past it.  False if it is larger.  */
static bool
read_number (char const **p, size_t *n)
{
  *n = 0;
  for (; '0' <= **p && **p <= '9'; (*p)++)
    {
      *n = *n * 10 + (size_t) (**p - '0');
      if (*n > POLICY_FORMAT_WIDTH_MAX)
        return false;
    }
  return true;
}

/* Parse the conversion that follows the '%' at P into F.  Returns the
   end of the conversion, or NULL with the problem in *WHY.  */
static char const *
parse_conversion (char const *p, struct subst_format *f,
                  enum format_problem *why)
{
  size_t n;

  for (p++; *p && strchr ("#0-", *p); p++)
    {
      f->alt |= *p == '#';
      f->zero |= *p == '0';
      f->left |= *p == '-';
    }
  *why = FORMAT_TOO_WIDE;
  if (!read_number (&p, &f->width))
    return NULL;
  f->precision = -1;
  if (*p == '.')
    {
      p++;
      if (!read_number (&p, &n))
        return NULL;
      f->precision = (long) n;
    }
  *why = FORMAT_INVALID;
  if (!*p || !strchr ("diouxX", *p))
    return NULL;
  f->conv = *p;
  return p + 1;
}

struct subst_format *
policy_format_parse (char const *fmt, enum format_problem *why)
{
  struct subst_format f;
  struct subst_format *result;
  size_t len = strlen (fmt);
  char const *p, *conv = NULL, *conv_end = NULL;

  memset (&f, 0, sizeof f);
  if (utf8_valid_len ((uint8_t const *) fmt, len) != len)
    {
      *why = FORMAT_NOT_UTF8;
      return NULL;
    }
  for (p = fmt; *p; p++)
    if (*p == '%' && p[1] == '%')
      p++;
    else if (*p == '%')
      {
        if (conv)
          {
            *why = FORMAT_INVALID;
            return NULL;
          }
        conv = p;
        conv_end = parse_conversion (p, &f, why);
        if (!conv_end)
          return NULL;
        p = conv_end - 1;
      }
  if (!conv)
    {
      *why = FORMAT_INVALID;
      return NULL;
    }
  *why = FORMAT_OK;
  result = xmemdup (&f, sizeof f);
  result->text = xnmalloc (len + 1, sizeof *result->text);
  result->prefix_len = decode_text (fmt, (size_t) (conv - fmt),
                                    result->text);
  result->suffix_len = decode_text (conv_end, strlen (conv_end),
                                    result->text + result->prefix_len);
  return result;
}

void
policy_format_free (struct subst_format *f)
{
  if (f)
    free (f->text);
  free (f);
}

bool
policy_format_ok (char const *fmt)
{
  enum format_problem why;
  struct subst_format *f = policy_format_parse (fmt, &why);
  bool ok = f != NULL;
  policy_format_free (f);
  return ok;
}

bool
policy_format_encodable (struct subst_format const *f,
                         struct codec const *to, ucs4_t *c)
{
  struct encoder enc;
  size_t i, n = f->prefix_len + f->suffix_len;
  bool ok = true;

  encoder_init (&enc, to);
  for (i = 0; i < n && ok; i++)
    {
      uint8_t buf[2 * MAX_ENCODED];
      size_t one = 1, len = 0;
      if (to->encode (&enc, &f->text[i], &one, buf, &len, sizeof buf)
          == ENCODE_UNENCODABLE)
        {
          *c = f->text[i];
          ok = false;
        }
    }
  encoder_release (&enc);
  return ok;
}

/* One piece of a formatted value: LEN values of TEXT, or LEN times
   FILL when TEXT is NULL.  */
struct piece
{
  ucs4_t const *text;
  ucs4_t fill;
  size_t len;
};

enum { PIECES = 7 };

/* Lay out VALUE formatted with F as printf would write it, in PIECES
   pieces: the text before the conversion, spaces, the sign or 0x (in
   HEAD), zeros, the digits (in DIGITS, 11 at most), spaces, the text
   after.  */
static void
layout (struct subst_format const *f, ucs4_t value, ucs4_t head[2],
        ucs4_t digits[12], struct piece pc[PIECES])
{
  static char const lower[] = "0123456789abcdef";
  static char const upper[] = "0123456789ABCDEF";
  char const *hex = f->conv == 'X' ? upper : lower;
  unsigned int base = (f->conv == 'o' ? 8
                       : f->conv == 'x' || f->conv == 'X' ? 16 : 10);
  uint32_t u = value;
  size_t nh = 0, nd = 0, zeros = 0, len, pad, k;
  ucs4_t rev[12];

  /* d and i take the value as an int.  */
  if ((f->conv == 'd' || f->conv == 'i') && (int32_t) value < 0)
    {
      head[nh++] = '-';
      u = 0u - value;
    }
  if (!(f->precision == 0 && u == 0))
    do
      {
        rev[nd++] = (ucs4_t) hex[u % base];
        u /= base;
      }
    while (u);
  for (k = 0; k < nd; k++)
    digits[k] = rev[nd - 1 - k];
  if (f->precision > 0 && (size_t) f->precision > nd)
    zeros = (size_t) f->precision - nd;
  /* # makes an octal number start with 0, and prefixes a nonzero
     hexadecimal one with 0x.  */
  if (f->conv == 'o' && f->alt && zeros == 0 && (nd == 0 || digits[0] != '0'))
    zeros = 1;
  if ((f->conv == 'x' || f->conv == 'X') && f->alt && value != 0)
    {
      head[nh++] = '0';
      head[nh++] = (ucs4_t) f->conv;
    }
  len = nh + zeros + nd;
  pad = f->width > len ? f->width - len : 0;
  pc[0] = (struct piece) { f->text, 0, f->prefix_len };
  pc[1] = (struct piece) { NULL, ' ', 0 };
  pc[2] = (struct piece) { head, 0, nh };
  pc[3] = (struct piece) { NULL, '0', zeros };
  pc[4] = (struct piece) { digits, 0, nd };
  pc[5] = (struct piece) { NULL, ' ', 0 };
  pc[6] = (struct piece) { f->text + f->prefix_len, 0, f->suffix_len };
  /* - wins over 0, and a precision turns 0 off.  */
  if (f->left)
    pc[5].len = pad;
  else if (f->zero && f->precision < 0)
    pc[3].len += pad;
  else
    pc[1].len = pad;
}

size_t
policy_format_expand (struct subst_format const *f, ucs4_t value,
                      size_t *pos, ucs4_t *buf, size_t cap)
{
  struct piece pc[PIECES];
  ucs4_t head[2], digits[12];
  size_t skip = *pos, out = 0, i, k;

  layout (f, value, head, digits, pc);
  for (i = 0; i < PIECES && out < cap; i++)
    {
      size_t n = pc[i].len;
      if (skip >= n)
        {
          skip -= n;
          continue;
        }
      n -= skip;
      if (n > cap - out)
        n = cap - out;
      if (pc[i].text)
        memcpy (buf + out, pc[i].text + skip, n * sizeof *buf);
      else
        for (k = 0; k < n; k++)
          buf[out + k] = pc[i].fill;
      out += n;
      skip = 0;
    }
  *pos += out;
  return out;
}

/* --- Verdicts ----------------------------------------------------------- */

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
  v->format = NULL;
  v->nvalues = 0;
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
        {
          v->format = cfg->byte_fmt;
          for (i = 0; i < err->len; i++)
            v->values[i] = err->bytes[i];
          v->nvalues = err->len;
        }
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
policy_bytes_plan (struct policy_config const *cfg, struct codec const *to,
                   struct policy_bytes *pb)
{
  bool ascii_bytes = (to->flags & CODEC_ASCII_BYTES) != 0;
  unsigned int b, k;

  memset (pb, 0, sizeof *pb);
  /* An encoder with a state of its own (iconv(3)'s) is not asked.  */
  if (!(to->flags & CODEC_STATEFUL)
      || !((struct stateful_codec const *) to)->encoder_open)
    {
      static ucs4_t const fffd = 0xFFFD;
      struct encoder enc;
      size_t one = 1, len = 0;
      encoder_init (&enc, to);
      if (to->encode (&enc, &fffd, &one, pb->fffd, &len, sizeof pb->fffd)
          == ENCODE_INPUT_EMPTY && one == 1 && enc.pending == 0)
        pb->fffd_len = len;
      encoder_release (&enc);
    }
  switch (cfg->policy)
    {
    case POLICY_REPLACE:
      pb->how = pb->fffd_len > 0 ? BYTES_FFFD : BYTES_NONE;
      break;
    case POLICY_ESCAPE:
      pb->how = !cfg->byte_fmt && ascii_bytes ? BYTES_HEX : BYTES_NONE;
      for (b = 0; b < 256 && pb->how == BYTES_HEX; b++)
        {
          struct verdict v;
          v.len = 0;
          append_byte_escape (&v, (uint8_t) b);
          for (k = 0; k < 4; k++)
            pb->hex[b][k] = (uint8_t) v.cp[k];
        }
      break;
    case POLICY_SURROGATEESCAPE:
      /* As policy_decode_error: raw bytes to such an output.  */
      pb->how = ascii_bytes ? BYTES_RAW : BYTES_NONE;
      break;
    case POLICY_IGNORE:
      pb->how = BYTES_DROP;
      break;
    case POLICY_STRICT:
      pb->how = BYTES_NONE;
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
        {
          v->format = cfg->unicode_fmt;
          v->values[0] = c;
          v->nvalues = 1;
        }
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
