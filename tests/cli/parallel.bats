#!/usr/bin/env bats
# Splitting one big file across several utf8conv processes with GNU
# parallel (README, "Big files: several processes"): for ASCII-compatible
# input, pieces cut at newlines convert to exactly the bytes of one run.

bats_require_minimum_version 1.5.0
load ../test_helper

setup() {
  [ -x "$UTF8CONV" ] || fail "utf8conv is not built: $UTF8CONV"
  command -v parallel >/dev/null || skip "GNU parallel is not installed (Debian package parallel)"
  parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    skip "'parallel' is not GNU parallel"
  cd "$BATS_TEST_TMPDIR"
}

# make_mixed FILE LINES: UTF-8 text (1-, 2-, 3- and 4-byte characters)
# with CP1252 bytes and CRLF line ends mixed in, as in a legacy archive.
make_mixed() {
  local i
  for ((i = 0; i < $2; i++)); do
    printf 'line %d caf\303\251 na\357ve \342\202\254 \344\270\255\346\226\207 \360\237\230\200 \223quoted\224 \200 end\r\n' "$i"
  done >"$1"
}

# split_equals_whole OPTION...: the file "in" converted by parallel in
# pieces of about 1 KiB equals one run over it, and is not empty.
split_equals_whole() {
  "$UTF8CONV" "$@" in >whole || fail "utf8conv $* in: exit status $?"
  parallel --will-cite --pipepart -a in --block 1k -k "$UTF8CONV" "$@" >pieces ||
    fail "parallel utf8conv $*: exit status $?"
  [ -s whole ] || fail "no output"
  [ "$(wc -l <in)" -gt 20 ] || fail "the input is too small to be split"
  cmp whole pieces || fail "the pieces differ from the whole"
}

@test "parallel --pipepart: -f auto on mixed UTF-8 and CP1252 gives the bytes of one run" {
  make_mixed in 200
  split_equals_whole -f auto
}

@test "parallel --pipepart: UTF-8 to UTF-16LE and UTF-32BE" {
  make_mixed in 200
  # The stray CP1252 bytes are errors in UTF-8: replace them.
  split_equals_whole -e replace -t UTF-16LE
  split_equals_whole -e surrogateescape -t UTF-32BE
}

@test "parallel --pipepart: CP1252 to UTF-8" {
  head -c 30000 /dev/urandom | tr '\n' ' ' | fold -w 70 >in
  split_equals_whole -f CP1252
}

@test "parallel --pipepart: a piece with an error stops only itself under strict" {
  # Why the README says to split only input that is valid (or to use a
  # policy other than strict): each process stops at its own error.
  make_mixed in 200
  run "$UTF8CONV" in
  assert_equal "$status" 1
  parallel --will-cite --pipepart -a in --block 1k -k "$UTF8CONV" -q >pieces 2>/dev/null || true
  whole_len=$("$UTF8CONV" in 2>/dev/null | wc -c)
  [ "$(wc -c <pieces)" -gt "$whole_len" ] ||
    fail "expected more output from the pieces than from one strict run"
}
