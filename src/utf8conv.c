/* utf8conv -- convert text between character encodings, exactly.

   This file parses the command line and runs each input through the
   pipeline (pipeline.c).  It owns the output file: standard output, or
   the -o file, which is written through a temporary file and renamed when
   it is also one of the inputs.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "error.h"
#include "progname.h"
#include "quote.h"
#include "version-etc.h"
#include "xalloc.h"

#include "codec.h"
#include "pipeline.h"
#include "policy.h"
#include "registry.h"
#include "simd/kernels.h"

#define AUTHORS "The utf8conv authors"

/* Exit statuses (SPEC §2).  */
enum
{
  EXIT_DATA = 1,                /* Invalid or dropped input.  */
  EXIT_TROUBLE = 2              /* Usage, encoding, file or write trouble.  */
};

char const version_etc_copyright[] = "Copyright %s %d The utf8conv authors";

enum
{
  BYTE_SUBST_OPTION = CHAR_MAX + 1,
  UNICODE_SUBST_OPTION,
  BOM_OPTION,
  BLOCK_SIZE_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

static struct option const long_options[] = {
  {"from-code", required_argument, NULL, 'f'},
  {"to-code", required_argument, NULL, 't'},
  {"errors", required_argument, NULL, 'e'},
  {"byte-subst", required_argument, NULL, BYTE_SUBST_OPTION},
  {"unicode-subst", required_argument, NULL, UNICODE_SUBST_OPTION},
  {"bom", required_argument, NULL, BOM_OPTION},
  {"output", required_argument, NULL, 'o'},
  {"block-size", required_argument, NULL, BLOCK_SIZE_OPTION},
  {"list", no_argument, NULL, 'l'},
  {"quiet", no_argument, NULL, 'q'},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

/* The largest --block-size accepted.  */
enum { BLOCK_SIZE_MAX = 1 << 30 };

static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    fprintf (stderr, "Try '%s --help' for more information.\n",
             program_name);
  else
    {
      printf ("Usage: %s [OPTION]... [FILE]...\n", program_name);
      fputs ("\
Convert text from one character encoding to another.\n\
\n\
With no FILE, or when FILE is -, read standard input.  Several files are\n\
converted in turn and concatenated to the output.\n\
\n\
Encodings:\n\
  -f, --from-code=ENC     the input encoding (default UTF-8)\n\
  -t, --to-code=ENC       the output encoding (default UTF-8)\n\
  -l, --list              list the known encodings and exit\n\
\n\
Errors:\n\
  -e, --errors=POLICY     what to do with invalid input and characters the\n\
                            output cannot hold: strict (default), replace,\n\
                            escape, surrogateescape, ignore\n\
  -c                      same as --errors=ignore\n\
      --byte-subst=FMT    escape an invalid byte with FMT, a printf format\n\
                            for one unsigned number (default '\\x%02x')\n\
      --unicode-subst=FMT\n\
                          escape an unencodable character with FMT\n\
                            (default '\\x%02x', '\\u%04x' or '\\U%08x')\n\
\n\
Output:\n\
  -o, --output=FILE       write to FILE instead of standard output; FILE may\n\
                            also be an input\n\
      --bom=MODE          byte order marks: auto (default), strip, add\n\
      --block-size=N      read and convert N bytes at a time (default 65536)\n\
  -q, --quiet             print no warnings\n\
      --help              display this help and exit\n\
      --version           output version information and exit\n\
\n\
Exit status is 0 if all input was converted, 1 if input was invalid or\n\
dropped, 2 in case of trouble.\n", stdout);
    }
  exit (status);
}

/* Diagnose a bad use and exit.  */
static _Noreturn void
usage_error (char const *what, char const *arg)
{
  if (arg)
    error (0, 0, "%s %s", what, quote (arg));
  else
    error (0, 0, "%s", what);
  usage (EXIT_TROUBLE);
}

static _Noreturn void
unknown_encoding (char const *name)
{
  error (0, 0, "unknown encoding %s", quote (name));
  fprintf (stderr, "Try '%s --list' for the list of encodings.\n",
           program_name);
  exit (EXIT_TROUBLE);
}

/* Look up NAME as a target encoding, taking iconv's //IGNORE and
   //TRANSLIT suffixes.  Sets *IGNORE when //IGNORE is present.  */
static struct codec const *
find_target (char const *name, bool *ignore)
{
  char *base = xstrdup (name);
  char *suffix = strstr (base, "//");
  struct codec const *c;

  *ignore = false;
  if (suffix)
    {
      char *s = suffix;
      *suffix = '\0';
      while (s)
        {
          char *next;
          s += 2;
          next = strstr (s, "//");
          if (next)
            *next = '\0';
          if (strcasecmp (s, "IGNORE") == 0)
            *ignore = true;
          else if (*s && strcasecmp (s, "TRANSLIT") != 0)
            unknown_encoding (name);
          s = next;
        }
    }
  c = registry_find (base);
  free (base);
  if (!c)
    unknown_encoding (name);
  return c;
}

/* Make sure file descriptors 0, 1 and 2 are open, so that a file opened
   later never takes their place.  A closed standard output becomes a
   read-only descriptor, so that writing to it fails with a diagnostic.  */
static void
reserve_standard_fds (void)
{
  int fd;
  for (fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        int nfd = open ("/dev/null", fd == 1 ? O_RDONLY : O_WRONLY);
        if (nfd != fd)
          {
            if (0 <= nfd)
              close (nfd);
            /* Nothing can be reported without standard error.  */
            if (fd == 2)
              exit (EXIT_TROUBLE);
          }
      }
}

/* The temporary output file, removed at exit unless renamed.  */
static char *temp_name;

static void
remove_temp (void)
{
  if (temp_name)
    {
      unlink (temp_name);
      temp_name = NULL;
    }
}

/* Whether the file called NAME ("-" for standard input) is the file
   described by ST.  */
static bool
same_file (char const *name, struct stat const *st)
{
  struct stat s;
  int r = strcmp (name, "-") == 0 ? fstat (STDIN_FILENO, &s)
                                  : stat (name, &s);
  return r == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino;
}

/* Open the output file OUTPUT for the inputs FILES[0..NFILES).  When it
   is also an input, create a temporary file beside it instead, to be
   renamed over it by commit_output.  */
static int
open_output (char const *output, char *const *files, int nfiles)
{
  struct stat st;
  bool is_input = false;
  int fd, i;

  if (stat (output, &st) == 0)
    {
      if (nfiles == 0)
        is_input = same_file ("-", &st);
      for (i = 0; i < nfiles; i++)
        is_input |= same_file (files[i], &st);
    }
  if (!is_input)
    {
      fd = open (output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (fd < 0)
        error (EXIT_TROUBLE, errno, "%s", quote (output));
      return fd;
    }

  {
    char const *slash = strrchr (output, '/');
    size_t dirlen = slash ? (size_t) (slash - output) + 1 : 0;
    char const *pattern = ".utf8conv-XXXXXX";
    temp_name = xmalloc (dirlen + strlen (pattern) + 1);
    memcpy (temp_name, output, dirlen);
    strcpy (temp_name + dirlen, pattern);
  }
  fd = mkstemp (temp_name);
  if (fd < 0)
    {
      int e = errno;
      free (temp_name);
      temp_name = NULL;
      error (EXIT_TROUBLE, e, "cannot create a temporary file beside %s",
             quote (output));
    }
  atexit (remove_temp);
  if (fchmod (fd, st.st_mode & 07777) != 0)
    error (EXIT_TROUBLE, errno, "%s", quote (temp_name));
  return fd;
}

/* Finish the output: rename the temporary file over OUTPUT when COMMIT,
   remove it otherwise.  */
static void
finish_output (int fd, char const *output, bool commit)
{
  if (temp_name && commit && fsync (fd) != 0)
    error (EXIT_TROUBLE, errno, "%s", quote (output));
  if (close (fd) != 0)
    error (EXIT_TROUBLE, errno, "%s", quote (output));
  if (temp_name && commit)
    {
      if (rename (temp_name, output) != 0)
        error (EXIT_TROUBLE, errno, "cannot replace %s", quote (output));
      free (temp_name);
      temp_name = NULL;
    }
  remove_temp ();
}

int
main (int argc, char **argv)
{
  struct run_config cfg;
  char const *from = "UTF-8", *to = "UTF-8", *output = NULL;
  bool policy_given = false, subst_given = false, to_ignore;
  int c, status = EXIT_SUCCESS, out_fd = STDOUT_FILENO, i, nfiles;
  char *const *files;
  static char *const stdin_only[] = { (char *) "-" };
  struct run *run;

  set_program_name (argv[0]);
  /* Diagnostics are an interface that scripts match: always name the
     program the same way, however it was invoked.  */
  program_name = "utf8conv";
  program_invocation_name = (char *) "utf8conv";
  argv[0] = (char *) "utf8conv";
  atexit (close_stdout);
  /* A reader that goes away ends the program quietly, as with cat, even
     when the parent ignored SIGPIPE.  */
  signal (SIGPIPE, SIG_DFL);

  memset (&cfg, 0, sizeof cfg);
  cfg.policy.policy = POLICY_STRICT;
  cfg.bom = BOM_AUTO;
  cfg.block_size = 65536;

  while ((c = getopt_long (argc, argv, "f:t:e:co:lq", long_options, NULL))
         != -1)
    switch (c)
      {
      case 'f':
        from = optarg;
        break;
      case 't':
        to = optarg;
        break;
      case 'e':
        if (!policy_parse (optarg, &cfg.policy.policy))
          usage_error ("invalid error policy", optarg);
        policy_given = true;
        break;
      case 'c':
        cfg.policy.policy = POLICY_IGNORE;
        policy_given = true;
        break;
      case BYTE_SUBST_OPTION:
      case UNICODE_SUBST_OPTION:
        if (!policy_format_ok (optarg))
          usage_error (c == BYTE_SUBST_OPTION
                       ? "invalid --byte-subst format"
                       : "invalid --unicode-subst format", optarg);
        if (c == BYTE_SUBST_OPTION)
          cfg.policy.byte_fmt = optarg;
        else
          cfg.policy.unicode_fmt = optarg;
        subst_given = true;
        break;
      case BOM_OPTION:
        if (strcmp (optarg, "auto") == 0)
          cfg.bom = BOM_AUTO;
        else if (strcmp (optarg, "strip") == 0)
          cfg.bom = BOM_STRIP;
        else if (strcmp (optarg, "add") == 0)
          cfg.bom = BOM_ADD;
        else
          usage_error ("invalid --bom mode", optarg);
        break;
      case 'o':
        output = optarg;
        break;
      case BLOCK_SIZE_OPTION:
        {
          char *end;
          uintmax_t n;
          errno = 0;
          n = strtoumax (optarg, &end, 10);
          if (errno || end == optarg || *end || optarg[0] == '-' || n == 0
              || BLOCK_SIZE_MAX < n)
            usage_error ("invalid block size (1 to 1073741824)", optarg);
          cfg.block_size = (size_t) n;
        }
        break;
      case 'l':
        registry_list (stdout);
        exit (EXIT_SUCCESS);
      case 'q':
        cfg.quiet = true;
        break;
      case HELP_OPTION:
        usage (EXIT_SUCCESS);
      case VERSION_OPTION:
        version_etc (stdout, "utf8conv", PACKAGE_NAME, PACKAGE_VERSION,
                     AUTHORS, (char *) NULL);
        exit (EXIT_SUCCESS);
      default:
        usage (EXIT_TROUBLE);
      }

  cfg.from = registry_find (from);
  if (!cfg.from)
    unknown_encoding (from);
  cfg.to = find_target (to, &to_ignore);
  if (to_ignore && !policy_given)
    {
      cfg.policy.policy = POLICY_IGNORE;
      policy_given = true;
    }
  if (subst_given && !policy_given)
    cfg.policy.policy = POLICY_ESCAPE;
  if (cfg.bom == BOM_ADD && !(cfg.to->flags & CODEC_UNICODE))
    {
      error (0, 0, "--bom=add needs a Unicode output encoding, not %s",
             quote (cfg.to->name));
      exit (EXIT_TROUBLE);
    }
  if (cfg.bom == BOM_STRIP && cfg.to->unmarked)
    cfg.to = cfg.to->unmarked;

  nfiles = argc - optind;
  files = argv + optind;
  if (nfiles == 0)
    {
      files = stdin_only;
      nfiles = 1;
    }

  if (!kernels_select ())
    {
      error (0, 0, "UTF8CONV_IMPL=%s is not available on this machine",
             getenv ("UTF8CONV_IMPL"));
      exit (EXIT_TROUBLE);
    }

  reserve_standard_fds ();
  if (output)
    out_fd = open_output (output, files, nfiles);

  run = pipeline_start (&cfg, out_fd);
  for (i = 0; i < nfiles; i++)
    {
      char const *name = files[i];
      bool is_stdin = strcmp (name, "-") == 0;
      int fd = is_stdin ? STDIN_FILENO : open (name, O_RDONLY);
      enum file_result r;

      if (fd < 0)
        {
          error (0, errno, "%s", name);
          status = EXIT_TROUBLE;
          continue;
        }
      r = pipeline_convert_fd (run, fd, name);
      if (!is_stdin && close (fd) != 0)
        {
          error (0, errno, "%s", name);
          r = FILE_READ_ERROR;
        }
      if (r == FILE_READ_ERROR)
        status = EXIT_TROUBLE;
      else if ((r == FILE_STOPPED || r == FILE_DROPPED)
               && status == EXIT_SUCCESS)
        status = EXIT_DATA;
      if (r == FILE_STOPPED)
        break;
    }
  pipeline_finish (run);

  if (output)
    finish_output (out_fd, output,
                   status == EXIT_SUCCESS
                   || (status == EXIT_DATA
                       && cfg.policy.policy == POLICY_IGNORE));
  return status;
}
