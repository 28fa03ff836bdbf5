/* The three runners (see batch.h).

   They share the steps around the pipeline: entries of a tree that are
   not converted (links, special files, backups, temporary files) are
   skipped and counted; a file that looks binary is skipped when the
   mode tests for it (SPEC §12); data errors go to the diagnostics and to
   the JSON report as they happen, and each file ends with a record of
   its outcome.  Records are reported in input order: under -i a
   converted file's outcome is known only when the queue of finished
   files is committed (inplace.c), and the records after it wait for
   that.  */

#include <config.h>

#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "xalloc.h"

#include "binary.h"
#include "detect.h"
#include "diag.h"
#include "inplace.h"
#include "system.h"

enum
{
  /* The binary test reads a file in chunks of this size.  */
  BINARY_WINDOW = 64 << 10,
  /* Commit the in-place queue when this many records wait for it.  */
  RECORDS_MAX = 1024
};

/* A file's outcome, waiting to be reported in order.  */
struct record
{
  struct record *next;          /* The file after it.  */
  char const *name;
  struct file_outcome o;
  struct file_stats stats;
  char *why;                    /* o.why's own copy.  */
  int status;                   /* What it adds to the exit status.  */
  bool pending;                 /* Waits for the in-place queue.  */
};

/* The files converted in place so far, so that no bytes are converted
   twice: each name's file by device and inode, with the name's
   canonical path (its symbolic links resolved), and the inodes that the
   run's renames gave them.  */
struct seen
{
  dev_t dev;
  ino_t ino;
  char const *name;             /* NULL: an empty slot.  */
  char *path;                   /* Canonical; NULL for a fresh inode.  */
  bool fresh;                   /* An inode that this run wrote.  */
  bool replaced;                /* NAME was converted: the rename that
                                   comes broke its hard links.  */
};

struct batch
{
  struct batch_config const *cfg;
  struct run *run;
  int status;
  uint8_t *window;              /* BINARY_WINDOW bytes.  */
  struct binary_test binary;    /* The binary test, reading WINDOW.  */
  struct record *first;         /* The records not reported yet, in */
  struct record **last;         /* order: a queue.  */
  size_t nrecords;
  struct seen *seen;
  size_t nseen, seen_cap;       /* SEEN_CAP is a power of 2.  */
  int out_fd;                   /* BATCH_STREAM's output.  */
  struct inplace *out_replacement;      /* -o that is also an input.  */
};

/* --- Exit status and records ------------------------------------------- */

static void
add_status (struct batch *b, int s)
{
  if (b->status < s)
    b->status = s;
}

/* Report the records that no longer wait, in order, up to the first
   that does.  */
static void
flush_records (struct batch *b)
{
  while (b->first && !b->first->pending)
    {
      struct record *r = b->first;
      b->first = r->next;
      if (!b->first)
        b->last = &b->first;
      b->nrecords--;
      add_status (b, r->status);
      if (b->cfg->report)
        report_file (b->cfg->report, r->name, &r->o);
      free (r->why);
      free (r);
    }
}

/* Record the outcome of NAME: O (its why and stats are copied), adding
   STATUS to the exit status.  A PENDING record waits for the in-place
   queue, and is returned; the others are reported as soon as the
   records before them are, and NULL is returned.  */
static struct record *
record (struct batch *b, char const *name, struct file_outcome const *o,
        int status, bool pending)
{
  struct record *r = xzalloc (sizeof *r);
  r->name = name;
  r->o = *o;
  if (o->stats)
    {
      r->stats = *o->stats;
      r->o.stats = &r->stats;
    }
  if (o->why)
    r->o.why = r->why = xstrdup (o->why);
  r->status = status;
  r->pending = pending;
  *b->last = r;
  b->last = &r->next;
  b->nrecords++;
  if (pending)
    return r;
  flush_records (b);
  return NULL;
}

/* An outcome without statistics.  */
static void
record_plain (struct batch *b, char const *name, enum outcome outcome,
              char const *why, int status)
{
  struct file_outcome o = { outcome, why, NULL, false, -1 };
  record (b, name, &o, status, false);
}

/* --- Data errors ------------------------------------------------------- */

