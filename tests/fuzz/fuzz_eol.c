/* libFuzzer target: --eol (src/core/eol.c, and emit_text and the fast
   paths of the pipeline) against a model of dos2unix, unix2dos and
   unix2mac written here, on the rules of tests/cli/eol-cases.py.

   Input layout:

     byte 0    bits 0-1: the mode (keep, lf, crlf, cr); bit 2:
               --eol-from=cr; bits 3-5: the pair of encodings (PAIRS
               below); bits 6-7 unused
     byte 1    the block size of the second run (0: 1 byte)
     the rest  the text, one character a byte (CHAR_OF below): CR, LF,
               other controls, ASCII, and characters of 2, 3 and 4
               UTF-8 bytes (only Latin-1 where a side is ISO-8859-1)

   The text is encoded to the input encoding here, and the model's
   output to the output encoding; both are well-formed, so no error
   policy is involved.  The model: a CR LF pair or a lone LF is a
   break, and so is a lone CR with --eol-from=cr; each break is written
   as the mode's (LF, CR LF, CR); anything else is copied; under keep
   nothing changes.  U+0085 and U+2028 are never breaks.

   The properties: the pipeline's output equals the model's, with one
   buffer for the whole input, with the input's block size (so that a
   CR ends a read, and a CR LF pair or a UTF-16 unit is cut) and with
   4093 bytes; and the run's result is FILE_OK.  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iconv_model.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

enum { MAX_CHARS = 4096, ENC_MAX = 4 * (2 * MAX_CHARS + 2) };

enum enc { E_UTF8, E_UTF16LE, E_UTF16BE, E_LATIN1 };

/* Input and output encodings, each pair taking other paths through the
   pipeline: UTF-8 to UTF-8 (the byte fast path and drop_crlf), to
   UTF-16 (the fast path stops before each break), from UTF-16, and
   single-byte text.  */
static struct
{
  enum enc from, to;
} const pairs[8] = {
  { E_UTF8, E_UTF8 }, { E_UTF8, E_UTF16LE }, { E_UTF16LE, E_UTF8 },
  { E_LATIN1, E_UTF8 }, { E_UTF8, E_LATIN1 }, { E_UTF16BE, E_UTF16LE },
  { E_LATIN1, E_LATIN1 }, { E_UTF8, E_UTF8 }
};

static char const *const enc_names[] = {
  "UTF-8", "UTF-16LE", "UTF-16BE", "ISO-8859-1"
};

/* The character the byte B stands for; LATIN: at most U+00FF.  */
static uint32_t
char_of (uint8_t b, bool latin)
{
  static uint32_t const wide[] = {
    0xE9, 0x20AC, 0x1F600, 0x800, 0x85, 0x2028, 0x4E2D, 0xFF
  };
  static uint32_t const narrow[] = {
    0xE9, 0xA0, 0x85, 0xFF, 0xC3, 0x8D, 0x80, 0xD0
  };
  if (b < 0x20)
    return b % 4 == 0 ? 0x0D : b % 4 == 1 ? 0x0A : b % 4 == 2 ? 0x0D : b;
  if (b < 0x7F)
    return b;
  return latin ? narrow[b % 8] : wide[b % 8];
}

/* Append C to OUT[*LEN] in the encoding E.  */
static void
put (enum enc e, uint32_t c, uint8_t *out, size_t *len)
{
  size_t o = *len;
  switch (e)
    {
    case E_LATIN1:
      out[o++] = (uint8_t) c;
      break;
    case E_UTF8:
      if (c < 0x80)
        out[o++] = (uint8_t) c;
      else if (c < 0x800)
        {
          out[o++] = (uint8_t) (0xC0 | c >> 6);
          out[o++] = (uint8_t) (0x80 | (c & 0x3F));
        }
      else if (c < 0x10000)
        {
          out[o++] = (uint8_t) (0xE0 | c >> 12);
          out[o++] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
          out[o++] = (uint8_t) (0x80 | (c & 0x3F));
        }
      else
        {
          out[o++] = (uint8_t) (0xF0 | c >> 18);
          out[o++] = (uint8_t) (0x80 | (c >> 12 & 0x3F));
          out[o++] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
          out[o++] = (uint8_t) (0x80 | (c & 0x3F));
        }
      break;
    case E_UTF16LE:
    case E_UTF16BE:
      {
        uint16_t u[2];
        size_t k, m = 1;
        if (c >= 0x10000)
          {
            u[0] = (uint16_t) (0xD800 | (c - 0x10000) >> 10);
            u[1] = (uint16_t) (0xDC00 | (c & 0x3FF));
            m = 2;
          }
        else
          u[0] = (uint16_t) c;
        for (k = 0; k < m; k++)
          {
            uint8_t lo = (uint8_t) u[k], hi = (uint8_t) (u[k] >> 8);
            out[o++] = e == E_UTF16LE ? lo : hi;
            out[o++] = e == E_UTF16LE ? hi : lo;
          }
      }
      break;
    }
  *len = o;
}

