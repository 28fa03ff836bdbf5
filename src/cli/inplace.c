/* Replacing files safely (see inplace.h; SPEC §7, §12).

   The order of the steps is what keeps each old file intact whatever
   happens: the new contents are written to a temporary file in the same
   directory, made durable, and only then renamed over the file, an
   atomic step.  A failure or a signal at any earlier point leaves the
   file as it was.  SIGXFSZ is ignored, so that a file-size limit
   (ulimit -f) makes write() fail with EFBIG, which is reported, instead
   of killing the program.

   Making each file durable on its own (fsync of the file, then of its
   directory) costs two disk flushes a file, which for many small files
   is most of the time taken.  So finished files wait in a queue of at
   most QUEUE_MAX files or QUEUE_BYTES bytes; committing it flushes them
   all with one syncfs per file system, renames them, and syncs each
   directory once.

   A backup (-i SUFFIX) is a hard link to the old file, made just before
   the rename, so that the file's name never goes missing; an existing
   backup is never replaced.  On a file system that refuses hard links,
   the old file is renamed to the backup name (never over an existing
   one) just before the temporary file is renamed over the file's
   name.  */

#include <config.h>

#include "inplace.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "full-write.h"

/* A C library without renameat2 (musl 1.2.3, glibc before 2.28) on
   Linux 3.15 or later still has the system call: call it directly, so
   that a backup is never renamed over an existing file there either.
   Elsewhere rename_to_backup checks first, which leaves a short
   window (doc/DESIGN.md, "Portability").  */
#if !HAVE_RENAMEAT2 && defined __linux__
# include <sys/syscall.h>
# if defined SYS_renameat2
#  ifndef RENAME_NOREPLACE
#   define RENAME_NOREPLACE (1 << 0)
#  endif
static int
renameat2 (int olddirfd, char const *oldpath, int newdirfd,
           char const *newpath, unsigned int flags)
{
  return (int) syscall (SYS_renameat2, olddirfd, oldpath, newdirfd,
                        newpath, flags);
}
#  undef HAVE_RENAMEAT2
#  define HAVE_RENAMEAT2 1
# endif
#endif
#include "safe-read.h"
#include "xalloc.h"

#include "fatal.h"
#include "system.h"

enum
{
  QUEUE_FILES = 256,            /* At most, and at most a quarter of the
                                   descriptors the process may open.  */
  QUEUE_BYTES = 64 << 20,
  COMPARE_CHUNK = 64 << 10,
  LINK_MAX_LEN = 4096           /* Longer links are not looked at.  */
};

struct inplace
{
  char const *name;             /* As given, for diagnostics.  */
  char *target;                 /* The file replaced: NAME, or the file a
                                   symbolic link NAME points to.  */
  char *backup;                 /* TARGET+SUFFIX, or NULL.  */
  char *temp;                   /* The temporary file, once made.  */
  int temp_slot;                /* Its place in `temps', or -1.  */
  int in_fd;                    /* Reads the old contents, or -1.  */
  int out_fd;                   /* Writes the temporary file, or -1.  */
  struct stat st;               /* The file's, when it was opened.  */
  off_t same;                   /* Bytes of output equal to the old
                                   contents so far (until DIVERGED).  */
  off_t written;                /* Bytes in the temporary file.  */
  bool diverged;                /* The temporary file is being written.  */
  char const *failure;          /* Set by inplace_write on failure.  */
  void *data;                   /* For the queue's callback.  */
};

/* A reason built from an errno value; one at a time.  */
static char why_buf[256];

static char const *
reason (char const *what, int e)
{
  if (e)
    snprintf (why_buf, sizeof why_buf, "%s: %s", what, strerror (e));
  else
    snprintf (why_buf, sizeof why_buf, "%s", what);
  return why_buf;
}

/* The temporary files not yet renamed, which a signal or exit removes:
   the queue's, and the one being written.  Changed only with the fatal
   signals blocked.  */