static void
on_error (void *arg, char const *file, struct data_error const *e)
{
  struct batch *b = arg;
  if (!b->cfg->silent)
    diag_stop (NULL, file, e);
  if (b->cfg->report)
    report_error (b->cfg->report, file, e);
}

static void
on_repair (void *arg, char const *file, struct moji_repair const *rp)
{
  struct batch *b = arg;
  if (b->cfg->report)
    report_repair (b->cfg->report, file, rp);
}

/* The warning at the end of a file whose errors the policy handled.  */
static void
warn_handled (struct batch const *b, char const *name,
              struct file_stats const *s)
{
  if (!b->cfg->quiet)
    diag_handled (name, s, b->cfg->run.policy.policy);
}

/* --- Skipping ---------------------------------------------------------- */

/* Whether BASE is the name of one of utf8conv's temporary files:
   `.NAME.utf8conv-XXXXXX' or `.utf8conv-XXXXXX'.  */
static bool
temporary_name (char const *base)
{
  static char const tag[] = ".utf8conv-";
  size_t n = strlen (base), i;
  if (base[0] != '.' || n < sizeof tag - 1 + 6
      || memcmp (base + n - 6 - (sizeof tag - 1), tag, sizeof tag - 1) != 0)
    return false;
  for (i = n - 6; i < n; i++)
    if (!((base[i] >= '0' && base[i] <= '9') || (base[i] >= 'a' && base[i] <= 'z')
          || (base[i] >= 'A' && base[i] <= 'Z')))
      return false;
  return true;
}

/* Why the entry E is not converted at all, or NULL.  */
static char const *
skip_reason (struct batch const *b, struct walk_entry const *e)
{
  char const *base;
  size_t n, sn;

  switch (e->kind)
    {
    case WALK_LINK:
      return "link";
    case WALK_SPECIAL:
      return "not regular";
    case WALK_FILE:
      break;
    default:
      return NULL;
    }
  base = strrchr (e->name, '/');
  base = base ? base + 1 : e->name;
  if (temporary_name (base))
    return "temporary file";
  n = strlen (e->name);
  sn = b->cfg->suffix ? strlen (b->cfg->suffix) : 0;
  if (b->cfg->mode == BATCH_IN_PLACE && sn > 0 && sn <= n
      && strcmp (e->name + n - sn, b->cfg->suffix) == 0)
    return "backup";
  return NULL;
}

/* Whether the binary test runs in this mode (SPEC §12): -i, -r in
   every mode, and --detect; not in a filter run, nor under --binary.  */
static bool
binary_tested (struct batch_config const *cfg)
{
  return !cfg->binary && (cfg->mode == BATCH_IN_PLACE || cfg->recursive
                          || cfg->detect);
}

/* The file NAME is binary (V): warn, or under --detect say so, and
   record it as skipped.  */
static void
report_binary (struct batch *b, char const *name,
               struct binary_verdict const *v)
{
  struct file_outcome o = { OUTCOME_SKIPPED, "binary", NULL, false, -1 };
  char at[sizeof "U+0000000 at byte " + 24];

  if (b->cfg->detect)
    printf ("%s: binary\n", quotef (name));
  else if (!b->cfg->quiet)
    {
      at[0] = '\0';
      if (v->offset >= 0)
        snprintf (at, sizeof at, "U+%04X at byte %jd", (unsigned int) v->c,
                  (intmax_t) v->offset);
      error (0, 0, "%s: binary file (%s%s%s), skipped; --binary converts it",
             quotef (name), v->format ? v->format : "",
             v->format && at[0] ? ", " : "", at);
    }
  o.binary_offset = v->offset;
  record (b, name, &o, EXIT_SUCCESS, false);
}

/* The file NAME is UTF-16 or UTF-32 text (V) that -f names another
   encoding for: invalid input, not converted.  */
static void
report_other_form (struct batch *b, char const *name,
                   struct binary_verdict const *v)
{
  char why[64];
  bool check = b->cfg->mode == BATCH_CHECK;

