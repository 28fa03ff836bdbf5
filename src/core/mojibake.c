/* Mojibake repair: two levels of one state machine (see mojibake.h).

   Each level holds the characters of a sequence it has not finished:
   a lead whose image is C2..F4 and the continuations read after it, at
   most three.  A character goes through a level thus: if it continues
   the held sequence, it is held, or completes the sequence, which is
   replaced by its character when that is plausible; otherwise the
   held characters go on as they were, and the character is looked at
   as a lead.  The first level's output feeds the second, whose output
   is the stage's.  */

#include <config.h>

#include "mojibake.h"

#include <string.h>

#include "codec.h"
#include "codecs/codecs.h"
#include "unicode/utf8.h"
#include "xalloc.h"

/* A character on its way through the levels.  */
struct item
{
  ucs4_t cp;
  uint64_t off;                 /* Absolute.  */
  unsigned int nbytes;
  unsigned int nbefore;         /* 0 unless restored.  */
  ucs4_t before[MOJI_BEFORE_MAX];       /* The damaged characters, */
  uint64_t boff[MOJI_BEFORE_MAX];       /* their offsets */
  uint8_t bn[MOJI_BEFORE_MAX];          /* and input bytes.  */
};

/* What a completed sequence of images is: mojibake to repair, clean
   text to leave as it stands, or a question that the character after
   it answers: whether it goes on with damaged text (an image of a
   lead: then it is mojibake) or with a Latin letter.  */
enum verdict
{
  V_TEXT,
  V_REPAIR,
  V_TEXT_UNLESS_LEAD_NEXT,
  V_TEXT_IF_LETTER_NEXT
};

struct level
{
  struct item held[3];
  uint8_t img[4];
  unsigned int nheld;
  /* When not 0, HELD is a complete sequence that stands for this
     character if the next character allows; ASK says how it asks.  */
  ucs4_t pending;
  enum verdict ask;
  ucs4_t last;                  /* The last character passed on.  */
  ucs4_t before_lead;           /* The one passed on before HELD[0], */
  bool last_restored;           /* whether LAST was restored, */
  bool lead_after_repair;       /* and whether BEFORE_LEAD was.  */
};

struct mojibake
{
  /* The characters CP1252 gives to 80..9F (0 for the five it leaves
     undefined, which are Latin-1's C1 controls).  */
  ucs4_t cp1252[32];
  struct level lv[2];
  struct moji_out out;
  uint64_t base;
};

struct mojibake *
mojibake_new (size_t cap)
{
  struct mojibake *m = xzalloc (sizeof *m);
  struct decoder dec;
  /* One value, and the room a decoder may want after it.  */
  ucs4_t cp[1 + PIVOT_MIN_ROOM] = { 0 };
  int64_t off[1 + PIVOT_MIN_ROOM] = { 0 };
  uint8_t n[1 + PIVOT_MIN_ROOM] = { 0 };
  unsigned int b;

  /* The reverse table comes from the codec, not from a second copy.  */
  decoder_init (&dec, &codec_cp1252);
  for (b = 0x80; b < 0xA0; b++)
    {
      struct pivot p = { cp, off, n, 0, 1 + PIVOT_MIN_ROOM };
      uint8_t byte = (uint8_t) b;
      size_t len = 1;
      if (codec_cp1252.decode (&dec, &byte, &len, true, &p)
          == DECODE_INPUT_EMPTY && p.len == 1 && cp[0] >= 0x100)
        m->cp1252[b - 0x80] = cp[0];
    }
  decoder_release (&dec);
  cap += MOJI_EXTRA;
  m->out.cp = xnmalloc (cap, sizeof *m->out.cp);
  m->out.off = xnmalloc (cap, sizeof *m->out.off);
  m->out.n = xnmalloc (cap, sizeof *m->out.n);
  m->out.repairs = xnmalloc (cap, sizeof *m->out.repairs);
  return m;
}

void
mojibake_free (struct mojibake *m)
{
  if (!m)
    return;
  free (m->out.cp);
  free (m->out.off);
  free (m->out.n);
  free (m->out.repairs);
  free (m);
}

void
mojibake_reset (struct mojibake *m)
{
  memset (m->lv, 0, sizeof m->lv);
}

bool
mojibake_holds (struct mojibake const *m)
{
  return m->lv[0].nheld + m->lv[1].nheld > 0;
}

bool
mojibake_plausible (ucs4_t c)
{
  return (c >= 0x80 && !(0x700 <= c && c < 0x800)
          && !(0xE000 <= c && c < 0xF900) && !(0xFDD0 <= c && c < 0xFDF0)
          && (c & 0xFFFE) != 0xFFFE && !(0xF0000 <= c));
}

/* Whether C is a Latin letter of ASCII, Latin-1 or Latin Extended-A
   and B.  */
static bool
latin_letter (ucs4_t c)
{
  return (('a' <= (c | 0x20) && (c | 0x20) <= 'z')
          || (0xC0 <= c && c < 0x250 && c != 0xD7 && c != 0xF7));
}

