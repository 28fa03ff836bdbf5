/* BOM-less UTF-16: the NUL pattern that tells it, and its byte order
   (SPEC §5, §6, §12).  One rule for -f auto's detector, for -f UTF-16
   without a BOM, and for the binary test; and its analogues for
   BOM-less UTF-32: one for -f auto and the binary test, and one for the
   byte order of -f UTF-32 without a BOM.  */

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

/* The scripts of the script rule (nulpattern.c: unit_script).  */
enum { NUL_SCRIPTS = 12 };

/* The 16-bit units of a window read in one byte order, for the script
   rule: how many text never holds, how many are letters of some script,
   and how many of each script.  */
struct nul_script
{
  size_t bad;                   /* Controls, unpaired surrogates,
                                   noncharacters, private use.  */
  size_t letters;
  size_t script[NUL_SCRIPTS];
  uint8_t low[256];             /* Letters by their low byte (at most
                                   NUL_PATTERN_WINDOW / 2 units).  */
  uint8_t highs[32];            /* Bit B: a letter's high byte is B.  */
  bool high;                    /* The last unit was a high surrogate.  */
};

/* The counts of a window: its complete pairs of bytes, and the NUL bytes
   at odd and at even offsets among them; the bytes that the binary test
   takes for controls; its units read in each byte order.  Zero it
   (memset) before the first nul_pattern_add.  */
struct nul_count
{
  size_t bytes;                 /* Bytes counted so far.  */
  size_t z_odd, z_even;
  bool even_nul;                /* The byte at the last even offset was
                                   NUL (counted when its pair is).  */
  uint8_t even;                 /* That byte.  */
  size_t controls;
  struct nul_script le, be;
  /* The 4-byte units of the window, for BOM-less UTF-32: the bytes of
     the unit being read, and in each byte order how many units text
     never holds (nul_pattern_verdict32).  */
  uint8_t quad[4];
  size_t bad32_le, bad32_be;
};

/* Count BUF[0..N), the bytes that follow the ones already in COUNT,
   up to NUL_PATTERN_WINDOW bytes in all.  */
void nul_pattern_add (struct nul_count *count, uint8_t const *buf,
                      size_t n);

/* The verdict on COUNT; FINAL says that no byte follows (the input
   ended, or the window is full).  Over the P complete pairs, UTF-16LE
   when 2 * Z_ODD > P and 8 * Z_EVEN <= P; UTF-16BE when 2 * Z_EVEN > P
   and 8 * Z_ODD <= P: more than half of the pairs hold a NUL in one
   place and at most an eighth in the other.  Failing that, the script
   rule, for UTF-16 of other scripts (Cyrillic, Greek, Arabic, Chinese,
   ...): where the window holds a byte that the binary test takes for a
   control (so no 8-bit text is ever read this way), its units read in
   one byte order hold no unit that text never holds, at least 8
   letters, at least 9 in 10 of the letters are of one script, at most
   half of them share their low byte (read in the wrong order, an
   alphabet's letters do: Cyrillic's 04), at most a third have a low
   byte that is also some letter's high byte (8-bit text such as EBCDIC
   or ISO-2022-KR, read in pairs, has the same bytes in both places),
   and Chinese, Japanese or Korean has at least 32 letters; and read in
   the other byte order they do not.  Not FINAL, the answer is
   NUL_PATTERN_UNDECIDED while more bytes could still change it.  */
enum nul_pattern nul_pattern_verdict (struct nul_count const *count,
                                      bool final);

/* The verdict on the whole window BUF[0..N), N being all there is when
   COMPLETE (else at least NUL_PATTERN_WINDOW bytes, or the answer may
   be NUL_PATTERN_UNDECIDED).  */
enum nul_pattern nul_pattern_find (uint8_t const *buf, size_t n,
                                   bool complete);

/* The verdict on COUNT for BOM-less UTF-32 under -f auto and the binary
   test (stricter than nul_pattern_find32, which only takes the byte
   order of text said to be UTF-32): read in one byte order, the window
   holds at least two complete units, every one of them a character
   that text holds (no unit above 10FFFF, no surrogate, noncharacter,
   private use or unassigned plane, no control that the binary test
   takes for binary, so no NUL), and, when the window is the whole file,
   a whole number of units; read in the other byte order it does not.
   NUL_PATTERN_LE and NUL_PATTERN_BE name UTF-32LE and UTF-32BE here.
   Not FINAL, NUL_PATTERN_UNDECIDED while more bytes could still
   change the answer.  */
enum nul_pattern nul_pattern_verdict32 (struct nul_count const *count,
                                        bool final);

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
