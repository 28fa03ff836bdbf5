/* BOM-less UTF-16: the NUL pattern that tells it, and its byte order
   (SPEC §5, §6, §12).  One rule for -f auto's detector, for -f UTF-16
   without a BOM, and for the binary test; and its analogue for -f
   UTF-32 without a BOM.  */

#ifndef UTF8CONV_NULPATTERN_H
#define UTF8CONV_NULPATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* What the NUL pattern of a window says.  */
enum nul_pattern
{
  NUL_PATTERN_NONE = 0,         /* Not UTF-16 by its NULs.  */
  NUL_PATTERN_LE,               /* UTF-16LE.  */
  NUL_PATTERN_BE,               /* UTF-16BE.  */
  NUL_PATTERN_UNDECIDED         /* More bytes could still decide.  */
};

/* The window the rule reads: the first NUL_PATTERN_WINDOW bytes of a
   file (or all of it when it is shorter).  */
enum { NUL_PATTERN_WINDOW = DETECT_LOOKAHEAD };

/* The counts of a window: its complete pairs of bytes, and the NUL bytes
   at odd and at even offsets among them.  */
struct nul_count
{
  size_t bytes;                 /* Bytes counted so far.  */
  size_t z_odd, z_even;
  bool even_nul;                /* The byte at the last even offset was
                                   NUL (counted when its pair is).  */
};

/* Count BUF[0..N), the bytes that follow the ones already in COUNT,
   up to NUL_PATTERN_WINDOW bytes in all.  */
void nul_pattern_add (struct nul_count *count, uint8_t const *buf,
                      size_t n);

/* The verdict on COUNT; FINAL says that no byte follows (the input
   ended, or the window is full).  Over the P complete pairs, UTF-16LE
   when 2 * Z_ODD > P and 8 * Z_EVEN <= P; UTF-16BE when 2 * Z_EVEN > P
   and 8 * Z_ODD <= P: more than half of the pairs hold a NUL in one
   place and at most an eighth in the other.  Not FINAL, the answer is
   NUL_PATTERN_UNDECIDED while more bytes could still change it.  */
enum nul_pattern nul_pattern_verdict (struct nul_count const *count,
                                      bool final);

/* The verdict on the whole window BUF[0..N), N being all there is when
   COMPLETE (else at least NUL_PATTERN_WINDOW bytes, or the answer may
   be NUL_PATTERN_UNDECIDED).  */
enum nul_pattern nul_pattern_find (uint8_t const *buf, size_t n,
                                   bool complete);

/* The byte order of BOM-less UTF-32 in the window BUF[0..N): its first
   complete 4-byte unit whose high byte is NUL, and whose next byte is
   at most 0x10, in one byte order only (a unit that is at most 10FFFF
   read one way and not the other: `h\0\0\0' is little-endian) decides
   for that order.  NUL_PATTERN_NONE when no unit of the whole window
   does (N being all there is when COMPLETE, or at least
   NUL_PATTERN_WINDOW bytes), NUL_PATTERN_UNDECIDED while more bytes
   could still decide.  */
enum nul_pattern nul_pattern_find32 (uint8_t const *buf, size_t n,
                                     bool complete);

#endif
