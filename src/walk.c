/* -r, --recursive (see walk.h).  */

#include <config.h>

#include "walk.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "quote.h"
#include "xalloc.h"

/* The names found so far.  nftw's callback takes no argument of ours, so
   the walk in progress lives here; there is only ever one.  */
static struct
{
  char **names;
  size_t len, cap;
  bool trouble;
} found;

static void
add (char const *name)
{
  if (found.len == found.cap)
    found.names = x2nrealloc (found.names, &found.cap, sizeof *found.names);
  found.names[found.len++] = xstrdup (name);
}

static int
visit (char const *path, struct stat const *st, int flag, struct FTW *ftw)
{
  (void) ftw;
  switch (flag)
    {
    case FTW_F:
      if (S_ISREG (st->st_mode))
        add (path);
      break;
    case FTW_DNR:
      error (0, errno, "cannot read directory %s", quote (path));
      found.trouble = true;
      break;
    case FTW_NS:
      error (0, errno, "%s", quote (path));
      found.trouble = true;
      break;
    default:
      /* Directories (FTW_D), and symbolic links (FTW_SL, FTW_SLN), which
         FTW_PHYS leaves unfollowed.  */
      break;
    }
  return 0;
}

static int
compare_names (void const *a, void const *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char **
walk_expand (char *const *files, int nfiles, int *nout, bool *trouble)
{
  int i;

  memset (&found, 0, sizeof found);
  for (i = 0; i < nfiles; i++)
    {
      struct stat st;
      if (strcmp (files[i], "-") != 0 && stat (files[i], &st) == 0
          && S_ISDIR (st.st_mode))
        {
          size_t start = found.len;
          if (nftw (files[i], visit, 16, FTW_PHYS) != 0)
            {
              error (0, errno, "%s", quote (files[i]));
              found.trouble = true;
            }
          if (found.len - start > 1)
            qsort (found.names + start, found.len - start,
                   sizeof *found.names, compare_names);
        }
      else
        add (files[i]);
    }
  *nout = (int) found.len;
  *trouble = found.trouble;
  return found.names;
}
