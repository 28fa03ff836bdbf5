#!/usr/bin/env bats
# Diagnostics, exactly as doc/DESIGN.md gives them:
#   utf8conv: FILE:LINE: byte OFFSET: invalid ENC: XX YY (REASON)

bats_require_minimum_version 1.5.0
load ../test_helper

# diag STATUS MESSAGE INPUT-PRINTF-FORMAT OPTION...: convert file f, check
# the exit status and that stderr is exactly MESSAGE.
diag() {
  local want=$1 msg=$2 input=$3
  shift 3
  printf "$input" >f
  run --separate-stderr "$UTF8CONV" "$@" f
  [ "$status" -eq "$want" ] || fail "utf8conv $*: exit status $status, expected $want: $stderr"
  assert_equal "$stderr" "$msg"
}

@test "truncated sequence at the end, on line 2" {
  printf 'ab\n\xe1\x80' >f
  run --separate-stderr "$UTF8CONV" f
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: f:2: byte 3: invalid UTF-8: E1 80 (truncated sequence)"
  assert_equal "$output" "ab"
}

@test "reason: unexpected continuation byte" {
  diag 1 "utf8conv: f:1: byte 1: invalid UTF-8: 80 (unexpected continuation byte)" 'a\x80b'
  diag 1 "utf8conv: f:1: byte 2: invalid UTF-8: BF (unexpected continuation byte)" '\xc3\xa9\xbf'
}

@test "reason: truncated sequence followed by another character" {
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: E1 80 (truncated sequence)" '\xe1\x80a'
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: F0 9F 98 (truncated sequence)" '\xf0\x9f\x98\xf0\x9f\x98\x80'
  diag 1 "utf8conv: f:1: byte 1: invalid UTF-8: C3 (truncated sequence)" 'a\xc3'
}

@test "reason: overlong encoding" {
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: C0 (overlong encoding)" '\xc0\x80'
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: C1 (overlong encoding)" '\xc1\xbf'
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: E0 (overlong encoding)" '\xe0\x80\x80'
  diag 1 "utf8conv: f:1: byte 1: invalid UTF-8: F0 (overlong encoding)" 'x\xf0\x8f\xbf\xbf'
}

@test "reason: surrogate" {
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: ED (surrogate)" '\xed\xa0\x80'
  diag 1 "utf8conv: f:1: byte 2: invalid UTF-8: ED (surrogate)" 'ab\xed\xbf\xbf'
}

@test "reason: beyond U+10FFFF" {
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: F4 (beyond U+10FFFF)" '\xf4\x90\x80\x80'
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: F5 (beyond U+10FFFF)" '\xf5\x80\x80\x80'
}

@test "reason: invalid byte" {
  diag 1 "utf8conv: f:1: byte 0: invalid UTF-8: FF (invalid byte)" '\xff'
  diag 1 "utf8conv: f:1: byte 3: invalid UTF-8: FE (invalid byte)" 'abc\xfe'
}

@test "line numbers count U+000A, offsets count bytes from 0" {
  diag 1 "utf8conv: f:5: byte 9: invalid UTF-8: 80 (unexpected continuation byte)" 'a\n\xc3\xa9\n\nx\r\n\x80'
}

@test "UTF-16LE lone surrogate" {
  diag 1 "utf8conv: f:1: byte 2: invalid UTF-16LE: 00 D8 (lone surrogate)" 'a\x00\x00\xd8b\x00' -f UTF-16LE
  diag 1 "utf8conv: f:2: byte 4: invalid UTF-16LE: 00 DC (lone surrogate)" 'a\x00\n\x00\x00\xdc' -f UTF-16LE
}

@test "UTF-16BE lone surrogate, and -f UTF-16 names UTF-16" {
  diag 1 "utf8conv: f:1: byte 2: invalid UTF-16BE: D8 00 (lone surrogate)" '\x00a\xd8\x00\x00b' -f UTF-16BE
  diag 1 "utf8conv: f:1: byte 4: invalid UTF-16: DC 00 (lone surrogate)" '\xfe\xff\x00a\xdc\x00' -f UTF-16
}

@test "UTF-32 unit beyond U+10FFFF" {
  diag 1 "utf8conv: f:1: byte 4: invalid UTF-32LE: 00 00 11 00 (beyond U+10FFFF)" 'a\x00\x00\x00\x00\x00\x11\x00' -f UTF-32LE
}

@test "encoding error: a lone surrogate cannot go to UTF-8" {
  diag 1 "utf8conv: f:1: byte 2: cannot encode U+D800 in UTF-8: 00 D8 (unencodable character)" \
    'a\x00\x00\xd8b\x00' -f UTF-16LE -e surrogateescape
}

@test "line numbers count decoded U+000A in UTF-16 input" {
  # units 000A 0A00 000A D800 0061: U+0A00 is not a newline
  diag 1 "utf8conv: f:3: byte 6: invalid UTF-16LE: 00 D8 (lone surrogate)" \
    '\n\x00\x00\n\n\x00\x00\xd8a\x00' -f UTF-16LE
}

@test "standard input is named -" {
  run --separate-stderr bash -c 'printf "x\xff" | "$UTF8CONV"'
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: -:1: byte 1: invalid UTF-8: FF (invalid byte)"
  assert_equal "$output" "x"
}

