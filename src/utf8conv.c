/* utf8conv -- convert text between character encodings, exactly.

   This file parses the command line and runs each input through the
   pipeline (pipeline.c).  It owns the output file: standard output, or
   the -o file, which inplace.c replaces safely when it is also one of the
   inputs.  With -i each file is converted alone into its own replacement
   (inplace.c); with --check each file is converted alone, to nowhere.  */

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
#include "inplace.h"
#include "walk.h"
#include "pipeline.h"
#include "policy.h"
#include "progress.h"
#include "report.h"
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
  CHECK_OPTION,
  REPORT_OPTION,
  PROGRESS_OPTION,
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
  {"in-place", optional_argument, NULL, 'i'},
  {"check", no_argument, NULL, CHECK_OPTION},
  {"report", no_argument, NULL, REPORT_OPTION},
  {"progress", no_argument, NULL, PROGRESS_OPTION},
  {"list", no_argument, NULL, 'l'},
  {"recursive", no_argument, NULL, 'r'},
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
  -f, --from-code=ENC     the input encoding (default UTF-8); 'auto' looks\n\
                            for a BOM or BOM-less UTF-16, else reads UTF-8\n\
                            with invalid bytes as CP1252\n\
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
  -i, --in-place[=SUFFIX]\n\
                          convert each FILE in place, keeping the original\n\
                          as FILE+SUFFIX if SUFFIX is given\n\
      --check             only check that each FILE is valid (and, with -t,\n\
                            encodable); write no output\n\
      --bom=MODE          byte order marks: auto (default), strip, add\n\
      --block-size=N      read and convert N bytes at a time (default 131072)\n\
  -r, --recursive         convert the regular files under each directory\n\
                            FILE, in the order of their names\n\
  -q, --quiet             print no warnings\n\
      --report            print a summary of each file and a total on\n\
                            standard error: bytes, characters, errors,\n\
                            BOMs, detected encoding\n\
      --progress          show progress on standard error when it is a\n\
                            terminal\n\
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
  bool translit = false;

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
          else if (strcasecmp (s, "TRANSLIT") == 0)
            translit = true;
          else if (*s)
            unknown_encoding (name);
          s = next;
        }
    }
  c = translit ? registry_lookup_translit (base) : registry_lookup (base);
  /* Name the part that is unknown: 'NOPE', not 'NOPE//TRANSLIT'.  */
  if (!c)
    unknown_encoding (translit && registry_lookup (base) ? name : base);
  free (base);
  /* -f auto detects an input encoding; it has no encoder.  */
  if (!c->encode)
    {
      error (0, 0, "%s is only an input encoding (-f auto)", quote (name));
      exit (EXIT_TROUBLE);
    }
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

/* The replacement of the -o file when it is also an input, or NULL.  */
static struct inplace *output_replacement;

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
   is a regular file that is also an input, start replacing it instead
   (inplace.c), to be committed by finish_output.  */
static int
open_output (char const *output, char *const *files, int nfiles)
{
  struct stat st;
  bool is_input = false;
  int fd, i;

  if (stat (output, &st) == 0 && S_ISREG (st.st_mode))
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
  output_replacement = inplace_create (output);
  if (!output_replacement)
    exit (EXIT_TROUBLE);
  return inplace_output_fd (output_replacement);
}

/* Finish the output: put the replacement in place when COMMIT, discard
   it otherwise.  */
static void
finish_output (int fd, char const *output, bool commit)
{
  if (!output_replacement)
    {
      if (close (fd) != 0)
        error (EXIT_TROUBLE, errno, "%s", quote (output));
    }
  else if (!commit)
    inplace_cancel (output_replacement);
  else if (!inplace_commit (output_replacement, NULL))
    exit (EXIT_TROUBLE);
}

/* --report and --progress, when asked for (and, for --progress, when
   standard error is a terminal).  */
static struct report *report;
static struct progress *progress;

/* --report: the line of the file NAME, which RUN has just converted.  */
static void
report_converted (struct run const *run, char const *name)
{
  struct file_stats st;
  if (!report)
    return;
  pipeline_file_stats (run, &st);
  progress_clear (progress);
  report_file (report, name, &st);
}

