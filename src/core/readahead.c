/* Reading a regular file ahead in a second thread.

   Copying a file from the page cache costs about as much as validating
   it, so on a machine with more than one processor a second thread reads
   the next blocks while the first converts: a ring of buffers, the
   reader filling them in order and the converter taking them in order.
   Only regular files that utf8conv opened itself take this path: reading
   them never waits for a writer, so SPEC 8's rule (what one read brought
   in is converted and written before the next read waits) has nothing to
   protect there, while pipes, terminals and standard input keep the plain
   read loop.  The blocks and their order are the same as the plain loop's,
   so the output does not depend on which path a file took.  */

#include <config.h>

#include "readahead.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe-read.h"

enum
{
  /* The ring holds 8 blocks of up to 64 KiB, or 4 bigger ones (a power
     of two, so that the block counts index it across their wrap).  */
  MAX_SLOTS = 8,
  /* Below this block size the hand-over costs more than the copy.  */
  MIN_BLOCK = 4096,
  /* Above it the ring would hold too much memory.  */
  MAX_BLOCK = 1 << 20,
  /* How much of the first block not_ascii looks at.  */
  SAMPLE = 16384,
  /* What must be left after the first block: below it, the thread's
     start and hand-overs cost more than reading on the side saves (on
     a file of 1 MiB, UTF-8 to UTF-16LE: 4.3 ms of wall time against
     3.8 ms with the plain loop, and 20% more processor time).  */
  MIN_AHEAD = 2 << 20
};

struct readahead
{
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t filled;        /* The reader filled a slot.  */
  pthread_cond_t freed;         /* The converter gave one back, or STOP.  */
  int fd;
  size_t block;
  /* SLOTS buffers (4 or 8); the sleeping side is woken only when BATCH
     of them are ready for it, so that the threads do not wake each other
     for every block.  */
  unsigned int slots, batch;
  uint8_t *buf[MAX_SLOTS];
  size_t len[MAX_SLOTS];
  int err[MAX_SLOTS];
  /* Counts of blocks, which index the slots modulo SLOTS: filled by the
     reader, taken by the converter, and given back by it (it holds at
     most one, from TAKEN - 1, until it asks for the next).  */
  unsigned int head, taken, tail;
  bool reader_waits, converter_waits;
  bool stop;
};

static void *
reader (void *arg)
{
  struct readahead *ra = arg;
  bool more = true;

  pthread_mutex_lock (&ra->lock);
  while (more)
    {
      unsigned int slot;
      size_t n;
      int e;

      while (ra->head - ra->tail == ra->slots && !ra->stop)
        {
          ra->reader_waits = true;
          pthread_cond_wait (&ra->freed, &ra->lock);
        }
      ra->reader_waits = false;
      if (ra->stop)
        break;
      slot = ra->head % ra->slots;
      pthread_mutex_unlock (&ra->lock);

      n = safe_read (ra->fd, ra->buf[slot], ra->block);
      e = n == SAFE_READ_ERROR ? errno : 0;
      more = n != 0 && n != SAFE_READ_ERROR;

      pthread_mutex_lock (&ra->lock);
      ra->len[slot] = n;
      ra->err[slot] = e;
      ra->head++;
      if (ra->converter_waits && (ra->head - ra->taken >= ra->batch || !more))
        pthread_cond_signal (&ra->filled);
    }
  pthread_mutex_unlock (&ra->lock);
  return NULL;
}

static long
processors (void)
{
  static long count;
  if (count == 0)
    {
      count = sysconf (_SC_NPROCESSORS_ONLN);
      if (count < 1)
        count = 1;
    }
  return count;
}

/* Whether more than 1% of S[0..N) are bytes from 0x80 up.  The kernels
   convert ASCII about as fast as memory moves it, and then a block that
   the other processor read costs more to fetch from its cache than to
   read here: measured, a file of ASCII took 20% longer with a reader
   thread, text with 4% or more non-ASCII bytes 10-35% less time.  */
static bool
not_ascii (uint8_t const *s, size_t n)
{
  size_t i = 0, high = 0;
  /* Eight bytes at a time: their high bits, moved to the low bit of each
     byte, summed into the top byte by the multiplication.  */
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, s + i, sizeof w);
      high += (size_t) ((((w >> 7) & 0x0101010101010101u)
                         * 0x0101010101010101u) >> 56);
    }
  for (; i < n; i++)
    high += s[i] >> 7;
  return high > n / 100;
}

