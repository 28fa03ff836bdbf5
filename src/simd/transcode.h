/* Run converters shared by every kernel set.

   Each converter walks its input in 16-byte chunks.  A chunk primitive,
   supplied by the kernel set (a portable loop, or a few vector
   instructions), converts a whole chunk as if it were ASCII and returns
   how many of its leading bytes (or units) really were ASCII; the output
   past that is garbage that the next step overwrites.  The character that
   stopped the chunk is converted here, one at a time, and the walk goes
   on.  Callers guarantee the output room: WIDTH bytes for every input byte
   (UTF-8 to UTF-16/UTF-32) or 3 bytes per unit (UTF-16 to UTF-8).

   These are static inline so that each kernel set gets its own copy with
   its chunk primitive inlined; TC_KERNELS, at the end, makes the kernels
   of a set that has nothing faster from them.

   Where a tail must tell well-formed UTF-8 from the rest, it asks
   src/unicode/utf8.h, the one statement of Unicode's Table 3-7.  */

#ifndef UTF8CONV_TRANSCODE_H
#define UTF8CONV_TRANSCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "unicode/utf8.h"

/* Widen the 16 bytes at S to WIDTH-byte units at OUT (byte order BIG);
   return the length of their ASCII prefix.  */
typedef size_t widen_chunk_fn (uint8_t const *s, uint8_t *out, int width,
                               bool big);

/* Narrow the 8 UTF-16 units at S to bytes at OUT; return the number of
   leading units below 0x80.  */
typedef size_t narrow_chunk_fn (uint8_t const *s, uint8_t *out, bool big);

/* Copy the W bytes at S to OUT (W is 16 or 32, as the kernel set
   chooses); return the length of their ASCII prefix and add the number
   of 0x0A bytes in it to *NEWLINES.  */
typedef size_t copy_chunk_fn (uint8_t const *s, uint8_t *out,
                              size_t *newlines);

static inline void
tc_put (uint8_t *o, uint32_t u, int width, bool big)
{
  int k;
  for (k = 0; k < width; k++)
    o[big ? width - 1 - k : k] = (uint8_t) (u >> (8 * k));
}

/* Convert the well-formed UTF-8 character at S[*I] and advance.  */
static inline size_t
tc_utf8_char (uint8_t const *s, size_t *i, uint8_t *out, int width,
              bool big)
{
  uint8_t b = s[*i];
  uint32_t c;
  if (b < 0x80)
    {
      c = b;
      *i += 1;
    }
  else if (b < 0xE0)
    {
      c = (uint32_t) (b & 0x1F) << 6 | (s[*i + 1] & 0x3F);
      *i += 2;
    }
  else if (b < 0xF0)
    {
      c = ((uint32_t) (b & 0x0F) << 12 | (uint32_t) (s[*i + 1] & 0x3F) << 6
           | (s[*i + 2] & 0x3F));
      *i += 3;
    }
  else
    {
      c = ((uint32_t) (b & 0x07) << 18 | (uint32_t) (s[*i + 1] & 0x3F) << 12
           | (uint32_t) (s[*i + 2] & 0x3F) << 6 | (s[*i + 3] & 0x3F));
      *i += 4;
    }
  if (width == 2 && c >= 0x10000)
    {
      c -= 0x10000;
      tc_put (out, 0xD800 + (c >> 10), 2, big);
      tc_put (out + 2, 0xDC00 + (c & 0x3FF), 2, big);
      return 4;
    }
  tc_put (out, c, width, big);
  return (size_t) width;
}

/* Convert S[0..N), well-formed UTF-8 made of complete characters, to
   UTF-16 (WIDTH 2) or UTF-32 (WIDTH 4).  Returns the bytes written.  */
static inline size_t
tc_utf8_to_wide (uint8_t const *s, size_t n, uint8_t *out, int width,
                 bool big, widen_chunk_fn *chunk)
{
  size_t i = 0, o = 0;
  while (i + 16 <= n)
    {
      size_t a = chunk (s + i, out + o, width, big);
      i += a;
      o += a * (size_t) width;
      if (a < 16)
        do
          o += tc_utf8_char (s, &i, out + o, width, big);
        while (i < n && s[i] >= 0x80);
    }
  while (i < n)
    o += tc_utf8_char (s, &i, out + o, width, big);
  return o;
}

static inline unsigned int
tc_get16 (uint8_t const *s, bool big)
{
  return big ? (unsigned int) s[0] << 8 | s[1]
             : (unsigned int) s[1] << 8 | s[0];
}

/* Convert the UTF-16 at S[2 * *I], one unit or a pair, to UTF-8 at OUT
   and advance; return the bytes written, or 0 (without advancing) at a
   lone surrogate or at a pair that the end of the N units cuts.  */
