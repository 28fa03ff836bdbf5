/* The names iconv(3) offers, for --list and for suggestions
   (iconv_bridge.h): GNU libiconv lists them with iconvlist(); glibc has
   no API for its list, so "iconv --list" is run.  */

#include <config.h>

#include "iconv_bridge.h"

#include <errno.h>
#include <locale.h>
#include <iconv.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "xalloc.h"

/* What iconv_bridge_list prints, and which names.  */
struct list_filter
{
  FILE *out;
  bool (*keep) (char const *, void *);
  void *arg;
};

#ifdef _LIBICONV_VERSION

/* GNU libiconv lists its names with iconvlist().  */

static int
list_one (unsigned int count, char const *const *names, void *data)
{
  struct list_filter const *lf = data;
  unsigned int k;
  bool any = false;
  for (k = 0; k < count; k++)
    if (lf->keep (names[k], lf->arg))
      {
        fprintf (lf->out, "%s%s", any ? " " : "", names[k]);
        any = true;
      }
  if (any)
    putc ('\n', lf->out);
  return 0;
}

bool
iconv_bridge_list (FILE *out, bool (*keep) (char const *, void *),
                   void *arg)
{
  struct list_filter lf = { out, keep, arg };
  fputs ("Encodings from iconv(3) (GNU libiconv):\n", out);
  iconvlist (list_one, &lf);
  return true;
}

struct name_fn
{
  void (*fn) (char const *, void *);
  void *arg;
};

static int
names_one (unsigned int count, char const *const *names, void *data)
{
  struct name_fn const *nf = data;
  unsigned int k;
  for (k = 0; k < count; k++)
    nf->fn (names[k], nf->arg);
  return 0;
}

bool
iconv_bridge_names (void (*fn) (char const *name, void *arg), void *arg)
{
  struct name_fn nf;
  nf.fn = fn;
  nf.arg = arg;
  iconvlist (names_one, &nf);
  return true;
}

#else

/* glibc has no API for its list: run "iconv --list", whose output to a
   pipe is one name a line, each ending in "//".  */

extern char **environ;

/* Run "iconv --list" and call FN with each name that iconv(3) opens
   both ways, and ARG; say why it failed unless QUIET.  The program may
   not be this iconv(3)'s: a static build with musl, or one run under
   qemu-user without the target's gconv modules, asks the host's
   iconv(1), which knows names this one lacks; they are left out, so
   that --list and the suggestions for an unknown name offer only what
   works (0.2 s for glibc's 1,200 names).  */
