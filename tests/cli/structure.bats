#!/usr/bin/env bats
# The shape of the source tree (doc/DESIGN.md): layers whose includes
# point down, no circle, no file over 1,000 lines and no function over
# 100, as tools/check-structure.py checks them.  The checker is tested
# on small trees that break each rule, so that it cannot pass by
# checking nothing.

bats_require_minimum_version 1.5.0
load ../test_helper

CHECK=$UTF8CONV_SRCDIR/tools/check-structure.py

setup() {
  command -v python3 >/dev/null || skip "python3 is required"
  cd "$BATS_TEST_TMPDIR"
}

# tree: a small well-shaped source tree in ./t.
tree() {
  mkdir -p t/src/unicode t/src/simd t/src/core/codecs t/src/cli
  printf '#include "unicode.h"\n' >t/src/unicode/utf8.h
  printf 'int x;\n' >t/src/unicode/unicode.h
  printf '#include "unicode/utf8.h"\n' >t/src/simd/kernels.c
  printf '#include "codec.h"\n' >t/src/core/codecs/utf8.c
  printf '#include "unicode/unicode.h"\n' >t/src/core/codec.h
  printf '#include "codec.h"\n#include "simd/kernels.h"\n' >t/src/cli/main.c
  printf 'int y;\n' >t/src/simd/kernels.h
}

@test "structure: utf8conv's own tree has its layers, no circle, no long file or function" {
  run python3 "$CHECK" "$UTF8CONV_SRCDIR"
  assert_equal "$output" ""
  assert_equal "$status" 0
}

@test "structure: a well-shaped small tree passes" {
  tree
  run python3 "$CHECK" t
  assert_equal "$output" ""
  assert_equal "$status" 0
}

@test "structure: an include that points up (core includes the CLI) is found" {
  tree
  printf 'int z;\n' >t/src/cli/diag.h
  printf '#include "cli/diag.h"\n' >>t/src/core/codecs/utf8.c
  run python3 "$CHECK" t
  assert_equal "$status" 1
  assert_equal "$output" "core/codecs/utf8.c: includes cli/diag.h, a layer above (core -> cli)"
}

@test "structure: a circle of includes is found" {
  tree
  printf '#include "b.h"\n' >t/src/core/a.c
  printf 'int a;\n' >t/src/core/a.h
  printf '#include "a.h"\n' >t/src/core/b.c
  printf 'int b;\n' >t/src/core/b.h
  run python3 "$CHECK" t
  assert_equal "$status" 1
  assert_equal "$output" "a circle of includes: core/a -> core/b -> core/a"
}

@test "structure: a file over 1,000 lines and a function over 100 are found; generated files are exempt" {
  tree
  { printf 'int\nf (void)\n{\n'; for i in $(seq 100); do printf '  ;\n'; done; printf '}\n'; } >t/src/core/long.c
  { for i in $(seq 1001); do printf 'int v%d;\n' "$i"; done; } >t/src/core/big.c
  { printf '/* GENERATED FILE, DO NOT EDIT.  */\n'; cat t/src/core/big.c; } >t/src/core/table.h
  run python3 "$CHECK" t
  assert_equal "$status" 1
  assert_line --index 0 "core/big.c: 1001 lines (at most 1000)"
  assert_line --index 1 "core/long.c:3: function f has 102 lines (at most 100)"
  assert_equal "${#lines[@]}" 2
}

@test "structure: a file outside the layers is found" {
  tree
  printf 'int w;\n' >t/src/extra.c
  run python3 "$CHECK" t
  assert_equal "$status" 1
  assert_equal "$output" "extra.c: in no layer (unicode, simd, core, cli)"
}

# fake_tools: a PATH directory whose gnulib-tool and autoreconf say what
# the real ones say, and succeed unless told to fail.
fake_tools() {
  mkdir -p fake b
  cp "$UTF8CONV_SRCDIR/bootstrap" b/bootstrap
  cat >fake/gnulib-tool <<'EOS'
#!/bin/sh
echo "Copying file lib/error.c"
echo "You may need to add #include directives for the following .h files."
echo "Don't forget to"
echo "  - add \"lib/Makefile\" to AC_CONFIG_FILES in ./configure.ac,"
[ -z "$FAKE_FAIL" ] || { echo "gnulib-tool: *** module nosuch not found" >&2; exit 1; }
EOS
  cat >fake/autoreconf <<'EOS'
#!/bin/sh
echo "configure.ac:10: installing 'build-aux/install-sh'" >&2
EOS
  chmod +x fake/gnulib-tool fake/autoreconf
}

@test "bootstrap: gnulib-tool's advice goes to a log, not to the terminal" {
  [ -r "$UTF8CONV_SRCDIR/bootstrap" ] || skip "no bootstrap in $UTF8CONV_SRCDIR"
  command -v automake >/dev/null || skip "automake is not installed"
  fake_tools
  run --separate-stderr env PATH="$PWD/fake:$PATH" GNULIB_TOOL=gnulib-tool sh b/bootstrap
  assert_equal "$status" 0
  assert_equal "$output" "bootstrap: importing gnulib modules with gnulib-tool ...
bootstrap: running autoreconf -fi ...
bootstrap: done (details in build-aux/bootstrap.log).  Now run ./configure && make && make check"
  assert_equal "$stderr" ""
  grep -q "Don't forget to" b/build-aux/bootstrap.log
}

@test "bootstrap: when gnulib-tool fails, its output and the error are shown, exit 1" {
  [ -r "$UTF8CONV_SRCDIR/bootstrap" ] || skip "no bootstrap in $UTF8CONV_SRCDIR"
  command -v automake >/dev/null || skip "automake is not installed"
  fake_tools
  run --separate-stderr env PATH="$PWD/fake:$PATH" GNULIB_TOOL=gnulib-tool FAKE_FAIL=1 sh b/bootstrap
  assert_equal "$status" 1
  assert_equal "$output" "bootstrap: importing gnulib modules with gnulib-tool ..."
  [[ $stderr == *"gnulib-tool: *** module nosuch not found"* ]] || fail "no error: $stderr"
  [[ $stderr == *"Don't forget to"* ]] || fail "not the whole output: $stderr"
  assert_equal "${stderr_lines[-1]}" "bootstrap: importing gnulib modules with gnulib-tool failed (exit status 1); the output above is in build-aux/bootstrap.log"
}
