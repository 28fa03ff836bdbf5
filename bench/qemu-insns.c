/* An instruction counter for qemu-user's plugin interface (QEMU 7.2,
   plugin API version 1), to count the work of the kernels of a target
   whose speed cannot be measured here (bench/RESULTS.md, "NEON (arm64)").

     gcc -shared -fPIC -O2 -o qemu-insns.so bench/qemu-insns.c
     qemu-aarch64 -L /usr/aarch64-linux-gnu \
       -plugin ./qemu-insns.so,neon_=on,scalar_=on -d plugin -D LOG \
       src/utf8conv -f UTF-8 -t UTF-16LE FILE >/dev/null

   (-D LOG: utf8conv closes its standard error before it exits, where
   the counts would go by default.)  It writes to LOG the guest instructions executed in all, then for each
   function whose symbol starts with one of the ARG prefixes, the
   instructions executed in it (inlined code counts in the function it
   was inlined into).  Each count is an inline add per translated block
   or instruction, so it is exact for one thread.

   Debian's qemu-user ships no plugins and no header; the few
   declarations below are those of QEMU's include/qemu/qemu-plugin.h
   that this file uses, written out by hand.  */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb) (qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*udata_cb) (qemu_plugin_id_t, void *);
typedef void (*syscall_cb) (qemu_plugin_id_t, unsigned int, int64_t,
                            uint64_t, uint64_t, uint64_t, uint64_t,
                            uint64_t, uint64_t, uint64_t, uint64_t);

void qemu_plugin_register_vcpu_tb_trans_cb (qemu_plugin_id_t, tb_trans_cb);
void qemu_plugin_register_atexit_cb (qemu_plugin_id_t, udata_cb, void *);
void qemu_plugin_register_vcpu_syscall_cb (qemu_plugin_id_t, syscall_cb);
void qemu_plugin_register_vcpu_tb_exec_inline (struct qemu_plugin_tb *,
                                               enum qemu_plugin_op, void *,
                                               uint64_t);
void qemu_plugin_register_vcpu_insn_exec_inline (struct qemu_plugin_insn *,
                                                 enum qemu_plugin_op, void *,
                                                 uint64_t);
size_t qemu_plugin_tb_n_insns (struct qemu_plugin_tb const *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn (struct qemu_plugin_tb
                                                  const *, size_t);
char const *qemu_plugin_insn_symbol (struct qemu_plugin_insn const *);
void qemu_plugin_outs (char const *);

__attribute__ ((visibility ("default"))) int qemu_plugin_version = 1;

enum { MAX_FUNCS = 256, MAX_PREFIXES = 8 };

static uint64_t total;
static char *prefix[MAX_PREFIXES];
static int prefixes;
static struct
{
  char *name;
  uint64_t count;
} func[MAX_FUNCS];
static int funcs;

/* The counter of the function SYM, if it is one to count.  */
static uint64_t *
counter (char const *sym)
{
  int k;
  if (!sym)
    return NULL;
  for (k = 0; k < prefixes; k++)
    if (strncmp (sym, prefix[k], strlen (prefix[k])) == 0)
      break;
  if (k == prefixes)
    return NULL;
  for (k = 0; k < funcs; k++)
    if (strcmp (func[k].name, sym) == 0)
      return &func[k].count;
  if (funcs == MAX_FUNCS)
    return NULL;
  func[funcs].name = strdup (sym);
  return &func[funcs++].count;
}

static void
translated (qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
  size_t n = qemu_plugin_tb_n_insns (tb), k;
  (void) id;
  qemu_plugin_register_vcpu_tb_exec_inline (tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                            &total, n);
  for (k = 0; k < n; k++)
    {
      struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn (tb, k);
      uint64_t *c = counter (qemu_plugin_insn_symbol (insn));
      if (c)
        qemu_plugin_register_vcpu_insn_exec_inline
          (insn, QEMU_PLUGIN_INLINE_ADD_U64, c, 1);
    }
}

static void
done (qemu_plugin_id_t id, void *p)
{
  static int printed;
  char line[300];
  int k;
  (void) id;
  (void) p;
  if (printed++)
    return;
  snprintf (line, sizeof line, "insns total %" PRIu64 "\n", total);
  qemu_plugin_outs (line);
  for (k = 0; k < funcs; k++)
    {
      snprintf (line, sizeof line, "insns %s %" PRIu64 "\n", func[k].name,
                func[k].count);
      qemu_plugin_outs (line);
    }
}

/* At exit_group (94 on AArch64, the only target counted so far):
   qemu-user leaves with _exit then, before the atexit callbacks would
   run.  */
static void
on_syscall (qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
         uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
         uint64_t a7, uint64_t a8)
{
  (void) vcpu, (void) a1, (void) a2, (void) a3, (void) a4;
  (void) a5, (void) a6, (void) a7, (void) a8;
  if (num == 94)
    done (id, NULL);
}

__attribute__ ((visibility ("default"))) int
qemu_plugin_install (qemu_plugin_id_t id, void const *info, int argc,
                     char **argv)
{
  int k;
  (void) info;
  for (k = 0; k < argc && prefixes < MAX_PREFIXES; k++)
    {
      /* "PREFIX=on" (or the older "arg=PREFIX").  */
      char *a = strdup (strncmp (argv[k], "arg=", 4) == 0
                        ? argv[k] + 4 : argv[k]);
      char *eq = strchr (a, '=');
      if (eq)
        *eq = '\0';
      prefix[prefixes++] = a;
    }
  qemu_plugin_register_vcpu_tb_trans_cb (id, translated);
  qemu_plugin_register_vcpu_syscall_cb (id, on_syscall);
  qemu_plugin_register_atexit_cb (id, done, NULL);
  return 0;
}
