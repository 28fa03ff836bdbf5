#!/usr/bin/env bats
# Command line: --help, --version, usage errors, encoding names, --list,
# several files, standard input, -o.

bats_require_minimum_version 1.5.0
load ../test_helper

TRY_HELP="Try 'utf8conv --help' for more information."

# usage_error ARG...: exit 2, stdout empty, last stderr line is the hint.
usage_error() {
  run --separate-stderr "$UTF8CONV" "$@" </dev/null
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "${stderr_lines[${#stderr_lines[@]}-1]}" "$TRY_HELP"
  [[ ${stderr_lines[0]} == utf8conv:\ * ]] || fail "first line: ${stderr_lines[0]}"
}

@test "--help prints the usage on stdout and exits 0" {
  run --separate-stderr "$UTF8CONV" --help
  assert_success
  assert_equal "$stderr" ""
  assert_equal "${lines[0]}" "Usage: utf8conv [OPTION]... [FILE]..."
  assert_output --partial "  -f, --from-code=ENC"
  assert_output --partial "      --bom=MODE"
  assert_output --partial "Exit status is 0 if all input was converted, 1 if input was invalid or"
}

@test "--version prints the package and version and exits 0" {
  run --separate-stderr "$UTF8CONV" --version
  assert_success
  assert_equal "$stderr" ""
  assert_equal "${lines[0]}" "utf8conv (utf8conv) 0.1"
}

@test "--help and --version ignore the other arguments" {
  run "$UTF8CONV" --help -f NOSUCH nosuchfile
  assert_success
  assert_line --index 0 "Usage: utf8conv [OPTION]... [FILE]..."
}

@test "usage error: unknown long option" {
  usage_error --bogus
}

@test "usage error: unknown short option" {
  usage_error -Z
}

@test "usage error: missing argument of -f" {
  usage_error -f
}

@test "usage error: bad --errors value" {
  usage_error -e lenient
  usage_error --errors=Strictly
}

@test "usage error: --block-size=0 and non-numbers" {
  usage_error --block-size=0
  usage_error --block-size=abc
  usage_error --block-size=-1
  usage_error --block-size=
}

@test "usage error: bad --bom value" {
  usage_error --bom=yes
  usage_error --bom=
}

@test "usage error: bad --byte-subst/--unicode-subst formats" {
  usage_error --byte-subst='%s'
  usage_error --byte-subst='%x%x'
  usage_error --unicode-subst='%n'
  usage_error --byte-subst='%'
}

@test "unknown encoding: exit 2 with the name as given" {
  run --separate-stderr "$UTF8CONV" -f NO-SUCH-ENC </dev/null
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'NO-SUCH-ENC'"
  assert_equal "${stderr_lines[1]}" "Try 'utf8conv --list' for the list of encodings."
  assert_equal "${#stderr_lines[@]}" 2
  run --separate-stderr "$UTF8CONV" -t X </dev/null
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'X'"
}

@test "unknown encoding: no output written even with valid input" {
  printf 'abc' >in
  run --separate-stderr "$UTF8CONV" -t X in
  assert_equal "$status" 2
  assert_equal "$output" ""
}

@test "encoding names are case-insensitive, aliases work" {
  printf 'a\xc3\xa9' >in
  local enc
  for enc in UTF-16LE utf-16le Utf-16Le; do
    "$UTF8CONV" -t "$enc" in >out
    assert_hex out '6100e900'
  done
  for enc in UTF8 utf8 utf-8 UTF-8; do
    "$UTF8CONV" -f "$enc" -t "$enc" in >out
    assert_hex out '61c3a9'
  done
  "$UTF8CONV" -t UCS-4LE in >out
  assert_hex out '61000000e9000000'
  "$UTF8CONV" -t ucs-4be in >out
  assert_hex out '00000061000000e9'
  "$UTF8CONV" -t utf-32be in >out
  assert_hex out '00000061000000e9'
  "$UTF8CONV" -t utf-16be in >out
  assert_hex out '006100e9'
  printf '\x61\x00\x00\x00' | "$UTF8CONV" -f ucs-4le >out
  assert_hex out '61'
  printf '\x00\x00\x00\x61' | "$UTF8CONV" --from-code=Ucs-4Be >out
  assert_hex out '61'
}

@test "long option forms --from-code= --to-code= --errors= work" {
  printf 'a\xff' >in
  "$UTF8CONV" --from-code=UTF-8 --to-code=UTF-16BE --errors=replace in >out
  assert_hex out '0061fffd'
}