  snprintf (why, sizeof why, "looks like %s", v->form->name);
  if (!b->cfg->silent)
    error (0, 0, "%s: %s (%s); use -f auto or -f %s", quotef (name), why,
           v->bom ? "BOM" : "no BOM",
           v->form->flags & CODEC_UNITS_32 ? "UTF-32" : "UTF-16");
  record_plain (b, name, check ? OUTCOME_INVALID : OUTCOME_FAILED, why,
                EXIT_DATA);
}

/* Whether the file NAME, open as FD with the status ST, is not
   converted for what it holds: skipped as binary, or refused as
   UTF-16 or UTF-32 text that -f does not read.  If so, say so and
   record it.  */
static bool
skip_binary (struct batch *b, char const *name, int fd, struct stat const *st)
{
  struct binary_verdict v;

  if (!binary_tested (b->cfg) || !S_ISREG (st->st_mode))
    return false;
  binary_test_file (&b->binary, fd, &v);
  switch (v.kind)
    {
    case BINARY_FILE:
      report_binary (b, name, &v);
      return true;
    case BINARY_OTHER_FORM:
      report_other_form (b, name, &v);
      return true;
    default:
      return false;
    }
}

/* --- One file, once (-i) ----------------------------------------------- */

static size_t
seen_hash (dev_t dev, ino_t ino)
{
  return ((size_t) ino * 0x9E3779B97F4A7C15u) ^ (size_t) dev;
}

/* Look up the file DEV, INO, met under the canonical path PATH: set
   *LINK to the name of another hard link of it that was converted
   before (its rename broke the link, and this name still holds the old
   bytes), or else *SAME to the name under which it was met before (this
   path, a file this run wrote, or another name of a file left as it
   was, which this name shares); either is NULL when there was none.  */
static void
seen_lookup (struct batch const *b, dev_t dev, ino_t ino, char const *path,
             char const **same, char const **link)
{
  char const *other = NULL;
  size_t mask, i;

  *same = *link = NULL;
  if (!b->seen_cap)
    return;
  mask = b->seen_cap - 1;
  for (i = seen_hash (dev, ino) & mask; b->seen[i].name; i = (i + 1) & mask)
    if (b->seen[i].dev == dev && b->seen[i].ino == ino)
      {
        struct seen const *s = &b->seen[i];
        if (s->fresh || strcmp (path, s->path) == 0)
          *same = s->name;
        else if (s->replaced && !*link)
          *link = s->name;
        else if (!other)
          other = s->name;
      }
  if (*same)
    *link = NULL;
  else if (!*link)
    *same = other;
}

/* The file DEV, INO met as NAME was converted: its other names keep
   the old bytes once it is renamed.  */
static void
seen_replaced (struct batch *b, dev_t dev, ino_t ino, char const *name)
{
  size_t mask = b->seen_cap - 1, i;
  for (i = seen_hash (dev, ino) & mask; b->seen[i].name; i = (i + 1) & mask)
    if (b->seen[i].name == name && !b->seen[i].fresh)
      b->seen[i].replaced = true;
}

/* Remember that the file DEV, INO was met as NAME under the canonical
   path PATH (which is taken over), or that this run wrote it when
   FRESH.  */
static void
remember (struct batch *b, dev_t dev, ino_t ino, char const *name,
          char *path, bool fresh)
{
  size_t i, mask;
  if (2 * (b->nseen + 1) > b->seen_cap)
    {
      struct seen *old = b->seen;
      size_t oldcap = b->seen_cap;
      b->seen_cap = oldcap ? 2 * oldcap : 64;
      b->seen = xcalloc (b->seen_cap, sizeof *b->seen);
      b->nseen = 0;
      for (i = 0; i < oldcap; i++)
        if (old[i].name)
          {
            remember (b, old[i].dev, old[i].ino, old[i].name, old[i].path,
                      old[i].fresh);
            if (old[i].replaced)
              seen_replaced (b, old[i].dev, old[i].ino, old[i].name);
          }
      free (old);
    }
  mask = b->seen_cap - 1;
  for (i = seen_hash (dev, ino) & mask; b->seen[i].name; i = (i + 1) & mask)
    continue;
  b->seen[i].dev = dev;
  b->seen[i].ino = ino;
  b->seen[i].name = name;
  b->seen[i].path = path;
  b->seen[i].fresh = fresh;
  b->seen[i].replaced = false;
  b->nseen++;
}

