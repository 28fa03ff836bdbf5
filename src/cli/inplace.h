/* Replacing files safely: the one place that does it (-i, and -o when
   the output is also an input).  SPEC §7 and §12.

   The new contents go to a temporary file in the directory of the file
   being replaced, named `.NAME.utf8conv-XXXXXX' (`.utf8conv-XXXXXX' when
   that name is too long), with the old file's permission bits and, when
   allowed, its owner and group.  Under -i it is made only when the new
   contents first differ from the old ones: a file whose converted bytes
   equal its bytes is never rewritten.

   Finished files wait in a queue, which inplace_commit_queue puts in
   place: the temporary files are made durable all at once (one syncfs
   per file system, or an fsync when there is one file), then each is
   renamed over its file, and each directory is synced once.  Until its
   rename a file is untouched, and after it the new contents are on
   disk, so a crash at any instant leaves each file old or new, never
   empty or partial.  On SIGINT, SIGTERM or SIGHUP, and at exit, the
   temporary files not yet renamed are removed; only SIGKILL can leave
   them behind.  */

#ifndef UTF8CONV_INPLACE_H
#define UTF8CONV_INPLACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct inplace;

/* Open the file NAME to convert it in place, keeping the old contents
   as NAME+SUFFIX when SUFFIX is not NULL.  A symbolic link is followed:
   the file it points to is replaced and the link is kept.  Anything but
   a regular file is refused.  (A file that would change while its
   backup exists already is refused by inplace_write.)  Returns NULL
   after a diagnostic when the file cannot be converted, and sets *WHY
   to the reason.  */
struct inplace *inplace_open (char const *name, char const *suffix,
                              char const **why);

/* Start replacing NAME, an existing file that is written to (-o) rather
   than read.  Returns NULL after a diagnostic on failure.  */
struct inplace *inplace_create (char const *name);

/* The descriptor reading the old contents (inplace_open only), and the
   one writing the new contents (inplace_create only).  */
int inplace_input_fd (struct inplace const *);
int inplace_output_fd (struct inplace const *);

/* The status of the file, as it was opened.  */
struct stat const *inplace_stat (struct inplace const *);

/* The pipeline's output under -i (ARG is the struct inplace): compares
   with the old contents, and writes to a temporary file from the first
   difference on.  Returns 0, or an errno value after a diagnostic.  */
int inplace_write (void *arg, uint8_t const *buf, size_t n);

/* The reason of a failure that inplace_write diagnosed, or NULL.  */
char const *inplace_failure (struct inplace const *);

/* What became of a file that converted whole.  */
enum inplace_end
{
  INPLACE_UNCHANGED,            /* The same bytes: nothing was written.  */
  INPLACE_QUEUED,               /* Waits for inplace_commit_queue.  */
  INPLACE_FAILED                /* Diagnosed; the file is unchanged.  */
};

/* The file converted whole.  Unless its new contents are its old ones,
   queue them, with its times kept when KEEP_TIMES, and DATA for
   inplace_commit_queue's callback; set *NEW_DEV and *NEW_INO to the
   inode that will hold them.  On failure, set *WHY.  Frees IP unless
   it is queued.  */
enum inplace_end inplace_finish (struct inplace *ip, bool keep_times,
                                 void *data, dev_t *new_dev,
                                 ino_t *new_ino, char const **why);

/* Give up: remove the temporary file and leave the file unchanged.
   Frees IP.  */
void inplace_cancel (struct inplace *ip);

/* Whether the queue should be committed before another file joins.  */
bool inplace_queue_full (void);

/* Put every queued file in place, in order, and call DONE with its DATA
   and NULL, or the reason why it was left unchanged (after a
   diagnostic); the reason is valid during the call only.  */
void inplace_commit_queue (void (*done) (void *data, char const *why));

#endif
