#!/usr/bin/env bats
# utf8conv against the tools it replaces (SPEC §6, §11): dos2unix,
# unix2dos, unix2mac and mac2unix on their own files, byte for byte, and
# iconv on UTF-16 with and without a BOM.  Each test is skipped, with the
# reason, when its tool is not installed.

load ../test_helper
bats_require_minimum_version 1.5.0

need() {
  command -v "$1" >/dev/null || skip "$1 is not installed"
}

# inputs: write the test files of the line-ending comparisons into the
# current directory.
inputs() {
  printf 'h\303\251llo\r\nw\303\266rld\n' >utf8
  printf '\357\273\277a\r\nb\r\n' >utf8-bom
  printf 'a\r\r\nb\r\n' >cr-cr-lf
  printf 'a\rb\r\n50%%\r60%%\r\ndone\r' >lone-cr
  printf 'a\r\nb\nc\rd\n\re\r\n' >mixed
  # A CR LF cut by a read: the CR ends the second 65536-byte block (the
  # first of 131072 bytes, as the default was before).
  python3 -c 'import sys; sys.stdout.buffer.write(b"x" * 131071 + b"\r\n" + b"y\r\n" * 3)' >boundary
  printf 'lf\nonly\n\ntext' >lf-only
  printf '\357\273\277lf\nonly\n' >lf-only-bom
  printf 'mac\rtext\r\rend' >cr-only
  printf 'mac\rand\nunix\r' >cr-and-lf
  python3 -c 'import sys; sys.stdout.buffer.write("\ufeffh\u00e9\r\n\u20ac\r\n".encode("utf-16-le"))' >utf16le-bom
  python3 -c 'import sys; sys.stdout.buffer.write("\ufeffh\u00e9\r\n\u20ac\r\n".encode("utf-16-be"))' >utf16be-bom
}

# same TOOL UTF8CONV-OPTION... -- FILE...: for each FILE, TOOL on one copy
# and utf8conv -i with the options on another give the same bytes.
same() {
  local tool=$1 f
  shift
  local -a opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  for f in "$@"; do
    cp "$f" "$f.tool"
    cp "$f" "$f.u8c"
    "$tool" -q "$f.tool" 2>/dev/null || fail "$tool $f failed"
    "$UTF8CONV" -i "${opts[@]}" "$f.u8c" || fail "utf8conv -i ${opts[*]} $f failed"
    cmp -s "$f.tool" "$f.u8c" ||
      fail "$f: $tool gives $(hex "$f.tool"), utf8conv -i ${opts[*]} gives $(hex "$f.u8c")"
  done
}

@test "utf8conv -f auto -i --eol=lf --bom=strip is dos2unix, byte for byte" {
  need dos2unix
  inputs
  same dos2unix -f auto --eol=lf --bom=strip -- \
    utf8 utf8-bom cr-cr-lf lone-cr mixed boundary lf-only utf16le-bom utf16be-bom
  # The cases that show the rule: CR LF to LF, a lone CR stays.
  assert_hex cr-cr-lf.u8c '61 0d 0a 62 0a'
  assert_hex lone-cr.u8c '61 0d 62 0a 3530 25 0d 3630 25 0a 646f6e65 0d'
  assert_hex utf16le-bom.u8c '68 c3a9 0a e282ac 0a'
}

@test "dos2unix through --block-size: a CR at the end of every read" {
  need dos2unix
  inputs
  local bs f
  for f in cr-cr-lf lone-cr mixed; do
    dos2unix -q -n "$f" "$f.tool" 2>/dev/null
    for bs in 1 2 3; do
      "$UTF8CONV" -f auto --eol=lf --bom=strip --block-size=$bs -o out "$f"
      cmp -s out "$f.tool" || fail "$f, --block-size=$bs: $(hex out) is not $(hex "$f.tool")"
    done
  done
}