enum { TEMPS_MAX = QUEUE_FILES + 1 };
static char *volatile temps[TEMPS_MAX];

static void
remove_temps (void)
{
  int i;
  for (i = 0; i < TEMPS_MAX; i++)
    if (temps[i])
      unlink (temps[i]);
}

static void
remove_temps_at_exit (void)
{
  int i;
  remove_temps ();
  for (i = 0; i < TEMPS_MAX; i++)
    temps[i] = NULL;
}

/* The queue of finished files.  */
static struct inplace *queue[QUEUE_FILES];
static size_t nqueue;
static uint64_t queue_bytes;
static size_t queue_max;

static void
init_once (void)
{
  static bool done;
  struct rlimit rl;

  if (done)
    return;
  done = true;
  fatal_on_signal (remove_temps);
  signal (SIGXFSZ, SIG_IGN);
  atexit (remove_temps_at_exit);
  queue_max = QUEUE_FILES;
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
      && rl.rlim_cur / 4 < queue_max)
    queue_max = rl.rlim_cur / 4 ? (size_t) (rl.rlim_cur / 4) : 1;
}

/* The length of the directory part of FILE, its final slash included.  */
static size_t
dir_len (char const *file)
{
  char const *slash = strrchr (file, '/');
  return slash ? (size_t) (slash - file) + 1 : 0;
}

/* Forget IP's temporary file: remove it unless KEEP (it was renamed).  */
static void
drop_temp (struct inplace *ip, bool keep)
{
  sigset_t old;
  fatal_block (&old);
  if (ip->temp_slot >= 0)
    {
      if (!keep)
        unlink (ip->temp);
      temps[ip->temp_slot] = NULL;
      ip->temp_slot = -1;
    }
  fatal_unblock (&old);
}

/* Close what IP holds open, remove its temporary file unless it was
   renamed, and free it.  */
static void
discard (struct inplace *ip)
{
  if (0 <= ip->out_fd)
    close (ip->out_fd);
  if (0 <= ip->in_fd)
    close (ip->in_fd);
  drop_temp (ip, false);
  free (ip->temp);
  free (ip->backup);
  free (ip->target);
  free (ip);
}

/* Create IP's temporary file beside IP->target, with the permission bits
   and, when allowed, the owner and group of the file.  */
static bool
make_temp (struct inplace *ip)
{
  static char const tail[] = ".utf8conv-XXXXXX";
  size_t dlen = dir_len (ip->target);
  char const *base = ip->target + dlen;
  sigset_t old;
  int fd, e, slot;

  ip->temp = xmalloc (dlen + 1 + strlen (base) + sizeof tail);
  memcpy (ip->temp, ip->target, dlen);
  ip->temp[dlen] = '.';
  strcpy (stpcpy (ip->temp + dlen + 1, base), tail);
  fatal_block (&old);
  for (slot = 0; slot < TEMPS_MAX && temps[slot]; slot++)
    continue;
  /* The queue and the file being written never need more.  */
  if (slot == TEMPS_MAX)
    abort ();
  fd = mkstemp (ip->temp);
  if (fd < 0 && errno == ENAMETOOLONG)
    {
      strcpy (ip->temp + dlen, tail);
      fd = mkstemp (ip->temp);
    }
  e = errno;
  if (0 <= fd)
    {
      temps[slot] = ip->temp;
      ip->temp_slot = slot;
    }
  fatal_unblock (&old);
  if (fd < 0)
    {
      error (0, e, "cannot create a temporary file beside %s",
             quoteaf (ip->name));
      ip->failure = reason ("cannot create a temporary file", e);
      return false;
    }
  ip->out_fd = fd;

  /* Owner and group first: changing them may clear the set-user-ID and
     set-group-ID bits that fchmod then sets.  Only root may give the
     file away; others may still keep its group if they belong to it.
     When neither works, the file gets the caller's, as with sed -i.  */
  if (fchown (fd, ip->st.st_uid, ip->st.st_gid) != 0
      && fchown (fd, (uid_t) -1, ip->st.st_gid) != 0)
    {
      /* Keep our own group.  */
    }
  if (fchmod (fd, ip->st.st_mode & 07777) != 0)
    {
      e = errno;
      error (0, e, "cannot set the permissions of %s", quoteaf (ip->temp));
      ip->failure = reason ("cannot set permissions", e);
      return false;
    }
  return true;
}