@test "-l lists the built-in encodings with their aliases" {
  run --separate-stderr "$UTF8CONV" -l
  assert_success
  local enc
  for enc in UTF-8 UTF-16LE UTF-16BE UTF-16 UTF-32LE UTF-32BE UTF-32 UTF8 UCS-4LE UCS-4BE; do
    grep -qw -e "$enc" <<<"$output" || fail "$enc is not listed"
  done
  grep -w UTF-32LE <<<"$output" | grep -qw UCS-4LE || fail "UCS-4LE is not on UTF-32LE's line"
  grep -w UTF-32BE <<<"$output" | grep -qw UCS-4BE || fail "UCS-4BE is not on UTF-32BE's line"
  grep -w UTF-8 <<<"$output" | grep -qw UTF8 || fail "UTF8 is not on UTF-8's line"
  run "$UTF8CONV" --list
  assert_success
}

@test "no FILE reads standard input" {
  printf 'h\xc3\xa9' | "$UTF8CONV" -t UTF-16BE >out
  assert_hex out '006800e9'
}

@test "several files are converted in turn and concatenated" {
  printf 'one\n' >a
  printf 'tw\xc3\xb6\n' >b
  printf '' >c
  printf '3\n' >d
  "$UTF8CONV" -t UTF-16LE a b c d >out
  assert_hex out '6f006e0065000a0074007700f6000a0033000a00'
  "$UTF8CONV" a b c d >out
  assert_hex out "$(cat a b c d | hex)"
}

@test "- is standard input, also between files" {
  printf 'A' >a
  printf 'C' >c
  printf 'B' | "$UTF8CONV" a - c >out
  assert_hex out '414243'
  printf 'B' | "$UTF8CONV" - >out
  assert_hex out '42'
}

@test "-o writes to a new file, nothing on stdout" {
  printf 'x\xc3\xa9' >in
  run --separate-stderr "$UTF8CONV" -t UTF-32BE -o new in
  assert_success
  assert_equal "$output" ""
  assert_hex new '00000078000000e9'
  "$UTF8CONV" --output=new2 in
  assert_hex new2 '78c3a9'
}

@test "-o replaces the contents of an existing file" {
  printf 'a much longer old content\n' >old
  printf 'new' >in
  "$UTF8CONV" -o old in
  assert_hex old '6e6577'
}

@test "-o with a strict error keeps what came before the error, exit 1" {
  printf 'ab\xffcd' >in
  run "$UTF8CONV" -t UTF-16LE -o new in
  assert_failure 1
  assert_hex new '61006200'
}

@test "-o naming the input itself converts it safely" {
  printf 'h\xc3\xa9llo \xf0\x9f\x98\x80\n' >f
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -o f f
  assert_success
  assert_hex f '6800e9006c006c006f0020003dd800de0a00'
}

@test "-o naming the input itself: a big file is not clobbered while read" {
  head -c 300000 /dev/zero | tr '\0' 'a' >f
  "$UTF8CONV" --block-size=4096 -t UTF-32LE -o f f
  [ "$(wc -c <f)" -eq 1200000 ]
  [ "$(head -c 4 f | hex)" = 61000000 ]
  [ "$(tail -c 4 f | hex)" = 61000000 ]
  [ "$(tr -d 'a\0' <f | wc -c)" -eq 0 ]
}

@test "-o naming the input itself: a strict error leaves it unchanged, exit 1" {
  printf 'abc\n\xe1\x80' >f
  cp f orig
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -o f f
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: f:2: byte 4: invalid UTF-8: E1 80 (truncated sequence)"
  cmp f orig
}

@test "-o naming one of several inputs" {
  printf 'A' >a
  printf 'B' >b
  "$UTF8CONV" -t UTF-16BE -o b a b
  assert_hex b '00410042'
}

@test "UTF8CONV_IMPL naming a kernel set this machine lacks: exit 2, a message, no output" {
  run --separate-stderr env UTF8CONV_IMPL=nosuch "$UTF8CONV" </dev/null
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: UTF8CONV_IMPL=nosuch is not available on this machine"
}

