/* -r, --recursive (see walk.h).  Each directory is read whole and
   closed before the walk goes down into its subdirectories, so that a
   deep tree never holds more than one directory open.  */

#include <config.h>

#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "xalloc.h"

#include "system.h"

struct list
{
  struct walk_entry *e;
  size_t len, cap;
};

static void
add (struct list *l, char *name, enum walk_kind kind)
{
  if (l->len == l->cap)
    l->e = x2nrealloc (l->e, &l->cap, sizeof *l->e);
  l->e[l->len].name = name;
  l->e[l->len].kind = kind;
  l->e[l->len].err = 0;
  l->len++;
}

/* Diagnose NAME, a directory that cannot be read when DIR, else an
   entry that cannot be seen, with the errno value ERR, and add NAME (a
   copy) to L as an entry that failed.  */
static void
add_failed (struct list *l, char const *name, int err, bool dir)
{
  if (dir)
    error (0, err, "cannot read directory %s", quoteaf (name));
  else
    error (0, err, "%s", quotef (name));
  add (l, xstrdup (name), WALK_FAILED);
  l->e[l->len - 1].err = err;
}

/* DIR followed by a slash (unless it ends with one) and NAME.  */
static char *
join (char const *dir, char const *name)
{
  size_t dlen = strlen (dir);
  bool slash = dlen > 0 && dir[dlen - 1] != '/';
  char *p = xmalloc (dlen + slash + strlen (name) + 1);
  strcpy (stpcpy (stpcpy (p, dir), slash ? "/" : ""), name);
  return p;
}

/* Add what the directory DIR holds to L, and walk its subdirectories.
   Returns false after a diagnostic when something could not be read.  */
static bool
walk_dir (struct list *l, char const *dir)
{
  DIR *d = opendir (dir);
  struct list subdirs = { NULL, 0, 0 };
  struct dirent *de;
  bool ok = true;
  size_t i;

  if (!d)
    {
      add_failed (l, dir, errno, true);
      return false;
    }
  for (;;)
    {
      struct stat st;
      char *path;
      errno = 0;
      de = readdir (d);
      if (!de)
        break;
      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      path = join (dir, de->d_name);
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        {
          add_failed (l, path, errno, false);
          free (path);
          ok = false;
          continue;
        }
      if (S_ISDIR (st.st_mode))
        add (&subdirs, path, WALK_FILE);
      else
        add (l, path, (S_ISREG (st.st_mode) ? WALK_FILE
                       : S_ISLNK (st.st_mode) ? WALK_LINK : WALK_SPECIAL));
    }
  if (errno != 0)
    {
      add_failed (l, dir, errno, true);
      ok = false;
    }
  closedir (d);
  for (i = 0; i < subdirs.len; i++)
    {
      ok &= walk_dir (l, subdirs.e[i].name);
      free (subdirs.e[i].name);
    }
  free (subdirs.e);
  return ok;
}

static int
compare_names (void const *a, void const *b)
{
  return strcmp (((struct walk_entry const *) a)->name,
                 ((struct walk_entry const *) b)->name);
}

struct walk_entry *
walk_operands (char *const *files, size_t nfiles)
{
  struct list l = { NULL, 0, 0 };
  size_t i;
  for (i = 0; i < nfiles; i++)
    add (&l, files[i], WALK_OPERAND);
  return l.e;
}

struct walk_entry *
walk_expand (char *const *files, size_t nfiles, size_t *nout,
             bool *trouble)
{
  struct list l = { NULL, 0, 0 };
  size_t i;

  *trouble = false;
  for (i = 0; i < nfiles; i++)
    {
      struct stat st;
      /* stat, not lstat: an operand that is a link to a directory is
         followed.  */
      if (strcmp (files[i], "-") != 0 && stat (files[i], &st) == 0
          && S_ISDIR (st.st_mode))
        {
          size_t start = l.len;
          if (!walk_dir (&l, files[i]))
            *trouble = true;
          if (l.len - start > 1)
            qsort (l.e + start, l.len - start, sizeof *l.e, compare_names);
        }
      else
        add (&l, files[i], WALK_OPERAND);
    }
  *nout = l.len;
  return l.e;
}

void
walk_free (struct walk_entry *e, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (e[i].kind != WALK_OPERAND)
      free (e[i].name);
  free (e);
}