/* --report: the line of the file NAME, which could not be opened.  */
static void
report_unopened (char const *name)
{
  struct file_stats st;
  if (!report)
    return;
  memset (&st, 0, sizeof st);
  st.unread = true;
  progress_clear (progress);
  report_file (report, name, &st);
}

/* The total size of FILES[0..NFILES) for --progress, or -1 when one of
   them is not a regular file (a pipe, a terminal) or cannot be seen.  */
static int64_t
total_size (char *const *files, int nfiles)
{
  int64_t total = 0;
  int i;
  for (i = 0; i < nfiles; i++)
    {
      struct stat st;
      int r = (strcmp (files[i], "-") == 0 ? fstat (STDIN_FILENO, &st)
               : stat (files[i], &st));
      if (r != 0 || !S_ISREG (st.st_mode))
        return -1;
      total += st.st_size;
    }
  return total;
}

/* Start --report and --progress for FILES[0..NFILES) as CFG says, and
   arrange for them to end at exit: the progress line is cleared, then
   the total is printed.  */
static void end_report_and_progress (void);

static void
start_report_and_progress (struct run_config *cfg, bool want_progress,
                           char *const *files, int nfiles)
{
  if (cfg->report)
    report = report_start (cfg->policy.policy);
  if (want_progress)
    progress = progress_start (total_size (files, nfiles));
  if (progress)
    {
      cfg->progress = progress_update;
      cfg->progress_arg = progress;
    }
  if (report || progress)
    atexit (end_report_and_progress);
}

static void
end_report_and_progress (void)
{
  progress_finish (progress);
  progress = NULL;
  if (report)
    report_total (report);
  report = NULL;
}

/* STATUS so far, made worse by a file's result R: 2 wins over 1.  */
static int
add_result (int status, enum file_result r)
{
  if (r == FILE_READ_ERROR || r == FILE_WRITE_ERROR)
    return EXIT_TROUBLE;
  if ((r == FILE_STOPPED || r == FILE_DROPPED) && status == EXIT_SUCCESS)
    return EXIT_DATA;
  return status;
}

/* Open the file NAME ("-" is standard input), convert it through RUN,
   report it for --report and close it.  Returns the result; an input
   that cannot be opened or closed is a read error, diagnosed here.  */
static enum file_result
convert_file (struct run *run, char const *name)
{
  bool is_stdin = strcmp (name, "-") == 0;
  int fd = is_stdin ? STDIN_FILENO : open (name, O_RDONLY);
  enum file_result r;

  if (fd < 0)
    {
      error (0, errno, "%s", name);
      report_unopened (name);
      return FILE_READ_ERROR;
    }
  r = pipeline_convert_fd (run, fd, name);
  report_converted (run, name);
  if (!is_stdin && close (fd) != 0)
    {
      error (0, errno, "%s", name);
      r = FILE_READ_ERROR;
    }
  return r;
}

/* --check: convert each of FILES[0..NFILES) alone, with its own decoder,
   discarding the output.  Returns the exit status.  */
static int
check_files (struct run_config const *cfg, char *const *files, int nfiles)
{
  int status = EXIT_SUCCESS, i;

  for (i = 0; i < nfiles; i++)
    {
      struct run *run = pipeline_start (cfg, -1);
      enum file_result r = convert_file (run, files[i]);
      pipeline_finish (run);
      status = add_result (status, r);
    }
  return status;
}

/* -i: convert the file NAME alone into its replacement, and put that in
   place only if the whole file converted.  Returns the exit status.  */
static int
convert_in_place (struct run_config const *cfg, char const *name,
                  char const *suffix)
{
  struct inplace *ip = inplace_open (name, cfg->quiet);
  struct run *run;
  enum file_result r;

  if (!ip)
    {
      report_unopened (name);
      return EXIT_TROUBLE;
    }
  run = pipeline_start (cfg, inplace_output_fd (ip));
  r = pipeline_convert_fd (run, inplace_input_fd (ip), name);
  report_converted (run, name);
  pipeline_finish (run);
  /* Under `ignore' the loss was asked for: the file is replaced, and the
     status still says that something was dropped.  */
  if (r == FILE_OK || r == FILE_DROPPED)
    {
      if (!inplace_commit (ip, suffix))
        return EXIT_TROUBLE;
    }
  else
    inplace_cancel (ip);
  return add_result (EXIT_SUCCESS, r);
}