/* Start the reader thread of RA with every asynchronous signal blocked,
   so that a signal sent to the process (SIGINT, SIGTERM, SIGHUP) is
   taken by the main thread, when the main thread lets it in: its
   handlers undo what the main thread did (a temporary file), and the
   main thread blocks them while it does it.  A signal taken here could
   run them while the main thread had half done something.  The
   synchronous signals stay open: blocking them is undefined.  */
static bool
start_reader (struct readahead *ra)
{
  static int const synchronous[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS
  };
  sigset_t all, old;
  size_t i;
  int err;

  sigfillset (&all);
  for (i = 0; i < sizeof synchronous / sizeof synchronous[0]; i++)
    sigdelset (&all, synchronous[i]);
  /* The new thread starts with the mask of the thread that creates it.  */
  pthread_sigmask (SIG_BLOCK, &all, &old);
  err = pthread_create (&ra->thread, NULL, reader, ra);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return err == 0;
}

struct readahead *
readahead_start (int fd, size_t block, uint8_t const *first, size_t n)
{
  struct readahead *ra;
  struct stat st;
  size_t slots;
  off_t at;
  int k;

  if (block < MIN_BLOCK || MAX_BLOCK < block || processors () < 2
      || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
      || !not_ascii (first, n < SAMPLE ? n : SAMPLE))
    return NULL;
  slots = block <= 1 << 16 ? MAX_SLOTS : MAX_SLOTS / 2;
  at = lseek (fd, 0, SEEK_CUR);
  if (at < 0 || st.st_size - at <= (off_t) (slots * block)
      || st.st_size - at <= MIN_AHEAD)
    return NULL;

  ra = calloc (1, sizeof *ra);
  if (!ra)
    return NULL;
  ra->fd = fd;
  ra->block = block;
  ra->slots = (unsigned int) slots;
  ra->batch = (unsigned int) slots / 2;
  for (k = 0; k < (int) slots; k++)
    if (!(ra->buf[k] = malloc (block)))
      goto fail;
  if (pthread_mutex_init (&ra->lock, NULL) != 0)
    goto fail;
  if (pthread_cond_init (&ra->filled, NULL) != 0)
    goto fail_lock;
  if (pthread_cond_init (&ra->freed, NULL) != 0)
    goto fail_filled;
  if (!start_reader (ra))
    goto fail_freed;
  return ra;

 fail_freed:
  pthread_cond_destroy (&ra->freed);
 fail_filled:
  pthread_cond_destroy (&ra->filled);
 fail_lock:
  pthread_mutex_destroy (&ra->lock);
 fail:
  for (k = 0; k < MAX_SLOTS; k++)
    free (ra->buf[k]);
  free (ra);
  return NULL;
}

size_t
readahead_next (struct readahead *ra, uint8_t **buf)
{
  unsigned int slot;
  size_t n;

  pthread_mutex_lock (&ra->lock);
  if (ra->tail != ra->taken)
    {
      ra->tail++;
      if (ra->reader_waits && ra->head - ra->tail <= ra->slots - ra->batch)
        pthread_cond_signal (&ra->freed);
    }
  while (ra->head == ra->taken)
    {
      ra->converter_waits = true;
      pthread_cond_wait (&ra->filled, &ra->lock);
    }
  ra->converter_waits = false;
  slot = ra->taken++ % ra->slots;
  n = ra->len[slot];
  if (n == SAFE_READ_ERROR)
    errno = ra->err[slot];
  pthread_mutex_unlock (&ra->lock);
  *buf = ra->buf[slot];
  return n;
}

void
readahead_stop (struct readahead *ra)
{
  int k;
  pthread_mutex_lock (&ra->lock);
  ra->stop = true;
  pthread_cond_signal (&ra->freed);
  pthread_mutex_unlock (&ra->lock);
  pthread_join (ra->thread, NULL);
  pthread_cond_destroy (&ra->freed);
  pthread_cond_destroy (&ra->filled);
  pthread_mutex_destroy (&ra->lock);
  for (k = 0; k < MAX_SLOTS; k++)
    free (ra->buf[k]);
  free (ra);
}
