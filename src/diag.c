/* Diagnostics for data errors.  The wording is part of the interface
   (scripts grep it) and does not depend on the locale:

     utf8conv: FILE:LINE: byte OFFSET: invalid ENC: XX YY (REASON)
     utf8conv: FILE:LINE: byte OFFSET: cannot encode U+XXXX in ENC: XX YY
       (unencodable character)

   followed, for the policies that go on, by "; N errors VERB in this
   file".  */

#include <config.h>

#include "diag.h"

#include <inttypes.h>
#include <stdio.h>

#include "progname.h"

char const *
err_kind_text (enum err_kind k)
{
  static char const *const text[ERR_KIND_COUNT] = {
    "no error",
    "unexpected continuation byte",
    "truncated sequence",
    "overlong encoding",
    "surrogate",
    "beyond U+10FFFF",
    "invalid byte",
    "lone surrogate",
    "unencodable character",
  };
  return text[k];
}

void
diag_data_error (char const *file, struct located_error const *e,
                 char const *verb, uint64_t count)
{
  unsigned int i;

  fflush (stdout);
  fprintf (stderr, "%s: %s:%" PRIu64 ": byte %" PRIu64 ": ", program_name,
           file, e->line, e->offset);
  if (e->err.kind == ERR_UNENCODABLE)
    fprintf (stderr, "cannot encode U+%04" PRIX32 " in %s", e->c,
             e->encoding);
  else
    fprintf (stderr, "invalid %s", e->encoding);
  for (i = 0; i < e->err.len; i++)
    fprintf (stderr, "%s%02X", i ? " " : ": ", e->err.bytes[i]);
  fprintf (stderr, " (%s)", err_kind_text (e->err.kind));
  if (verb)
    fprintf (stderr, "; %" PRIu64 " error%s %s in this file", count,
             count == 1 ? "" : "s", verb);
  putc ('\n', stderr);
}