@test "utf8conv -f auto -i --eol=crlf is unix2dos, byte for byte, but for CR CR LF" {
  need unix2dos
  inputs
  same unix2dos -f auto --eol=crlf -- utf8 utf8-bom lone-cr mixed boundary lf-only
  # unix2dos writes a UTF-8 BOM for UTF-16 input: --bom=add does.
  same unix2dos -f auto --eol=crlf --bom=add -- utf16le-bom utf16be-bom
  # unix2dos takes the character after a CR along, whatever it is, and
  # writes CR CR LF as CR CR CR LF; utf8conv keeps the CR LF pair (the
  # man page says so).
  cp cr-cr-lf t && unix2dos -q t 2>/dev/null
  assert_hex t '61 0d 0d 0d 0a 62 0d 0a'
  "$UTF8CONV" -f auto -i --eol=crlf cr-cr-lf
  assert_hex cr-cr-lf '61 0d 0d 0a 62 0d 0a'
}

@test "utf8conv -f auto -i --eol=cr is unix2mac on text with LF breaks" {
  need unix2mac
  inputs
  same unix2mac -f auto --eol=cr -- lf-only lf-only-bom
  assert_hex lf-only.u8c '6c66 0d 6f6e6c79 0d 0d 74657874'
  # unix2mac leaves a CR LF as it is; --eol=cr writes CR for it (the man
  # page says so).
  printf 'a\r\nb\n' >t
  unix2mac -q t 2>/dev/null
  assert_hex t '61 0d 0a 62 0d'
  printf 'a\r\nb\n' >t
  "$UTF8CONV" -i --eol=cr t
  assert_hex t '61 0d 62 0d'
}

@test "utf8conv -f auto -i --eol=lf --eol-from=cr --bom=strip is mac2unix on classic Mac text" {
  need mac2unix
  inputs
  same mac2unix -f auto --eol=lf --eol-from=cr --bom=strip -- cr-only cr-and-lf lf-only
  assert_hex cr-only.u8c '6d6163 0a 74657874 0a 0a 656e64'
  # mac2unix leaves a CR LF as it is; utf8conv writes LF for it (the man
  # page says so).
  printf 'a\r\nb\r' >t
  mac2unix -q t 2>/dev/null
  assert_hex t '61 0d 0a 62 0a'
  printf 'a\r\nb\r' >t
  "$UTF8CONV" -i --eol=lf --eol-from=cr t
  assert_hex t '61 0a 62 0a'
}

@test "-i --eol=lf leaves a file that needs no change untouched, where dos2unix rewrites it" {
  need dos2unix
  printf 'a\nb\n' >f
  touch -d '2001-01-01 00:00:00' f
  local ino
  ino=$(stat -c %i f)
  run -0 "$UTF8CONV" -f auto -i --eol=lf --bom=strip f
  assert_equal "$(stat -c %i f)" "$ino"
  assert_equal "$(stat -c %Y f)" "$(date -d '2001-01-01 00:00:00' +%s)"
  assert_hex f '61 0a 62 0a'
}

@test "-f UTF-16 -t UTF-8 is iconv -f UTF-16 -t UTF-8: BOM LE and BE, no BOM LE" {
  need iconv
  local f
  python3 - <<'PY'
import codecs
text = "h\u00e9llo \u20ac\n\U0001F600 line 2\n"
open('bom-le', 'wb').write(codecs.BOM_UTF16_LE + text.encode('utf-16-le'))
open('bom-be', 'wb').write(codecs.BOM_UTF16_BE + text.encode('utf-16-be'))
open('le', 'wb').write(text.encode('utf-16-le'))
open('be', 'wb').write(text.encode('utf-16-be'))
open('want', 'wb').write(text.encode('utf-8'))
PY
  for f in bom-le bom-be le; do
    iconv -f UTF-16 -t UTF-8 "$f" >iconv.out
    "$UTF8CONV" -f UTF-16 -t UTF-8 "$f" >out
    cmp -s out iconv.out || fail "$f: utf8conv $(hex out), iconv $(hex iconv.out)"
    cmp -s out want || fail "$f: not the text"
  done
  # Without a BOM and with its NULs first, the text is big-endian (SPEC
  # §6): what iconv -f UTF-16BE reads.  glibc's iconv -f UTF-16 reads it
  # in the machine's byte order instead (the man page says so).
  iconv -f UTF-16BE -t UTF-8 be >iconv.out
  "$UTF8CONV" -f UTF-16 -t UTF-8 be >out
  cmp -s out iconv.out || fail "be: utf8conv $(hex out), iconv -f UTF-16BE $(hex iconv.out)"
  cmp -s out want || fail "be: not the text"
}