static void
forget_all (struct batch *b)
{
  size_t i;
  for (i = 0; i < b->seen_cap; i++)
    free (b->seen[i].path);
  free (b->seen);
}

/* --- The modes --------------------------------------------------------- */

/* --detect: print what -f auto found in the file NAME, with the
   statistics S: the encoding, the confidence and the kind of decision
   ("a.txt: KOI8-R (confidence 0.97, legacy)").  */
static void
print_detection (char const *name, struct file_stats const *s)
{
  struct detection const *d = &s->detected;
  char enc[128];

  if (!d->codec)
    {
      printf ("%s: unknown\n", quotef (name));
      return;
    }
  detect_encoding_name (d, enc, sizeof enc);
  printf ("%s: %s (confidence %u.%02u, %s)\n", quotef (name), enc,
          d->confidence / 100, d->confidence % 100,
          detect_kind_text (d->kind));
}

/* --if-unsure=skip: whether -f auto left the file NAME, with the
   statistics S, unconverted as unsure; if so, the warning is said and
   WHY[0..SIZE) says "unsure: CP1252 0.41".  */
static bool
unsure (struct batch const *b, char const *name, struct file_stats const *s,
        char *why, size_t size)
{
  struct detection const *d = &s->detected;
  char enc[128];

  if (!d->codec || !d->skipped)
    return false;
  detect_encoding_name (d, enc, sizeof enc);
  snprintf (why, size, "unsure: %s %u.%02u", enc, d->confidence / 100,
            d->confidence % 100);
  if (!b->cfg->quiet)
    error (0, 0, "%s: warning: %s, below %u.%02u; skipped%s", quotef (name),
           why, DETECT_SURE / 100, DETECT_SURE % 100,
           b->cfg->mode == BATCH_STREAM ? " after its ASCII head" : "");
  return true;
}

/* The outcome of a file converted to a stream or checked, from the
   pipeline's result R.  */
static void
record_converted (struct batch *b, char const *name, enum file_result r)
{
  struct file_stats s;
  struct file_outcome o = { OUTCOME_CONVERTED, NULL, &s, true, -1 };
  int status = EXIT_SUCCESS;
  bool check = b->cfg->mode == BATCH_CHECK;
  char why[192];

  pipeline_file_stats (b->run, &s);
  switch (r)
    {
    case FILE_OK:
      o.outcome = check ? OUTCOME_VALID : OUTCOME_CONVERTED;
      break;
    case FILE_DROPPED:
      o.outcome = check ? OUTCOME_VALID : OUTCOME_CONVERTED;
      status = EXIT_DATA;
      break;
    case FILE_STOPPED:
      o.outcome = check ? OUTCOME_INVALID : OUTCOME_STOPPED;
      status = EXIT_DATA;
      break;
    case FILE_READ_ERROR:
      error (0, s.sys_errno, "%s", quotef (name));
      o.outcome = OUTCOME_FAILED;
      o.why = "read error";
      status = EXIT_TROUBLE;
      break;
    case FILE_WRITE_ERROR:
      error (0, s.sys_errno, "write error");
      o.outcome = OUTCOME_FAILED;
      o.why = "write error";
      status = EXIT_TROUBLE;
      break;
    }
  o.written = !check;
  if (b->cfg->detect && r != FILE_READ_ERROR && r != FILE_WRITE_ERROR)
    {
      print_detection (name, &s);
      o.outcome = OUTCOME_VALID;
      status = EXIT_SUCCESS;
    }
  else
    {
      warn_handled (b, name, &s);
      if (r != FILE_READ_ERROR && r != FILE_WRITE_ERROR
          && unsure (b, name, &s, why, sizeof why))
        {
          o.outcome = OUTCOME_SKIPPED;
          o.why = why;
          status = EXIT_SUCCESS;
        }
    }
  record (b, name, &o, status, false);
}

/* Whether the input FD, with the status ST, is the standard output that
   the text goes to, and would make it grow for ever (cat's test).  */
