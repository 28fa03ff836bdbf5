/* The reference decoders and the pipeline model (see reference.h).

   Written for clarity: one loop per encoding form, the table of Unicode
   15 §3.9 Table 3-7 typed as it is printed, no state carried between
   buffers (the reference always sees the whole input).  */

#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Unicode 15, §3.9, Table 3-7: Well-Formed UTF-8 Byte Sequences.  One
   row per line of the table: the range of the first byte, then the
   ranges of the bytes that follow it.  */
static struct
{
  uint8_t first_lo, first_hi;
  unsigned int len;
  uint8_t lo[3], hi[3];
} const table_3_7[] = {
  /* U+0080..U+07FF */     { 0xC2, 0xDF, 2, { 0x80 }, { 0xBF } },
  /* U+0800..U+0FFF */     { 0xE0, 0xE0, 3, { 0xA0, 0x80 }, { 0xBF, 0xBF } },
  /* U+1000..U+CFFF */     { 0xE1, 0xEC, 3, { 0x80, 0x80 }, { 0xBF, 0xBF } },
  /* U+D000..U+D7FF */     { 0xED, 0xED, 3, { 0x80, 0x80 }, { 0x9F, 0xBF } },
  /* U+E000..U+FFFF */     { 0xEE, 0xEF, 3, { 0x80, 0x80 }, { 0xBF, 0xBF } },
  /* U+10000..U+3FFFF */   { 0xF0, 0xF0, 4, { 0x90, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF } },
  /* U+40000..U+FFFFF */   { 0xF1, 0xF3, 4, { 0x80, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF } },
  /* U+100000..U+10FFFF */ { 0xF4, 0xF4, 4, { 0x80, 0x80, 0x80 },
                             { 0x8F, 0xBF, 0xBF } },
};

static size_t
decode_utf8 (uint8_t const *s, size_t n, struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = { false, 0, i, 1 };
      size_t row, rows = sizeof table_3_7 / sizeof table_3_7[0];

      if (s[i] <= 0x7F)
        {
          it.cp = s[i];
          items[count++] = it;
          i++;
          continue;
        }
      for (row = 0; row < rows; row++)
        if (table_3_7[row].first_lo <= s[i] && s[i] <= table_3_7[row].first_hi)
          break;
      if (row == rows)
        {
          /* No well-formed sequence starts with this byte: its maximal
             subpart is the byte alone.  */
          it.error = true;
          items[count++] = it;
          i++;
          continue;
        }
      /* The maximal subpart: the longest prefix of a well-formed
         sequence that the input holds.  */
      {
        unsigned int k = 1, len = table_3_7[row].len;
        while (k < len && i + k < n
               && table_3_7[row].lo[k - 1] <= s[i + k]
               && s[i + k] <= table_3_7[row].hi[k - 1])
          k++;
        it.len = k;
        if (k < len)
          it.error = true;
        else
          {
            uint32_t c = s[i] & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
            for (k = 1; k < len; k++)
              c = c << 6 | (s[i + k] & 0x3F);
            it.cp = c;
          }
        items[count++] = it;
        i += it.len;
      }
    }
  return count;
}

static unsigned int
unit16 (uint8_t const *s, bool big)
{
  return big ? (unsigned int) s[0] << 8 | s[1]
             : (unsigned int) s[1] << 8 | s[0];
}

static uint32_t
unit32 (uint8_t const *s, bool big)
{
  return big ? (uint32_t) s[0] << 24 | (uint32_t) s[1] << 16
               | (uint32_t) s[2] << 8 | s[3]
             : (uint32_t) s[3] << 24 | (uint32_t) s[2] << 16
               | (uint32_t) s[1] << 8 | s[0];
}

/* Unicode §3.9 D91 (UTF-16) with Python's error units: one error per lone
   surrogate unit; an incomplete tail at the end (an odd byte, or a high
   surrogate with no room for a partner) is one error.  */
static size_t
decode_utf16 (uint8_t const *s, size_t n, bool big, bool lone_ok,
              struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = { false, 0, i, 2 };
      unsigned int u;
      if (n - i < 2)
        {
          it.error = true;
          it.len = (unsigned int) (n - i);
          items[count++] = it;
          break;
        }
      u = unit16 (s + i, big);
      it.cp = u;
      if (0xD800 <= u && u <= 0xDBFF)
        {
          if (n - i >= 4 && 0xDC00 <= unit16 (s + i + 2, big)
              && unit16 (s + i + 2, big) <= 0xDFFF)
            {
              it.cp = 0x10000 + ((u - 0xD800) << 10)
                      + (unit16 (s + i + 2, big) - 0xDC00);
              it.len = 4;
            }
          else if (lone_ok)
            ;
          else if (n - i < 4)
            {
              it.error = true;
              it.len = (unsigned int) (n - i);
            }
          else
            it.error = true;
        }
      else if (0xDC00 <= u && u <= 0xDFFF && !lone_ok)
        it.error = true;
      items[count++] = it;
      i += it.len;
    }
  return count;
}

