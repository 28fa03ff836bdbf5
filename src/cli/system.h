/* What every file of the command-line layer shares, as GNU coreutils'
   system.h: the exit statuses, the quoting of file names, and the one
   way to report a write error.  */

#ifndef UTF8CONV_SYSTEM_H
#define UTF8CONV_SYSTEM_H

#include "quotearg.h"

/* Exit statuses (SPEC §2).  exit_failure is EXIT_TROUBLE, so that
   gnulib's close_stdout and xalloc_die exit with it too.  */
enum
{
  EXIT_DATA = 1,                /* Invalid or dropped input.  */
  EXIT_TROUBLE = 2              /* Usage, encoding, file or write trouble.  */
};

/* A file name as the start of a diagnostic ("NAME: ..."), quoted as the
   shell would need it only when it holds something other than plain
   characters (a space, a quote, a colon, a control character, a byte
   that is not printable in the locale), so that no name can forge a
   line or reach the terminal raw.  Which characters are printable is
   LC_CTYPE's say, as with coreutils: UTF-8 names stay readable in a
   UTF-8 locale and are escaped under LC_ALL=C.  */
#define quotef(arg) \
  quotearg_n_style_colon (0, shell_escape_quoting_style, arg)
#define quotef_n(n, arg) \
  quotearg_n_style_colon (n, shell_escape_quoting_style, arg)

/* A file name inside a sentence: always quoted.  */
#define quoteaf(arg) \
  quotearg_n_style (0, shell_escape_always_quoting_style, arg)
#define quoteaf_n(n, arg) \
  quotearg_n_style (n, shell_escape_always_quoting_style, arg)

/* An argument that is not a file name (an encoding's name, a format)
   quoted with quote_n (N, ARG) as in the C locale, whatever LC_CTYPE
   says: only file names are quoted in the user's locale (SPEC §2).  */
char const *quote_c (int n, char const *arg);

/* Report a write error on standard output and exit with EXIT_TROUBLE.  */
_Noreturn void write_error (void);

#endif
