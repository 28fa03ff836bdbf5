/* Binary files: text, binary, or UTF-16/UTF-32 text (see binary.h).

   Specification: SPEC §12 ("Binary files") of the project.  A file is
   binary when the text it holds has U+0000, or a C0 control other than
   BS, TAB, LF, VT, FF, CR, SUB (the end of a DOS text file) and ESC
   (terminal colours), anywhere in it; or at once when it starts with
   the magic number of a well-known binary format.  Every signature
   below is one that no text starts with: at least four bytes, or bytes
   that hold a control character.  A UTF-16 or UTF-32 BOM, or the NUL
   pattern of BOM-less UTF-16 (nulpattern.h), makes a file text in that
   form, never binary; the magic numbers are tested before the NUL
   pattern, which a PNG or a WAV file may show by chance, and after the
   BOM, with which no magic number starts.  */

#include <config.h>

#include "binary.h"

#include <string.h>
#include <unistd.h>

#include "codecs/codecs.h"
#include "nulpattern.h"
#include "simd/kernels.h"

/* The C0 controls that text holds: BS, TAB, LF, VT, FF, CR, SUB and
   ESC.  */
#define TEXT_CONTROLS                                                   \
  ((1u << 0x08) | (1u << 0x09) | (1u << 0x0A) | (1u << 0x0B)           \
   | (1u << 0x0C) | (1u << 0x0D) | (1u << 0x1A) | (1u << 0x1B))

/* Whether the character C is a control that text does not hold.  */
static bool
not_text (ucs4_t c)
{
  return c < 0x20 && !(TEXT_CONTROLS >> c & 1);
}

/* --- The magic numbers --------------------------------------------------- */

/* A signature: LEN bytes at offset AT.  */
struct magic
{
  unsigned short at;
  unsigned char len;
  char const *bytes;
  char const *format;
};