static bool
input_is_output (struct batch const *b, struct stat const *st)
{
  struct stat out;
  int flags;
  if (b->cfg->mode != BATCH_STREAM || b->out_fd != STDOUT_FILENO
      || !S_ISREG (st->st_mode) || fstat (STDOUT_FILENO, &out) != 0
      || out.st_dev != st->st_dev || out.st_ino != st->st_ino)
    return false;
  flags = fcntl (STDOUT_FILENO, F_GETFL);
  return out.st_size > 0 || (flags >= 0 && (flags & O_APPEND));
}

/* Convert the entry NAME to the stream, or check it.  Returns false
   when the run must stop.  */
static bool
stream_file (struct batch *b, char const *name)
{
  bool is_stdin = strcmp (name, "-") == 0;
  int fd = is_stdin ? STDIN_FILENO : open (name, O_RDONLY | O_NOCTTY);
  struct stat st;
  enum file_result r;

  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int e = errno;
      error (0, e, "%s", quotef (name));
      record_plain (b, name, OUTCOME_FAILED, strerror (e), EXIT_TROUBLE);
      if (0 <= fd && !is_stdin)
        close (fd);
      return true;
    }
  if (input_is_output (b, &st))
    {
      error (0, 0, "%s: input file is output file", quotef (name));
      record_plain (b, name, OUTCOME_FAILED, "input file is output file",
                    EXIT_TROUBLE);
    }
  else if (is_stdin || !skip_binary (b, name, fd, &st))
    {
      if (b->cfg->mode == BATCH_CHECK)
        pipeline_restart (b->run, -1, NULL, NULL);
      r = pipeline_convert_fd (b->run, fd, name);
      if (!is_stdin && close (fd) != 0)
        {
          error (0, errno, "%s", quotef (name));
          add_status (b, EXIT_TROUBLE);
        }
      record_converted (b, name, r);
      return !(b->cfg->mode == BATCH_STREAM
               && (r == FILE_STOPPED || r == FILE_WRITE_ERROR));
    }
  if (!is_stdin)
    close (fd);
  return true;
}

/* The in-place queue's callback: the outcome of a committed file.  */
static void
committed (void *data, char const *why)
{
  struct record *r = data;
  if (why)
    {
      r->o.outcome = OUTCOME_FAILED;
      r->o.why = r->why = xstrdup (why);
      r->o.written = false;
      r->status = EXIT_TROUBLE;
    }
  r->pending = false;
}

static void
commit_queue (struct batch *b)
{
  inplace_commit_queue (committed);
  flush_records (b);
}

/* What met_before finds.  */
enum met
{
  MET_NEW,                      /* A file not met before.  */
  MET_SAME,                     /* Skipped: met before.  */
  MET_LINK                      /* Another name of a file met before.  */
};

/* Whether the file NAME, with the status ST, was met before in this
   run under the same path (a repeated operand, a symbolic link to a
   file named before), was written by it, or is another name of a file
   that was left as it was (unchanged, failed, binary): if so, it is
   skipped with a warning, so that no bytes are converted twice.
   Another hard-link name of a file converted before still holds the
   old bytes (the rename broke the link): it is converted too, with a
   warning (SPEC §12).  Either way NAME is remembered under its own
   path.  */
static enum met
met_before (struct batch *b, char const *name, struct stat const *st)
{
  char *path = realpath (name, NULL);
  char const *same, *link;

  if (!path)
    path = xstrdup (name);
  seen_lookup (b, st->st_dev, st->st_ino, path, &same, &link);
  if (same)
    {
      if (!b->cfg->quiet)
        error (0, 0, "%s: warning: the same file as %s, converted once; "
               "skipped", quotef_n (0, name), quoteaf_n (1, same));
      record_plain (b, name, OUTCOME_SKIPPED, "same file", EXIT_SUCCESS);
      free (path);
      return MET_SAME;
    }
  if (link && !b->cfg->quiet)
    error (0, 0, "%s: warning: a hard link of %s, whose conversion broke "
           "the link; converted too", quotef_n (0, name), quoteaf_n (1, link));
  remember (b, st->st_dev, st->st_ino, name, path, false);
  return link ? MET_LINK : MET_NEW;
}

