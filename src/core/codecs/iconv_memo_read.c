/* Reading with the decoders' memo (iconv_memo.h): into the pivot
   (memo_decode), and for the fast paths into UTF-8 or UTF-16
   (memo_decode_utf8, memo_decode_form), by one loop made for each
   form.  */

#include <config.h>

#include "iconv_memo.h"

#include "unicode/utf16.h"
#include "unicode/utf8.h"

size_t
memo_decode (struct memo const *m, struct decoder *d, uint8_t const *in,
             size_t n, int64_t rel, struct pivot *p, size_t room,
             size_t *last)
{
  uint32_t const *node = m->node;
  ucs4_t *cp = p->cp;
  int64_t *off = p->off;
  uint8_t *nb = p->n;
  size_t i = 0, len = p->len, start = 0;
  /* As the bridge: no value once less than ROOM is left after any.  */
  size_t max = p->cap >= room ? p->cap - room : 0;
  uint64_t newlines = 0;

  if (m->nodes == 0)
    {
      *last = 0;
      return 0;
    }
  while (i < n && len <= max)
    {
      uint32_t e = node[in[i]];
      size_t k;
      ucs4_t c;
      e = memo_walk (node, e, in + i, n - i, &k);
      if (e & MEMO_CHILD)
        goto out;
      if (!(e & MEMO_CHAR))
        {
          ucs4_t v[MEMO_DEPTH];
          size_t j;
          /* Bytes of no character (memo_lone): as the call of iconv()
             that read them gave their values, the first with all of
             the bytes, the others with none.  */
          if (!(e & MEMO_LONE) || p->cap - len < k
              || !memo_lone_values (node, e, in + i, k, v))
            break;
          for (j = 0; j < k; j++)
            {
              cp[len] = v[j];
              off[len] = rel + (int64_t) i;
              nb[len] = (uint8_t) (j == 0 ? k : 0);
              len++;
              newlines += v[j] == 0x0A;
            }
          start = i;
          i += k;
          continue;
        }
      /* STEP_PUSH, with the pivot's arrays and the newlines kept in
         locals.  */
      c = e & MEMO_VALUE;
      cp[len] = c;
      off[len] = rel + (int64_t) i;
      nb[len] = (uint8_t) k;
      len++;
      newlines += c == 0x0A;
      start = i;
      i += k;
    }
 out:
  *last = start;
  p->len = len;
  d->newlines += newlines;
  return i;
}

/* memo_decode_utf8 and memo_decode_form, into UTF-8 (FORM 0) or UTF-16
   (FORM 1 little-endian, 2 big-endian): the form is a constant in each
   instance.  */
#if defined __GNUC__
__attribute__ ((always_inline))
#endif
static inline size_t
memo_decode_to (struct memo const *m, uint8_t const *in, size_t n,
                uint8_t *out, size_t cap, size_t *produced,
                uint64_t *newlines, size_t *last, int form)
{
  uint32_t const *node = m->node;
  size_t i = 0, o = 0, start = 0;
  uint64_t nl = 0;
  /* Room for 4 bytes while O is at most LIMIT.  */
  size_t limit = cap >= 4 ? cap - 4 : 0;
  bool all_ascii = m->ascii_same == 0x80;

  if (m->nodes > 0 && cap >= 4)
    while (i < n && o <= limit)
      {
        uint8_t b = in[i];
        uint32_t e = node[b];
        size_t k;
        ucs4_t c;
        if (e == (MEMO_CHAR | b) && b < 0x80 && form != 0)
          {
            /* A run of ASCII that decodes to itself, a unit each.  */
            do
              {
                out[o + (form == 2)] = b;
                out[o + (form != 2)] = 0;
                o += 2;
                nl += b == 0x0A;
              }
            while (++i < n && o <= limit && (b = in[i]) < 0x80
                   && node[b] == (MEMO_CHAR | b));
            start = i - 1;
            continue;
          }
        if (e == (MEMO_CHAR | b) && b < 0x80)
          {
            /* A run of ASCII that decodes to itself; with every such
               byte so, a tighter loop.  */
            size_t room = limit + 1 - o, d = o - i;
            size_t end = n - i < room ? n : i + room;
            if (all_ascii)
              do
                {
                  out[i + d] = b;
                  nl += b == 0x0A;
                }
              while (++i < end && (b = in[i]) < 0x80);
            else
              i += memo_ascii_run (node, in + i, end - i, out + o, &nl);
            start = i - 1;
            o = i + d;
            continue;
          }
        e = memo_walk (node, e, in + i, n - i, &k);
        if (e & MEMO_CHILD)
          goto out;
        c = e & MEMO_VALUE;
        if ((e & (MEMO_CHAR | MEMO_LONE)) == MEMO_LONE)
          {
            ucs4_t v[MEMO_DEPTH];
            size_t j;
            /* Bytes of no character (memo_lone): their values.  */
            if (cap - o < 4 * k || !memo_lone_values (node, e, in + i, k, v))
              break;
            for (j = 0; j < k; j++)
              {
                o += (form == 0 ? (size_t) utf8_put (v[j], out + o)
                      : utf16_put (v[j], out + o, form == 2));
                nl += v[j] == 0x0A;
              }
            start = i;
            i += k;
            continue;
          }
        if (!(e & MEMO_CHAR) || (0xD800 <= c && c < 0xE000))
          break;
        o += (form == 0 ? (size_t) utf8_put (c, out + o)
              : utf16_put (c, out + o, form == 2));
        nl += c == 0x0A;
        start = i;
        i += k;
      }
 out:
  *last = start;
  *produced = o;
  *newlines = nl;
  return i;
}

size_t
memo_decode_utf8 (struct memo const *m, uint8_t const *in, size_t n,
                  uint8_t *out, size_t cap, size_t *produced,
                  uint64_t *newlines, size_t *last)
{
  return memo_decode_to (m, in, n, out, cap, produced, newlines, last, 0);
}

size_t
memo_decode_form (struct memo const *m, uint8_t const *in, size_t n,
                  uint8_t *out, size_t cap, size_t *produced,
                  uint64_t *newlines, size_t *last, int form)
{
  return (form == 0
          ? memo_decode_to (m, in, n, out, cap, produced, newlines, last, 0)
          : form == 1
          ? memo_decode_to (m, in, n, out, cap, produced, newlines, last, 1)
          : memo_decode_to (m, in, n, out, cap, produced, newlines, last,
                            2));
}
