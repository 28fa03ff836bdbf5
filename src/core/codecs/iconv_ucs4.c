/* Which UCS-4 the iconv(3) bridge and tables give iconv_open
   (iconv_memo.h): glibc's own, WCHAR_T, where it reads and writes what
   UTF-32LE does for every value the bridge may meet.  */

#include <config.h>

#include "iconv_memo.h"

#include <stdint.h>
#include <string.h>

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
      uint8_t out[4 * 8];
      size_t used, bytes, j;
      int err;
      iconv (cd, NULL, NULL, NULL, NULL);
      bytes = bridge_convert (cd, (uint8_t const *) witness[k].s,
                              witness[k].len, out, sizeof out, &used, &err);
      if (err == 0)
        {
          /* And what the flush gives.  */
          char *op = (char *) out + bytes;
          size_t ol = sizeof out - bytes;
          iconv (cd, NULL, NULL, &op, &ol);
          bytes = sizeof out - ol;
        }
      for (j = 0; j + 4 <= bytes; j += 4)
        if (memo_value_at (true, out + j) == UINT32_MAX)
          {
            iconv_close (cd);
            return "UTF-32LE";
          }
    }
  iconv_close (cd);
  return name;
}
