/* -r, --recursive: the files under the directories named on the command
   line (SPEC §12).

   Each operand that is a directory, or a symbolic link to one (as with
   grep -r), is replaced by the entries below it, in byte order of their
   path names, so that the order of the output does not depend on the
   file system.  Inside the tree, symbolic links are never followed and
   special files (FIFOs, devices, sockets) never opened: they are listed,
   to be skipped and counted, so that the walk never leaves the tree,
   never loops and never blocks on a FIFO.  Other operands are kept as
   they are, "-" included.  */

#ifndef UTF8CONV_WALK_H
#define UTF8CONV_WALK_H

#include <stdbool.h>
#include <stddef.h>

enum walk_kind
{
  WALK_OPERAND,                 /* An operand as given.  */
  WALK_FILE,                    /* A regular file found in a tree.  */
  WALK_LINK,                    /* A symbolic link found in a tree.  */
  WALK_SPECIAL,                 /* Neither a file nor a directory.  */
  WALK_FAILED                   /* Could not be read or seen (ERR).  */
};

struct walk_entry
{
  char *name;
  enum walk_kind kind;
  int err;                      /* WALK_FAILED: the errno value.  */
};

/* The operands FILES[0..NFILES) as entries, without a walk.  */
struct walk_entry *walk_operands (char *const *files, size_t nfiles);

/* Expand FILES[0..NFILES) into a new array of entries, which the caller
   may keep until exit, and set *NOUT to its length.  A directory that
   cannot be read (or an entry that cannot be seen) is diagnosed, sets
   *TROUBLE and is listed as WALK_FAILED, so that the report counts it;
   the walk goes on.  */
struct walk_entry *walk_expand (char *const *files, size_t nfiles,
                                size_t *nout, bool *trouble);

/* Free ENTRIES[0..N), from walk_operands or walk_expand.  */
void walk_free (struct walk_entry *entries, size_t n);

#endif