/* --if-unsure=skip under -i: when -f auto was unsure of the file NAME,
   with the statistics S, it is left as it is (IP is cancelled), and
   said so.  */
static bool
skip_unsure (struct batch *b, char const *name, struct file_stats *s,
             struct inplace *ip)
{
  char why[192];
  struct file_outcome o = { OUTCOME_SKIPPED, why, s, false, -1 };

  if (!unsure (b, name, s, why, sizeof why))
    return false;
  record (b, name, &o, EXIT_SUCCESS, false);
  inplace_cancel (ip);
  return true;
}

/* Convert the entry NAME in place.  */
static void
in_place_file (struct batch *b, char const *name)
{
  char const *why = NULL;
  struct inplace *ip = inplace_open (name, b->cfg->suffix, &why);
  struct file_stats s;
  struct file_outcome o = { OUTCOME_FAILED, NULL, &s, false, -1 };
  struct stat const *st;
  struct record *rec;
  enum file_result r;
  nlink_t links;
  dev_t dev;
  ino_t ino;
  enum met met;
  int status;

  if (!ip)
    {
      record_plain (b, name, OUTCOME_FAILED, why, EXIT_TROUBLE);
      return;
    }
  st = inplace_stat (ip);
  met = met_before (b, name, st);
  if (met == MET_SAME || skip_binary (b, name, inplace_input_fd (ip), st))
    {
      inplace_cancel (ip);
      return;
    }
  links = st->st_nlink;
  dev = st->st_dev;
  ino = st->st_ino;

  pipeline_restart (b->run, -1, inplace_write, ip);
  r = pipeline_convert_fd (b->run, inplace_input_fd (ip), name);
  pipeline_file_stats (b->run, &s);
  warn_handled (b, name, &s);
  if ((r == FILE_OK || r == FILE_DROPPED) && skip_unsure (b, name, &s, ip))
    return;
  /* Under `ignore' the loss was asked for: the file is replaced, and the
     status still says that something was dropped.  */
  status = r == FILE_DROPPED ? EXIT_DATA : EXIT_SUCCESS;
  if (r == FILE_OK || r == FILE_DROPPED)
    {
      dev_t ndev;
      ino_t nino;
      rec = record (b, name, &o, status, true);
      switch (inplace_finish (ip, b->cfg->keep_times, rec, &ndev, &nino,
                              &why))
        {
        case INPLACE_UNCHANGED:
          rec->o.outcome = OUTCOME_UNCHANGED;
          rec->pending = false;
          flush_records (b);
          break;
        case INPLACE_QUEUED:
          /* The first name met says it; met_before said it of the
             others.  */
          if (1 < links && met == MET_NEW && !b->cfg->quiet)
            error (0, 0, "%s: warning: the file has other hard links; "
                   "the conversion breaks the link (names not converted "
                   "in this run keep the old contents)", quotef (name));
          rec->o.outcome = OUTCOME_CONVERTED;
          rec->o.written = true;
          seen_replaced (b, dev, ino, name);
          remember (b, ndev, nino, name, NULL, true);
          if (inplace_queue_full () || b->nrecords >= RECORDS_MAX)
            commit_queue (b);
          break;
        case INPLACE_FAILED:
          rec->o.why = rec->why = xstrdup (why);
          rec->status = EXIT_TROUBLE;
          rec->pending = false;
          flush_records (b);
          break;
        }
      return;
    }
  switch (r)
    {
    case FILE_STOPPED:
      o.why = "data error";
      status = EXIT_DATA;
      break;
    case FILE_READ_ERROR:
      error (0, s.sys_errno, "%s", quotef (name));
      o.why = "read error";
      status = EXIT_TROUBLE;
      break;
    default:
      o.why = inplace_failure (ip);
      if (!o.why)
        o.why = "write error";
      status = EXIT_TROUBLE;
      break;
    }
  record (b, name, &o, status, false);
  inplace_cancel (ip);
}

/* --- The output of BATCH_STREAM ---------------------------------------- */

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

/* Open the -o file OUTPUT for the inputs E[0..N).  When it is a regular
   file that is also an input, start replacing it instead.  */
