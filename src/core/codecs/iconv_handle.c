/* Opening the iconv_t of the bridge's decoders and encoders
   (iconv_handle.h).  */

#include <config.h>

#include "iconv_handle.h"

#include <errno.h>
#include <stdlib.h>

#include "error.h"
#include "xalloc.h"

iconv_t
bridge_iconv_open (char const *tocode, char const *fromcode)
{
  iconv_t cd = iconv_open (tocode, fromcode);
  if (cd == (iconv_t) -1)
    {
      if (errno == ENOMEM)
        xalloc_die ();
      error (EXIT_FAILURE + 1, errno, "iconv_open (\"%s\", \"%s\")",
             tocode, fromcode);
    }
  return cd;
}

struct handle *
bridge_open_handle (char const *tocode, char const *fromcode)
{
  struct handle *h = xzalloc (sizeof *h);
  h->cd = bridge_iconv_open (tocode, fromcode);
  h->probe = (iconv_t) -1;
  h->fromcode = fromcode;
  return h;
}

void
bridge_close_handle (struct handle *h)
{
  iconv_close (h->cd);
  if (h->probe != (iconv_t) -1)
    iconv_close (h->probe);
  free (h);
}
