/* Replacing a file safely (SPEC §7).

   The order of the steps is what keeps the old file intact whatever
   happens: the new contents are written to a temporary file in the same
   directory, flushed with fsync, and only then renamed over the file, an
   atomic step.  A failure or a signal at any earlier point leaves the file
   as it was.  SIGXFSZ is ignored, so that a file-size limit (ulimit -f)
   makes write() fail with EFBIG, which is reported, instead of killing the
   program.

   A backup (-i SUFFIX) is a hard link to the old file, made before the
   rename, so that the file's name never goes missing.  On a file system
   that refuses hard links, the old file is renamed to the backup name
   just before the temporary file is renamed over the file's name.  */

#include <config.h>

#include "inplace.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "quote.h"
#include "xalloc.h"

struct inplace
{
  char const *name;             /* As given, for diagnostics.  */
  char *target;                 /* The file replaced: NAME, or the file a
                                   symbolic link NAME points to.  */
  char *temp;                   /* The temporary file.  */
  int in_fd;                    /* Reads the old contents, or -1.  */
  int out_fd;                   /* Writes the temporary file, or -1.  */
};

/* The temporary file not yet renamed, which a signal or exit removes.
   Files are replaced one after another, so there is at most one.  */
static char *volatile active_temp;

/* The signals that remove the temporary file before they kill.  */
static int const fatal[] = { SIGHUP, SIGINT, SIGTERM };
static sigset_t fatal_set;

