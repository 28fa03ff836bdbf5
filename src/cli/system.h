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
   that is not UTF-8), so that no name can forge a line or reach the
   terminal raw.  */
#define quotef(arg) \
  quotearg_n_style_colon (0, shell_escape_quoting_style, arg)
#define quotef_n(n, arg) \
  quotearg_n_style_colon (n, shell_escape_quoting_style, arg)

/* A file name inside a sentence: always quoted.  */
#define quoteaf(arg) \
  quotearg_n_style (0, shell_escape_always_quoting_style, arg)
#define quoteaf_n(n, arg) \
  quotearg_n_style (n, shell_escape_always_quoting_style, arg)

/* Report a write error on standard output and exit with EXIT_TROUBLE.  */
_Noreturn void write_error (void);

#endif