/* Whether C is a Latin capital of ASCII or Latin-1.  */
static bool
latin_capital (ucs4_t c)
{
  return ('A' <= c && c <= 'Z') || (0xC0 <= c && c <= 0xDE && c != 0xD7);
}

/* Whether the byte B is CP1252's image of punctuation that follows a
   word: a no-break space, an ellipsis, a quotation mark (‘ ’ “ ” ‹ ›
   « ») or a dash (– —).  */
static bool
trailing_mark (uint8_t b)
{
  return (b == 0xA0 || b == 0x85 || (0x91 <= b && b <= 0x94) || b == 0x96
          || b == 0x97 || b == 0xAB || b == 0xBB);
}


/* Whether the sequence of images IMG[0..N), which well-formed UTF-8
   gives C, is the mojibake of C when the character before it was PREV
   (AFTER_REPAIR: a restored one).  Three shapes of clean text are not:

   - A Latin capital from Æ to Þ (the lead's image C6..DE, which would
     make a character beyond Latin Extended-A) followed by punctuation
     that ends a word (TRAILING_MARK) ends a word in capitals when a
     Latin capital stands before it (`DÉCONSEILLÉ :' would be
     `DÉCONSEILLɠ:', `VÁLASZTÓ…' `VÁLASZTӅ', `GÜÇ’' `GÜǒ'), unless
     the next character is the image of a lead (`AÐ Ð“' is `AРГ').
   - The same at the start of a word (after a character that is no
     letter) is text when the next character is a Latin letter that
     is not the image of a lead (`Ç’nin' in Turkish would be `ǒnin').
   - A lead, a no-break space and `»' after a Latin letter are the end
     of a word and French spacing (`activé »' would be `activ頻'); so
     are a lead from à to â (whose characters are below U+3000: no CJK
     ideograph, which may well follow a Latin letter), a no-break space
     and any punctuation that ends a word (`plná –' would be `pln᠖').

   The capitals Â, Ã, Ä and Å stay leads in every context: their
   sequences are the Latin-1 and Latin Extended-A letters (`Ã ' is à,
   `Ä…' is ą), by far the most common mojibake.  Nor is any of it clean
   text right after a repair: there the text around is damaged, and a
   restored Ñ before `Æ’' is the twice damaged `у'.  */
static enum verdict
judge (ucs4_t c, uint8_t const *img, unsigned int n, ucs4_t prev,
       bool after_repair)
{
  if (!mojibake_plausible (c))
    return V_TEXT;
  if (after_repair)
    return V_REPAIR;
  if (n == 2 && 0xC6 <= img[0] && img[0] <= 0xDE && trailing_mark (img[1]))
    {
      if (latin_capital (prev))
        return V_TEXT_UNLESS_LEAD_NEXT;
      if (!latin_letter (prev))
        return V_TEXT_IF_LETTER_NEXT;
    }
  if (n == 3 && img[1] == 0xA0 && latin_letter (prev)
      && (img[2] == 0xBB || (img[0] <= 0xE2 && trailing_mark (img[2]))))
    return V_TEXT;
  return V_REPAIR;
}

/* The byte image of C, or -1 when it has none.  */
static int
image (struct mojibake const *m, ucs4_t c)
{
  unsigned int k;
  if (c < 0x80)
    return -1;
  if (c < 0x100)
    return (int) c;
  if (c < 0x152 || 0x2122 < c)
    return -1;
  for (k = 0; k < 32; k++)
    if (m->cp1252[k] == c)
      return (int) (0x80 + k);
  return -1;
}

/* Give out IT from the second level.  A C1 control is restored only on
   the way to a character of the second level: when it is not, its
   damaged characters go out as they were.  */
static void
put_out (struct mojibake *m, struct item const *it)
{
  struct moji_out *o = &m->out;
  if (it->nbefore > 0 && it->cp < 0xA0)
    {
      unsigned int k;
      for (k = 0; k < it->nbefore; k++)
        {
          o->cp[o->len] = it->before[k];
          o->off[o->len] = (int64_t) (it->boff[k] - m->base);
          o->n[o->len++] = it->bn[k];
        }
      return;
    }
  o->cp[o->len] = it->cp;
  o->off[o->len] = (int64_t) (it->off - m->base);
  o->n[o->len] = (uint8_t) (it->nbytes < 255 ? it->nbytes : 255);
  if (it->nbefore > 0)
    {
      struct moji_repair *rp = &o->repairs[o->nrepairs++];
      rp->index = o->len;
      rp->offset = it->off;
      rp->line = 0;
      rp->after = it->cp;
      rp->nbefore = it->nbefore;
      memcpy (rp->before, it->before, it->nbefore * sizeof *it->before);
    }
  o->len++;
}

static void push (struct mojibake *, unsigned int, struct item const *);

/* Pass IT on from level L.  */
static void
pass (struct mojibake *m, unsigned int l, struct item const *it)
{
  m->lv[l].last = it->cp;
  m->lv[l].last_restored = it->nbefore > 0;
  if (l == 0)
    push (m, 1, it);
  else
    put_out (m, it);
}

