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