/* Unicode §3.9 D90 (UTF-32): one error per 4-byte unit that is not a
   scalar value; an incomplete unit at the end is one error.  */
static size_t
decode_utf32 (uint8_t const *s, size_t n, bool big, bool lone_ok,
              struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = { false, 0, i, 4 };
      if (n - i < 4)
        {
          it.error = true;
          it.len = (unsigned int) (n - i);
          items[count++] = it;
          break;
        }
      it.cp = unit32 (s + i, big);
      if (it.cp > 0x10FFFF
          || (0xD800 <= it.cp && it.cp <= 0xDFFF && !lone_ok))
        it.error = true;
      items[count++] = it;
      i += 4;
    }
  return count;
}

enum ref_form
ref_form_by_name (char const *name)
{
  static char const *const names[] = {
    "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE",
    "UTF-32"
  };
  int i;
  for (i = 0; i < REF_NONE; i++)
    if (strcasecmp (name, names[i]) == 0)
      return (enum ref_form) i;
  return REF_NONE;
}

size_t
ref_decode (enum ref_form form, uint8_t const *s, size_t n, bool lone_ok,
            struct ref_item *items)
{
  switch (form)
    {
    case REF_UTF8:
      return decode_utf8 (s, n, items);
    case REF_UTF16LE:
      return decode_utf16 (s, n, false, lone_ok, items);
    case REF_UTF16BE:
      return decode_utf16 (s, n, true, lone_ok, items);
    case REF_UTF16:
      /* RFC 2781 §4.3: big-endian unless marked little-endian.  */
      return decode_utf16 (s, n, !(n >= 2 && s[0] == 0xFF && s[1] == 0xFE),
                           lone_ok, items);
    case REF_UTF32LE:
      return decode_utf32 (s, n, false, lone_ok, items);
    case REF_UTF32BE:
      return decode_utf32 (s, n, true, lone_ok, items);
    case REF_UTF32:
      return decode_utf32 (s, n, !(n >= 4 && s[0] == 0xFF && s[1] == 0xFE
                                   && s[2] == 0 && s[3] == 0),
                           lone_ok, items);
    default:
      abort ();
    }
}

bool
ref_well_formed (enum ref_form form, uint8_t const *s, size_t n,
                 bool lone_ok)
{
  struct ref_item *items = malloc ((n + 1) * sizeof *items);
  size_t i, count = ref_decode (form, s, n, lone_ok, items);
  bool ok = true;
  for (i = 0; i < count; i++)
    if (items[i].error)
      ok = false;
  free (items);
  return ok;
}

/* Encode C in FORM (UTF-16 and UTF-32 unmarked: little-endian) at OUT;
   return the length, or -1 if FORM cannot hold C.  */
static int
encode (enum ref_form form, uint32_t c, uint8_t *out)
{
  int k;
  bool big = form == REF_UTF16BE || form == REF_UTF32BE;
  switch (form)
    {
    case REF_UTF8:
      if (0xD800 <= c && c <= 0xDFFF)
        return -1;
      if (c < 0x80)
        {
          out[0] = (uint8_t) c;
          return 1;
        }
      if (c < 0x800)
        {
          out[0] = (uint8_t) (0xC0 | c >> 6);
          out[1] = (uint8_t) (0x80 | (c & 0x3F));
          return 2;
        }
      if (c < 0x10000)
        {
          out[0] = (uint8_t) (0xE0 | c >> 12);
          out[1] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
          out[2] = (uint8_t) (0x80 | (c & 0x3F));
          return 3;
        }
      out[0] = (uint8_t) (0xF0 | c >> 18);
      out[1] = (uint8_t) (0x80 | (c >> 12 & 0x3F));
      out[2] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
      out[3] = (uint8_t) (0x80 | (c & 0x3F));
      return 4;
    case REF_UTF16LE:
    case REF_UTF16BE:
    case REF_UTF16:
      if (c >= 0x10000)
        {
          uint32_t v = c - 0x10000;
          encode (form, 0xD800 + (v >> 10), out);
          encode (form, 0xDC00 + (v & 0x3FF), out + 2);
          return 4;
        }
      out[big ? 0 : 1] = (uint8_t) (c >> 8);
      out[big ? 1 : 0] = (uint8_t) c;
      return 2;
    case REF_UTF32LE:
    case REF_UTF32BE:
    case REF_UTF32:
      for (k = 0; k < 4; k++)
        out[big ? 3 - k : k] = (uint8_t) (c >> (8 * k));
      return 4;
    default:
      abort ();
    }
}

/* The conversion in progress.  */
struct model
{
  enum ref_form to;
  enum ref_policy policy;
  bool bom_wanted;
  struct ref_result *r;
  size_t cap;
};

