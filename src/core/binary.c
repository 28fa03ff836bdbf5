/* Binary files: the first control character that text does not hold
   (see binary.h).  */

#include <config.h>

#include "binary.h"

/* The C0 controls that text holds: BS, TAB, LF, VT, FF, CR, SUB (the
   end of a DOS text file) and ESC (terminal colours).  */
#define TEXT_CONTROLS                                                   \
  ((1u << 0x08) | (1u << 0x09) | (1u << 0x0A) | (1u << 0x0B)           \
   | (1u << 0x0C) | (1u << 0x0D) | (1u << 0x1A) | (1u << 0x1B))

int64_t
binary_find (struct codec const *from, uint8_t const *buf,
                      size_t n, bool complete, ucs4_t *c)
{
  enum { CAP = 1024 };
  ucs4_t cp[CAP];
  int64_t off[CAP];
  uint8_t nb[CAP];
  struct pivot p;
  struct decoder d;
  size_t pos = 0;
  int64_t found = -1;

  p.cp = cp;
  p.off = off;
  p.n = nb;
  p.cap = CAP;
  decoder_init (&d, from);
  /* Only the characters count: nothing here is an error.  */
  d.lone_surrogates_ok = true;
  while (found < 0)
    {
      size_t len = n - pos, i;
      enum decode_status st;
      p.len = 0;
      st = from->decode (&d, buf + pos, &len, complete, &p);
      for (i = 0; i < p.len; i++)
        if (cp[i] < 0x20 && !(TEXT_CONTROLS >> cp[i] & 1))
          {
            found = (int64_t) pos + off[i];
            *c = cp[i];
            break;
          }
      pos += len;
      if (st == DECODE_INPUT_EMPTY && pos == n)
        break;
    }
  decoder_release (&d);
  return found;
}
