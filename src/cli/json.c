/* JSON Lines (see json.h).  The UTF-8 decoder of the codec core decides
   what is well-formed, so that the rules of Unicode's Table 3-7 are not
   written out again here.  */

#include <config.h>

#include "json.h"

#include <inttypes.h>
#include <string.h>

#include "codecs/codecs.h"

void
json_begin (struct json *j, FILE *out)
{
  j->out = out;
  j->first = true;
  j->nested = false;
  putc ('{', out);
}

/* Write the separator and "KEY": of the next member.  */
static void
key (struct json *j, char const *k)
{
  if (!j->first)
    putc (',', j->out);
  j->first = false;
  json_bytes (j, NULL, (uint8_t const *) k, strlen (k));
  putc (':', j->out);
}

void
json_begin_member (struct json *outer, char const *k, struct json *inner)
{
  key (outer, k);
  json_begin (inner, outer->out);
  inner->nested = true;
}

void
json_end (struct json *j)
{
  putc ('}', j->out);
  if (!j->nested)
    putc ('\n', j->out);
}

/* Write the well-formed UTF-8 text S[0..N), escaped as JSON needs.  */
static void
put_text (FILE *out, uint8_t const *s, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    {
      uint8_t b = s[i];
      switch (b)
        {
        case '"':
          fputs ("\\\"", out);
          break;
        case '\\':
          fputs ("\\\\", out);
          break;
        case '\n':
          fputs ("\\n", out);
          break;
        case '\r':
          fputs ("\\r", out);
          break;
        case '\t':
          fputs ("\\t", out);
          break;
        default:
          if (b < 0x20 || b == 0x7F)
            fprintf (out, "\\u%04x", b);
          else
            putc (b, out);
        }
    }
}

void
json_bytes (struct json *j, char const *k, uint8_t const *s, size_t n)
{
  enum { CAP = 256 };
  ucs4_t cp[CAP];
  int64_t off[CAP];
  uint8_t nb[CAP];
  struct pivot p = { cp, off, nb, 0, CAP };
  struct decoder d;
  size_t pos = 0;

  if (k)
    key (j, k);
  putc ('"', j->out);
  decoder_init (&d, &codec_utf8);
  for (;;)
    {
      size_t len = n - pos, good;
      enum decode_status st;
      p.len = 0;
      st = codec_utf8.decode (&d, s + pos, &len, true, &p);
      /* Everything before the error, or all that was used, is
         well-formed.  (All the input is there at once, so the decoder
         never holds bytes back for the next call.)  */
      good = (st != DECODE_MALFORMED ? len
              : d.error.rel_offset > 0 ? (size_t) d.error.rel_offset : 0);
      put_text (j->out, s + pos, good);
      if (st == DECODE_MALFORMED)
        {
          unsigned int i;
          for (i = 0; i < d.error.len; i++)
            fprintf (j->out, "\\udc%02x", d.error.bytes[i]);
        }
      pos += len;
      if (st == DECODE_INPUT_EMPTY && pos == n)
        break;
    }
  decoder_release (&d);
  putc ('"', j->out);
}

void
json_string (struct json *j, char const *k, char const *s)
{
  json_bytes (j, k, (uint8_t const *) s, strlen (s));
}

void
json_uint (struct json *j, char const *k, uint64_t n)
{
  key (j, k);
  fprintf (j->out, "%" PRIu64, n);
}

void
json_null (struct json *j, char const *k)
{
  key (j, k);
  fputs ("null", j->out);
}

void
json_bool (struct json *j, char const *k, bool b)
{
  key (j, k);
  fputs (b ? "true" : "false", j->out);
}
