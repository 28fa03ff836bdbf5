/* -r, --recursive: the files under the directories named on the command
   line.

   Each operand that is a directory (a symbolic link to one included, as
   with grep -r) is replaced by the regular files below it, in byte order
   of their path names, so that the order of the output does not depend
   on the file system.  Inside the tree, symbolic links and special files
   (FIFOs, devices, sockets) are skipped, so the walk never leaves the
   tree, never loops and never blocks on a FIFO.  Other operands are kept
   as they are, "-" included.  Every regular file is taken, text or not:
   select files with find(1) when that is not what you want.  */

#ifndef UTF8CONV_WALK_H
#define UTF8CONV_WALK_H

#include <stdbool.h>

/* Expand FILES[0..NFILES) into a new array of names, which the caller
   may keep until exit, and set *NOUT to its length.  A directory that
   cannot be read is diagnosed and sets *TROUBLE; the walk goes on.  */
char **walk_expand (char *const *files, int nfiles, int *nout,
                    bool *trouble);

#endif
