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

# unprivileged_dir: when running as root, make a scratch directory that
# the user nobody may enter (bats's own is root's alone), cd into it and
# set AS_USER to the command prefix that runs a program as nobody; skip
# the test, with the reason, when that cannot be done.  As any other
# user, AS_USER is empty and the test runs in its usual directory.
unprivileged_dir() {
  AS_USER=()
  [ "$(id -u)" -eq 0 ] || return 0
  command -v setpriv >/dev/null || skip "running as root, and setpriv(1) is missing to drop privileges"
  id nobody >/dev/null 2>&1 || skip "running as root, and there is no user nobody"
  AS_USER=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
  # Under CI's valgrind pass nobody could not write valgrind's log: run
  # the program itself (this test only, as bats runs each in a subshell).
  if [ -n "${UTF8CONV_VALGRIND-}" ] && [ -n "${VALGRIND_PROGRAM-}" ]; then
    UTF8CONV=$VALGRIND_PROGRAM
  fi
  "${AS_USER[@]}" test -x "$UTF8CONV" ||
    skip "running as root, and the user nobody cannot run $UTF8CONV"
  UNPRIV_DIR=$(mktemp -d "${TMPDIR:-/tmp}/utf8conv-test.XXXXXX")
  chmod 755 "$UNPRIV_DIR"
  cd "$UNPRIV_DIR"
}

# unprivileged_cleanup: remove what unprivileged_dir made.
unprivileged_cleanup() {
  if [ -n "${UNPRIV_DIR-}" ]; then
    chmod -R u+rwx "$UNPRIV_DIR" 2>/dev/null || true
    rm -rf "$UNPRIV_DIR"
  fi
}

# conv STATUS OUTHEX INPUT-PRINTF-FORMAT OPTION...: convert printf's bytes
# and check the exit status and the output bytes.
conv() {
  local want=$1 outhex=$2 input=$3 status=0
  shift 3
  printf "$input" >in
  "$UTF8CONV" "$@" in >out 2>err || status=$?
  [ "$status" -eq "$want" ] || fail "utf8conv $*: exit status $status, expected $want: $(cat err)"
  assert_hex out "$outhex"
}

# run_manifest DIR MIN [OPTION]...: run every row of DIR/manifest.tsv
# (name, input, from, to, policy, flags, expected output file, expected
# exit status; paths relative to DIR) with the extra options; print every
# mismatch, and fail if there was one or if the manifest has fewer than
# MIN rows.  A row that must succeed under strict must also leave
# standard error empty: with nothing to report, utf8conv says nothing.
# This is the one runner of golden files: tests/golden/, its variants/
# and its encodings/ each hold a manifest.tsv their gen.py writes.
run_manifest() {
  local dir=$1 min=$2
  shift 2
  local manifest=$dir/manifest.tsv
  [ -r "$manifest" ] || fail "missing $manifest"
  local name input from to policy flags expected want
  local n=0 bad=0 status
  while IFS=$'\t' read -r name input from to policy flags expected want; do
    case $name in '#'*|'') continue ;; esac
    n=$((n + 1))
    local -a extra=()
    [ "$flags" = - ] || read -r -a extra <<<"$flags"
    status=0
    "$UTF8CONV" -f "$from" -t "$to" -e "$policy" "${extra[@]}" "$@" \
      "$dir/$input" >out 2>err || status=$?
    if [ "$status" != "$want" ]; then
      echo "FAIL $name: exit status $status, expected $want ($(head -c 200 err))"
      bad=$((bad + 1))
    elif ! cmp -s out "$dir/$expected"; then
      echo "FAIL $name: output $(hex out | head -c 120), expected $(hex "$dir/$expected" | head -c 120)"
      bad=$((bad + 1))
    elif [ "$policy" = strict ] && [ "$want" = 0 ] && [ -s err ]; then
      echo "FAIL $name: unexpected stderr: $(head -c 200 err)"
      bad=$((bad + 1))
    fi
  done <"$manifest"
  echo "$bad of $n cases of $manifest failed (options: ${*:-none})"
  [ "$n" -ge "$min" ] || fail "only $n rows in $manifest"
  [ "$bad" -eq 0 ]
}

