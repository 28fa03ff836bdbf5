/* What every codec shares: setting up and releasing decoders and
   encoders, the names of the error kinds, and counting the characters
   of well-formed input without decoding it.  */

#include <config.h>

#include "codec.h"

#include <string.h>

void
decoder_init (struct decoder *d, struct codec const *c)
{
  memset (d, 0, sizeof *d);
  d->codec = c;
  d->endian = c->flags & CODEC_BOM_ALWAYS ? ENDIAN_UNKNOWN : c->endian;
  if (c->flags & CODEC_STATEFUL)
    ((struct stateful_codec const *) c)->decoder_open (d);
}

void
encoder_init (struct encoder *e, struct codec const *c)
{
  e->codec = c;
  e->pending = 0;
  e->impl = NULL;
  /* Unmarked UTF-16 and UTF-32 are stateful for their decoders only.  */
  if ((c->flags & CODEC_STATEFUL)
      && ((struct stateful_codec const *) c)->encoder_open)
    ((struct stateful_codec const *) c)->encoder_open (e);
}

void
decoder_release (struct decoder *d)
{
  if (d->codec && (d->codec->flags & CODEC_STATEFUL) && d->impl)
    ((struct stateful_codec const *) d->codec)->decoder_close (d);
  d->impl = NULL;
}

void
encoder_release (struct encoder *e)
{
  if (e->codec && (e->codec->flags & CODEC_STATEFUL) && e->impl)
    ((struct stateful_codec const *) e->codec)->encoder_close (e);
  e->impl = NULL;
}

char const *
err_kind_text (enum err_kind k)
{
  static char const *const text[ERR_KIND_COUNT] = {
    "no error",
    "unexpected continuation byte",
    "truncated sequence",
    "overlong encoding",
    "surrogate",
    "beyond U+10FFFF",
    "invalid byte",
    "lone surrogate",
    "unencodable character",
    "undefined byte",
  };
  return text[k];
}

uint64_t
codec_count_chars (struct codec const *from, uint8_t const *in, size_t n)
{
  uint64_t chars = 0;
  size_t i;

  if (from->flags & CODEC_SINGLE_BYTE)
    return n;
  /* UTF-16: every unit but the second of a pair.  */
  if ((from->flags & (CODEC_WIDE_UNITS | CODEC_UNITS_32)) == CODEC_WIDE_UNITS)
    {
      for (i = from->endian == ENDIAN_BIG ? 0 : 1; i < n; i += 2)
        chars += (in[i] & 0xFC) != 0xDC;
      return chars;
    }
  /* UTF-8: every byte but the continuation bytes.  */
  for (i = 0; i < n; i++)
    chars += (in[i] & 0xC0) != 0x80;
  return chars;
}
