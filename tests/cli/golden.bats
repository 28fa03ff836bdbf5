#!/usr/bin/env bats
# Golden cases made by tests/golden/gen.py (an oracle built on Python's
# codecs): for every row of tests/golden/manifest.tsv, run utf8conv on the
# input and compare the output bytes and the exit status.  The same rows
# are run with several --block-size values: the output must not depend on
# where the input is split.

load ../test_helper

# run_golden [OPTION]...: every row of tests/golden/manifest.tsv.
run_golden() {
  run_manifest "$GOLDEN" 100 "$@"
}

@test "golden cases, default block size" {
  run_golden
}

@test "golden cases, --block-size=1" {
  run_golden --block-size=1
}

@test "golden cases, --block-size=2" {
  skip_under_valgrind
  run_golden --block-size=2
}

@test "golden cases, --block-size=3" {
  skip_under_valgrind
  run_golden --block-size=3
}

@test "golden cases, --block-size=7" {
  skip_under_valgrind
  run_golden --block-size=7
}

@test "golden files are what gen.py makes" {
  command -v python3 >/dev/null || skip "python3 is required"
  cp -R "$GOLDEN" g
  chmod -R u+w g
  python3 g/gen.py 2>/dev/null
  diff -r "$GOLDEN" g
}