/* Whether NAME, or a symbolic link on the way to its file, is under
   /proc: /dev/stdin, /dev/fd/N and /proc/self/fd/N lead to whatever a
   descriptor holds, which is not a file to replace even when it is a
   regular one.  Only links are followed here: LST is NAME's lstat.  */
static bool
through_descriptor (char const *name, struct stat const *lst)
{
  char *path;
  bool found = false;
  int hops;

  if (!S_ISLNK (lst->st_mode) && strncmp (name, "/proc/", 6) != 0)
    return false;
  path = xstrdup (name);
  for (hops = 0; hops < 40 && !found; hops++)
    {
      struct stat st;
      char *dir, *real, *link;
      ssize_t n;
      size_t dlen = dir_len (path);

      /* The directory the name is in, with its links resolved.  */
      dir = dlen ? ximemdup0 (path, dlen) : xstrdup (".");
      real = realpath (dir, NULL);
      free (dir);
      if (real)
        {
          found = (strncmp (real, "/proc", 5) == 0
                   && (real[5] == '\0' || real[5] == '/'));
          free (real);
        }
      if (found || lstat (path, &st) != 0 || !S_ISLNK (st.st_mode))
        break;
      /* Links in /proc do not say their length: take enough room.  */
      link = xmalloc (LINK_MAX_LEN + 1);
      n = readlink (path, link, LINK_MAX_LEN + 1);
      if (n < 0 || n > LINK_MAX_LEN)
        {
          free (link);
          break;
        }
      link[n] = '\0';
      if (link[0] != '/' && dlen)
        {
          /* A relative link is relative to its own directory.  */
          char *p = xmalloc (dlen + (size_t) n + 1);
          memcpy (p, path, dlen);
          strcpy (p + dlen, link);
          free (link);
          link = p;
        }
      free (path);
      path = link;
    }
  free (path);
  return found;
}

struct inplace *
inplace_open (char const *name, char const *suffix, char const **why)
{
  struct inplace *ip;
  struct stat st, lst;
  int e;

  init_once ();
  ip = xzalloc (sizeof *ip);
  ip->name = name;
  ip->in_fd = ip->out_fd = ip->temp_slot = -1;

  /* stat follows links, so that a link to a pipe (bash's <(...)) is
     called what it leads to.  */
  if (stat (name, &st) != 0 || lstat (name, &lst) != 0)
    goto fail_errno;
  if (!S_ISREG (st.st_mode) || through_descriptor (name, &lst))
    {
      error (0, 0, "%s: %s", quotef (name),
             S_ISDIR (st.st_mode) ? "Is a directory" : "not a regular file");
      *why = S_ISDIR (st.st_mode) ? "Is a directory" : "not a regular file";
      goto fail;
    }
  if (S_ISLNK (lst.st_mode))
    {
      /* Follow the link, as sed --follow-symlinks and dos2unix -F do,
         so that the link stays a link.  */
      ip->target = realpath (name, NULL);
      if (!ip->target)
        {
          if (errno == ENOMEM)
            xalloc_die ();
          goto fail_errno;
        }
    }
  else
    ip->target = xstrdup (name);
  if (suffix && *suffix)
    {
      ip->backup = xmalloc (strlen (ip->target) + strlen (suffix) + 1);
      strcpy (stpcpy (ip->backup, ip->target), suffix);
    }

  /* Reading the file does not change its access time where that is
     allowed (its owner, root): a file left unchanged keeps its times.  */
#ifdef O_NOATIME
  ip->in_fd = open (ip->target, O_RDONLY | O_NOCTTY | O_NOATIME);
  if (ip->in_fd < 0 && errno == EPERM)
#endif
    ip->in_fd = open (ip->target, O_RDONLY | O_NOCTTY);
  if (ip->in_fd < 0 || fstat (ip->in_fd, &ip->st) != 0)
    goto fail_errno;
  /* The file read must be the file replaced.  */
  if (ip->st.st_dev != st.st_dev || ip->st.st_ino != st.st_ino
      || !S_ISREG (ip->st.st_mode))
    {
      error (0, 0, "%s: changed while being opened", quotef (name));
      *why = "changed while being opened";
      goto fail;
    }
  return ip;

 fail_errno:
  e = errno;
  error (0, e, "%s", quotef (name));
  *why = strerror (e);
 fail:
  discard (ip);
  return NULL;
}

