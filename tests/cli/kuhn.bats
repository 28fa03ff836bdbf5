#!/usr/bin/env bats
# Markus Kuhn's UTF-8 decoder capability and stress test, compared with
# Python's codecs.  The file is never copied into this repository: it is
# read from $UTF8CONV_TESTDATA (default ../shared/testdata, relative to the
# current directory or to the top of the source tree).

load ../test_helper

setup() {
  [ -x "$UTF8CONV" ] || fail "utf8conv is not built: $UTF8CONV"
  KUHN=
  local d
  for d in ${UTF8CONV_TESTDATA:+"$UTF8CONV_TESTDATA"} \
           ${UTF8CONV_TESTDATA:-"$PWD/../shared/testdata" "$UTF8CONV_SRCDIR/../shared/testdata"}; do
    if [ -r "$d/UTF-8-test.txt" ]; then
      KUHN=$(cd "$d" && pwd)/UTF-8-test.txt
      break
    fi
  done
  [ -n "$KUHN" ] || skip "UTF-8-test.txt not found (set UTF8CONV_TESTDATA)"
  command -v python3 >/dev/null || skip "python3 is required"
  cd "$BATS_TEST_TMPDIR"
}

# expect POLICY: write Python's result for POLICY to file 'expected'.
expect() {
  python3 - "$KUHN" "$1" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
policy = sys.argv[2]
if policy == 'strict':
    try:
        out = data.decode('utf-8').encode('utf-8')
    except UnicodeDecodeError as e:
        out = data[:e.start]
elif policy == 'escape':
    out = data.decode('utf-8', 'backslashreplace').encode('utf-8')
else:
    out = data.decode('utf-8', policy).encode('utf-8', 'surrogateescape')
open('expected', 'wb').write(out)
PY
}

# check POLICY STATUS [OPTION]...
check() {
  local policy=$1 want=$2 status=0
  shift 2
  expect "$policy"
  "$UTF8CONV" -e "$policy" "$@" "$KUHN" >out 2>err || status=$?
  [ "$status" -eq "$want" ] || fail "exit status $status, expected $want: $(cat err)"
  cmp out expected
}

@test "Kuhn: the test file has errors (sanity check of the oracle)" {
  expect strict
  [ "$(wc -c <expected)" -lt "$(wc -c <"$KUHN")" ]
  [ "$(wc -c <expected)" -gt 1000 ]
}

@test "Kuhn: strict stops before the first error with exit 1" {
  check strict 1
  check strict 1 --block-size=1
  check strict 1 --block-size=3
}

@test "Kuhn: replace gives Python's replace" {
  check replace 0
  check replace 0 --block-size=1
  check replace 0 --block-size=3
}

@test "Kuhn: surrogateescape gives back the input exactly" {
  check surrogateescape 0
  cmp out "$KUHN"
  check surrogateescape 0 --block-size=1
  check surrogateescape 0 --block-size=3
}

@test "Kuhn: escape gives Python's backslashreplace" {
  check escape 0
  check escape 0 --block-size=1
  check escape 0 --block-size=3
}

@test "Kuhn: ignore gives Python's ignore with exit 1" {
  check ignore 1
  check ignore 1 --block-size=1
  check ignore 1 --block-size=3
}

@test "Kuhn: replace via UTF-16LE and back equals replace" {
  expect replace
  "$UTF8CONV" -e replace -t UTF-16LE "$KUHN" >u16
  "$UTF8CONV" -f UTF-16LE <u16 >out
  cmp out expected
}
