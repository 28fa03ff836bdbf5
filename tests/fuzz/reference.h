/* An independent reference for the fuzz harnesses: decoders for UTF-8,
   CESU-8, MUTF-8, WTF-8, UTF-16 and UTF-32 written for clarity, not
   speed, straight from Unicode 15 §3.9 (Table 3-7 and "U+FFFD
   Substitution of Maximal Subparts"), UTR #26, Java's DataInput and the
   WTF-8 draft, with the error units and kinds the man page documents,
   and a model of what the pipeline must write under each error policy
   (SPEC §3, §4, §6, §10).

   It shares no code with src/: if src/ and this file agree on every
   input the fuzzer finds, both are probably right.  */

#ifndef UTF8CONV_FUZZ_REFERENCE_H
#define UTF8CONV_FUZZ_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One decoded item: a value, or an ill-formed sequence.  */
struct ref_item
{
  bool error;
  uint32_t cp;                  /* The value (error == false).  */
  uint64_t offset;              /* Offset of its first byte.  */
  unsigned int len;             /* Its length in bytes.  */
  /* Why it is ill-formed, in the words of utf8conv's diagnostics
     ("truncated sequence", ...); NULL for a value.  */
  char const *kind;
};

/* Encoding forms the reference knows.  */
enum ref_form
{
  REF_UTF8,
  REF_UTF16LE,
  REF_UTF16BE,
  REF_UTF16,                    /* Unmarked: BOM decides, else the
                                   NUL pattern, else BE; written as
                                   BOM + LE.  */
  REF_UTF32LE,
  REF_UTF32BE,
  REF_UTF32,
  REF_CESU8,
  REF_MUTF8,                    /* Lone surrogates are data.  */
  REF_WTF8,                     /* Lone surrogates are data.  */
  REF_NONE                      /* Not known to the reference.  */
};

enum ref_form ref_form_by_name (char const *name);

/* Decode S[0..N) in FORM into ITEMS (room for N + 1).  LONE_OK passes
   lone surrogate units of UTF-16/UTF-32 through as values; the UTF-8
   forms ignore it (MUTF-8 and WTF-8 always pass lone surrogates, UTF-8
   and CESU-8 never do).  Returns the number of items.  */
size_t ref_decode (enum ref_form form, uint8_t const *s, size_t n,
                   bool lone_ok, struct ref_item *items);

enum ref_policy
{
  REF_STRICT, REF_REPLACE, REF_ESCAPE, REF_SURROGATEESCAPE, REF_IGNORE
};

enum ref_bom { REF_BOM_AUTO, REF_BOM_STRIP, REF_BOM_ADD };

/* What the pipeline must do with one input file.  */
struct ref_result
{
  uint8_t *out;                 /* malloc'd.  */
  size_t outlen;
  bool stopped;                 /* A strict stop...  */
  uint64_t stop_offset;         /* ...at this offset and line.  */
  uint64_t stop_line;
  bool dropped;                 /* `ignore' dropped something.  */
  uint64_t errors;              /* Errors handled by the policy.  */
  uint64_t first_offset;        /* Of the first of them.  */
  uint64_t first_line;
};

/* Convert S[0..N) from FROM to TO with POLICY and BOM; both forms must
   be known (not REF_NONE).  */
void ref_convert (enum ref_form from, enum ref_form to,
                  enum ref_policy policy, enum ref_bom bom,
                  uint8_t const *s, size_t n, struct ref_result *r);

/* True if S[0..N) is well-formed in FORM; lone surrogate units of
   UTF-16/UTF-32 are accepted when LONE_OK.  */
bool ref_well_formed (enum ref_form form, uint8_t const *s, size_t n,
                      bool lone_ok);

#endif