@test "the file name is the operand as given" {
  mkdir sub
  printf '\xff' >sub/g.txt
  run --separate-stderr "$UTF8CONV" ./sub/g.txt
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: ./sub/g.txt:1: byte 0: invalid UTF-8: FF (invalid byte)"
}

@test "offsets count from the start of each file" {
  printf 'abc\n' >a
  printf 'de\xff' >b
  run --separate-stderr "$UTF8CONV" a b
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: b:1: byte 2: invalid UTF-8: FF (invalid byte)"
  assert_equal "$output" "abc
de"
}

@test "a strict stop ends the whole run" {
  printf '\xff' >a
  printf 'b' >b
  run --separate-stderr "$UTF8CONV" a b
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "${#stderr_lines[@]}" 1
}

@test "missing file: diagnosed, exit 2, the other files still converted" {
  printf 'a' >a
  printf 'b' >b
  run --separate-stderr "$UTF8CONV" a nosuch b
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: nosuch: No such file or directory"
  assert_equal "$output" "ab"
}

@test "missing file and a strict error: exit 2" {
  printf 'a\xff' >a
  run --separate-stderr "$UTF8CONV" nosuch a
  assert_equal "$status" 2
  assert_equal "$output" "a"
  assert_equal "${stderr_lines[0]}" "utf8conv: nosuch: No such file or directory"
  assert_equal "${stderr_lines[1]}" "utf8conv: a:1: byte 1: invalid UTF-8: FF (invalid byte)"
}

@test "warning under replace: first error and the count" {
  diag 0 "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors replaced in this file" 'a\xff\x80b' -e replace
  diag 0 "utf8conv: f:1: byte 1: invalid UTF-8: E1 80 (truncated sequence); 1 error replaced in this file" 'a\xe1\x80b' -e replace
}

@test "warning verbs: escaped, escaped, dropped" {
  diag 0 "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors escaped in this file" 'a\xff\x80b' -e escape
  diag 0 "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors escaped in this file" 'a\xff\x80b' -e surrogateescape
  diag 1 "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors dropped in this file" 'a\xff\x80b' -e ignore
  diag 1 "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors dropped in this file" 'a\xff\x80b' -c
}

@test "one warning per file with errors" {
  printf 'a\xff' >a
  printf 'ok' >b
  printf '\n\xfe\xfe\xfe' >c
  run --separate-stderr "$UTF8CONV" -e replace a b c
  assert_equal "$status" 0
  assert_equal "${stderr_lines[0]}" "utf8conv: a:1: byte 1: invalid UTF-8: FF (invalid byte); 1 error replaced in this file"
  assert_equal "${stderr_lines[1]}" "utf8conv: c:2: byte 1: invalid UTF-8: FE (invalid byte); 3 errors replaced in this file"
  assert_equal "${#stderr_lines[@]}" 2
}

@test "-q suppresses the warning, not the conversion" {
  printf 'a\xff\x80b' >f
  run --separate-stderr "$UTF8CONV" -q -e replace f
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  assert_equal "$output" "a"$'\xef\xbf\xbd\xef\xbf\xbd'"b"
  run --separate-stderr "$UTF8CONV" --quiet -c f
  assert_equal "$status" 1
  assert_equal "$stderr" ""
  assert_equal "$output" "ab"
}

@test "the same diagnostics whatever the block size" {
  printf 'line one\nline \xc3\xa9 two\n\xf0\x9f\x98\x80 \xf0\x9f\x98\nend' >f
  local msg="utf8conv: f:3: byte 26: invalid UTF-8: F0 9F 98 (truncated sequence)"
  local n
  for n in 1 2 3 4 5 7 65536; do
    run --separate-stderr "$UTF8CONV" --block-size=$n f
    assert_equal "$status" 1
    assert_equal "$stderr" "$msg"
  done
  for n in 1 2 3 7; do
    run --separate-stderr "$UTF8CONV" --block-size=$n -e replace f
    assert_equal "$stderr" "$msg; 1 error replaced in this file"
  done
  printf 'a\x00\n\x00\x3d\xd8b\x00' >g
  for n in 1 2 3; do
    run --separate-stderr "$UTF8CONV" --block-size=$n -f UTF-16LE g
    assert_equal "$status" 1
    assert_equal "$stderr" "utf8conv: g:2: byte 4: invalid UTF-16LE: 3D D8 (lone surrogate)"
  done
}

@test "the locale does not change output or diagnostics" {
  printf 'caf\xc3\xa9 \xff\n\xe1\x80' >f
  local lc
  for lc in C C.UTF-8 POSIX; do
    LC_ALL=$lc "$UTF8CONV" -e replace f >"out.$lc" 2>"err.$lc" || true
    LC_ALL=$lc "$UTF8CONV" f >"sout.$lc" 2>"serr.$lc" || true
    LC_ALL=$lc "$UTF8CONV" nosuch >"nout.$lc" 2>"nerr.$lc" || true
  done
  for lc in C.UTF-8 POSIX; do
    cmp out.C "out.$lc"
    cmp err.C "err.$lc"
    cmp sout.C "sout.$lc"
    cmp serr.C "serr.$lc"
    cmp nerr.C "nerr.$lc"
  done
  assert_equal "$(cat err.C)" "utf8conv: f:1: byte 6: invalid UTF-8: FF (invalid byte); 2 errors replaced in this file"
  assert_equal "$(cat serr.C)" "utf8conv: f:1: byte 6: invalid UTF-8: FF (invalid byte)"
}
