/* utf8conv -- convert text between character encodings, exactly.

   This file parses the command line, lists the inputs (walk.c for -r),
   starts the report and the progress display, and hands the inputs to
   one of the three runners of batch.c: concatenated to one output,
   checked one by one (--check), or each converted in place (-i).  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "error.h"
#include "exitfail.h"
#include "progname.h"
#include "quote.h"
#include "version-etc.h"
#include "xalloc.h"

#include "codec.h"
#include "detect.h"
#include "detect_score.h"
#include "pipeline.h"
#include "policy.h"
#include "registry.h"
#include "simd/kernels.h"

#include "batch.h"
#include "diag.h"
#include "progress.h"
#include "report.h"
#include "system.h"
#include "walk.h"

#define AUTHORS "The utf8conv authors"

char const version_etc_copyright[] = "Copyright %s %d The utf8conv authors";

enum
{
  BYTE_SUBST_OPTION = CHAR_MAX + 1,
  UNICODE_SUBST_OPTION,
  BOM_OPTION,
  EOL_OPTION,
  EOL_FROM_OPTION,
  FIX_MOJIBAKE_OPTION,
  BLOCK_SIZE_OPTION,
  CHECK_OPTION,
  REPORT_OPTION,
  REPORT_JSON_OPTION,
  BINARY_OPTION,
  PROGRESS_OPTION,
  VERBOSE_OPTION,
  FALLBACK_OPTION,
  DETECT_OPTION,
  IF_UNSURE_OPTION,
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
  {"eol", required_argument, NULL, EOL_OPTION},
  {"eol-from", required_argument, NULL, EOL_FROM_OPTION},
  {"fix-mojibake", no_argument, NULL, FIX_MOJIBAKE_OPTION},
  {"output", required_argument, NULL, 'o'},
  {"block-size", required_argument, NULL, BLOCK_SIZE_OPTION},
  {"in-place", optional_argument, NULL, 'i'},
  {"check", no_argument, NULL, CHECK_OPTION},
  {"report", no_argument, NULL, REPORT_OPTION},
  {"report-json", required_argument, NULL, REPORT_JSON_OPTION},
  {"keep-timestamps", no_argument, NULL, 'k'},
  {"binary", no_argument, NULL, BINARY_OPTION},
  {"progress", no_argument, NULL, PROGRESS_OPTION},
  {"list", no_argument, NULL, 'l'},
  {"recursive", no_argument, NULL, 'r'},
  {"quiet", no_argument, NULL, 'q'},
  {"silent", no_argument, NULL, 's'},
  {"verbose", no_argument, NULL, VERBOSE_OPTION},
  {"fallback", required_argument, NULL, FALLBACK_OPTION},
  {"detect", no_argument, NULL, DETECT_OPTION},
  {"if-unsure", required_argument, NULL, IF_UNSURE_OPTION},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

/* The largest --block-size accepted.  */
enum { BLOCK_SIZE_MAX = 1 << 30 };

