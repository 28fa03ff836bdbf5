/* The batch loops shared by every codec.

   A codec writes one small step function per direction and instantiates
   these loops with it, so that partial sequences across buffers, offsets,
   line counting and the pivot are handled in one place.

   A decoding step has the shape

     static int STEP (struct decoder *d, uint8_t const *s, size_t n,
                      bool last, ucs4_t *cp, enum err_kind *kind);

   with N >= 1.  It returns R > 0 when S[0..R) decodes to *CP; STEP_TOOFEW
   when S[0..N) is a valid beginning that needs more bytes (never when LAST
   is true); and -R when S[0..R) is ill-formed, with *KIND saying why.  Per
   the maximal-subpart rule, R excludes the byte that broke the sequence.
   A step that returns R >= 0 may be taken again on the same bytes and
   must then return the same (what it changes in the decoder, such as
   UTF-16's byte order or WTF-8's low_after_high, it sets to the same
   value again): the batch decoder's entry takes one step to look for an
   error at the start and, finding none, hands the input to its loop.

   An encoding step has the shape

     static int STEP (struct encoder *e, ucs4_t c, uint8_t *out);

   and returns the number of bytes written to OUT (which has MAX_ENCODED
   bytes of room), or STEP_UNENCODABLE.  */

#ifndef UTF8CONV_STEP_H
#define UTF8CONV_STEP_H

#include <string.h>

#include "../codec.h"

enum
{
  STEP_TOOFEW = 0,
  STEP_UNENCODABLE = -1
};

/* Append the value C, which came from the NBYTES input bytes at offset
   O, to the pivot P, whose length is LEN, and count it if it is a
   newline.  */
#define STEP_PUSH(p, len, c, o, nbytes, d)              \
  do                                                    \
    {                                                   \
      (p)->cp[len] = (c);                               \
      (p)->off[len] = (o);                              \
      (p)->n[len] = (uint8_t) (nbytes);                 \
      (len)++;                                          \
      (d)->newlines += (c) == 0x0A;                     \
    }                                                   \
  while (0)

/* Record an ill-formed sequence of LEN bytes starting at S, which is at
   offset REL from the start of the current buffer.  */
static inline void
step_error (struct decoder *d, uint8_t const *s, unsigned int len,
            enum err_kind kind, int64_t rel)
{
  unsigned int i;
  /* At most MAX_ERROR_BYTES: a loop costs less than a call.  */
  for (i = 0; i < len; i++)
    d->error.bytes[i] = s[i];
  d->error.len = len;
  d->error.kind = kind;
  d->error.rel_offset = rel;
}

/* Define NAME, a decode_fn, from the step function STEP.  When ASCII is
   nonzero, bytes below 0x80 stand for themselves and are copied by a tight
   loop without calling STEP.  */