static inline size_t
tc_utf16_char (uint8_t const *s, size_t *i, size_t n, uint8_t *out,
               bool big)
{
  unsigned int u = tc_get16 (s + 2 * *i, big), u2;
  uint32_t c;
  if (u < 0x80)
    {
      out[0] = (uint8_t) u;
      *i += 1;
      return 1;
    }
  if (u < 0x800)
    {
      out[0] = (uint8_t) (0xC0 | (u >> 6));
      out[1] = (uint8_t) (0x80 | (u & 0x3F));
      *i += 1;
      return 2;
    }
  if (u < 0xD800 || 0xE000 <= u)
    {
      out[0] = (uint8_t) (0xE0 | (u >> 12));
      out[1] = (uint8_t) (0x80 | ((u >> 6) & 0x3F));
      out[2] = (uint8_t) (0x80 | (u & 0x3F));
      *i += 1;
      return 3;
    }
  if (0xDC00 <= u || *i + 1 >= n)
    return 0;
  u2 = tc_get16 (s + 2 * *i + 2, big);
  if (u2 < 0xDC00 || 0xE000 <= u2)
    return 0;
  c = 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00);
  out[0] = (uint8_t) (0xF0 | (c >> 18));
  out[1] = (uint8_t) (0x80 | ((c >> 12) & 0x3F));
  out[2] = (uint8_t) (0x80 | ((c >> 6) & 0x3F));
  out[3] = (uint8_t) (0x80 | (c & 0x3F));
  *i += 2;
  return 4;
}

/* Convert up to N UTF-16 units at S to UTF-8; stop before a lone
   surrogate or a pair cut by the end.  Returns the units used and sets
   *PRODUCED.  */
static inline size_t
tc_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
                  size_t *produced, bool big, narrow_chunk_fn *chunk)
{
  size_t i = 0, o = 0, w;
  while (i + 8 <= n)
    {
      size_t a = chunk (s + 2 * i, out + o, big);
      i += a;
      o += a;
      if (a < 8)
        do
          {
            w = tc_utf16_char (s, &i, n, out + o, big);
            if (w == 0)
              goto done;
            o += w;
          }
        while (i < n && tc_get16 (s + 2 * i, big) >= 0x80);
    }
  while (i < n)
    {
      w = tc_utf16_char (s, &i, n, out + o, big);
      if (w == 0)
        break;
      o += w;
    }
 done:
  *produced = o;
  return i;
}

/* Single-byte encoding to UTF-8 (see struct kernels): ASCII a chunk of
   W bytes at a time, the other bytes through the table.  */
static inline size_t
tc_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,
               uint8_t const (*table)[4], size_t *produced,
               uint64_t *newlines, size_t w, copy_chunk_fn *chunk)
{
  size_t i = 0, o = 0, nl = 0;
  while (i + w < n)
    {
      size_t a = chunk (s + i, out + o, &nl);
      i += a;
      o += a;
      if (a < w)
        do
          {
            uint8_t const *e = table[s[i] - 0x80];
            if (e[3] == 0)
              goto done;
            /* There is room for 4 bytes: 3 a byte, and 2 bytes left.  */
            memcpy (out + o, e, 4);
            o += e[3];
            i++;
          }
        while (i + 1 < n && s[i] >= 0x80);
    }
  for (; i < n; i++)
    {
      uint8_t b = s[i];
      if (b < 0x80)
        {
          out[o++] = b;
          nl += b == '\n';
        }
      else
        {
          uint8_t const *e = table[b - 0x80];
          if (e[3] == 0)
            break;
          memcpy (out + o, e, 3);
          o += e[3];
        }
    }
 done:
  *produced = o;
  *newlines = nl;
  return i;
}

/* The well-formed 2-byte character at S[I], if there is one, through
   TABLE; -1 otherwise.  */
static inline int
tc_utf8_two_to_sb (uint8_t const *s, size_t i, size_t n,
                   int16_t const *table)
{
  struct utf8_lead const *l = &utf8_form.lead[s[i]];
  if (l->more != 1 || n - i < 2 || s[i + 1] < l->lo || l->hi < s[i + 1])
    return -1;
  return table[(s[i] & 0x1F) << 6 | (s[i + 1] & 0x3F)];
}