int
main (int argc, char **argv)
{
  struct run_config cfg;
  char const *from = "UTF-8", *to = "UTF-8", *output = NULL;
  bool policy_given = false, subst_given = false, to_ignore;
  bool to_given = false, in_place = false, check = false;
  bool want_progress = false, recursive = false, walk_trouble = false;
  char const *suffix = NULL;
  int c, status = EXIT_SUCCESS, out_fd = STDOUT_FILENO, i;
  int nfiles, noperands;
  char *const *files;
  static char *const stdin_only[] = { (char *) "-" };
  struct run *run;

  set_program_name (argv[0]);
  /* Diagnostics are an interface that scripts match: always name the
     program the same way, however it was invoked.  */
  program_name = "utf8conv";
#if defined __GLIBC__
  /* glibc's error () prints this name.  */
  program_invocation_name = (char *) "utf8conv";
#endif
  argv[0] = (char *) "utf8conv";
  atexit (close_stdout);
  /* A reader that goes away ends the program quietly, as with cat, even
     when the parent ignored SIGPIPE.  */
  signal (SIGPIPE, SIG_DFL);

  memset (&cfg, 0, sizeof cfg);
  cfg.policy.policy = POLICY_STRICT;
  cfg.bom = BOM_AUTO;
  cfg.block_size = 131072;

  while ((c = getopt_long (argc, argv, "f:t:e:co:i::lqr", long_options,
                           NULL)) != -1)
    switch (c)
      {
      case 'f':
        from = optarg;
        break;
      case 't':
        to = optarg;
        to_given = true;
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
      case 'i':
        in_place = true;
        suffix = optarg;
        break;
      case CHECK_OPTION:
        check = true;
        break;
      case REPORT_OPTION:
        cfg.report = true;
        break;
      case PROGRESS_OPTION:
        want_progress = true;
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
      case 'r':
        recursive = true;
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

  cfg.from = registry_lookup (from);
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

  noperands = nfiles = argc - optind;
  files = argv + optind;
  if (recursive)
    files = walk_expand (files, nfiles, &nfiles, &walk_trouble);
  if (in_place)
    {
      if (output)
        usage_error ("cannot combine --in-place and --output", NULL);
      if (check)
        usage_error ("cannot combine --in-place and --check", NULL);
      if (noperands == 0)
        usage_error ("--in-place needs a FILE", NULL);
      for (i = 0; i < nfiles; i++)
        if (strcmp (files[i], "-") == 0)
          usage_error ("--in-place cannot convert standard input", NULL);
      cfg.write_errors_return = true;
    }
  if (check)
    {
      if (output)
        usage_error ("cannot combine --check and --output", NULL);
      /* Checking is strict whatever -e says.  Without -t only the input
         is checked: UTF-32LE encodes everything a decoder produces, lone
         surrogates included, and does not make UTF-16 lone surrogates
         data as a WTF-8 target would.  */
      cfg.policy.policy = POLICY_STRICT;
      if (!to_given)
        cfg.to = registry_find ("UTF-32LE");
      cfg.silent = cfg.quiet;
      cfg.well_formed_input = true;
    }
  /* No FILE is standard input; directories with no files in them are
     nothing.  */
  if (noperands == 0)
    {
      files = stdin_only;
      nfiles = 1;
    }
  if (walk_trouble)
    status = EXIT_TROUBLE;

  if (!kernels_select ())
    {
      error (0, 0, "UTF8CONV_IMPL=%s is not available on this machine",
             getenv ("UTF8CONV_IMPL"));
      exit (EXIT_TROUBLE);
    }

  reserve_standard_fds ();
  start_report_and_progress (&cfg, want_progress, files, nfiles);
  if (check)
    {
      int s = check_files (&cfg, files, nfiles);
      return status < s ? s : status;
    }
  if (in_place)
    {
      for (i = 0; i < nfiles; i++)
        {
          int s = convert_in_place (&cfg, files[i], suffix);
          if (status < s)
            status = s;
        }
      return status;
    }
  if (output)
    out_fd = open_output (output, files, nfiles);

  run = pipeline_start (&cfg, out_fd);
  for (i = 0; i < nfiles; i++)
    {
      enum file_result r = convert_file (run, files[i]);

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
