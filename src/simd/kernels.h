/* Fast kernels for long runs, one set per instruction set.

   The scalar state machine in src/codecs/ is the reference.  A kernel
   only scans or converts a run that needs no decision and returns how far
   it got; everything from the first byte it did not take is left to the
   state machine, so error policies, offsets and split invariance do not
   depend on the kernels.  A kernel may stop early (that costs speed, not
   correctness); it must never take a byte the state machine would treat
   differently.

   The implementation is chosen once at start-up from the CPU, or forced
   with the environment variable UTF8CONV_IMPL: "reference" (no fast
   paths at all), "scalar" (portable word-at-a-time code), "sse2",
   "avx2", "avx512" (AVX-512 F, BW and VL), "avx512vbmi2" (also VBMI
   and VBMI2: byte permutations and byte compress) on x86-64, "neon" on
   AArch64 (where every processor has it).  */

#ifndef UTF8CONV_KERNELS_H
#define UTF8CONV_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a vector UTF-8 validator knew when it stopped before an
   ill-formed sequence, for utf8_valid_copy_resume: the next call, which
   starts after the sequence, need not check again the rest of the block
   it had checked.  The error classes of a byte are computed from that
   byte and the three before it, so a flag at a byte three or more places
   after the new start is the same whether the validation started there
   or earlier; only the characters that start in the first three bytes
   are checked again.  */
struct utf8_resume
{
  uint8_t const *stop;          /* Where it stopped; NULL: nothing known
                                   (the other fields mean nothing).  */
  uint8_t const *end;           /* The end of the block it had checked.  */
  uint64_t flagged;             /* Bit K: the error classes flagged byte
                                   END - 64 + K (a 32-byte block is in the
                                   high half; the bytes before a block
                                   had no flags).  */
  uint64_t lf;                  /* Bit K: byte END - 64 + K is 0x0A.  */
};

/* Instead of calling utf8_valid_copy_resume on S that starts with an
   ill-formed sequence (it would return 0 at once, and move RS->stop to
   S), a caller may move RS->stop itself, with this.  */
static inline void
utf8_resume_move (struct utf8_resume *rs, uint8_t const *s)
{
  if ((size_t) ((uintptr_t) s - (uintptr_t) rs->stop) - 1 <= 2)
    rs->stop = s;
}

