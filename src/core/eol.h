/* Line endings (--eol): the stage between decoder and encoder that
   writes the line breaks of the text as one chosen break, as dos2unix,
   unix2dos and unix2mac do (SPEC §11).

   A line break is a CR LF pair or a lone LF of the decoded text
   (U+000D, U+000A).  A lone CR is data, as dos2unix and unix2dos read
   it (progress logs, `50%\r60%\r\n'), unless the stage is told that
   the input is a classic Mac file (--eol-from=cr, CR_BREAKS): then a
   lone CR is a break too.  U+0085, U+2028 and U+2029 are not breaks
   here.  What each mode writes:

     EOL_LF     CR LF -> LF; a lone LF stays (dos2unix);
     EOL_CRLF   a lone LF -> CR LF; CR LF stays (unix2dos);
     EOL_CR     CR LF and a lone LF -> CR.
   With CR_BREAKS, a lone CR becomes the mode's break too.

   A CR waits for the next character before it is written, since an LF
   after it makes the pair one break; that character may come in the
   next read, so the state is kept across calls (HELD_CR).  What the
   error policy writes instead of bad input is never a break: it does
   not pass through this stage, and a CR waiting before it is lone.

   The stage counts the breaks it reads, by kind (lone CRs included,
   as dos2unix -i counts them), for --report, also under EOL_KEEP,
   where it changes nothing.

   The pipeline runs it on pivot values (in pipeline.c; it counts them
   with eol_count_values), and on the bytes a fast path wrote (here): text in an encoding where the bytes 0x0D and
   0x0A stand only for CR and LF (UTF-8, the ASCII-based single-byte
   encodings).  */

#ifndef UTF8CONV_EOL_H
#define UTF8CONV_EOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum eol_mode
{
  EOL_KEEP,                     /* Breaks pass as they are.  */
  EOL_LF,
  EOL_CRLF,
  EOL_CR
};

struct eol_state
{
  enum eol_mode mode;
  bool cr_breaks;               /* A lone CR is a break (--eol-from=cr).  */
  bool held_cr;                 /* A CR was read and not yet written.  */
  uint64_t crlf;                /* CR LF pairs read.  */
  uint64_t cr;                  /* Lone CRs read.  */
};

/* The break that MODE writes, as values (1 or 2 of them) in BRK;
   returns their number (0 for EOL_KEEP).  */
unsigned int eol_break (enum eol_mode mode, uint32_t brk[2]);

/* Whether MODE writes an LF read alone as something else.  */
static inline bool
eol_changes_lf (enum eol_mode mode)
{
  return mode == EOL_CRLF || mode == EOL_CR;
}

/* Write the bytes S[0..N) to OUT with their breaks converted, after the
   CR held from earlier calls; a CR at the end is held.  OUT has room
   for 2N + 2 bytes and does not overlap S.  Returns the bytes written.
   Not for EOL_KEEP.  */
size_t eol_convert_bytes (struct eol_state *st, uint8_t const *s, size_t n,
                          uint8_t *out);

/* The same on BUF[0..N), in place, for EOL_LF and EOL_CR (which only
   shrink the text) when no CR is held: the bytes from the first break
   that the mode changes on are copied to SCRATCH (room for N bytes)
   first.  */
size_t eol_convert_in_place (struct eol_state *st, uint8_t *buf, size_t n,
                             uint8_t *scratch);

/* Count the breaks of the bytes S[0..N), which are written as they are
   (EOL_KEEP).  */
void eol_count_bytes (struct eol_state *st, uint8_t const *s, size_t n);

/* Count the breaks of the values CP[0..N), which are written as they
   are (EOL_KEEP).  */
void eol_count_values (struct eol_state *st, uint32_t const *cp, size_t n);

/* The length of the longest prefix of the bytes S[0..N) that holds no
   break that MODE may change: no CR, and no LF when MODE changes a lone
   LF.  */
size_t eol_plain_len (enum eol_mode mode, uint8_t const *s, size_t n);

#endif
