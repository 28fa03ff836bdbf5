/* Line endings on bytes (see eol.h).

   The text is searched with memchr, which the C library does a vector
   at a time: on text without CR, the common case, a buffer under
   EOL_LF costs one search and no copy.  DOS text to EOL_LF goes through
   the kernel drop_crlf (src/simd/kernels.h).  */

#include <config.h>

#include "eol.h"

#include <string.h>

#include "simd/kernels.h"

unsigned int
eol_break (enum eol_mode mode, uint32_t brk[2])
{
  switch (mode)
    {
    case EOL_LF:
      brk[0] = 0x0A;
      return 1;
    case EOL_CR:
      brk[0] = 0x0D;
      return 1;
    case EOL_CRLF:
      brk[0] = 0x0D;
      brk[1] = 0x0A;
      return 2;
    case EOL_KEEP:
    default:
      return 0;
    }
}

size_t
eol_plain_len (enum eol_mode mode, uint8_t const *s, size_t n)
{
  uint8_t const *p;
  if (eol_changes_lf (mode))
    {
      p = memchr (s, '\n', n);
      if (p)
        n = (size_t) (p - s);
    }
  p = memchr (s, '\r', n);
  return p ? (size_t) (p - s) : n;
}

/* Write the break of MODE at OUT; returns its length.  */
static inline size_t
put_break (enum eol_mode mode, uint8_t *out)
{
  if (mode == EOL_CRLF)
    {
      out[0] = '\r';
      out[1] = '\n';
      return 2;
    }
  out[0] = mode == EOL_CR ? '\r' : '\n';
  return 1;
}

/* Write what the mode makes of a lone CR at OUT: the break with
   --eol-from=cr, else the CR itself (data, as dos2unix keeps it).
   Returns its length.  */
static inline size_t
put_lone_cr (struct eol_state const *st, uint8_t *out)
{
  if (st->cr_breaks)
    return put_break (st->mode, out);
  out[0] = '\r';
  return 1;
}

/* A CR or an LF is at S[I]: count what it begins and return its
   length (2 for a CR LF pair, 1 for a lone CR or LF), or 0 when it is
   a CR that ends S and is now held.  */
static inline size_t
read_break (struct eol_state *st, uint8_t const *s, size_t i, size_t n)
{
  if (s[i] == '\n')
    return 1;
  if (i + 1 == n)
    {
      st->held_cr = true;
      return 0;
    }
  if (s[i + 1] == '\n')
    {
      st->crlf++;
      return 2;
    }
  st->cr++;
  return 1;
}

/* The CR held from an earlier call meets S[0..N), N > 0: count what
   it is; returns the bytes of S it takes (1, the LF of a pair, or 0
   when the CR is lone).  */
static inline size_t
resolve_held (struct eol_state *st, uint8_t const *s)
{
  st->held_cr = false;
  if (s[0] == '\n')
    {
      st->crlf++;
      return 1;
    }
  st->cr++;
  return 0;
}

/* Copy the bytes S[I..N) to OUT + *W up to the first break that the
   mode may change, converting the CR LF pairs on the way under EOL_LF
   (the kernel counts them by the bytes it drops; it stops before a
   lone CR, which the caller counts and writes).  Returns the break's
   offset, N if none.  */
static inline size_t
copy_plain (struct eol_state *st, uint8_t const *s, size_t i, size_t n,
            uint8_t *out, size_t *w)
{
  size_t j;
  if (st->mode == EOL_LF && kernels)
    {
      size_t written;
      j = i + kernels->drop_crlf (s + i, n - i, out + *w, &written);
      st->crlf += (j - i) - written;
      *w += written;
      return j;
    }
  j = i + eol_plain_len (st->mode, s + i, n - i);
  memcpy (out + *w, s + i, j - i);
  *w += j - i;
  return j;
}

size_t
eol_convert_bytes (struct eol_state *st, uint8_t const *s, size_t n,
                   uint8_t *out)
{
  size_t i = 0, w = 0;

  if (n == 0)
    return 0;
  if (st->held_cr)
    {
      i = resolve_held (st, s);
      w = i ? put_break (st->mode, out) : put_lone_cr (st, out);
    }
  while (i < n)
    {
      size_t j = copy_plain (st, s, i, n, out, &w), len;
      if (j == n)
        break;
      len = read_break (st, s, j, n);
      if (len == 0)
        break;
      i = j + len;
      w += (len == 1 && s[j] == '\r' ? put_lone_cr (st, out + w)
            : put_break (st->mode, out + w));
    }
  return w;
}

size_t
eol_convert_in_place (struct eol_state *st, uint8_t *buf, size_t n,
                      uint8_t *scratch)
{
  size_t k = eol_plain_len (st->mode, buf, n);
  if (k == n)
    return n;
  memcpy (scratch, buf + k, n - k);
  return k + eol_convert_bytes (st, scratch, n - k, buf + k);
}

void
eol_count_bytes (struct eol_state *st, uint8_t const *s, size_t n)
{
  size_t i = 0;
  uint8_t const *p;

  if (n == 0)
    return;
  if (st->held_cr)
    i = resolve_held (st, s);
  while (i < n && (p = memchr (s + i, '\r', n - i)) != NULL)
    {
      size_t j = (size_t) (p - s), len = read_break (st, s, j, n);
      if (len == 0)
        break;
      i = j + len;
    }
}

void
eol_count_values (struct eol_state *st, uint32_t const *cp, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    {
      if (st->held_cr)
        {
          st->held_cr = false;
          if (cp[i] == 0x0A)
            {
              st->crlf++;
              continue;
            }
          st->cr++;
        }
      st->held_cr = cp[i] == 0x0D;
    }
}