static void
remove_on_signal (int sig)
{
  char *t = active_temp;
  if (t)
    unlink (t);
  /* Die of the same signal, so that the parent sees how we ended.  The
     signal is blocked until this handler returns.  */
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
remove_at_exit (void)
{
  char *t = active_temp;
  active_temp = NULL;
  if (t)
    unlink (t);
}

static void
init_once (void)
{
  static bool done;
  size_t i;

  if (done)
    return;
  done = true;
  sigemptyset (&fatal_set);
  for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
    sigaddset (&fatal_set, fatal[i]);
  for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
    {
      struct sigaction old, sa;
      /* A signal ignored by our parent (nohup) stays ignored.  */
      if (sigaction (fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        continue;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = remove_on_signal;
      sa.sa_mask = fatal_set;
      sigaction (fatal[i], &sa, NULL);
    }
  signal (SIGXFSZ, SIG_IGN);
  atexit (remove_at_exit);
}

/* Block the fatal signals while the temporary file changes state, so that
   the handler never sees a half-made change; OLD receives the mask.  */
static void
block_fatal (sigset_t *old)
{
  sigprocmask (SIG_BLOCK, &fatal_set, old);
}

static void
restore_mask (sigset_t const *old)
{
  sigprocmask (SIG_SETMASK, old, NULL);
}

/* The length of the directory part of FILE, its final slash included.  */
static size_t
dir_len (char const *file)
{
  char const *slash = strrchr (file, '/');
  return slash ? (size_t) (slash - file) + 1 : 0;
}

/* Close what IP holds open, remove its temporary file unless it was
   renamed, and free it.  */
static void
discard (struct inplace *ip)
{
  sigset_t old;

  if (0 <= ip->out_fd)
    close (ip->out_fd);
  if (0 <= ip->in_fd)
    close (ip->in_fd);
  block_fatal (&old);
  if (ip->temp && active_temp == ip->temp)
    {
      unlink (ip->temp);
      active_temp = NULL;
    }
  restore_mask (&old);
  free (ip->temp);
  free (ip->target);
  free (ip);
}

/* Create IP's temporary file beside IP->target, with the permission bits
   and, when allowed, the owner and group in ST.  */
static bool
make_temp (struct inplace *ip, struct stat const *st)
{
  static char const tail[] = ".utf8conv-XXXXXX";
  size_t dlen = dir_len (ip->target);
  char const *base = ip->target + dlen;
  sigset_t old;
  int fd, e;

  ip->temp = xmalloc (dlen + 1 + strlen (base) + sizeof tail);
  memcpy (ip->temp, ip->target, dlen);
  ip->temp[dlen] = '.';
  strcpy (stpcpy (ip->temp + dlen + 1, base), tail);
  block_fatal (&old);
  fd = mkstemp (ip->temp);
  if (fd < 0 && errno == ENAMETOOLONG)
    {
      strcpy (ip->temp + dlen, tail);
      fd = mkstemp (ip->temp);
    }
  e = errno;
  if (0 <= fd)
    active_temp = ip->temp;
  restore_mask (&old);
  if (fd < 0)
    {
      error (0, e, "cannot create a temporary file beside %s",
             quote (ip->name));
      return false;
    }
  ip->out_fd = fd;

  /* Owner and group first: changing them may clear the set-user-ID and
     set-group-ID bits that fchmod then sets.  Only root may give the
     file away; others may still keep its group if they belong to it.
     When neither works, the file gets the caller's, as with sed -i.  */
  if (fchown (fd, st->st_uid, st->st_gid) != 0)
    {
      if (fchown (fd, (uid_t) -1, st->st_gid) != 0)
        {
          /* Keep our own group.  */
        }
    }
  if (fchmod (fd, st->st_mode & 07777) != 0)
    {
      error (0, errno, "cannot set the permissions of %s",
             quote (ip->temp));
      return false;
    }
  return true;
}

/* Start replacing NAME; open it for reading when FOR_INPUT.  */
static struct inplace *
start (char const *name, bool for_input, bool quiet)
{
  struct inplace *ip;
  struct stat st;

  init_once ();
  ip = xzalloc (sizeof *ip);
  ip->name = name;
  ip->in_fd = ip->out_fd = -1;

  if (lstat (name, &st) != 0)
    goto fail_errno;
  if (S_ISLNK (st.st_mode))
    {
      /* Follow the link, as sed --follow-symlinks and dos2unix -F do,
         so that the link stays a link.  A dangling link fails here.  */
      ip->target = realpath (name, NULL);
      if (!ip->target)
        {
          if (errno == ENOMEM)
            xalloc_die ();
          goto fail_errno;
        }
      if (stat (ip->target, &st) != 0)
        goto fail_errno;
    }
  else
    ip->target = xstrdup (name);

  if (S_ISDIR (st.st_mode))
    {
      error (0, EISDIR, "%s", name);
      goto fail;
    }
  if (!S_ISREG (st.st_mode))
    {
      error (0, 0, "%s: not a regular file", name);
      goto fail;
    }
  if (for_input)
    {
      struct stat fst;
      ip->in_fd = open (ip->target, O_RDONLY | O_NOCTTY);
      if (ip->in_fd < 0 || fstat (ip->in_fd, &fst) != 0)
        goto fail_errno;
      /* The file read must be the file replaced.  */
      if (fst.st_dev != st.st_dev || fst.st_ino != st.st_ino
          || !S_ISREG (fst.st_mode))
        {
          error (0, 0, "%s: changed while being opened", name);
          goto fail;
        }
      st = fst;
    }
  if (1 < st.st_nlink && !quiet)
    error (0, 0, "%s: warning: the file has other hard links; "
           "they keep the old contents", name);
  if (!make_temp (ip, &st))
    goto fail;
  return ip;

 fail_errno:
  error (0, errno, "%s", name);
 fail:
  discard (ip);
  return NULL;
}

struct inplace *
inplace_open (char const *name, bool quiet)
{
  return start (name, true, quiet);
}

struct inplace *
inplace_create (char const *name)
{
  return start (name, false, true);
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

/* Make BACKUP a hard link to TARGET, replacing an older backup.  Returns
   1 when done, 0 when the file system refuses hard links (the caller
   then renames), -1 on any other failure.  */
static int
link_backup (char const *target, char const *backup)
{
  if (link (target, backup) == 0)
    return 1;
  if (errno == EEXIST)
    {
      if (unlink (backup) != 0)
        return -1;
      if (link (target, backup) == 0)
        return 1;
    }
  if (errno == EPERM || errno == EMLINK || errno == ENOTSUP
      || errno == EOPNOTSUPP || errno == ENOSYS || errno == EXDEV)
    return 0;
  return -1;
}

/* Flush the directory of FILE, so that a rename in it survives a crash.
   This is a courtesy: the file is whole either way.  */
static void
sync_dir (char const *file)
{
  size_t dlen = dir_len (file);
  char *dir = dlen ? ximemdup0 (file, dlen) : xstrdup (".");
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_NOCTTY);
  if (0 <= fd)
    {
      fsync (fd);
      close (fd);
    }
  free (dir);
}

bool
inplace_commit (struct inplace *ip, char const *suffix)
{
  char *backup = NULL;
  int linked = 1;
  bool ok = false;
  sigset_t old;
  int fd = ip->out_fd;

  ip->out_fd = -1;
  if (fsync (fd) != 0)
    {
      error (0, errno, "%s: write error", ip->name);
      close (fd);
      goto done;
    }
  if (close (fd) != 0)
    {
      error (0, errno, "%s: write error", ip->name);
      goto done;
    }

  if (suffix && *suffix)
    {
      backup = xmalloc (strlen (ip->target) + strlen (suffix) + 1);
      strcpy (stpcpy (backup, ip->target), suffix);
      linked = link_backup (ip->target, backup);
      if (linked < 0)
        {
          error (0, errno, "cannot make the backup %s", quote (backup));
          goto done;
        }
    }

  block_fatal (&old);
  if (!linked && rename (ip->target, backup) != 0)
    error (0, errno, "cannot make the backup %s", quote (backup));
  else if (rename (ip->temp, ip->target) != 0)
    {
      int e = errno;
      if (!linked && rename (backup, ip->target) != 0)
        error (0, errno, "cannot rename %s back; the old contents are "
               "in %s", quote_n (0, ip->target), quote_n (1, backup));
      error (0, e, "cannot replace %s", quote (ip->name));
    }
  else
    {
      active_temp = NULL;
      ok = true;
    }
  restore_mask (&old);
  if (ok)
    sync_dir (ip->target);

 done:
  free (backup);
  discard (ip);
  return ok;
}

void
inplace_cancel (struct inplace *ip)
{
  discard (ip);
}