@test "every kernel set this machine has gives the bytes of the reference state machine" {
  # Text of every kind (ASCII, Latin-1, 3-byte, CJK, emoji runs), long
  # enough for whole vector blocks of each, with invalid bytes now and
  # then; its CP1252, Latin-1-only and UTF-16LE forms.
  python3 - <<'PY'
import random
rng = random.Random(5)
pieces = ['the quick brown fox ', 'caf\u00e9 ', '\u00fcber ', '\u20ac5 ',
          '\u201cquoted\u201d ', '\u4e2d\u6587\u5b57\u7b26 ', '\U0001F600',
          '\u043f\u0440\u0438\u0432\u0435\u0442 ', '\n', 'x' * 70]
text = ''.join(rng.choice(pieces) for _ in range(6000))
open('u8', 'wb').write(text.encode())
bad = bytearray(text.encode())
for _ in range(300):
    bad[rng.randrange(len(bad))] = rng.choice(b'\x80\xbf\xc0\xc3\xe2\xed\xf0\xf5\xff')
open('bad', 'wb').write(bad)
open('u16', 'wb').write(text.encode('utf-16-le'))
latin = ''.join(c for c in text if ord(c) < 0x100)
open('latin', 'wb').write(latin.encode())
open('cp1252', 'wb').write(''.join(c for c in text if c.encode('cp1252', 'ignore')).encode('cp1252'))
PY
  cases=("-t UTF-16LE u8" "-t UTF-32BE u8" "u8" "-t ISO-8859-1 latin"
         "-f CP1252 cp1252" "-f UTF-16LE u16" "-e replace bad"
         "-e surrogateescape -t UTF-16BE bad" "-e escape -t UTF-16LE bad")
  for c in "${cases[@]}"; do
    # Split the options from the file for the redirection.
    UTF8CONV_IMPL=reference "$UTF8CONV" ${c} >"want.${c// /_}" || fail "reference: $c"
  done
  # The reference itself, against Python's codecs.
  cmp want.-t_UTF-16LE_u8 u16
  cmp want.-f_UTF-16LE_u16 u8
  cmp want.u8 u8
  tried=0
  for impl in scalar sse2 avx2 avx512 avx512vbmi2; do
    if ! UTF8CONV_IMPL=$impl "$UTF8CONV" </dev/null 2>/dev/null; then
      continue
    fi
    tried=$((tried + 1))
    for c in "${cases[@]}"; do
      UTF8CONV_IMPL=$impl "$UTF8CONV" ${c} >got || fail "$impl: $c: exit $?"
      cmp got "want.${c// /_}" || fail "$impl: $c differs from the reference"
    done
  done
  [ "$tried" -ge 1 ] || fail "no kernel set ran"
}

@test "iconv's -s and --silent: no warnings, like -q; a strict stop is still reported, exit 1" {
  local opt
  for opt in -s --silent; do
    run --separate-stderr bash -c 'printf "b\377c" | "$UTF8CONV" "$1" -e replace | od -An -tx1' sh "$opt"
    assert_equal "$status" 0
    assert_equal "$(echo $output)" "62 ef bf bd 63"
    assert_equal "$stderr" ""
    run --separate-stderr bash -c 'printf "b\377c" | "$UTF8CONV" "$1"' sh "$opt"
    assert_equal "$status" 1
    assert_equal "$output" "b"
    assert_equal "$stderr" "utf8conv: -:1: byte 1: invalid UTF-8: FF (invalid byte)"
  done
}

@test "iconv's --verbose: each FILE named on standard error as 'FILE:' before it is converted, - too" {
  printf 'a\n' >a.txt
  printf 'b\377\n' >b.txt
  run --separate-stderr bash -c 'printf "s\n" | "$UTF8CONV" --verbose -e replace a.txt - b.txt'
  assert_equal "$status" 0
  assert_equal "$output" "$(printf 'a\ns\nb\357\277\275')"
  assert_equal "$stderr" "$(printf 'a.txt:\n-:\nb.txt:\nutf8conv: b.txt:1: byte 1: invalid UTF-8: FF (invalid byte); 1 error replaced in this file')"
}

@test "iconv's --verbose: a missing file is named, then the error, exit 2; odd names are quoted" {
  run --separate-stderr "$UTF8CONV" --verbose nonexist
  assert_equal "$status" 2
  assert_equal "$stderr" "$(printf 'nonexist:\nutf8conv: nonexist: No such file or directory')"
  printf 'x' >"$(printf 'n\nl')"
  run --separate-stderr "$UTF8CONV" --verbose "$(printf 'n\nl')"
  assert_equal "$status" 0
  assert_equal "$output" "x"
  assert_equal "$stderr" "'n'\$'\\n''l':"
}

@test "--verbose with -i and -r names each file converted, not the ones skipped" {
  mkdir d
  printf 'caf\351\n' >d/a.txt
  printf 'ok\n' >d/b.txt
  printf 'x' >d/b.txt.bak
  run --separate-stderr "$UTF8CONV" --verbose -f CP1252 -r -i.bak -q d
  assert_equal "$status" 0
  assert_equal "$stderr" "$(printf 'd/a.txt:\nd/b.txt:')"
  assert_hex d/a.txt '636166c3a90a'
}
