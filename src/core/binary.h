/* Binary files (SPEC §12): whether a regular file is text to convert,
   a binary file to leave alone, or UTF-16/UTF-32 text that the input
   encoding does not read.  The test is about the file, whatever -f
   says; -f only chooses how the file's characters are found (a byte
   scan where bytes below 0x80 are ASCII, a decoder otherwise).  */

#ifndef UTF8CONV_BINARY_H
#define UTF8CONV_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* What the test says of a file.  */
enum binary_kind
{
  BINARY_TEXT = 0,              /* Text in the input encoding: convert
                                   it.  */
  BINARY_FILE,                  /* Not text: leave it alone.  */
  BINARY_OTHER_FORM             /* UTF-16 or UTF-32 text (by its BOM or
                                   its NUL pattern) that -f names another
                                   encoding for: invalid input.  */
};

struct binary_verdict
{
  enum binary_kind kind;
  /* BINARY_FILE: the format its magic number names, or NULL; the
     offset of its first control character that text does not hold
     (-1 when a file with a magic number has none), and that
     character.  */
  char const *format;
  int64_t offset;
  ucs4_t c;
  /* BINARY_OTHER_FORM: the form the text is in (UTF-16LE, ...), and
     whether a BOM says so (else the NUL pattern does).  */
  struct codec const *form;
  bool bom;
};

/* The test for one input encoding, with the buffer it reads files
   into.  */
struct binary_test
{
  struct codec const *from;
  bool byte_scan;               /* Bytes below 0x80 are ASCII, always.  */
  uint8_t *buf;
  size_t size;
};

/* Set T up to test files for the input encoding FROM, reading them in
   chunks into BUF[0..SIZE) (at least NUL_PATTERN_WINDOW bytes).  */
void binary_test_init (struct binary_test *t, struct codec const *from,
                       uint8_t *buf, size_t size);

/* Test the regular file open as FD, from its start (it is read with
   pread, its file offset is not moved), and set *V.  In order: a
   UTF-16 or UTF-32 BOM makes it text in that form; then a magic number
   of a well-known binary format makes it binary; then the NUL pattern
   of BOM-less UTF-16 makes it text in that form; then the whole file is
   scanned for a control character that text does not hold.  A file
   that cannot be read is BINARY_TEXT: its conversion says why.  */
void binary_test_file (struct binary_test const *t, int fd,
                       struct binary_verdict *v);

/* The format that the magic number at the start of a file names, from
   its first bytes BUF[0..N), or NULL.  */
char const *binary_magic (uint8_t const *buf, size_t n);

/* The offset in BUF[0..N) of the first byte that is U+0000 or a C0
   control other than BS, TAB, LF, VT, FF, CR, SUB and ESC, or -1.  */
int64_t binary_scan_bytes (uint8_t const *buf, size_t n);

#endif
