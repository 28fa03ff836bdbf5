/* Portable kernels and the choice of an implementation.

   The portable kernels work a machine word at a time where that helps
   (ASCII runs) and one byte at a time otherwise.  */

#include <config.h>

#include "kernels.h"
#include "transcode.h"
#include "unicode/utf8.h"

#include <stdlib.h>
#include <string.h>

struct kernels const *kernels;

static inline uint64_t
load64 (uint8_t const *s)
{
  uint64_t w;
  memcpy (&w, s, sizeof w);
  return w;
}

size_t
scalar_ascii_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (load64 (s + i) & 0x8080808080808080u)
      break;
  while (i < n && s[i] < 0x80)
    i++;
  return i;
}

/* Unicode §3.9, Table 3-7, one character at a time (ASCII a word at a
   time); stops at the first ill-formed or incomplete sequence.  The
   lead table of src/unicode/utf8.h says what each byte starts: how many
   continuation bytes follow, and the range of the first (80..BF for
   the others).  Away from the end, the bytes a lead byte asks for need
   no bounds check; the last 3 bytes are read by utf8_sequence.  */
size_t
scalar_utf8_valid_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  while (i + 4 <= n)
    {
      struct utf8_lead const *l;
      unsigned int more;
      if (s[i] < 0x80)
        {
          i += scalar_ascii_len (s + i, n - i);
          continue;
        }
      l = &utf8_form.lead[s[i]];
      more = l->more;
      if (more == 0 || s[i + 1] < l->lo || l->hi < s[i + 1]
          || (more >= 2 && (s[i + 2] & 0xC0) != 0x80)
          || (more == 3 && (s[i + 3] & 0xC0) != 0x80))
        return i;
      i += more + 1;
    }
  /* The last bytes, inline: the validators' error path ends here.  */
  while (i < n)
    {
      ucs4_t c;
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, s + i, n - i, true, &c, &kind);
      if (r <= 0)
        break;
      i += (size_t) r;
    }
  return i;
}

static size_t
scalar_count_newlines (uint8_t const *s, size_t n)
{
  size_t count = 0;
  uint8_t const *p = s, *end = s + n;
  while ((p = memchr (p, '\n', (size_t) (end - p))))
    {
      count++;
      p++;
    }
  return count;
}

static inline size_t
scalar_widen_chunk (uint8_t const *s, uint8_t *out, int width, bool big)
{
  size_t a = scalar_ascii_len (s, 16), k;
  for (k = 0; k < a; k++)
    tc_put (out + k * (size_t) width, s[k], width, big);
  return a;
}

static inline size_t
scalar_narrow_chunk (uint8_t const *s, uint8_t *out, bool big)
{
  size_t k;
  for (k = 0; k < 8; k++)
    {
      unsigned int u = tc_get16 (s + 2 * k, big);
      if (u >= 0x80)
        break;
      out[k] = (uint8_t) u;
    }
  return k;
}

static inline size_t
scalar_copy_chunk (uint8_t const *s, uint8_t *out, size_t *newlines)
{
  size_t a = scalar_ascii_len (s, 16), k;
  memcpy (out, s, 16);
  for (k = 0; k < a; k++)
    *newlines += s[k] == '\n';
  return a;
}

/* CR LF pairs to LF (see struct kernels), a memchr at a time.  */
size_t
scalar_drop_crlf (uint8_t const *s, size_t n, uint8_t *out, size_t *written)
{
  size_t r = 0, w = 0;
  for (;;)
    {
      uint8_t const *p = memchr (s + r, '\r', n - r);
      size_t k = p ? (size_t) (p - s) : n;
      memcpy (out + w, s + r, k - r);
      w += k - r;
      r = k;
      if (!p || k + 1 == n || s[k + 1] != '\n')
        break;
      r++;
    }
  *written = w;
  return r;
}

TC_KERNELS (, scalar)

struct kernels const kernels_scalar = {
  "scalar", scalar_ascii_len, scalar_utf8_valid_len, scalar_count_newlines,
  scalar_utf8_valid_copy, NULL,
  scalar_utf8_to_utf16, scalar_utf8_to_utf32, NULL, scalar_utf16_to_utf8,
  scalar_sb_to_utf8, scalar_utf8_to_sb,
  scalar_drop_crlf, scalar_find_control
};

/* Every implementation this build has, best first.  */
static struct kernels const *const all[] = {
#if HAVE_SIMD_X86
  &kernels_avx512vbmi2, &kernels_avx512, &kernels_avx2, &kernels_sse2,
#endif
#if HAVE_SIMD_NEON
  /* Every AArch64 processor has NEON (Advanced SIMD): no probe.  */
  &kernels_neon,
#endif
  &kernels_scalar
};

enum { ALL_COUNT = sizeof all / sizeof all[0] };

static bool
supported (struct kernels const *k)
{
#if HAVE_SIMD_X86
  __builtin_cpu_init ();
  /* Every processor with AVX2 has POPCNT, and every one with VBMI2 has
     BMI2, but a virtual machine may hide anything: ask.  */
  if (k == &kernels_avx512vbmi2)
    return (supported (&kernels_avx512)
            && __builtin_cpu_supports ("avx512vbmi")
            && __builtin_cpu_supports ("avx512vbmi2")
            && __builtin_cpu_supports ("bmi2"));
  if (k == &kernels_avx512)
    return (supported (&kernels_avx2)
            && __builtin_cpu_supports ("avx512f")
            && __builtin_cpu_supports ("avx512bw")
            && __builtin_cpu_supports ("avx512vl"));
  if (k == &kernels_avx2)
    return (__builtin_cpu_supports ("avx2")
            && __builtin_cpu_supports ("popcnt"));
  if (k == &kernels_sse2)
    return __builtin_cpu_supports ("sse2");
#endif
  return k != NULL;
}

char const *const *
kernels_available (void)
{
  static char const *names[ALL_COUNT + 2];
  size_t i, k = 0;
  if (!names[0])
    {
      for (i = 0; i < ALL_COUNT; i++)
        if (supported (all[i]))
          names[k++] = all[i]->name;
      names[k] = "reference";
    }
  return names;
}

bool
kernels_select (void)
{
  char const *want = getenv ("UTF8CONV_IMPL");
  size_t i;

  kernels = NULL;
  if (want && strcmp (want, "reference") == 0)
    return true;
  for (i = 0; i < ALL_COUNT; i++)
    if (supported (all[i])
        && (!want || !*want || strcmp (want, all[i]->name) == 0))
      {
        kernels = all[i];
        return true;
      }
  return false;
}