/* Pass on what level L holds, unrepaired.  */
static void
release (struct mojibake *m, unsigned int l)
{
  struct level *lv = &m->lv[l];
  unsigned int k, n = lv->nheld;
  lv->nheld = 0;
  for (k = 0; k < n; k++)
    pass (m, l, &lv->held[k]);
}

/* The character C that the held characters of LV and LAST stand for,
   into R.  */
static void
join (struct level const *lv, struct item const *last, ucs4_t c,
      struct item *r)
{
  unsigned int k, j;
  r->cp = c;
  r->off = lv->held[0].off;
  r->nbytes = 0;
  r->nbefore = 0;
  for (k = 0; k <= lv->nheld; k++)
    {
      struct item const *it = k < lv->nheld ? &lv->held[k] : last;
      r->nbytes += it->nbytes;
      if (it->nbefore == 0)
        {
          r->boff[r->nbefore] = it->off;
          r->bn[r->nbefore] = (uint8_t) it->nbytes;
          r->before[r->nbefore++] = it->cp;
        }
      else
        for (j = 0; j < it->nbefore && r->nbefore < MOJI_BEFORE_MAX; j++)
          {
            r->boff[r->nbefore] = it->boff[j];
            r->bn[r->nbefore] = it->bn[j];
            r->before[r->nbefore++] = it->before[j];
          }
    }
}

/* Decide the pending sequence of level L now that NEXT follows it (0
   at the end of the input).  */
static void
settle (struct mojibake *m, unsigned int l, ucs4_t next)
{
  struct level *lv = &m->lv[l];
  ucs4_t c = lv->pending;
  int b = image (m, next);
  bool lead = 0xC2 <= b && b <= 0xF4;
  struct item r;

  lv->pending = 0;
  if (lv->ask == V_TEXT_UNLESS_LEAD_NEXT ? !lead
      : latin_letter (next) && !lead)
    {
      release (m, l);
      return;
    }
  lv->nheld--;
  join (lv, &lv->held[lv->nheld], c, &r);
  lv->nheld = 0;
  pass (m, l, &r);
}

/* Feed IT to level L.  */
static void
push (struct mojibake *m, unsigned int l, struct item const *it)
{
  struct level *lv = &m->lv[l];
  /* The second level sees only what the first restored.  */
  int b = l == 1 && it->nbefore == 0 ? -1 : image (m, it->cp);

  if (lv->pending)
    settle (m, l, it->cp);
  if (lv->nheld > 0)
    {
      if (b >= 0)
        {
          ucs4_t c;
          enum err_kind kind;
          int k;
          lv->img[lv->nheld] = (uint8_t) b;
          k = utf8_sequence (&utf8_form, lv->img, lv->nheld + 1, false,
                             &c, &kind);
          if (k == UTF8_TOOFEW)
            {
              lv->held[lv->nheld++] = *it;
              return;
            }
          enum verdict v = (k > 0
                            ? judge (c, lv->img, lv->nheld + 1,
                                     lv->before_lead, lv->lead_after_repair)
                            : V_TEXT);
          if (v == V_TEXT_UNLESS_LEAD_NEXT || v == V_TEXT_IF_LETTER_NEXT)
            {
              lv->held[lv->nheld++] = *it;
              lv->pending = c;
              lv->ask = v;
              return;
            }
          if (v == V_REPAIR)
            {
              struct item r;
              join (lv, it, c, &r);
              lv->nheld = 0;
              pass (m, l, &r);
              return;
            }
        }
      release (m, l);
    }
  if (0xC2 <= b && b <= 0xF4)
    {
      lv->img[0] = (uint8_t) b;
      lv->before_lead = lv->last;
      lv->lead_after_repair = lv->last_restored;
      lv->held[0] = *it;
      lv->nheld = 1;
      return;
    }
  pass (m, l, it);
}

void
mojibake_passed (struct mojibake *m, ucs4_t c)
{
  m->lv[0].last = m->lv[1].last = c;
  m->lv[0].last_restored = m->lv[1].last_restored = false;
}

struct moji_out const *
mojibake_feed (struct mojibake *m, ucs4_t const *cp, int64_t const *off,
               uint8_t const *n, size_t count, uint64_t base)
{
  size_t i;
  m->base = base;
  m->out.len = m->out.nrepairs = 0;
  for (i = 0; i < count; i++)
    {
      struct item it;
      it.cp = cp[i];
      it.off = base + (uint64_t) off[i];
      it.nbytes = n[i];
      it.nbefore = 0;
      if (cp[i] < 0x80 && !mojibake_holds (m))
        {
          mojibake_passed (m, cp[i]);
          put_out (m, &it);
          continue;
        }
      push (m, 0, &it);
    }
  return &m->out;
}

struct moji_out const *
mojibake_flush (struct mojibake *m)
{
  unsigned int l;
  m->base = 0;
  m->out.len = m->out.nrepairs = 0;
  for (l = 0; l < 2; l++)
    if (m->lv[l].pending)
      settle (m, l, 0);
    else
      release (m, l);
  return &m->out;
}