/* UTF-8 to a single-byte encoding (see struct kernels).  */
static inline size_t
tc_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,
               int16_t const *table, size_t *produced, uint64_t *newlines,
               size_t w, copy_chunk_fn *chunk)
{
  size_t i = 0, o = 0, nl = 0;
  int c;
  while (i + w <= n)
    {
      size_t a = chunk (s + i, out + o, &nl);
      i += a;
      o += a;
      if (a < w)
        do
          {
            c = tc_utf8_two_to_sb (s, i, n, table);
            if (c < 0)
              goto done;
            out[o++] = (uint8_t) c;
            i += 2;
          }
        while (i < n && s[i] >= 0x80);
    }
  while (i < n)
    {
      uint8_t b = s[i];
      if (b < 0x80)
        {
          out[o++] = b;
          nl += b == '\n';
          i++;
          continue;
        }
      c = tc_utf8_two_to_sb (s, i, n, table);
      if (c < 0)
        break;
      out[o++] = (uint8_t) c;
      i += 2;
    }
 done:
  *produced = o;
  *newlines = nl;
  return i;
}

/* The kernels of a set whose only vector code is its chunk primitives:
   PREFIX_utf8_valid_copy, _utf8_to_utf16, _utf8_to_utf32,
   _utf16_to_utf8, _sb_to_utf8 and _utf8_to_sb, static and compiled with
   the target attribute ATTR (empty for the portable set), from the
   converters above and the set's PREFIX_utf8_valid_len,
   PREFIX_count_newlines, PREFIX_widen_chunk, PREFIX_narrow_chunk and
   PREFIX_copy_chunk (16 bytes).  One macro for each kernel, and
   TC_KERNELS for all of them.  */
#define TC_KERNELS(ATTR, PREFIX)                                           \
  TC_UTF8_VALID_COPY (ATTR, PREFIX)                                        \
  TC_UTF8_TO_WIDE (ATTR, PREFIX, utf16, 2)                                 \
  TC_UTF8_TO_WIDE (ATTR, PREFIX, utf32, 4)                                 \
  TC_UTF16_TO_UTF8 (ATTR, PREFIX)                                          \
  TC_SB_TO_UTF8 (ATTR, PREFIX)                                             \
  TC_UTF8_TO_SB (ATTR, PREFIX)

#define TC_UTF8_VALID_COPY(ATTR, PREFIX)                                   \
  ATTR static size_t                                                       \
  PREFIX##_utf8_valid_copy (uint8_t const *s, size_t n, uint8_t *out,      \
                            uint64_t *newlines)                            \
  {                                                                        \
    size_t v = PREFIX##_utf8_valid_len (s, n);                             \
    if (out)                                                               \
      memcpy (out, s, v);                                                  \
    *newlines = PREFIX##_count_newlines (s, v);                            \
    return v;                                                              \
  }

/* PREFIX_utf8_to_utf16 (WIDE utf16, WIDTH 2) or _utf8_to_utf32 (WIDE
   utf32, WIDTH 4).  */
#define TC_UTF8_TO_WIDE(ATTR, PREFIX, WIDE, WIDTH)                         \
  ATTR static size_t                                                       \
  PREFIX##_utf8_to_##WIDE (uint8_t const *s, size_t n, uint8_t *out,       \
                           bool big)                                       \
  {                                                                        \
    return tc_utf8_to_wide (s, n, out, WIDTH, big, PREFIX##_widen_chunk);  \
  }

#define TC_UTF16_TO_UTF8(ATTR, PREFIX)                                     \
  ATTR static size_t                                                       \
  PREFIX##_utf16_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,        \
                          size_t *produced, uint64_t *newlines, bool big)  \
  {                                                                        \
    size_t used = tc_utf16_to_utf8 (s, n, out, produced, big,              \
                                    PREFIX##_narrow_chunk);                \
    *newlines = PREFIX##_count_newlines (out, *produced);                  \
    return used;                                                           \
  }

#define TC_SB_TO_UTF8(ATTR, PREFIX)                                        \
  ATTR static size_t                                                       \
  PREFIX##_sb_to_utf8 (uint8_t const *s, size_t n, uint8_t *out,           \
                       uint8_t const (*table)[4], size_t *produced,        \
                       uint64_t *newlines)                                 \
  {                                                                        \
    return tc_sb_to_utf8 (s, n, out, table, produced, newlines, 16,        \
                          PREFIX##_copy_chunk);                            \
  }

#define TC_UTF8_TO_SB(ATTR, PREFIX)                                        \
  ATTR static size_t                                                       \
  PREFIX##_utf8_to_sb (uint8_t const *s, size_t n, uint8_t *out,           \
                       int16_t const *table, size_t *produced,             \
                       uint64_t *newlines)                                 \
  {                                                                        \
    return tc_utf8_to_sb (s, n, out, table, produced, newlines, 16,        \
                          PREFIX##_copy_chunk);                            \
  }

#endif