static void
open_output (struct batch *b, char const *output,
             struct walk_entry const *e, size_t n)
{
  struct stat st;
  bool is_input = false;
  size_t i;

  if (stat (output, &st) == 0 && S_ISREG (st.st_mode))
    for (i = 0; i < n; i++)
      is_input |= same_file (e[i].name, &st);
  if (!is_input)
    {
      b->out_fd = open (output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      if (b->out_fd < 0)
        error (EXIT_TROUBLE, errno, "%s", quotef (output));
      return;
    }
  b->out_replacement = inplace_create (output);
  if (!b->out_replacement)
    exit (EXIT_TROUBLE);
  b->out_fd = inplace_output_fd (b->out_replacement);
}

/* The callback of the -o file's replacement.  */
static void
output_done (void *data, char const *why)
{
  if (why)
    add_status (data, EXIT_TROUBLE);
}

/* Finish the -o file: put the replacement in place when COMMIT, discard
   it otherwise.  */
static void
finish_output (struct batch *b, bool commit)
{
  char const *output = b->cfg->output;
  if (!b->out_replacement)
    {
      if (close (b->out_fd) != 0)
        {
          error (0, errno, "%s", quotef (output));
          add_status (b, EXIT_TROUBLE);
        }
    }
  else if (!commit)
    inplace_cancel (b->out_replacement);
  else
    {
      dev_t dev;
      ino_t ino;
      char const *why;
      if (inplace_finish (b->out_replacement, false, b, &dev, &ino, &why)
          != INPLACE_QUEUED)
        add_status (b, EXIT_TROUBLE);
      else
        inplace_commit_queue (output_done);
    }
}

int
batch_run (struct batch_config const *cfg, struct walk_entry const *e,
           size_t n)
{
  struct batch b;
  struct run_config rc = cfg->run;
  size_t i;

  memset (&b, 0, sizeof b);
  b.cfg = cfg;
  b.last = &b.first;
  b.out_fd = STDOUT_FILENO;
  if (binary_tested (cfg))
    {
      b.window = xmalloc (BINARY_WINDOW);
      binary_test_init (&b.binary, cfg->run.from, b.window, BINARY_WINDOW);
    }
  rc.on_error = on_error;
  rc.error_arg = &b;
  /* --report-json lists every error.  */
  rc.every_error = cfg->report != NULL;
  rc.on_repair = on_repair;
  if (cfg->mode == BATCH_STREAM && cfg->output)
    open_output (&b, cfg->output, e, n);
  b.run = pipeline_start (&rc, cfg->mode == BATCH_STREAM ? b.out_fd : -1);

  for (i = 0; i < n; i++)
    {
      char const *why = skip_reason (&b, &e[i]);
      if (e[i].kind == WALK_OPERAND || e[i].kind == WALK_FILE)
        progress_next_file (cfg->progress);
      /* Diagnosed by the walk; counted here.  */
      if (e[i].kind == WALK_FAILED)
        {
          record_plain (&b, e[i].name, OUTCOME_FAILED, strerror (e[i].err),
                        EXIT_TROUBLE);
          continue;
        }
      if (why)
        {
          record_plain (&b, e[i].name, OUTCOME_SKIPPED, why, EXIT_SUCCESS);
          continue;
        }
      /* As iconv --verbose: the name, before anything is said of it.  */
      if (cfg->verbose)
        diag_verbose (e[i].name);
      if (cfg->mode == BATCH_IN_PLACE)
        in_place_file (&b, e[i].name);
      else if (!stream_file (&b, e[i].name))
        break;
    }
  commit_queue (&b);
  /* Under -i the run's output went to a file's replacement, which is
     gone.  */
  if (cfg->mode != BATCH_STREAM)
    pipeline_restart (b.run, -1, NULL, NULL);
  pipeline_finish (b.run);
  if (cfg->mode == BATCH_STREAM && cfg->output)
    finish_output (&b, b.status == EXIT_SUCCESS
                   || (b.status == EXIT_DATA
                       && cfg->run.policy.policy == POLICY_IGNORE));
  free (b.window);
  forget_all (&b);
  return b.status;
}