static struct magic const magics[] = {
  { 0, 8, "\x89PNG\r\n\x1A\n", "PNG" },
  { 0, 6, "GIF87a", "GIF" },
  { 0, 6, "GIF89a", "GIF" },
  { 0, 5, "%PDF-", "PDF" },
  { 0, 4, "PK\3\4", "ZIP" },
  { 0, 4, "PK\5\6", "ZIP" },
  { 0, 4, "PK\7\x08", "ZIP" },
  { 0, 3, "\x1F\x8B\x08", "gzip" },
  { 0, 2, "\x1F\x9D", "compress" },
  { 0, 6, "\xFD" "7zXZ\0", "xz" },
  { 0, 4, "\x28\xB5\x2F\xFD", "zstd" },
  { 0, 6, "7z\xBC\xAF\x27\x1C", "7z" },
  { 0, 7, "Rar!\x1A\x07", "RAR" },
  { 0, 4, "\x04\x22\x4D\x18", "LZ4" },
  { 0, 8, "!<arch>\n", "ar archive" },
  { 257, 6, "ustar\0", "tar" },
  { 257, 8, "ustar  \0", "tar" },
  { 0, 4, "\x7F" "ELF", "ELF" },
  { 0, 4, "\xCA\xFE\xBA\xBE", "Java class" },
  { 0, 4, "\xFE\xED\xFA\xCE", "Mach-O" },
  { 0, 4, "\xFE\xED\xFA\xCF", "Mach-O" },
  { 0, 4, "\xCE\xFA\xED\xFE", "Mach-O" },
  { 0, 4, "\xCF\xFA\xED\xFE", "Mach-O" },
  { 0, 4, "\0asm", "WebAssembly" },
  { 0, 4, "\xDE\x12\x04\x95", "gettext catalogue" },
  { 0, 4, "\x95\x04\x12\xDE", "gettext catalogue" },
  { 0, 16, "SQLite format 3\0", "SQLite" },
  { 0, 8, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", "OLE compound file" },
  { 0, 4, "II*\0", "TIFF" },
  { 0, 4, "MM\0*", "TIFF" },
  { 0, 6, "8BPS\0\1", "Photoshop" },
  { 0, 4, "\0\0\1\0", "icon" },
  { 0, 4, "\x1A\x45\xDF\xA3", "Matroska" },
  { 0, 5, "OggS\0", "Ogg" },
  { 0, 5, "fLaC\0", "FLAC" },
  { 0, 5, "fLaC\x80", "FLAC" },
  { 0, 5, "OTTO\0", "OpenType font" },
  { 0, 4, "\0\1\0\0", "TrueType font" },
  { 0, 8, "wOFF\0\1\0\0", "WOFF font" },
  { 0, 8, "wOFFOTTO", "WOFF font" },
  { 0, 8, "wOF2\0\1\0\0", "WOFF font" },
  { 0, 8, "wOF2OTTO", "WOFF font" },
  { 0, 6, "ttcf\0\1", "font collection" },
  { 0, 6, "ttcf\0\2", "font collection" },
  { 0, 8, "\x89HDF\r\n\x1A\n", "HDF5" },
  { 0, 4, "\xD4\xC3\xB2\xA1", "pcap" },
  { 0, 4, "\xA1\xB2\xC3\xD4", "pcap" },
};

static bool
has (uint8_t const *buf, size_t n, size_t at, char const *bytes, size_t len)
{
  return at + len <= n && memcmp (buf + at, bytes, len) == 0;
}

static uint32_t
le32 (uint8_t const *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16
         | (uint32_t) p[3] << 24;
}

/* The formats whose signatures are more than fixed bytes.  */
static char const *
magic_rules (uint8_t const *buf, size_t n)
{
  /* JPEG: SOI, then the first marker's FF and its code.  */
  if (has (buf, n, 0, "\xFF\xD8\xFF", 3) && n > 3 && buf[3] >= 0xC0
      && buf[3] != 0xFF)
    return "JPEG";
  /* bzip2: BZh, the block size, then the magic of a block or of the
     end of the stream.  */
  if (has (buf, n, 0, "BZh", 3) && n > 3 && '1' <= buf[3] && buf[3] <= '9'
      && (has (buf, n, 4, "\x31\x41\x59\x26\x53\x59", 6)
          || has (buf, n, 4, "\x17\x72\x45\x38\x50\x90", 6)))
    return "bzip2";
  /* RIFF: its size, then a form that says what it holds.  */
  if (has (buf, n, 0, "RIFF", 4))
    {
      if (has (buf, n, 8, "WAVE", 4))
        return "WAV";
      if (has (buf, n, 8, "WEBP", 4))
        return "WebP";
      if (has (buf, n, 8, "AVI ", 4))
        return "AVI";
    }
  /* ISO media (MP4, MOV, HEIF): a box `ftyp' of less than 16 MiB.  */
  if (has (buf, n, 4, "ftyp", 4) && buf[0] == 0)
    return "ISO media";
  /* MP3 with an ID3v2 tag: its major version, 2 to 4.  */
  if (has (buf, n, 0, "ID3", 3) && n > 4 && 2 <= buf[3] && buf[3] <= 4
      && buf[4] == 0)
    return "MP3";
  /* BMP: its reserved bytes, and the size of a known DIB header.  */
  if (has (buf, n, 0, "BM", 2) && has (buf, n, 6, "\0\0\0\0", 4)
      && has (buf, n, 15, "\0\0\0", 3)
      && (buf[14] == 12 || buf[14] == 40 || buf[14] == 52 || buf[14] == 56
          || buf[14] == 64 || buf[14] == 108 || buf[14] == 124))
    return "BMP";
  /* PE (Windows executables): MZ only together with the PE header it
     points to.  */
  if (has (buf, n, 0, "MZ", 2) && n >= 0x40)
    {
      uint32_t pe = le32 (buf + 0x3C);
      if (pe < n && has (buf, n, pe, "PE\0\0", 4))
        return "PE executable";
    }
  return NULL;
}

char const *
binary_magic (uint8_t const *buf, size_t n)
{
  size_t k;
  for (k = 0; k < sizeof magics / sizeof magics[0]; k++)
    if (has (buf, n, magics[k].at, magics[k].bytes, magics[k].len))
      return magics[k].format;
  return magic_rules (buf, n);
}

/* --- The byte scan ------------------------------------------------------- */

int64_t
binary_scan_bytes (uint8_t const *buf, size_t n)
{
  size_t i;
  if (kernels)
    i = kernels->find_control (buf, n);
  else
    /* UTF8CONV_IMPL=reference: a byte loop over the definition.  */
    for (i = 0; i < n && !not_text (buf[i]); i++)
      continue;
  return i < n ? (int64_t) i : -1;
}

/* --- The decoder's scan -------------------------------------------------- */

/* The offset of the first control character that text does not hold
   among the characters that D decodes from BUF[0..N), the bytes at
   offset BASE of the file (LAST: the end of the file), or -1; *C is
   that character.  Ill-formed input is skipped, not an error.  */
static int64_t
decode_scan (struct decoder *d, uint8_t const *buf, size_t n, bool last,
             int64_t base, ucs4_t *c)
{
  enum { CAP = 1024 };
  ucs4_t cp[CAP];
  int64_t off[CAP];
  uint8_t nb[CAP];
  struct pivot p;
  size_t pos = 0;

  p.cp = cp;
  p.off = off;
  p.n = nb;
  p.cap = CAP;
  for (;;)
    {
      size_t len = n - pos, i;
      enum decode_status st;
      p.len = 0;
      st = d->codec->decode (d, buf + pos, &len, last, &p);
      for (i = 0; i < p.len; i++)
        if (not_text (cp[i]))
          {
            *c = cp[i];
            return base + (int64_t) pos + off[i];
          }
      pos += len;
      if (st == DECODE_INPUT_EMPTY && pos == n)
        return -1;
    }
}

/* Whether the codec C decodes each byte below 0x80, on its own, to the
   character of that value, so that a byte scan finds the characters
   that the decoder would.  Shifts (ISO-2022's SO and SI, ESC
   sequences), EBCDIC and the wide forms fail the test.  The multi-byte
   code pages that pass it have no trail byte below 0x40.  */
static bool
ascii_bytes (struct codec const *c)
{
  unsigned int b;
  bool ok = true;

  if (c->flags & CODEC_SINGLE_BYTE)
    return true;
  for (b = 0; ok && b < 0x80; b++)
    {
      uint8_t in = (uint8_t) b;
      ucs4_t cp[1 + PIVOT_MIN_ROOM];
      int64_t off[1 + PIVOT_MIN_ROOM];
      uint8_t nb[1 + PIVOT_MIN_ROOM];
      struct pivot p = { cp, off, nb, 0, 1 + PIVOT_MIN_ROOM };
      struct decoder d;
      size_t len = 1;

      decoder_init (&d, c);
      ok = (c->decode (&d, &in, &len, true, &p) == DECODE_INPUT_EMPTY
            && len == 1 && p.len == 1 && cp[0] == b);
      decoder_release (&d);
    }
  return ok;
}

void
binary_test_init (struct binary_test *t, struct codec const *from,
                  uint8_t *buf, size_t size)
{
  t->from = from;
  /* -f auto reads what is not UTF-16 or UTF-32 as UTF-8 or an
     ASCII-compatible code page.  */
  t->byte_scan = (from->flags & CODEC_WRAPPER) || ascii_bytes (from);
  t->buf = buf;
  t->size = size;
}

/* --- The whole test ------------------------------------------------------ */

/* The UTF-16 or UTF-32 form that the BOM at the start of BUF[0..N)
   names, or NULL.  */
static struct codec const *
utf_bom (uint8_t const *buf, size_t n)
{
  if (has (buf, n, 0, "\xFF\xFE\0\0", 4))
    return &codec_utf32le;
  if (has (buf, n, 0, "\0\0\xFE\xFF", 4))
    return &codec_utf32be;
  if (has (buf, n, 0, "\xFF\xFE", 2))
    return &codec_utf16le;
  if (has (buf, n, 0, "\xFE\xFF", 2))
    return &codec_utf16be;
  return NULL;
}

/* The verdict on text in the form FORM (BOM: a BOM says so) for the
   input encoding FROM: -f auto reads it, and so does -f naming a form
   of the same code unit (of the same byte order, when a BOM says which);
   another encoding would not.  */
static void
utf_text (struct codec const *from, struct codec const *form, bool bom,
          struct binary_verdict *v)
{
  unsigned int units = CODEC_WIDE_UNITS | CODEC_UNITS_32;
  bool reads = ((from->flags & CODEC_WRAPPER)
                || ((from->flags & units) == (form->flags & units)
                    && (!bom || from->endian == ENDIAN_UNKNOWN
                        || from->endian == form->endian)));
  v->kind = reads ? BINARY_TEXT : BINARY_OTHER_FORM;
  v->form = form;
  v->bom = bom;
}

/* The first control character that text does not hold in the file FD,
   of which BUF[0..N) are the first bytes, read with a byte scan (BYTES)
   or with the decoder of FROM: its offset or -1, and *C.  */
static int64_t
scan_file (struct binary_test const *t, int fd, size_t n, bool bytes,
           ucs4_t *c)
{
  struct decoder d;
  int64_t base = 0, found = -1;
  ssize_t got = (ssize_t) n;

  if (!bytes)
    {
      decoder_init (&d, t->from);
      /* Only the characters count: nothing here is an error.  */
      d.lone_surrogates_ok = true;
    }
  while (found < 0 && got > 0)
    {
      n = (size_t) got;
      if (bytes)
        {
          found = binary_scan_bytes (t->buf, n);
          if (found >= 0)
            {
              *c = t->buf[found];
              found += base;
            }
        }
      else
        found = decode_scan (&d, t->buf, n, false, base, c);
      base += (int64_t) n;
      /* A short read of a regular file is its end: no call to read
         nothing, for the many small files of a tree.  */
      got = found < 0 && n == t->size ? pread (fd, t->buf, t->size, base)
            : 0;
    }
  if (!bytes)
    {
      if (found < 0)
        found = decode_scan (&d, t->buf, 0, true, base, c);
      decoder_release (&d);
    }
  return found;
}

void
binary_test_file (struct binary_test const *t, int fd,
                  struct binary_verdict *v)
{
  ssize_t got = pread (fd, t->buf, t->size, 0);
  size_t n = got > 0 ? (size_t) got : 0;
  struct codec const *form;

  memset (v, 0, sizeof *v);
  v->offset = -1;
  if (n == 0)
    return;
  form = utf_bom (t->buf, n);
  if (form)
    {
      utf_text (t->from, form, true, v);
      return;
    }
  v->format = binary_magic (t->buf, n);
  if (!v->format)
    {
      form = nul_pattern_form (t->buf, n, n < t->size);
      if (form)
        {
          utf_text (t->from, form, false, v);
          return;
        }
    }
  /* A magic number decides; the scan then finds the first control
     byte that the warning names.  */
  v->offset = scan_file (t, fd, n, v->format || t->byte_scan, &v->c);
  v->kind = v->format || v->offset >= 0 ? BINARY_FILE : BINARY_TEXT;
}
