/* Which UCS-4 the iconv(3) bridge and tables give iconv_open
   (iconv_ucs4.h).  */

#include <config.h>

#include "iconv_ucs4.h"

#include <iconv.h>
#include <stdint.h>
#include <string.h>

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

/* Convert S[0..LEN) with CD, from its initial state, and flush it, into
   OUT[0..ROOM): the bytes written, or 0 after any error.  */
static size_t
convert_all (iconv_t cd, char const *s, size_t len, uint32_t *out,
             size_t room)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) s;
  char *op = (char *) out;
  size_t il = len, ol = room;
  iconv (cd, NULL, NULL, NULL, NULL);
  if (iconv (cd, &ip, &il, &op, &ol) == (size_t) -1
      || iconv (cd, NULL, NULL, &op, &ol) == (size_t) -1)
    return 0;
  return room - ol;
}

bool
memo_host_form (void)
{
  static int known = -1;
  if (known < 0)
    {
      static char const text[] = "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
      static uint32_t const want[] = { 0x41, 0xE9, 0x20AC, 0x1F600 };
      iconv_t cd = iconv_open ("WCHAR_T", "UTF-8");
      uint32_t got[8];
      known = 0;
      if (cd == (iconv_t) -1)
        return false;
      known = (convert_all (cd, text, sizeof text - 1, got, sizeof got)
               == sizeof want
               && memcmp (got, want, sizeof want) == 0);
      iconv_close (cd);
    }
  return known;
}

char const *
memo_ucs4 (void)
{
  static uint32_t const one = 1;
  uint8_t low;
  memcpy (&low, &one, 1);
  return low == 1 && memo_host_form () ? "WCHAR_T" : "UTF-32LE";
}

char const *
memo_ucs4_from (char const *fromcode)
{
  static struct
  {
    char s[6];
    unsigned char len;
  } const witness[] = {
    { "\xf8\x88\x80\x80\x80", 5 }, { "\xf4\x90\x80\x80", 4 },
    { "\xed\xa0\x80", 3 }, { "+3AA-", 5 }, { "+2AA-", 5 }, { "&3AA-", 5 },
    { "\x00\xd8\x00\x00", 4 }, { "\x00\x00\xd8\x00", 4 },
    { "\x00\xdc", 2 }, { "\xdc\x00", 2 }
  };
  char const *name = memo_ucs4 ();
  iconv_t cd;
  size_t k;

  if (strcmp (name, "WCHAR_T") != 0
      || (cd = iconv_open (name, fromcode)) == (iconv_t) -1)
    return "UTF-32LE";
  for (k = 0; k < sizeof witness / sizeof *witness; k++)
    {
      /* What the witness gives before an error too, as the decoder
         would give it.  */
      uint32_t out[8];
      ICONV_CONST char *ip = (ICONV_CONST char *) witness[k].s;
      char *op = (char *) out;
      size_t il = witness[k].len, ol = sizeof out, j;
      iconv (cd, NULL, NULL, NULL, NULL);
      if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1)
        iconv (cd, NULL, NULL, &op, &ol);
      for (j = 0; j < (sizeof out - ol) / 4; j++)
        if ((0xD800 <= out[j] && out[j] < 0xE000) || 0x10FFFF < out[j])
          {
            iconv_close (cd);
            return "UTF-32LE";
          }
    }
  iconv_close (cd);
  return name;
}
