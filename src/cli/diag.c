/* Diagnostics.  The wording of data errors is part of the interface
   (scripts grep it) and does not depend on the locale:

     utf8conv: FILE:LINE: byte OFFSET: invalid ENC: XX YY (REASON)
     utf8conv: FILE:LINE: byte OFFSET: cannot encode U+XXXX in ENC: XX YY
       (unencodable character)

   followed, for the policies that go on, by "; N errors VERB in this
   file".  FILE is quoted as coreutils quotes names (system.h).  */

#include <config.h>

#include "diag.h"

#include <inttypes.h>
#include <locale.h>
#include <stdio.h>

#include "error.h"
#include "progname.h"
#include "quote.h"

#include "progress.h"
#include "system.h"

/* gnulib's error () calls this instead of printing the program's name
   itself.  */
static void
print_progname (void)
{
  fflush (stdout);
  progress_clear_active ();
  fprintf (stderr, "%s: ", program_name);
}

void
diag_init (void)
{
  error_print_progname = print_progname;
}

char const *
quote_c (int n, char const *arg)
{
  static locale_t c_locale;
  static bool tried;
  locale_t old = (locale_t) 0;
  char const *q;

  if (!tried)
    {
      tried = true;
      c_locale = newlocale (LC_CTYPE_MASK, "C", (locale_t) 0);
    }
  if (c_locale)
    old = uselocale (c_locale);
  q = quote_n (n, arg);
  if (c_locale)
    uselocale (old);
  return q;
}

void
diag_verbose (char const *file)
{
  fflush (stdout);
  progress_clear_active ();
  fprintf (stderr, "%s:\n", quotef (file));
}

void
diag_data_error (char const *file, struct data_error const *e,
                 char const *verb, uint64_t count)
{
  unsigned int i;

  print_progname ();
  fprintf (stderr, "%s:%" PRIu64 ": byte %" PRIu64 ": ", quotef (file),
           e->line, e->offset);
  if (e->err.kind == ERR_UNENCODABLE)
    fprintf (stderr, "cannot encode U+%04" PRIX32 " in %s", e->c,
             e->encoding);
  else
    fprintf (stderr, "invalid %s", e->encoding);
  for (i = 0; i < e->err.len; i++)
    fprintf (stderr, "%s%02X", i ? " " : ": ", e->err.bytes[i]);
  /* A byte that the code page leaves undefined names it (-f auto reads
     legacy text and the bytes of mixed files in one).  */
  if (e->err.kind == ERR_UNDEFINED)
    fprintf (stderr, " (undefined in %s)", e->encoding);
  else
    fprintf (stderr, " (%s)", err_kind_text (e->err.kind));
  if (verb)
    fprintf (stderr, "; %" PRIu64 " error%s %s in this file", count,
             count == 1 ? "" : "s", verb);
  putc ('\n', stderr);
}

void
diag_stop (void *arg, char const *file, struct data_error const *e)
{
  (void) arg;
  if (e->stopped)
    diag_data_error (file, e, NULL, 0);
}

void
diag_handled (char const *file, struct file_stats const *s,
              enum policy policy)
{
  if (s->handled > 0 && !s->stopped)
    diag_data_error (file, &s->first, policy_verb (policy), s->handled);
}