static void
put_bytes (struct model *m, uint8_t const *b, size_t len)
{
  struct ref_result *r = m->r;
  /* A BOM goes out with the first output, never alone (SPEC §10).  */
  if (m->bom_wanted)
    {
      uint8_t bom[4];
      m->bom_wanted = false;
      put_bytes (m, bom, (size_t) encode (m->to, 0xFEFF, bom));
    }
  if (r->outlen + len > m->cap)
    {
      m->cap = 2 * (r->outlen + len) + 64;
      r->out = realloc (r->out, m->cap);
    }
  memcpy (r->out + r->outlen, b, len);
  r->outlen += len;
}

static void
stop (struct model *m, uint64_t offset, uint64_t line)
{
  m->r->stopped = true;
  m->r->stop_offset = offset;
  m->r->stop_line = line;
}

static void
count_error (struct model *m, uint64_t offset, uint64_t line)
{
  if (m->r->errors++ == 0)
    {
      m->r->first_offset = offset;
      m->r->first_line = line;
    }
}

static void
put_text (struct model *m, char const *text)
{
  uint8_t buf[4];
  for (; *text; text++)
    put_bytes (m, buf, (size_t) encode (m->to, (unsigned char) *text, buf));
}

/* Write C, from the input at OFFSET and LINE; false after a stop.  */
static bool
put_char (struct model *m, uint32_t c, uint64_t offset, uint64_t line)
{
  uint8_t buf[8];
  char text[16];
  int len = encode (m->to, c, buf);
  if (len >= 0)
    {
      put_bytes (m, buf, (size_t) len);
      return true;
    }
  /* C cannot be encoded: only a lone surrogate going to UTF-8 here.  */
  switch (m->policy)
    {
    case REF_STRICT:
      stop (m, offset, line);
      return false;
    case REF_REPLACE:
      count_error (m, offset, line);
      return put_char (m, 0xFFFD, offset, line);
    case REF_ESCAPE:
      count_error (m, offset, line);
      snprintf (text, sizeof text, c < 0x100 ? "\\x%02x"
                : c < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned int) c);
      put_text (m, text);
      return true;
    case REF_SURROGATEESCAPE:
      /* PEP 383: U+DC80..U+DCFF go back to the byte they came from, in a
         byte-oriented output; anything else is handled as strict.  */
      if (m->to == REF_UTF8 && 0xDC80 <= c && c <= 0xDCFF)
        {
          buf[0] = (uint8_t) (c - 0xDC00);
          put_bytes (m, buf, 1);
          return true;
        }
      stop (m, offset, line);
      return false;
    case REF_IGNORE:
      count_error (m, offset, line);
      m->r->dropped = true;
      return true;
    }
  abort ();
}

void
ref_convert (enum ref_form from, enum ref_form to, enum ref_policy policy,
             enum ref_bom bom, uint8_t const *s, size_t n,
             struct ref_result *r)
{
  struct ref_item *items = malloc ((n + 1) * sizeof *items);
  size_t count, i = 0, k;
  uint64_t line = 1;
  struct model m;

  memset (r, 0, sizeof *r);
  count = ref_decode (from, s, n, policy == REF_SURROGATEESCAPE, items);

  /* --bom=strip: unmarked UTF-16/UTF-32 output is big-endian.  */
  if (bom == REF_BOM_STRIP && to == REF_UTF16)
    to = REF_UTF16BE;
  if (bom == REF_BOM_STRIP && to == REF_UTF32)
    to = REF_UTF32BE;
  m.to = to;
  m.policy = policy;
  m.r = r;
  m.cap = 64;
  r->out = malloc (m.cap);
  /* A leading U+FEFF is a signature (SPEC §6, §10).  */
  if (count > 0 && !items[0].error && items[0].cp == 0xFEFF)
    i = 1;
  m.bom_wanted = (bom == REF_BOM_ADD || to == REF_UTF16 || to == REF_UTF32
                  || (bom == REF_BOM_AUTO && i == 1));

  for (; i < count; i++)
    {
      struct ref_item const *it = &items[i];
      char text[8];
      if (!it->error)
        {
          if (!put_char (&m, it->cp, it->offset, line))
            break;
          line += it->cp == 0x0A;
          continue;
        }
      if (policy == REF_STRICT)
        {
          stop (&m, it->offset, line);
          break;
        }
      if (policy == REF_SURROGATEESCAPE)
        {
          bool ascii = false;
          for (k = 0; k < it->len; k++)
            ascii |= s[it->offset + k] < 0x80;
          if (ascii)
            {
              stop (&m, it->offset, line);
              break;
            }
        }
      count_error (&m, it->offset, line);
      switch (policy)
        {
        case REF_REPLACE:
          put_char (&m, 0xFFFD, it->offset, line);
          break;
        case REF_ESCAPE:
          for (k = 0; k < it->len; k++)
            {
              snprintf (text, sizeof text, "\\x%02x", s[it->offset + k]);
              put_text (&m, text);
            }
          break;
        case REF_SURROGATEESCAPE:
          for (k = 0; k < it->len; k++)
            if (!put_char (&m, 0xDC00 + s[it->offset + k], it->offset, line))
              break;
          break;
        case REF_IGNORE:
          r->dropped = true;
          break;
        default:
          abort ();
        }
      if (r->stopped)
        break;
    }
  free (items);
}
