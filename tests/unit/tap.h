/* A tiny TAP (Test Anything Protocol) producer for the C unit tests.

     plan (N)            announce N tests first (optional);
     ok (COND, FMT, ...) print "ok N - DESC" or "not ok N - DESC";
     diag (FMT, ...)     print "# ..." lines (each line of the text);
     done_testing ()     print "1..N" unless planned; the exit status.

   Everything goes to standard output, which is line-buffered so that
   diagnostics of the code under test (on stderr) do not interleave
   inside a TAP line.  */

#ifndef UTF8CONV_TAP_H
#define UTF8CONV_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if defined __GNUC__
# define TAP_UNUSED __attribute__ ((unused))
# define TAP_PRINTF(f, a) __attribute__ ((format (printf, f, a)))
#else
# define TAP_UNUSED
# define TAP_PRINTF(f, a)
#endif

static int tap_count;           /* Tests run so far.  */
static int tap_failed;          /* Of which failed.  */
static int tap_planned = -1;    /* The plan, or -1 when none.  */

static void TAP_UNUSED
plan (int n)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  tap_planned = n;
  printf ("1..%d\n", n);
}

static void TAP_UNUSED TAP_PRINTF (1, 0)
tap_vdiag (char const *fmt, va_list ap)
{
  char buf[8192];
  char const *p = buf, *nl;
  vsnprintf (buf, sizeof buf, fmt, ap);
  do
    {
      nl = strchr (p, '\n');
      if (nl)
        printf ("# %.*s\n", (int) (nl - p), p);
      else
        printf ("# %s\n", p);
      p = nl + 1;
    }
  while (nl && *p);
}

static void TAP_UNUSED TAP_PRINTF (1, 2)
diag (char const *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  tap_vdiag (fmt, ap);
  va_end (ap);
}

/* Print the result of one test; returns COND.  '#' would start a TAP
   directive and a newline would end the line, so neither reaches the
   description.  */
static bool TAP_UNUSED TAP_PRINTF (2, 3)
ok (bool cond, char const *fmt, ...)
{
  char desc[1024];
  char *p;
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (desc, sizeof desc, fmt, ap);
  va_end (ap);
  for (p = desc; *p; p++)
    if (*p == '#' || *p == '\n' || *p == '\r')
      *p = *p == '#' ? '_' : ' ';
  tap_count++;
  if (!cond)
    tap_failed++;
  printf ("%sok %d - %s\n", cond ? "" : "not ", tap_count, desc);
  return cond;
}

/* End the test run; returns the exit status for main.  */
static int TAP_UNUSED
done_testing (void)
{
  if (tap_planned < 0)
    printf ("1..%d\n", tap_count);
  else if (tap_planned != tap_count)
    {
      diag ("planned %d tests but ran %d", tap_planned, tap_count);
      return 1;
    }
  if (tap_failed)
    diag ("failed %d of %d tests", tap_failed, tap_count);
  fflush (stdout);
  return tap_failed ? 1 : 0;
}

#endif