struct kernels
{
  char const *name;
  /* The length of the longest prefix of S[0..N) that is ASCII.  */
  size_t (*ascii_len) (uint8_t const *s, size_t n);
  /* The length of a prefix of S[0..N) that is well-formed UTF-8 and ends
     on a character boundary; the longest one, or a little less.  */
  size_t (*utf8_valid_len) (uint8_t const *s, size_t n);
  /* The number of bytes equal to 0x0A in S[0..N).  */
  size_t (*count_newlines) (uint8_t const *s, size_t n);
  /* Like utf8_valid_len (the same length, or a little less), and in the
     same pass: set *NEWLINES to the number of bytes 0x0A in the prefix
     and, unless OUT is NULL, copy the prefix to OUT (room for N bytes;
     bytes past the prefix may be written too).  */
  size_t (*utf8_valid_copy) (uint8_t const *s, size_t n, uint8_t *out,
                             uint64_t *newlines);
  /* utf8_valid_copy with OUT not NULL, returning the same, for S[0..N)
     in the same unchanged buffer as the call of this kernel that left
     *RS (or RS->stop NULL, as a caller starts).  When S starts 1 to 3
     bytes after RS->stop (after the ill-formed sequence there) and
     RS->end is within S[4..N], it takes the rest of that block from *RS
     and may read the 64 bytes before RS->end.  It leaves in *RS what it
     knew where it stopped (RS->stop NULL if nothing).  NULL in the sets
     that have none.  */
  size_t (*utf8_valid_copy_resume) (uint8_t const *s, size_t n,
                                    uint8_t *out, uint64_t *newlines,
                                    struct utf8_resume *rs);
  /* Convert S[0..N), well-formed UTF-8 of complete characters, to
     UTF-16 or UTF-32 in OUT (little-endian unless BIG), which has room
     for 2N or 4N bytes; return the bytes written.  */
  size_t (*utf8_to_utf16) (uint8_t const *s, size_t n, uint8_t *out,
                           bool big);
  size_t (*utf8_to_utf32) (uint8_t const *s, size_t n, uint8_t *out,
                           bool big);
  /* utf8_valid_copy (with no copy) and then utf8_to_utf16 (WIDTH 2) or
     utf8_to_utf32 (WIDTH 4) on the prefix it accepts, in one pass:
     return the prefix's length (the same, or a little less), set
     *PRODUCED and *NEWLINES.  OUT has room for WIDTH * N bytes.  NULL in
     the sets that have none.  */
  size_t (*utf8_to_wide_checked) (uint8_t const *s, size_t n, uint8_t *out,
                                  int width, bool big, size_t *produced,
                                  uint64_t *newlines);
  /* Convert up to N UTF-16 units at S to UTF-8 in OUT (room for 3N
     bytes), stopping before a lone surrogate or a pair cut by the end;
     return the units used and set *PRODUCED and *NEWLINES (the units
     0x000A used).  */
  size_t (*utf16_to_utf8) (uint8_t const *s, size_t n, uint8_t *out,
                           size_t *produced, uint64_t *newlines, bool big);
  /* Convert S[0..N), in a single-byte encoding whose bytes below 0x80
     are ASCII, to UTF-8 in OUT (room for 3N bytes).  TABLE[B - 0x80]
     holds the UTF-8 form of byte B in its first bytes and their number
     in the last, which is 0 where B is not a character; stop before such
     a byte.  Return the bytes used; set *PRODUCED and *NEWLINES (the
     bytes 0x0A used).  */
  size_t (*sb_to_utf8) (uint8_t const *s, size_t n, uint8_t *out,
                        uint8_t const (*table)[4], size_t *produced,
                        uint64_t *newlines);
  /* Convert a prefix of the UTF-8 S[0..N) to a single-byte encoding
     whose bytes below 0x80 are ASCII, in OUT (room for N bytes): ASCII,
     and well-formed 2-byte characters through TABLE (by code point,
     0..0x7FF; -1 where the encoding has none).  Stop before anything
     else.  Return the bytes used; set *PRODUCED and *NEWLINES.  */
  size_t (*utf8_to_sb) (uint8_t const *s, size_t n, uint8_t *out,
                        int16_t const *table, size_t *produced,
                        uint64_t *newlines);
  /* Copy S[0..N) to OUT (room for N bytes, apart from S), leaving out
     each CR that an LF follows, up to a CR that no LF follows (a lone
     CR, or one that ends S).  Return the bytes of S used; set
     *WRITTEN to the bytes written.  */
  size_t (*drop_crlf) (uint8_t const *s, size_t n, uint8_t *out,
                       size_t *written);
  /* The offset in S[0..N) of the first byte that is a control that
     text does not hold: below 0x20, and not BS, TAB, LF, VT, FF, CR,
     SUB or ESC (the binary test, SPEC §12); N when there is none.  */
  size_t (*find_control) (uint8_t const *s, size_t n);
};

/* The kernels in use; NULL when UTF8CONV_IMPL=reference.  */
extern struct kernels const *kernels;

/* With the kernels in use (not NULL): the values of a prefix of the
   UTF-8 at S[0..N) that is well-formed and ends on a character boundary
   (the longest one, or a little less, as utf8_valid_len), in the
   machine's byte order, to CP (room for N).  Returns the prefix's
   length; sets *COUNT to the values and *NEWLINES to the U+000A.  */
static inline size_t
kernels_utf8_to_values (uint8_t const *s, size_t n, uint32_t *cp,
                        size_t *count, uint64_t *newlines)
{
  size_t v, produced;
  bool big = false;
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  big = true;
#endif
  if (kernels->utf8_to_wide_checked)
    v = kernels->utf8_to_wide_checked (s, n, (uint8_t *) cp, 4, big,
                                       &produced, newlines);
  else
    {
      v = kernels->utf8_valid_copy (s, n, NULL, newlines);
      produced = kernels->utf8_to_utf32 (s, v, (uint8_t *) cp, big);
    }
  *count = produced / 4;
  return v;
}

/* Choose the kernels: the best the CPU has, or UTF8CONV_IMPL.  Returns
   false if UTF8CONV_IMPL names an implementation this machine lacks.  */
bool kernels_select (void);

/* The implementations this build and this CPU offer, best first,
   "reference" last; NULL-terminated.  */
char const *const *kernels_available (void);

/* Portable kernels, shared by the x86 and NEON ones for their tails.  */
extern struct kernels const kernels_scalar;
size_t scalar_utf8_valid_len (uint8_t const *s, size_t n);
size_t scalar_ascii_len (uint8_t const *s, size_t n);
size_t scalar_drop_crlf (uint8_t const *s, size_t n, uint8_t *out,
                         size_t *written);
size_t scalar_find_control (uint8_t const *s, size_t n);

#if HAVE_SIMD_X86
extern struct kernels const kernels_sse2, kernels_avx2, kernels_avx512,
  kernels_avx512vbmi2;
#endif

#if HAVE_SIMD_NEON
extern struct kernels const kernels_neon;
#endif

#endif