/* The second half of --help: output, batch and report options.  */
static void
help_output (void)
{
  fputs ("\
Output:\n\
  -o, --output=FILE       write to FILE instead of standard output; FILE may\n\
                            also be an input\n\
  -i, --in-place[=SUFFIX]\n\
                          convert each FILE in place, keeping the original\n\
                          as FILE+SUFFIX if SUFFIX is given (never over an\n\
                          existing FILE+SUFFIX); a file whose bytes would\n\
                          not change is left alone; SUFFIX is attached\n\
                          (-i.bak): '-i .bak' is refused\n\
  -k, --keep-timestamps   with -i, keep each file's access and\n\
                            modification times\n\
      --check             write no output; check that each FILE is valid in\n\
                            its encoding, or with -t, make a dry run of the\n\
                            conversion: its diagnostics and exit status\n\
      --bom=MODE          byte order marks: auto (default: the first\n\
                            input's, where the output carries it; a\n\
                            UTF-16/UTF-32 one not into UTF-8), strip, add\n\
      --eol=MODE          line breaks: keep (default); lf: each CR LF to\n\
                            LF (dos2unix); crlf: each lone LF to CR LF\n\
                            (unix2dos); cr: CR LF and lone LF to CR; a\n\
                            lone CR is text and stays\n\
      --eol-from=KIND     crlf (default): breaks are CR LF and LF; cr: a\n\
                            lone CR is a break too (classic Mac text, as\n\
                            mac2unix), written as --eol says\n\
      --fix-mojibake      restore UTF-8 text that was read as CP1252 or\n\
                            Latin-1 and written as UTF-8 again, once or\n\
                            twice ('Ã©' for 'é'; see MOJIBAKE REPAIR)\n\
      --block-size=N      read and convert N bytes at a time (default 65536)\n\
  -r, --recursive         convert the regular files under each directory\n\
                            FILE, in the order of their names; symbolic\n\
                            links inside the tree are skipped\n\
      --binary            with -i or -r, convert files that look binary\n\
                            too (a known binary format, or a NUL or another\n\
                            control character anywhere in the file); they\n\
                            are skipped otherwise, and --detect prints\n\
                            'FILE: binary'.  UTF-16 and UTF-32 files (a BOM,\n\
                            or UTF-16's NUL bytes) are text, invalid input\n\
                            unless -f is auto or their form\n\
  -q, --quiet, -s, --silent\n\
                          print no warnings (-s and --silent as in iconv)\n\
      --verbose           name each FILE on standard error, as 'FILE:',\n\
                            before it is converted (as iconv does)\n\
      --report            print a summary of each file and a total on\n\
                            standard error: outcome, bytes, characters,\n\
                            errors, BOMs, line breaks, detected encoding\n\
      --report-json=FILE  write the report and every data error to FILE\n\
                            as JSON Lines (- is standard output, when the\n\
                            text goes elsewhere)\n\
      --progress          show progress on standard error when it is a\n\
                            terminal (with several files: file N of M)\n\
      --help              display this help and exit\n\
      --version           output version information and exit\n\
\n\
Output and diagnostics do not depend on the locale, except that file names\n\
are quoted as coreutils quotes them in it (UTF-8 names stay readable in a\n\
UTF-8 locale).\n\
\n\
Exit status is 0 if all input was converted, 1 if input was invalid or\n\
dropped, 2 in case of trouble.\n", stdout);
}

static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    fprintf (stderr, "Try '%s --help' for more information.\n",
             program_name);
  else
    {
      /* One buffer for the whole text (glibc's is 4 KiB, and it is
         longer), so that a write error is seen once, at exit, with its
         errno value.  */
      static char buf[1 << 13];
      setvbuf (stdout, buf, _IOFBF, sizeof buf);
      printf ("Usage: %s [OPTION]... [FILE]...\n", program_name);
      fputs ("\
Convert text from one character encoding to another.\n\
\n\
With no FILE, or when FILE is -, read standard input.  Several files are\n\
converted in turn and concatenated to the output.\n\
\n\
Encodings:\n\
  -f, --from-code=ENC     the input encoding (default UTF-8); 'auto' looks\n\
                            for a BOM or BOM-less UTF-16/32, else takes each\n\
                            file as UTF-8, as a legacy code page that it\n\
                            detects, or as UTF-8 mixed with one (see\n\
                            DETECTION in the manual)\n\
      --fallback=ENC      with -f auto, read a file that is not UTF-8 (or\n\
                            its invalid UTF-8 bytes) in the single-byte\n\
                            encoding ENC instead of detecting one\n\
      --detect            with -f auto, print 'FILE: ENCODING (confidence\n\
                            C, KIND)' for each FILE and convert nothing;\n\
                            KIND is ASCII, UTF-8, BOM, NUL pattern, legacy\n\
                            or mixed (UTF-8 + a legacy code page)\n\
      --if-unsure=WHAT    with -f auto, what to do with a file detected\n\
                            with a confidence below 0.90: convert\n\
                            (default), or skip it: left as it is, with a\n\
                            warning (in a stream, nothing of it after\n\
                            its ASCII head is written)\n\
  -t, --to-code=ENC       the output encoding (default UTF-8)\n\
  -l, --list              list the known encodings and exit\n\
\n\
Errors:\n\
  -e, --errors=POLICY     what to do with invalid input and characters the\n\
                            output cannot hold: strict (default), replace,\n\
                            escape, surrogateescape, ignore\n\
  -c                      same as --errors=ignore\n\
      --byte-subst=FMT    escape an invalid byte with FMT, a printf format\n\
                            for one unsigned number (default '\\x%02x'),\n\
                            any width; its text, UTF-8, is written in the\n\
                            output encoding\n\
      --unicode-subst=FMT\n\
                          escape an unencodable character with FMT\n\
                            (default '\\x%02x', '\\u%04x' or '\\U%08x')\n\
\n\
", stdout);
      help_output ();
    }
  exit (status);
}