# skip_under_valgrind: the CI pass under valgrind memcheck (.ci/run sets
# UTF8CONV_VALGRIND=1) runs each golden manifest whole and byte by byte
# only; the other block sizes are covered by the plain and ASan passes,
# and under valgrind they would take most of CI's time.  So does CI's
# pass under qemu-user (tests/check-ports --cli=some sets
# UTF8CONV_QUICK=1): where the input is split does not depend on the
# target, and each run of utf8conv there starts an emulator.
skip_under_valgrind() {
  [ -z "${UTF8CONV_VALGRIND-}" ] ||
    skip "block size covered by the plain and ASan runs, not repeated under valgrind"
  [ -z "${UTF8CONV_QUICK-}" ] ||
    skip "block size covered by the native runs, not repeated under an emulator"
}

# kernel_sets SET...: of the kernel sets SET (UTF8CONV_IMPL's names),
# those a test that compares them runs.  With UTF8CONV_IMPL set, that
# one alone if it is among them: "make check-impls" runs such a file
# once per set (tests/local.mk, IMPL_TESTS).  Otherwise "reference" if
# it is among them, and the set utf8conv chooses on this machine (the
# last of them it accepts), so that the plain, ASan and valgrind runs of
# "make check" do not repeat each set that check-impls runs.
kernel_sets() {
  local s last=
  if [ -n "${UTF8CONV_IMPL-}" ]; then
    for s; do [ "$s" != "$UTF8CONV_IMPL" ] || echo "$s"; done
    return 0
  fi
  for s; do
    if [ "$s" = reference ]; then
      echo reference
    elif UTF8CONV_IMPL=$s "$UTF8CONV" </dev/null >/dev/null 2>&1; then
      last=$s
    fi
  done
  [ -z "$last" ] || echo "$last"
}

# skip_under_qemu WHY: the CLI suite of a cross build runs utf8conv
# through tests/qemu-wrapper (UTF8CONV_QEMU=1; tests/check-ports):
# skip a test that cannot run that way, saying WHY.
skip_under_qemu() {
  [ -z "${UTF8CONV_QEMU-}" ] || skip "utf8conv runs under an emulator: $1"
}

# require_charset NAME...: skip the test when the iconv(3) utf8conv was
# built with lacks a charset NAME (musl's, or glibc's under qemu-user
# without the target's gconv modules).  Where configure says iconv(3)
# must know it (UTF8CONV_ICONV_COMPLETE=yes: glibc natively, or GNU
# libiconv), a missing charset fails the test instead.
require_charset() {
  local cs
  for cs; do
    "$UTF8CONV" -f "$cs" -t UTF-8 </dev/null >/dev/null 2>&1 && continue
    [ "${UTF8CONV_ICONV_COMPLETE-}" != yes ] ||
      fail "iconv(3) does not know $cs, and configure says it must"
    skip "this iconv(3) has no $cs (musl, or glibc without its gconv modules)"
  done
}

# require_detection_charsets: skip (see require_charset) unless iconv(3)
# has every code page -f auto weighs (src/core/detect_score.c): without
# one, the detector has fewer candidates, and its choices and
# confidences differ.
require_detection_charsets() {
  require_charset CP1250 CP1251 KOI8-R KOI8-U ISO-8859-5 CP1253 ISO-8859-7 \
    CP1254 CP1255 CP1256 CP1257 ISO-8859-2 ISO-8859-15 CP850 CP437 MACINTOSH \
    SHIFT_JIS EUC-JP EUC-KR BIG5 GB18030 CP932 CP949 CP866 ISO-8859-9 \
    ISO-8859-13 ISO-8859-16 CP874 CP1258
}

# require_full_iconv: skip a test whose expected bytes are glibc's
# iconv(3) with its gconv modules (golden files made with glibc, its
# //TRANSLIT rules, its handling of held letters and shift states)
# where configure found another (musl's, whose SHIFT_JIS reads 5C as a
# backslash and which has no //TRANSLIT, or glibc's without its modules
# under qemu-user): UTF8CONV_ICONV_COMPLETE is not "yes".
require_full_iconv() {
  [ "${UTF8CONV_ICONV_COMPLETE-}" = yes ] ||
    skip "expects glibc's iconv(3) with its gconv modules; this one is musl's, or lacks them"
}

# have_target NAME: whether utf8conv accepts -t NAME; where iconv(3)
# must be complete, a refusal fails the test.
have_target() {
  "$UTF8CONV" -t "$1" </dev/null >/dev/null 2>&1 && return 0
  [ "${UTF8CONV_ICONV_COMPLETE-}" != yes ] ||
    fail "utf8conv refuses -t $1, and configure says iconv(3) has it"
  return 1
}