struct inplace *
inplace_create (char const *name)
{
  struct inplace *ip;

  init_once ();
  ip = xzalloc (sizeof *ip);
  ip->name = name;
  ip->in_fd = ip->out_fd = ip->temp_slot = -1;
  ip->diverged = true;
  /* A symbolic link stays a link, as under -i.  */
  ip->target = realpath (name, NULL);
  if (!ip->target || stat (ip->target, &ip->st) != 0)
    {
      if (errno == ENOMEM)
        xalloc_die ();
      error (0, errno, "%s", quotef (name));
      discard (ip);
      return NULL;
    }
  if (!make_temp (ip))
    {
      discard (ip);
      return NULL;
    }
  return ip;
}

int
inplace_input_fd (struct inplace const *ip)
{
  return ip->in_fd;
}

int
inplace_output_fd (struct inplace const *ip)
{
  return ip->out_fd;
}

struct stat const *
inplace_stat (struct inplace const *ip)
{
  return &ip->st;
}

char const *
inplace_failure (struct inplace const *ip)
{
  return ip->failure;
}

/* Say that IP's backup exists, and that IP is left unchanged.  */
static char const *
backup_exists (struct inplace *ip)
{
  error (0, 0, "%s: the backup %s exists; file left unchanged",
         quotef_n (0, ip->name), quoteaf_n (1, ip->backup));
  ip->failure = "backup exists";
  return ip->failure;
}

/* Write BUF[0..N) to the temporary file.  */
static int
put (struct inplace *ip, void const *buf, size_t n)
{
  if (full_write (ip->out_fd, buf, n) != n)
    {
      int e = errno;
      error (0, e, "%s: write error", quotef (ip->name));
      ip->failure = reason ("write error", e);
      return e;
    }
  ip->written += (off_t) n;
  return 0;
}

/* The new contents differ from the old ones after the first IP->same
   bytes: make the temporary file and copy those bytes into it.  */
static int
diverge (struct inplace *ip)
{
  static char buf[COMPARE_CHUNK];
  struct stat st;
  off_t pos = 0;

  ip->diverged = true;
  if (ip->backup && lstat (ip->backup, &st) == 0)
    {
      backup_exists (ip);
      return EEXIST;
    }
  if (!make_temp (ip))
    return EIO;
  while (pos < ip->same)
    {
      size_t want = (size_t) (ip->same - pos < COMPARE_CHUNK
                              ? ip->same - pos : COMPARE_CHUNK);
      ssize_t got = pread (ip->in_fd, buf, want, pos);
      int e;
      if (got <= 0)
        {
          e = got < 0 ? errno : EIO;
          error (0, e, "%s", quotef (ip->name));
          ip->failure = reason ("read error", e);
          return e;
        }
      e = put (ip, buf, (size_t) got);
      if (e)
        return e;
      pos += got;
    }
  return 0;
}