/* Diagnose a bad use and exit.  */
static _Noreturn void
usage_error (char const *what, char const *arg)
{
  if (arg)
    error (0, 0, "%s %s", what, quote_c (0, arg));
  else
    error (0, 0, "%s", what);
  usage (EXIT_TROUBLE);
}

static _Noreturn void
unknown_encoding (char const *name)
{
  char *near[3];
  size_t n = registry_suggest (name, near, sizeof near / sizeof near[0]);

  if (n == 0)
    error (0, 0, "unknown encoding %s", quote_c (0, name));
  else
    error (0, 0, "unknown encoding %s; did you mean %s%s%s%s%s?",
           quote_c (0, name), quote_c (1, near[0]),
           n == 2 ? " or " : n == 3 ? ", " : "", n > 1 ? quote_c (2, near[1]) : "",
           n == 3 ? " or " : "", n == 3 ? quote_c (3, near[2]) : "");
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
      error (0, 0, "%s is only an input encoding (-f auto)",
             quote_c (0, name));
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

/* --report and --progress, when asked for (and, for --progress, when
   standard error is a terminal).  */
static struct report *report;
static struct progress *progress;
static FILE *report_json;
static char const *report_json_name;

/* The total size of ENTRIES[0..N) for --progress, or -1 when one of
   them is not a regular file (a pipe, a terminal) or cannot be seen.  */
static int64_t
total_size (struct walk_entry const *e, size_t n)
{
  int64_t total = 0;
  size_t i;
  for (i = 0; i < n; i++)
    {
      struct stat st;
      int r;
      if (e[i].kind == WALK_LINK || e[i].kind == WALK_SPECIAL
          || e[i].kind == WALK_FAILED)
        continue;
      r = (strcmp (e[i].name, "-") == 0 ? fstat (STDIN_FILENO, &st)
           : stat (e[i].name, &st));
      if (r != 0 || !S_ISREG (st.st_mode))
        return -1;
      total += st.st_size;
    }
  return total;
}

/* The number of ENTRIES[0..N) that are files to convert, for
   --progress: the operands, and the files a -r walk found (not the
   links and special files it lists to skip them).  */
static uint64_t
count_files (struct walk_entry const *e, size_t n)
{
  uint64_t files = 0;
  size_t i;
  for (i = 0; i < n; i++)
    files += e[i].kind == WALK_OPERAND || e[i].kind == WALK_FILE;
  return files;
}

static void
end_report_and_progress (void)
{
  progress_finish (progress);
  progress = NULL;
  if (report)
    report_total (report);
  report = NULL;
  if (report_json && report_json != stdout && fclose (report_json) != 0)
    {
      error (0, errno, "%s: write error", quotef (report_json_name));
      _exit (EXIT_TROUBLE);
    }
  report_json = NULL;
}

/* Start --report, --report-json and --progress for ENTRIES[0..N), and
   arrange for them to end at exit: the progress line is cleared, then
   the totals are written.  */
static void
start_report_and_progress (struct batch_config *cfg, bool want_report,
                           bool want_progress,
                           struct walk_entry const *e, size_t n)
{
  if (report_json_name)
    {
      if (strcmp (report_json_name, "-") == 0)
        report_json = stdout;
      else
        {
          report_json = fopen (report_json_name, "w");
          if (!report_json)
            error (EXIT_TROUBLE, errno, "%s", quotef (report_json_name));
        }
    }
  if (want_report || report_json)
    {
      report = report_start (cfg->run.policy.policy, cfg->run.eol,
                             want_report, report_json);
      cfg->report = report;
      if (cfg->run.fix_mojibake)
        report_fix_mojibake (report);
      if (cfg->mode == BATCH_CHECK)
        report_check (report);
      cfg->run.report = true;
    }
  if (want_progress)
    progress = progress_start (total_size (e, n), count_files (e, n),
                               cfg->mode == BATCH_STREAM && !cfg->output);
  if (progress)
    {
      cfg->progress = progress;
      cfg->run.progress = progress_update;
      cfg->run.progress_arg = progress;
    }
  if (report || progress)
    atexit (end_report_and_progress);
}

/* Parse --block-size's ARG.  */
static size_t
parse_block_size (char const *arg)
{
  char *end;
  uintmax_t n;
  errno = 0;
  n = strtoumax (arg, &end, 10);
  if (errno || end == arg || *end || arg[0] == '-' || n == 0
      || BLOCK_SIZE_MAX < n)
    usage_error ("invalid block size (1 to 1073741824)", arg);
  return (size_t) n;
}

/* The index of ARG in NAMES (NULL-terminated), the modes of the
   option OPTION; a usage error if it is none of them.  */
static int
parse_mode (char const *option, char const *arg, char const *const *names)
{
  int i;
  char what[64];
  for (i = 0; names[i]; i++)
    if (strcmp (arg, names[i]) == 0)
      return i;
  snprintf (what, sizeof what, "invalid %s mode", option);
  usage_error (what, arg);
}

/* Parse --bom's ARG.  */
static enum bom_mode
parse_bom (char const *arg)
{
  static char const *const names[] = { "auto", "strip", "add", NULL };
  _Static_assert (BOM_AUTO == 0 && BOM_STRIP == 1 && BOM_ADD == 2,
                  "the names are in the order of enum bom_mode");
  return (enum bom_mode) parse_mode ("--bom", arg, names);
}

/* Parse --eol's ARG.  */
static enum eol_mode
parse_eol (char const *arg)
{
  static char const *const names[] = { "keep", "lf", "crlf", "cr", NULL };
  _Static_assert (EOL_KEEP == 0 && EOL_LF == 1 && EOL_CRLF == 2
                  && EOL_CR == 3, "the names are in the order of enum "
                  "eol_mode");
  return (enum eol_mode) parse_mode ("--eol", arg, names);
}

/* The --if-unsure modes: convert is 0, skip 1.  */
static char const *const unsure_names[] = { "convert", "skip", NULL };

/* Parse --eol-from's ARG: whether a lone CR is a break.  */
static bool
parse_eol_from (char const *arg)
{
  static char const *const names[] = { "crlf", "cr", NULL };
  return parse_mode ("--eol-from", arg, names) == 1;
}

/* What the command line said, beyond the batch configuration.  */
struct options
{
  char const *from, *to;        /* The encodings' names.  */
  char const *fallback;         /* --fallback=ENC, or NULL.  */
  bool detect;                  /* --detect.  */
  bool if_unsure_skip;          /* --if-unsure=skip.  */
  bool if_unsure_given;
  bool to_given, policy_given, subst_given;
  bool check, in_place, want_report, want_progress;
  /* --byte-subst and --unicode-subst: the formats as given, and parsed
     (owned here).  */
  char const *byte_arg, *unicode_arg;
  struct subst_format *byte_fmt, *unicode_fmt;
};

/* Parse the format ARG of the option OPTION (--byte-subst or
   --unicode-subst) into *FMT, replacing the one an earlier OPTION
   gave.  */
static void
parse_format (char const *option, char const *arg, struct subst_format **fmt)
{
  enum format_problem why;
  struct subst_format *f = policy_format_parse (arg, &why);

  if (!f)
    {
      error (0, 0, "invalid %s format %s%s", option, quote_c (0, arg),
             (why == FORMAT_NOT_UTF8 ? ": not valid UTF-8"
              : why == FORMAT_TOO_WIDE
              ? ": a width or precision above 2147483647" : ""));
      usage (EXIT_TROUBLE);
    }
  policy_format_free (*fmt);
  *fmt = f;
}

/* The literal text of the format FMT, ARG as given to OPTION, is
   written in the output encoding TO: a character that TO cannot hold is
   a usage error.  */
static void
check_format (char const *option, char const *arg,
              struct subst_format const *fmt, struct codec const *to)
{
  ucs4_t c;
  if (fmt && !policy_format_encodable (fmt, to, &c))
    {
      error (0, 0, "%s format %s: cannot encode U+%04X in %s", option,
             quote_c (0, arg), (unsigned int) c, to->name);
      usage (EXIT_TROUBLE);
    }
}

/* Take the error-policy option C (-e, -c, --byte-subst,
   --unicode-subst), with its argument OPTARG, into CFG and O; false
   when C is no such option.  */
static bool
take_policy_option (int c, struct batch_config *cfg, struct options *o)
{
  switch (c)
    {
    case 'e':
      if (!policy_parse (optarg, &cfg->run.policy.policy))
        usage_error ("invalid error policy", optarg);
      o->policy_given = true;
      break;
    case 'c':
      cfg->run.policy.policy = POLICY_IGNORE;
      o->policy_given = true;
      break;
    case BYTE_SUBST_OPTION:
      parse_format ("--byte-subst", optarg, &o->byte_fmt);
      o->byte_arg = optarg;
      o->subst_given = true;
      break;
    case UNICODE_SUBST_OPTION:
      parse_format ("--unicode-subst", optarg, &o->unicode_fmt);
      o->unicode_arg = optarg;
      o->subst_given = true;
      break;
    default:
      return false;
    }
  return true;
}

/* Take the option C, with its argument OPTARG, into CFG and O.  */
static void
take_option (int c, struct batch_config *cfg, struct options *o)
{
  switch (c)
    {
    case 'f':
      o->from = optarg;
      break;
    case 't':
      o->to = optarg;
      o->to_given = true;
      break;
    case BOM_OPTION:
      cfg->run.bom = parse_bom (optarg);
      break;
    case EOL_OPTION:
      cfg->run.eol = parse_eol (optarg);
      break;
    case EOL_FROM_OPTION:
      cfg->run.eol_cr_breaks = parse_eol_from (optarg);
      break;
    case FIX_MOJIBAKE_OPTION:
      cfg->run.fix_mojibake = true;
      break;
    case 'o':
      cfg->output = optarg;
      break;
    case 'i':
      o->in_place = true;
      cfg->suffix = optarg;
      break;
    case 'k':
      cfg->keep_times = true;
      break;
    case BINARY_OPTION:
      cfg->binary = true;
      break;
    case CHECK_OPTION:
      o->check = true;
      break;
    case REPORT_OPTION:
      o->want_report = true;
      break;
    case REPORT_JSON_OPTION:
      report_json_name = optarg;
      break;
    case PROGRESS_OPTION:
      o->want_progress = true;
      break;
    case BLOCK_SIZE_OPTION:
      cfg->run.block_size = parse_block_size (optarg);
      break;
    case 'l':
      registry_list (stdout);
      exit (EXIT_SUCCESS);
    case 'q':
    case 's':
      cfg->quiet = true;
      break;
    case VERBOSE_OPTION:
      cfg->verbose = true;
      break;
    case FALLBACK_OPTION:
      o->fallback = optarg;
      break;
    case DETECT_OPTION:
      o->detect = true;
      break;
    case IF_UNSURE_OPTION:
      o->if_unsure_skip = parse_mode ("--if-unsure", optarg, unsure_names);
      o->if_unsure_given = true;
      break;
    case 'r':
      cfg->recursive = true;
      break;
    case HELP_OPTION:
      usage (EXIT_SUCCESS);
    case VERSION_OPTION:
      version_etc (stdout, "utf8conv", PACKAGE_NAME, PACKAGE_VERSION,
                   AUTHORS, (char *) NULL);
      exit (EXIT_SUCCESS);
    default:
      if (!take_policy_option (c, cfg, o))
        usage (EXIT_TROUBLE);
    }
}

/* -f when none is given; --detect makes that -f auto.  */
static char const default_from[] = "UTF-8";

/* --fallback and --detect, checked and settled into CFG.  */
static void
settle_detection (struct batch_config *cfg, struct options const *o)
{
  struct run_config *rc = &cfg->run;
  struct codec const *fb = NULL;
  uint32_t table[128];

  if (o->detect)
    {
      if (rc->from != codec_auto)
        usage_error ("--detect works with -f auto only (its default)", NULL);
      if (o->in_place || o->check || o->to_given || cfg->output)
        usage_error ("--detect converts nothing: no -i, --check, -t or -o",
                     NULL);
    }
  if (o->if_unsure_given && rc->from != codec_auto)
    usage_error ("--if-unsure works with -f auto only", NULL);
  if (o->fallback)
    {
      fb = registry_lookup (o->fallback);
      if (rc->from != codec_auto)
        usage_error ("--fallback works with -f auto only", NULL);
      if (!fb)
        unknown_encoding (o->fallback);
      if (!legacy_single_byte (fb, table))
        {
          error (0, 0, "--fallback needs a single-byte encoding, not %s",
                 quote_c (0, fb->name));
          usage (EXIT_TROUBLE);
        }
    }
  if (fb || o->if_unsure_skip)
    rc->from = detect_configure (fb, o->if_unsure_skip ? DETECT_SURE : 0);
}

/* The options O, checked against each other and settled into CFG, for
   NOPERANDS operands.  */
static void
settle_options (struct batch_config *cfg, struct options const *o,
                int noperands)
{
  struct run_config *rc = &cfg->run;
  bool to_ignore, policy_given = o->policy_given;

  if (o->in_place && o->check)
    usage_error ("cannot combine --in-place and --check", NULL);
  cfg->mode = (o->in_place ? BATCH_IN_PLACE
               : o->check || o->detect ? BATCH_CHECK : BATCH_STREAM);
  cfg->detect = o->detect;
  rc->from = (o->detect && o->from == default_from ? codec_auto
              : registry_lookup (o->from));
  if (!rc->from)
    unknown_encoding (o->from);
  settle_detection (cfg, o);
  rc->to = find_target (o->to, &to_ignore);
  if (to_ignore && !policy_given)
    {
      rc->policy.policy = POLICY_IGNORE;
      policy_given = true;
    }
  if (o->subst_given && !policy_given)
    rc->policy.policy = POLICY_ESCAPE;
  if (rc->bom == BOM_ADD && !(rc->to->flags & CODEC_UNICODE))
    {
      error (0, 0, "--bom=add needs a Unicode output encoding, not %s",
             quote_c (0, rc->to->name));
      exit (EXIT_TROUBLE);
    }
  if (rc->eol_cr_breaks && rc->eol == EOL_KEEP)
    usage_error ("--eol-from=cr needs --eol=lf, crlf or cr", NULL);
  if (rc->bom == BOM_STRIP && rc->to->unmarked)
    rc->to = rc->to->unmarked;
  check_format ("--byte-subst", o->byte_arg, o->byte_fmt, rc->to);
  check_format ("--unicode-subst", o->unicode_arg, o->unicode_fmt, rc->to);
  rc->policy.byte_fmt = o->byte_fmt;
  rc->policy.unicode_fmt = o->unicode_fmt;

  if (cfg->mode == BATCH_IN_PLACE)
    {
      if (cfg->output)
        usage_error ("cannot combine --in-place and --output", NULL);
      if (noperands == 0)
        usage_error ("--in-place needs a FILE", NULL);
    }
  else if (cfg->keep_times)
    usage_error ("--keep-timestamps works with --in-place only", NULL);
  if (report_json_name && strcmp (report_json_name, "-") == 0
      && cfg->mode == BATCH_STREAM && !cfg->output)
    usage_error ("--report-json=- needs the text to go elsewhere "
                 "(-i, -o or --check)", NULL);
  if (cfg->mode == BATCH_CHECK)
    {
      if (cfg->output)
        usage_error ("cannot combine --check and --output", NULL);
      cfg->silent = cfg->quiet;
      /* With -t, --check is a dry run of the conversion, its policy
         included (SPEC §10).  Without it, each input must be well-formed
         in its own encoding, whatever -e says: UTF-32LE encodes
         everything a decoder produces, lone surrogates included, and
         does not make UTF-16 lone surrogates data as a WTF-8 target
         would.  Well-formed UTF-8 input is all scalar values, which
         UTF-8 encodes: that target takes the validating copy, the
         fastest path there is.  */
      if (o->detect)
        {
          /* Read every file to its end, whatever it holds.  */
          rc->policy.policy = POLICY_REPLACE;
          rc->to = registry_find ("UTF-32LE");
          cfg->silent = true;
        }
      else if (!o->to_given)
        {
          struct codec const *utf8 = registry_find ("UTF-8");
          rc->policy.policy = POLICY_STRICT;
          rc->to = rc->from == utf8 ? utf8 : registry_find ("UTF-32LE");
          rc->well_formed_input = true;
        }
    }
}

/* The argument that follows a bare -i (no SUFFIX attached) in
   ARGV[1..ARGC), before getopt_long permutes them, or NULL: "-i",
   "--in-place" or an abbreviation of it, or a cluster of short options
   that ends in i ("-ci").  */
static char const *
after_bare_in_place (int argc, char **argv)
{
  int k;
  for (k = 1; k + 1 < argc; k++)
    {
      char const *a = argv[k];
      if (strcmp (a, "--") == 0)
        break;
      if (a[0] != '-' || a[1] == '\0')
        continue;
      if (a[1] == '-')
        {
          size_t n = strlen (a);
          if (4 <= n && strncmp (a, "--in-place", n) == 0)
            return argv[k + 1];
          continue;
        }
      for (a++; *a; a++)
        {
          if (strchr ("fteo", *a))
            {
              /* The option's argument is the rest, or the next one.  */
              k += a[1] == '\0';
              break;
            }
          if (*a == 'i')
            {
              if (a[1] == '\0')
                return argv[k + 1];
              break;
            }
        }
    }
  return NULL;
}

/* -i .bak FILE: a backup suffix given with a space is an operand, and
   would be converted as a file after the others were converted without
   a backup.  Refuse ARG, the operand after a bare -i, before anything
   is converted when it looks like a suffix (short, starting with '.'
   or '~', no '/') and is not an existing file (SPEC §12).  */
static void
refuse_forgotten_suffix (char const *arg)
{
  struct stat st;
  if (!arg || !(arg[0] == '.' || arg[0] == '~') || 8 < strlen (arg)
      || strchr (arg, '/') || lstat (arg, &st) == 0)
    return;
  {
    char *hint = xmalloc (strlen (arg) + 3);
    strcpy (stpcpy (hint, "-i"), arg);
    error (0, 0, "%s is not a file; to keep backups with that suffix, "
           "attach it: %s", quote_c (0, arg), quote_c (1, hint));
    free (hint);
  }
  usage (EXIT_TROUBLE);
}

/* Name the program the same way however it was invoked (diagnostics are
   an interface that scripts match), and set up what every run needs.  */
static void
initialize (char **argv)
{
  set_program_name (argv[0]);
  program_name = "utf8conv";
#if defined __GLIBC__
  /* glibc's error () prints this name.  */
  program_invocation_name = (char *) "utf8conv";
#endif
  argv[0] = (char *) "utf8conv";
  /* Every failure of gnulib's (a write error at exit, memory exhausted)
     is trouble.  */
  exit_failure = EXIT_TROUBLE;
  /* File names in diagnostics and reports are quoted as coreutils
     quotes them in the current locale: a UTF-8 name stays readable in
     a UTF-8 locale (SPEC §2).  That is all the locale may change, so
     only LC_CTYPE is taken from the environment (messages, numbers and
     iconv(3) stay in the C locale), and every other argument is quoted
     as in the C locale (quote_c), with ASCII quotes.  */
  setlocale (LC_CTYPE, "");
  atexit (close_stdout);
  diag_init ();
  /* A reader that goes away ends the program quietly, as with cat, even
     when the parent ignored SIGPIPE.  */
  signal (SIGPIPE, SIG_DFL);
}

int
main (int argc, char **argv)
{
  static char *stdin_only[] = { (char *) "-" };
  struct batch_config cfg;
  struct options o = { default_from, "UTF-8", NULL, false, false, false,
                       false, false, false, false, false, false, false, NULL,
                       NULL, NULL, NULL };
  struct walk_entry *entries;
  bool walk_trouble = false;
  size_t nentries;
  int c, status, noperands;
  char const *bare_next;

  initialize (argv);
  bare_next = after_bare_in_place (argc, argv);
  memset (&cfg, 0, sizeof cfg);
  cfg.run.policy.policy = POLICY_STRICT;
  cfg.run.bom = BOM_AUTO;
  cfg.run.block_size = 65536;
  while ((c = getopt_long (argc, argv, "f:t:e:co:i::lqsrk", long_options,
                           NULL)) != -1)
    take_option (c, &cfg, &o);
  noperands = argc - optind;
  settle_options (&cfg, &o, noperands);
  if (o.in_place)
    for (c = optind; c < argc; c++)
      if (strcmp (argv[c], "-") == 0)
        usage_error ("--in-place cannot convert standard input", NULL);
  if (o.in_place && !cfg.suffix)
    refuse_forgotten_suffix (bare_next);

  /* No FILE is standard input; directories with no files in them are
     nothing.  */
  if (noperands == 0)
    entries = walk_operands (stdin_only, nentries = 1);
  else if (cfg.recursive)
    entries = walk_expand (argv + optind, (size_t) noperands, &nentries,
                           &walk_trouble);
  else
    entries = walk_operands (argv + optind, nentries = (size_t) noperands);

  if (!kernels_select ())
    {
      error (0, 0, "UTF8CONV_IMPL=%s is not available on this machine",
             getenv ("UTF8CONV_IMPL"));
      exit (EXIT_TROUBLE);
    }
  reserve_standard_fds ();
  start_report_and_progress (&cfg, o.want_report, o.want_progress, entries,
                             nentries);
  status = batch_run (&cfg, entries, nentries);
  walk_free (entries, nentries);
  policy_format_free (o.byte_fmt);
  policy_format_free (o.unicode_fmt);
  return walk_trouble ? EXIT_TROUBLE : status;
}
