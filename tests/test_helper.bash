# Common setup of utf8conv's bats tests (tests/cli/*.bats).
#
#   UTF8CONV          the program under test (make check exports it)
#   UTF8CONV_SRCDIR   top of the source tree (default: two levels above
#                     the test file), where tests/golden/ and man/ live
#   UTF8CONV_TESTDATA directory holding UTF-8-test.txt (kuhn.bats)

bats_load_library bats-support
bats_load_library bats-assert

UTF8CONV_SRCDIR=${UTF8CONV_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
UTF8CONV=${UTF8CONV:-$UTF8CONV_SRCDIR/src/utf8conv}
GOLDEN=$UTF8CONV_SRCDIR/tests/golden
export UTF8CONV UTF8CONV_SRCDIR GOLDEN

# Every test runs in its own scratch directory.
setup() {
  [ -x "$UTF8CONV" ] || fail "utf8conv is not built: $UTF8CONV"
  cd "$BATS_TEST_TMPDIR"
}

# hex FILE: the bytes of FILE (or stdin) as lowercase hex, no spaces.
hex() {
  od -An -v -tx1 ${1+"$1"} | tr -d ' \n'
}

# assert_hex FILE EXPECTED: FILE's bytes are exactly EXPECTED (hex, spaces
# allowed in EXPECTED).
assert_hex() {
  local got want
  got=$(hex "$1")
  want=$(printf '%s' "$2" | tr -d ' ')
  if [ "$got" != "$want" ]; then
    printf 'bytes of %s differ\nexpected: %s\nactual:   %s\n' "$1" "$want" "$got" >&2
    return 1
  fi
}
