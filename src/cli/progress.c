/* --progress: how far the conversion is, on one line of standard error.

   The line is redrawn in place with a carriage return, at most ten times
   a second (the monotonic clock is read once per buffer), and cleared at
   the end, so that nothing of it stays on the screen.  When the size of
   the input is known (regular files: the sum of their sizes), it shows
   the percentage, the bytes done and the estimated time left; otherwise
   the bytes done and the rate:

     utf8conv: 42% 112.0 MiB of 266.7 MiB, 75.3 MiB/s, ETA 0:02
     utf8conv: 112.0 MiB, 75.3 MiB/s

   With several files, the line starts with the file being converted
   and how many there are (the operands, or the files a -r walk listed
   before the conversion began):

     utf8conv: file 3 of 10, 42% 112.0 MiB of 266.7 MiB, 75.3 MiB/s, ETA 0:02

   It is never written when standard error is not a terminal: logs and
   redirected output stay clean.  */

#include <config.h>

#include "progress.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progname.h"
#include "xalloc.h"

#include "fatal.h"

enum
{
  /* Nanoseconds between two redraws.  */
  REDRAW_NS = 100 * 1000 * 1000
};

struct progress
{
  int64_t total;                /* -1: unknown.  */
  uint64_t files;               /* How many files the run has.  */
  uint64_t file;                /* Which of them is being converted.  */
  uint64_t done;
  int64_t start_ns;
  int64_t last_ns;              /* Of the last redraw; -1 before.  */
  size_t width;                 /* Of the line on the screen.  */
};

/* The display that diagnostics clear first.  */
static struct progress *active;

/* What clears the line from a signal handler, which may not call stdio:
   a carriage return, as many blanks as the line is wide, and another
   carriage return; CLEAR_LEN is 0 when nothing is on the screen.  */
enum { LINE_MAX_WIDTH = 160 };
static char clear_buf[LINE_MAX_WIDTH + 2];
static volatile sig_atomic_t clear_len;

static void
clear_on_signal (void)
{
  if (clear_len > 0)
    {
      ssize_t w = write (STDERR_FILENO, clear_buf, (size_t) clear_len);
      (void) w;
    }
}

/* Whether the file descriptors A and B are the same terminal.  */
static bool
same_terminal (int a, int b)
{
  struct stat sa, sb;
  return (isatty (a) && isatty (b) && fstat (a, &sa) == 0
          && fstat (b, &sb) == 0 && sa.st_rdev == sb.st_rdev);
}

static int64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Write N bytes as "512 B", "1.5 KiB", "112.0 MiB" into BUF.  */
static void
human (char *buf, size_t size, double n)
{
  static char const *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  unsigned int u = 0;
  while (n >= 1024 && u + 1 < sizeof units / sizeof units[0])
    {
      n /= 1024;
      u++;
    }
  /* In tenths, as an integer: a double could print 300 digits.  */
  {
    uint64_t tenths = (uint64_t) (n * 10 + 0.5);
    if (u == 0)
      snprintf (buf, size, "%" PRIu64 " B", (tenths + 5) / 10);
    else
      snprintf (buf, size, "%" PRIu64 ".%u %s", tenths / 10,
                (unsigned int) (tenths % 10), units[u]);
  }
}

struct progress *
progress_start (int64_t total, uint64_t files, bool text_to_stdout)
{
  struct progress *p;
  if (!isatty (STDERR_FILENO)
      || (text_to_stdout && same_terminal (STDOUT_FILENO, STDERR_FILENO)))
    return NULL;
  p = xzalloc (sizeof *p);
  p->total = total;
  p->files = files;
  p->start_ns = now_ns ();
  p->last_ns = -1;
  clear_buf[0] = '\r';
  memset (clear_buf + 1, ' ', LINE_MAX_WIDTH);
  active = p;
  fatal_on_signal (clear_on_signal);
  return p;
}

static void
draw (struct progress *p, int64_t now)
{
  char line[LINE_MAX_WIDTH], done[32], rate[32], files[64] = "";
  double secs = (double) (now - p->start_ns) / 1e9;
  double bps = secs > 0 ? (double) p->done / secs : 0;
  size_t len;

  if (p->files > 1)
    snprintf (files, sizeof files, "file %" PRIu64 " of %" PRIu64 ", ",
              p->file ? p->file : 1, p->files);
  human (done, sizeof done, (double) p->done);
  human (rate, sizeof rate, bps);
  if (p->total >= 0)
    {
      char total[32], eta[32];
      uint64_t total_b = (uint64_t) p->total;
      unsigned int pct = (total_b == 0 ? 100
                          : (unsigned int) (p->done >= total_b ? 100
                                            : (double) p->done * 100.0
                                              / (double) total_b));
      human (total, sizeof total, (double) total_b);
      if (bps > 0 && p->done < total_b)
        {
          uint64_t left = (uint64_t) ((double) (total_b - p->done) / bps);
          snprintf (eta, sizeof eta, "%" PRIu64 ":%02u", left / 60,
                    (unsigned int) (left % 60));
        }
      else
        strcpy (eta, "0:00");
      snprintf (line, sizeof line, "%s: %s%u%% %s of %s, %s/s, ETA %s",
                program_name, files, pct, done, total, rate, eta);
    }
  else
    snprintf (line, sizeof line, "%s: %s%s, %s/s", program_name, files, done,
              rate);

  len = strlen (line);
  /* Pad over what is left of a longer line before.  */
  /* The cursor goes back to the start of the line, so that a
     diagnostic printed meanwhile overwrites the line instead of
     following it.  */
  fprintf (stderr, "\r%s%*s\r", line,
           (int) (p->width > len ? p->width - len : 0), "");
  clear_buf[p->width + 1] = ' ';
  if (p->width < len)
    p->width = len;
  fflush (stderr);
  clear_buf[p->width + 1] = '\r';
  clear_len = (sig_atomic_t) p->width + 2;
  p->last_ns = now;
}

void
progress_update (void *arg, uint64_t bytes)
{
  struct progress *p = arg;
  int64_t now;

  p->done += bytes;
  now = now_ns ();
  if (p->last_ns < 0 || now - p->last_ns >= REDRAW_NS)
    draw (p, now);
}

void
progress_next_file (struct progress *p)
{
  if (!p)
    return;
  /* The next redraw says it: at most ten a second, however small the
     files are.  */
  if (p->file < p->files)
    p->file++;
}

void
progress_clear (struct progress *p)
{
  if (!p || p->width == 0)
    return;
  clear_len = 0;
  clear_buf[p->width + 1] = ' ';
  fprintf (stderr, "\r%*s\r", (int) p->width, "");
  fflush (stderr);
  p->width = 0;
  p->last_ns = -1;
}

void
progress_finish (struct progress *p)
{
  progress_clear (p);
  if (active == p)
    active = NULL;
  free (p);
}

void
progress_clear_active (void)
{
  progress_clear (active);
}