/* The model: TEXT[0..N) with its breaks written as MODE writes them
   (0 keep, 1 LF, 2 CR LF, 3 CR), in the encoding E, into OUT; its
   length.  */
static size_t
model (uint32_t const *text, size_t n, unsigned int mode, bool cr_breaks,
       enum enc e, uint8_t *out)
{
  size_t i, len = 0;
  for (i = 0; i < n; i++)
    {
      uint32_t c = text[i];
      bool brk = false;
      if (mode != 0 && c == 0x0D && i + 1 < n && text[i + 1] == 0x0A)
        {
          brk = true;
          i++;
        }
      else if (mode != 0 && (c == 0x0A || (c == 0x0D && cr_breaks)))
        brk = true;
      if (!brk)
        put (e, c, out, &len);
      else
        {
          if (mode == 2 || mode == 3)
            put (e, 0x0D, out, &len);
          if (mode == 1 || mode == 2)
            put (e, 0x0A, out, &len);
        }
    }
  return len;
}

static void
fail (char const *what, size_t bs, uint8_t const *in, size_t n,
      struct sb const *got, uint8_t const *want, size_t wlen)
{
  fprintf (stderr, "fuzz_eol: %s, block size %zu, input (%zu) %s\n", what,
           bs, n, hex (in, n));
  fprintf (stderr, "got  (%zu) %s\n", got->len,
           hex ((uint8_t const *) got->s, got->len));
  fprintf (stderr, "want (%zu) %s\n", wlen, hex (want, wlen));
  abort ();
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static uint32_t text[MAX_CHARS];
  static uint8_t in[ENC_MAX], want[ENC_MAX];
  static enum eol_mode const modes[] = { EOL_KEEP, EOL_LF, EOL_CRLF,
                                         EOL_CR };
  static FILE *tmp;
  struct run_config cfg;
  unsigned int mode;
  bool cr_breaks, latin;
  enum enc from, to;
  size_t n, k, len = 0, wlen, sizes[3];

  if (size < 2)
    return 0;
  mode = data[0] & 3;
  cr_breaks = data[0] & 4;
  from = pairs[data[0] >> 3 & 7].from;
  to = pairs[data[0] >> 3 & 7].to;
  latin = from == E_LATIN1 || to == E_LATIN1;
  sizes[0] = 65536;
  sizes[1] = data[1] ? data[1] : 1;
  sizes[2] = 4093;
  n = size - 2 < MAX_CHARS ? size - 2 : MAX_CHARS;
  for (k = 0; k < n; k++)
    {
      text[k] = char_of (data[2 + k], latin);
      put (from, text[k], in, &len);
    }
  wlen = model (text, n, mode, cr_breaks, to, want);
  if (!tmp && !(tmp = tmpfile ()))
    abort ();

  memset (&cfg, 0, sizeof cfg);
  cfg.from = codec (enc_names[from]);
  cfg.to = codec (enc_names[to]);
  cfg.policy.policy = POLICY_STRICT;
  cfg.bom = BOM_STRIP;
  cfg.eol = modes[mode];
  cfg.eol_cr_breaks = cr_breaks;
  for (k = 0; k < 3; k++)
    {
      struct sb got;
      enum file_result res = iconv_pipeline_config (fileno (tmp), &cfg, in,
                                                    len, sizes[k], &got,
                                                    NULL);
      if (res != FILE_OK || got.len != wlen
          || memcmp (got.s, want, wlen) != 0)
        fail (res != FILE_OK ? "not FILE_OK" : "the output differs from "
              "the model's", sizes[k], in, len, &got, want, wlen);
      sb_free (&got);
    }
  return 0;
}