/* Whether BUF[0..N) equals the old contents at IP->same.  */
static bool
same_as_old (struct inplace *ip, uint8_t const *buf, size_t n)
{
  static uint8_t old[COMPARE_CHUNK];
  size_t done = 0;

  if (ip->st.st_size - ip->same < (off_t) n)
    return false;
  while (done < n)
    {
      size_t want = n - done < COMPARE_CHUNK ? n - done : COMPARE_CHUNK;
      ssize_t got = pread (ip->in_fd, old, want, ip->same + (off_t) done);
      if (got != (ssize_t) want || memcmp (old, buf + done, want) != 0)
        return false;
      done += want;
    }
  return true;
}

int
inplace_write (void *arg, uint8_t const *buf, size_t n)
{
  struct inplace *ip = arg;

  if (!ip->diverged)
    {
      int e;
      if (same_as_old (ip, buf, n))
        {
          ip->same += (off_t) n;
          return 0;
        }
      e = diverge (ip);
      if (e)
        return e;
    }
  return put (ip, buf, n);
}

enum inplace_end
inplace_finish (struct inplace *ip, bool keep_times, void *data,
                dev_t *new_dev, ino_t *new_ino, char const **why)
{
  struct stat st;

  if (!ip->diverged)
    {
      if (ip->same == ip->st.st_size)
        {
          discard (ip);
          return INPLACE_UNCHANGED;
        }
      /* The new contents are a part of the old ones.  */
      if (diverge (ip) != 0)
        goto fail;
    }
  if (keep_times)
    {
      struct timespec ts[2];
      ts[0] = ip->st.st_atim;
      ts[1] = ip->st.st_mtim;
      if (futimens (ip->out_fd, ts) != 0)
        {
          int e = errno;
          error (0, e, "cannot set the times of %s", quoteaf (ip->temp));
          ip->failure = reason ("cannot keep the times", e);
          goto fail;
        }
    }
  if (fstat (ip->out_fd, &st) != 0)
    {
      int e = errno;
      error (0, e, "%s", quoteaf (ip->temp));
      ip->failure = reason ("write error", e);
      goto fail;
    }
  *new_dev = st.st_dev;
  *new_ino = st.st_ino;
  if (0 <= ip->in_fd)
    close (ip->in_fd);
  ip->in_fd = -1;
  ip->data = data;
  queue[nqueue++] = ip;
  queue_bytes += (uint64_t) ip->written;
  return INPLACE_QUEUED;

 fail:
  *why = ip->failure;
  discard (ip);
  return INPLACE_FAILED;
}

void
inplace_cancel (struct inplace *ip)
{
  discard (ip);
}

bool
inplace_queue_full (void)
{
  return nqueue >= queue_max || queue_bytes >= QUEUE_BYTES;
}

/* Make the data of the queued temporary files durable.  Returns 0 or
   an errno value.  */
static int
flush_queue (void)
{
  size_t i, j;

  if (nqueue == 1)
    return fsync (queue[0]->out_fd) == 0 ? 0 : errno;
#if HAVE_SYNCFS
  for (i = 0; i < nqueue; i++)
    {
      struct stat st, sj;
      bool seen = false;
      if (fstat (queue[i]->out_fd, &st) != 0)
        return errno;
      /* One syncfs for each file system.  */
      for (j = 0; j < i && !seen; j++)
        seen = (fstat (queue[j]->out_fd, &sj) == 0
                && sj.st_dev == st.st_dev);
      if (!seen && syncfs (queue[i]->out_fd) != 0)
        return errno;
    }
  return 0;
#else
  for (i = 0; i < nqueue; i++)
    if (fsync (queue[i]->out_fd) != 0)
      return errno;
  (void) j;
  return 0;
#endif
}

/* Rename IP's old file to its backup name, never over an existing
   file.  Returns 0 or an errno value.  */
