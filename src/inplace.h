/* Replacing a file safely: the one place that does it (-i, and -o when
   the output is also an input).

   The new contents go to a temporary file in the directory of the file
   being replaced, named `.NAME.utf8conv-XXXXXX' (`.utf8conv-XXXXXX' when
   that name is too long), with the old file's permission bits and, when
   allowed, its owner and group.  inplace_commit flushes it to disk and
   renames it over the file; until then the file is untouched.  On
   SIGINT, SIGTERM or SIGHUP, and at exit, a temporary file not yet
   renamed is removed; only SIGKILL can leave one behind.  */

#ifndef UTF8CONV_INPLACE_H
#define UTF8CONV_INPLACE_H

#include <stdbool.h>

struct inplace;

/* Open the file NAME to convert it in place.  A symbolic link is
   followed: the file it points to is replaced and the link is kept.
   Anything but a regular file is refused.  Unless QUIET, warn when the
   file has other hard links, since they keep the old contents.  Returns
   NULL after a diagnostic when the file cannot be converted.  */
struct inplace *inplace_open (char const *name, bool quiet);

/* Start replacing NAME, an existing file that is written to (-o) rather
   than read through inplace_input_fd.  Returns NULL after a diagnostic
   on failure.  */
struct inplace *inplace_create (char const *name);

/* The descriptor reading the old contents (inplace_open only; -1 for
   inplace_create), and the one writing the new contents.  */
int inplace_input_fd (struct inplace const *);
int inplace_output_fd (struct inplace const *);

/* Put the new contents in place of the file.  With a non-empty SUFFIX,
   keep the old contents as the file's name followed by SUFFIX.  Returns
   false after a diagnostic when that fails; the file is then unchanged.
   Frees IP in any case.  */
bool inplace_commit (struct inplace *ip, char const *suffix);

/* Give up: remove the temporary file and leave the file unchanged.
   Frees IP.  */
void inplace_cancel (struct inplace *ip);

#endif