static bool
read_names (void (*fn) (char const *, void *), void *arg, bool quiet)
{
  char *argv[] = { (char *) "iconv", (char *) "--list", NULL };
  posix_spawn_file_actions_t actions;
  int fds[2], status, e;
  pid_t pid;
  FILE *in;
  char line[256];
  bool ok;

  if (pipe (fds) != 0)
    {
      if (!quiet)
        error (0, errno, "cannot list iconv(3)'s encodings");
      return false;
    }
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_adddup2 (&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose (&actions, fds[0]);
  posix_spawn_file_actions_addclose (&actions, fds[1]);
  e = posix_spawnp (&pid, "iconv", &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy (&actions);
  close (fds[1]);
  if (e != 0)
    {
      close (fds[0]);
      if (!quiet)
        error (0, e, "cannot list iconv(3)'s encodings: cannot run "
               "'iconv --list'");
      return false;
    }
  in = fdopen (fds[0], "r");
  if (!in)
    xalloc_die ();
  while (fgets (line, sizeof line, in))
    {
      size_t len = strcspn (line, "\n");
      line[len] = '\0';
      while (len > 0 && (line[len - 1] == '/' || line[len - 1] == ','))
        line[--len] = '\0';
      if (len > 0 && iconv_bridge_opens ("UTF-32LE", line)
          && iconv_bridge_opens (line, "UTF-32LE"))
        fn (line, arg);
    }
  fclose (in);
  ok = waitpid (pid, &status, 0) == pid && WIFEXITED (status)
       && WEXITSTATUS (status) == 0;
  if (!ok && !quiet)
    error (0, 0, "cannot list iconv(3)'s encodings: 'iconv --list' failed");
  return ok;
}

static void
print_name (char const *name, void *data)
{
  struct list_filter const *lf = data;
  if (lf->keep (name, lf->arg))
    fprintf (lf->out, "%s\n", name);
}

bool
iconv_bridge_list (FILE *out, bool (*keep) (char const *, void *),
                   void *arg)
{
  struct list_filter lf = { out, keep, arg };
  fputs ("Encodings from iconv(3) ("
#ifdef __GLIBC__
         "glibc"
#else
         "the C library"
#endif
         ", as listed by 'iconv --list'):\n", out);
  /* No fflush: the names come through a pipe, and a write error (a
     full disk) must stay pending for close_stdout, which reports it
     with its errno; flushed here, the names that iconv_open refuses
     would leave nothing pending, and errno would be lost.  */
  return read_names (print_name, &lf, false);
}

bool
iconv_bridge_names (void (*fn) (char const *name, void *arg), void *arg)
{
  return read_names (fn, arg, true);
}

#endif

bool
iconv_bridge_opens (char const *tocode, char const *fromcode)
{
  iconv_t cd = iconv_open (tocode, fromcode);
  if (cd == (iconv_t) -1)
    return false;
  iconv_close (cd);
  return true;
}

/* The locale of //TRANSLIT.

   With //TRANSLIT on the target (iconv_bridge_find's TRANSLIT), iconv
   is opened with NAME//TRANSLIT.  glibc transliterates with the rules
   of the thread's LC_CTYPE locale, at each iconv() call.  utf8conv never
   calls setlocale, and the C locale has few rules ("EUR" for U+20AC,
   but "na?ve" for "naïve"), so the encoder makes glibc's C.UTF-8 locale
   the thread's locale (uselocale) while it calls iconv(): the result is
   the same whatever the user's locale, and C.UTF-8's rules strip
   accents too ("naive", "ss" for U+00DF).  C.UTF-8 comes with glibc
   2.35 and later and with Debian's libc-bin (/usr/lib/locale/C.utf8);
   where it is missing, the C locale's rules apply, as before.  GNU
   libiconv's rules do not depend on the locale.  '?' comes out for a
   character there is no rule for; what iconv() still cannot encode is
   unencodable, for the -e policy.  For a built-in legacy target, the
   built-in codec encodes whatever it can, so that only the characters
   it cannot encode are transliterated (glibc's CP1252 lacks WHATWG's
   81 8D 8F 90 9D, for example).  */
locale_t
iconv_translit_locale (void)
{
  static locale_t loc;
  static bool tried;
  if (!tried)
    {
      tried = true;
      loc = newlocale (LC_CTYPE_MASK, "C.UTF-8", (locale_t) 0);
      if (!loc)
        loc = newlocale (LC_CTYPE_MASK, "C.utf8", (locale_t) 0);
    }
  return loc;
}

/* A bridged encoding is a legacy one (no BOM is carried) unless its
   name is a Unicode form: UTF-*, UCS-* and UNICODE* are CODEC_UNICODE,
   and those with 2- or 4-byte units are also CODEC_WIDE_UNITS, so that
   replace writes U+FFFD and surrogateescape never writes a raw byte
   there.  */
unsigned int
iconv_bridge_flags (char const *name)
{
  static char const *const wide[] = { "UCS-2", "UCS-4", "UTF-16", "UTF-32",
                                      "UTF16", "UTF32", "UNICODE" };
  size_t k;
  if (strncmp (name, "UTF", 3) != 0 && strncmp (name, "UCS", 3) != 0
      && strncmp (name, "UNICODE", 7) != 0)
    return 0;
  for (k = 0; k < sizeof wide / sizeof wide[0]; k++)
    if (strncmp (name, wide[k], strlen (wide[k])) == 0)
      return CODEC_UNICODE | CODEC_WIDE_UNITS;
  return CODEC_UNICODE;
}
