#!/usr/bin/env bats
# The man page documents every long option that --help lists.

load ../test_helper

setup() {
  [ -x "$UTF8CONV" ] || fail "utf8conv is not built: $UTF8CONV"
  MANPAGE=
  local m
  # The build tree's man/ is beside src/; under CI's valgrind pass,
  # UTF8CONV is a wrapper and VALGRIND_PROGRAM the program.
  for m in "$UTF8CONV_SRCDIR/man/utf8conv.1" "$(dirname "$UTF8CONV")/../man/utf8conv.1" \
           ${VALGRIND_PROGRAM:+"$(dirname "$VALGRIND_PROGRAM")/../man/utf8conv.1"}; do
    if [ -r "$m" ]; then MANPAGE=$m; break; fi
  done
  [ -n "$MANPAGE" ] || skip "no man/utf8conv.1 in the source or build tree"
  cd "$BATS_TEST_TMPDIR"
}

@test "the man page mentions every long option of --help" {
  "$UTF8CONV" --help >help
  grep -o -e '--[a-z][a-z-]*' help | sort -u >options
  [ "$(wc -l <options)" -ge 10 ] || fail "too few options in --help: $(cat options)"
  # groff escapes '-' as '\-'
  sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MANPAGE" >page
  local opt missing=
  while read -r opt; do
    grep -q -e "$opt" page || missing+=" $opt"
  done <options
  [ -z "$missing" ] || fail "not in $MANPAGE:$missing"
}

@test "the man page has an exit status section" {
  grep -qi '^\.SH.*EXIT' "$MANPAGE" || grep -qi 'exit status' "$MANPAGE"
}

@test "the man page keeps --help's UTF-8: ('Ã©' for 'é'), never '????'" {
  "$UTF8CONV" --help >help
  grep -q "('Ã©' for 'é'" help || fail "--help has no ('Ã©' for 'é')"
  grep -q -F "('Ã©' for 'é'; see MOJIBAKE REPAIR)" "$MANPAGE" ||
    fail "not in $MANPAGE: $(grep -n 'for .*MOJIBAKE' "$MANPAGE")"
  ! grep -q -F "('????' for '??'" "$MANPAGE"
  # The include file's UTF-8 is kept too.
  grep -q -F "отчёт.txt" "$MANPAGE"
}
