/* Reading a regular file ahead in a second thread.  */

#ifndef UTF8CONV_READAHEAD_H
#define UTF8CONV_READAHEAD_H

#include <stddef.h>
#include <stdint.h>

struct readahead;

/* Start reading FD, an input file that utf8conv opened, ahead of the
   conversion in blocks of BLOCK bytes, from its current offset; FIRST[0..N)
   is the block read before it.  NULL when it would not pay (not a regular
   file, a small file, small blocks, one processor, a first block of
   ASCII) or the thread cannot start, and the caller then reads FD
   itself.  */
struct readahead *readahead_start (int fd, size_t block,
                                   uint8_t const *first, size_t n);

/* The next block of the file, in order: set *BUF to it and return its
   length, 0 at the end of the file, or SAFE_READ_ERROR with errno set.
   The block stays valid until the next call or readahead_stop.  */
size_t readahead_next (struct readahead *, uint8_t **buf);

/* Stop reading, wait for the thread and free everything.  */
void readahead_stop (struct readahead *);

#endif