#define DEFINE_BATCH_DECODER(NAME, STEP, ASCII)                              \
  enum decode_status                                                         \
  NAME##_loop (struct decoder *d, uint8_t const *in, size_t *inlen,          \
               bool last, struct pivot *p);                                  \
  /* An ill-formed sequence at the very start of the input, where the fast \
     paths stop before one, is read by one step, without the loop and its   \
     set-up; anything else goes to the loop.  */                            \
  static enum decode_status                                                  \
  NAME (struct decoder *d, uint8_t const *in, size_t *inlen, bool last,      \
        struct pivot *p)                                                     \
  {                                                                          \
    if (d->carry_len == 0 && *inlen > 0 && !((ASCII) && in[0] < 0x80))      \
      {                                                                      \
        ucs4_t c;                                                            \
        enum err_kind kind;                                                  \
        int r = STEP (d, in, *inlen, last, &c, &kind);                       \
        if (r < 0)                                                           \
          {                                                                  \
            step_error (d, in, (unsigned int) -r, kind, 0);                  \
            *inlen = (size_t) -r;                                            \
            return DECODE_MALFORMED;                                         \
          }                                                                  \
      }                                                                      \
    return NAME##_loop (d, in, inlen, last, p);                              \
  }                                                                          \
  static __attribute__ ((noinline)) enum decode_status                      \
  NAME##_loop (struct decoder *d, uint8_t const *in, size_t *inlen,          \
               bool last, struct pivot *p)                                   \
  {                                                                          \
    size_t n = *inlen, i = 0, len = p->len, cap = p->cap;                    \
    enum decode_status status = DECODE_INPUT_EMPTY;                          \
    ucs4_t c;                                                                \
    enum err_kind kind;                                                      \
    int r;                                                                   \
                                                                             \
    /* First finish a sequence that an earlier buffer ended inside.  */      \
    while (d->carry_len > 0)                                                 \
      {                                                                      \
        uint8_t tmp[2 * MAX_ERROR_BYTES];                                    \
        unsigned int cl = d->carry_len;                                      \
        size_t t = n - i < MAX_ERROR_BYTES - cl ? n - i : MAX_ERROR_BYTES - cl;\
        if (len == cap)                                                      \
          {                                                                  \
            status = DECODE_OUTPUT_FULL;                                     \
            goto done;                                                       \
          }                                                                  \
        memcpy (tmp, d->carry, cl);                                          \
        memcpy (tmp + cl, in + i, t);                                        \
        r = STEP (d, tmp, cl + t, last && i + t == n, &c, &kind);            \
        if (r == STEP_TOOFEW)                                                \
          {                                                                  \
            memcpy (d->carry + cl, in + i, t);                               \
            d->carry_len = cl + (unsigned int) t;                            \
            i += t;                                                          \
            goto done;                                                       \
          }                                                                  \
        if (r > 0)                                                           \
          STEP_PUSH (p, len, c, (int64_t) i - cl, r, d);                     \
        else                                                                 \
          {                                                                  \
            r = -r;                                                          \
            step_error (d, tmp, (unsigned int) r, kind, (int64_t) i - cl);   \
            status = DECODE_MALFORMED;                                       \
          }                                                                  \
        if ((unsigned int) r >= cl)                                          \
          {                                                                  \
            i += (unsigned int) r - cl;                                      \
            d->carry_len = 0;                                                \
          }                                                                  \
        else                                                                 \
          {                                                                  \
            memmove (d->carry, d->carry + r, cl - (unsigned int) r);         \
            d->carry_len = cl - (unsigned int) r;                            \
          }                                                                  \
        if (status == DECODE_MALFORMED)                                      \
          goto done;                                                         \
      }                                                                      \
                                                                             \
    while (i < n)                                                            \
      {                                                                      \
        if (len == cap)                                                      \
          {                                                                  \
            status = DECODE_OUTPUT_FULL;                                     \
            break;                                                           \
          }                                                                  \
        if ((ASCII) && in[i] < 0x80)                                         \
          {                                                                  \
            /* In locals: stores through P would make the compiler      \
               load P's arrays and D's count again at every byte.  */        \
            size_t end = n - i < cap - len ? n : i + (cap - len);            \
            size_t k = 0, m = end - i, nl = 0;                               \
            ucs4_t *pcp = p->cp + len;                                       \
            int64_t *poff = p->off + len;                                    \
            uint8_t *pn = p->n + len;                                        \
            do                                                               \
              {                                                              \
                uint8_t b = in[i + k];                                       \
                pcp[k] = b;                                                  \
                poff[k] = (int64_t) (i + k);                                 \
                pn[k] = 1;                                                   \
                nl += b == 0x0A;                                             \
                k++;                                                         \
              }                                                              \
            while (k < m && in[i + k] < 0x80);                               \
            d->newlines += nl;                                               \
            len += k;                                                        \
            i += k;                                                          \
            continue;                                                        \
          }                                                                  \
        r = STEP (d, in + i, n - i, last, &c, &kind);                        \
        if (r > 0)                                                           \
          {                                                                  \
            STEP_PUSH (p, len, c, (int64_t) i, r, d);                        \
            i += (unsigned int) r;                                           \
          }                                                                  \
        else if (r == STEP_TOOFEW)                                           \
          {                                                                  \
            memcpy (d->carry, in + i, n - i);                                \
            d->carry_len = (unsigned int) (n - i);                           \
            i = n;                                                           \
          }                                                                  \
        else                                                                 \
          {                                                                  \
            step_error (d, in + i, (unsigned int) -r, kind, (int64_t) i);    \
            i += (unsigned int) -r;                                          \
            status = DECODE_MALFORMED;                                       \
            break;                                                           \
          }                                                                  \
      }                                                                      \
  done:                                                                      \
    p->len = len;                                                            \
    *inlen = i;                                                              \
    return status;                                                           \
  }

/* Define NAME, an encode_fn, from the step function STEP.  When ASCII is
   nonzero, values below 0x80 are written as the byte of the same value
   by a tight loop, without calling STEP.  */
#define DEFINE_BATCH_ENCODER(NAME, STEP, ASCII)                              \
  enum encode_status                                                         \
  NAME (struct encoder *e, ucs4_t const *cp, size_t *n, uint8_t *out,        \
        size_t *outlen, size_t cap)                                          \
  {                                                                          \
    size_t i = 0, count = *n, o = *outlen;                                   \
    enum encode_status status = ENCODE_INPUT_EMPTY;                          \
    while (i < count)                                                        \
      {                                                                      \
        int r;                                                               \
        if (cap - o < MAX_ENCODED)                                           \
          {                                                                  \
            status = ENCODE_OUTPUT_FULL;                                     \
            break;                                                           \
          }                                                                  \
        if ((ASCII) && cp[i] < 0x80)                                         \
          {                                                                  \
            /* As for any value: no more once less than MAX_ENCODED     \
               bytes are left.  */                                        \
            size_t room = cap - o - MAX_ENCODED + 1;                         \
            size_t end = count - i < room ? count : i + room;                \
            do                                                               \
              out[o++] = (uint8_t) cp[i++];                                  \
            while (i < end && cp[i] < 0x80);                                 \
            continue;                                                        \
          }                                                                  \
        r = STEP (e, cp[i], out + o);                                        \
        if (r < 0)                                                           \
          {                                                                  \
            status = ENCODE_UNENCODABLE;                                     \
            break;                                                           \
          }                                                                  \
        o += (unsigned int) r;                                               \
        i++;                                                                 \
      }                                                                      \
    *n = i;                                                                  \
    *outlen = o;                                                             \
    return status;                                                           \
  }

#endif