static int
rename_to_backup (struct inplace const *ip)
{
#if defined RENAME_NOREPLACE && HAVE_RENAMEAT2
  if (renameat2 (AT_FDCWD, ip->target, AT_FDCWD, ip->backup,
                 RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return errno;
#endif
  {
    struct stat st;
    if (lstat (ip->backup, &st) == 0)
      return EEXIST;
    return rename (ip->target, ip->backup) == 0 ? 0 : errno;
  }
}

/* Put IP in place; returns NULL or the reason it failed, after a
   diagnostic.  */
static char const *
commit_one (struct inplace *ip)
{
  bool linked = false, moved = false;
  sigset_t old;
  int e;

  if (ip->backup)
    {
      if (link (ip->target, ip->backup) == 0)
        linked = true;
      else if (errno == EEXIST)
        return backup_exists (ip);
      else if (!(errno == EPERM || errno == EMLINK || errno == ENOTSUP
                 || errno == EOPNOTSUPP || errno == ENOSYS
                 || errno == EXDEV))
        {
          e = errno;
          error (0, e, "cannot make the backup %s", quoteaf (ip->backup));
          return reason ("cannot make the backup", e);
        }
    }

  fatal_block (&old);
  if (ip->backup && !linked)
    {
      e = rename_to_backup (ip);
      if (e)
        {
          fatal_unblock (&old);
          if (e == EEXIST)
            return backup_exists (ip);
          error (0, e, "cannot make the backup %s", quoteaf (ip->backup));
          return reason ("cannot make the backup", e);
        }
      moved = true;
    }
  if (rename (ip->temp, ip->target) != 0)
    {
      e = errno;
      if (moved && rename (ip->backup, ip->target) != 0)
        error (0, errno, "cannot rename %s back; the old contents are "
               "in %s", quoteaf_n (0, ip->target), quoteaf_n (1, ip->backup));
      if (linked)
        unlink (ip->backup);
      fatal_unblock (&old);
      error (0, e, "cannot replace %s", quoteaf (ip->name));
      return reason ("cannot replace", e);
    }
  drop_temp (ip, true);
  fatal_unblock (&old);
  return NULL;
}

/* Flush the directory DIR, so that the renames in it survive a crash.
   This is a courtesy: each file is whole either way.  */
static void
sync_dir (char const *dir)
{
  int fd = open (*dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_NOCTTY);
  if (0 <= fd)
    {
      fsync (fd);
      close (fd);
    }
}

void
inplace_commit_queue (void (*done) (void *data, char const *why))
{
  char const *why = NULL;
  char **dirs;
  size_t i, j, ndirs = 0;
  int e;

  if (nqueue == 0)
    return;
  e = flush_queue ();
  if (e)
    {
      error (0, e, "cannot flush the converted files to disk; "
             "they are left unchanged");
      why = reason ("write error", e);
    }
  dirs = xnmalloc (nqueue, sizeof *dirs);
  for (i = 0; i < nqueue; i++)
    {
      struct inplace *ip = queue[i];
      char const *failed = why;
      if (close (ip->out_fd) != 0 && !failed)
        {
          e = errno;
          error (0, e, "%s: write error", quotef (ip->name));
          failed = reason ("write error", e);
        }
      ip->out_fd = -1;
      if (!failed)
        failed = commit_one (ip);
      if (!failed)
        {
          size_t dlen = dir_len (ip->target);
          for (j = 0; j < ndirs; j++)
            if (strlen (dirs[j]) == dlen
                && memcmp (dirs[j], ip->target, dlen) == 0)
              break;
          if (j == ndirs)
            dirs[ndirs++] = ximemdup0 (ip->target, dlen);
        }
      if (done)
        done (ip->data, failed);
      discard (ip);
    }
  for (j = 0; j < ndirs; j++)
    {
      sync_dir (dirs[j]);
      free (dirs[j]);
    }
  free (dirs);
  nqueue = 0;
  queue_bytes = 0;
}
