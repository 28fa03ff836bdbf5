#!/usr/bin/env bats
# Byte order marks: --bom=auto|strip|add (SPEC §6 and §10).

load ../test_helper

# conv STATUS OUTHEX INPUT-PRINTF-FORMAT OPTION...
# files STATUS OUTHEX OPTION... -- FORMAT...: one file per printf format,
# converted together.
files() {
  local want=$1 outhex=$2 status=0 i=0
  shift 2
  local -a opts=() names=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  for f in "$@"; do
    i=$((i + 1))
    printf "$f" >"f$i"
    names+=("f$i")
  done
  "$UTF8CONV" "${opts[@]}" "${names[@]}" >out 2>err || status=$?
  [ "$status" -eq "$want" ] || fail "exit status $status, expected $want: $(cat err)"
  assert_hex out "$outhex"
}

@test "UTF-8 BOM to UTF-8: auto keeps it, strip removes it" {
  conv 0 'efbbbf61' '\xef\xbb\xbfa'
  conv 0 'efbbbf61' '\xef\xbb\xbfa' --bom=auto
  conv 0 '61' '\xef\xbb\xbfa' --bom=strip
}

@test "add: one BOM on unmarked input, no second one on marked input" {
  conv 0 'efbbbf61' 'a' --bom=add
  conv 0 'efbbbf61' '\xef\xbb\xbfa' --bom=add
  conv 0 'fffe6100' 'a' --bom=add -t UTF-16LE
  conv 0 'feff0061' '\xef\xbb\xbfa' --bom=add -t UTF-16BE
  conv 0 '0000feff00000061' 'a' --bom=add -t UTF-32BE
  conv 0 'fffe000061000000' 'a' --bom=add -t UTF-32LE
}

@test "unmarked input to UTF-8/UTF-16LE: no BOM under auto" {
  conv 0 '61' 'a'
  conv 0 '6100' 'a' -t UTF-16LE
  conv 0 '00000061' 'a' -t UTF-32BE
}

@test "a UTF-16 or UTF-32 BOM is not carried into UTF-8 (auto), as iconv does not carry it" {
  conv 0 '61' '\xff\xfea\x00' -f UTF-16LE
  conv 0 '61' '\xff\xfea\x00' -f UTF-16LE --bom=strip
  conv 0 'efbbbf61' '\xff\xfea\x00' -f UTF-16LE --bom=add
  conv 0 '61' '\xfe\xff\x00a' -f UTF-16BE
  conv 0 '61' '\xff\xfe\x00\x00a\x00\x00\x00' -f UTF-32LE
  conv 0 '61' '\x00\x00\xfe\xff\x00\x00\x00a' -f UTF-32BE
  conv 0 '61' '\xff\xfea\x00' -f UTF-16 -t CESU-8
  conv 0 '61' '\xff\xfea\x00' -f auto
}

@test "UTF-16LE with a BOM through WTF-8 and back gives the same bytes" {
  printf '\377\376a\000\000\330b\000' >in
  "$UTF8CONV" -f UTF-16LE -t WTF-8 in >wtf8
  assert_hex wtf8 'efbbbf 61 eda080 62'
  "$UTF8CONV" -f WTF-8 -t UTF-16LE wtf8 >back
  cmp back in
}

@test "a UTF-8 BOM stays on UTF-8 output, also with -f auto and --eol" {
  conv 0 'efbbbf610a' '\xef\xbb\xbfa\r\n' -f auto --eol=lf
  conv 0 'efbbbf61' '\xef\xbb\xbfa' -t WTF-8
}

@test "a marked input keeps its BOM in another Unicode encoding" {
  conv 0 'feff0061' '\xff\xfea\x00' -f UTF-16LE -t UTF-16BE
  conv 0 'fffe000061000000' '\xef\xbb\xbfa' -t UTF-32LE
}

@test "-t UTF-16: BOM FF FE then little-endian" {
  conv 0 'fffe6100e9003dd800de' 'a\xc3\xa9\xf0\x9f\x98\x80' -t UTF-16
  conv 0 'fffe6100' 'a' -t UTF-16 --bom=add
  conv 0 'fffe6100' '\xef\xbb\xbfa' -t UTF-16
}

@test "-t UTF-16 --bom=strip: big-endian, no BOM" {
  conv 0 '006100e9d83dde00' 'a\xc3\xa9\xf0\x9f\x98\x80' -t UTF-16 --bom=strip
  conv 0 '0061' '\xef\xbb\xbfa' -t UTF-16 --bom=strip
}

@test "-t UTF-32: BOM FF FE 00 00 then little-endian; strip: big-endian" {
  conv 0 'fffe00006100000000f60100' 'a\xf0\x9f\x98\x80' -t UTF-32
  conv 0 '000000610001f600' 'a\xf0\x9f\x98\x80' -t UTF-32 --bom=strip
  conv 0 'fffe000061000000' '\xef\xbb\xbfa' -t UTF-32
}

@test "-f UTF-16: FE FF is big-endian, FF FE little-endian, no BOM by the NUL pattern, else big-endian" {
  conv 0 '61c3a9' '\xfe\xff\x00a\x00\xe9' -f UTF-16
  conv 0 '61c3a9' '\xff\xfea\x00\xe9\x00' -f UTF-16
  conv 0 '61c3a9' '\x00a\x00\xe9' -f UTF-16
  conv 0 '61c3a9' '\xfe\xff\x00a\x00\xe9' -f UTF-16 --bom=strip
  conv 0 '61c3a9' 'a\x00\xe9\x00' -f UTF-16
  conv 0 'e4b8ade69687' '\x4e\x2d\x65\x87' -f UTF-16
  conv 0 'fffe6100' '\xfe\xff\x00a' -f utf-16 -t UTF-16
  conv 0 'feff0061' '\xff\xfea\x00' -f UTF-16 -t UTF-16BE
}

@test "-f UTF-16 without a BOM: h i LF little-endian is hi, as iconv and Python read it" {
  conv 0 '68690a' 'h\0i\0\n\0' -f UTF-16
  conv 0 '68690a' '\0h\0i\0\n' -f UTF-16
}

@test "-f UTF-16 without a BOM: the byte order is the same at every block size, past the NUL-pattern window" {
  # 300 bytes of little-endian text: longer than the window of 256
  # bytes that the decoder holds back before it decides.
  python3 -c 'import sys; sys.stdout.buffer.write(("h\u00e9llo \u20ac" * 20 + "\n").encode("utf-16-le"))' >in
  python3 -c 'import sys; sys.stdout.buffer.write(("h\u00e9llo \u20ac" * 20 + "\n").encode("utf-8"))' >want
  local bs
  for bs in 1 2 3 7 255 256 257 65536; do
    "$UTF8CONV" -f UTF-16 --block-size=$bs in >out
    cmp out want || fail "--block-size=$bs"
    "$UTF8CONV" -f UTF-16 -t UTF-16BE --block-size=$bs in | "$UTF8CONV" -f UTF-16BE >out
    cmp out want || fail "--block-size=$bs -t UTF-16BE"
  done
}

@test "-f UTF-16 without a BOM: an error inside the held window has its right offset" {
  printf 'a\0b\0c\0d\0e\0f\0g\0\0\330h\0' >in
  local bs
  for bs in 1 3 64; do
    run -1 --separate-stderr "$UTF8CONV" -f UTF-16 --block-size=$bs in
    assert_equal "$output" "abcdefg"
    assert_equal "$stderr" "utf8conv: in:1: byte 14: invalid UTF-16: 00 D8 (lone surrogate)"
  done
}

@test "-f UTF-32: BOM decides, else the first unit that is a character in one byte order only, else big-endian" {
  conv 0 '61' '\x00\x00\xfe\xff\x00\x00\x00a' -f UTF-32
  conv 0 '61' '\xff\xfe\x00\x00a\x00\x00\x00' -f UTF-32
  conv 0 'fffe000061000000' '\x00\x00\xfe\xff\x00\x00\x00a' -f UTF-32 -t UTF-32
  conv 0 '61' '\x00\x00\x00a' -f UTF-32
  conv 0 '6869' 'h\0\0\0i\0\0\0' -f UTF-32
  conv 0 '006869' '\0\0\0\0h\0\0\0i\0\0\0' -f UTF-32
  conv 0 '61' '\xff\xfe\x00\x00a\x00\x00\x00' -f UTF-32 --bom=strip
}

@test "empty input gives empty output, even with add and UTF-16/UTF-32" {
  conv 0 '' ''
  conv 0 '' '' --bom=add
  conv 0 '' '' -t UTF-16
  conv 0 '' '' -t UTF-16 --bom=add
  conv 0 '' '' -t UTF-32
  conv 0 '' '' -t UTF-16LE --bom=add
  conv 0 '' '' -f UTF-16 -t UTF-16
}

@test "an input that is just a BOM gives empty output" {
  conv 0 '' '\xef\xbb\xbf'
  conv 0 '' '\xef\xbb\xbf' --bom=add
  conv 0 '' '\xef\xbb\xbf' --bom=strip
  conv 0 '' '\xef\xbb\xbf' -t UTF-16
  conv 0 '' '\xff\xfe' -f UTF-16LE
  conv 0 '' '\xff\xfe' -f UTF-16 -t UTF-16
  conv 0 '' '\xfe\xff' -f UTF-16BE -t UTF-32
  conv 0 '' '\xff\xfe\x00\x00' -f UTF-32 --bom=add
}

@test "a strict error at the very first character leaves the output empty" {
  conv 1 '' '\xff'
  conv 1 '' '\xff' --bom=add
  conv 1 '' '\xff' -t UTF-16
  conv 1 '' '\xef\xbb\xbf\xff'
  conv 1 '' '\xef\xbb\xbf\xffabc' -t UTF-32
  conv 1 '' '\xff\xfe\x00\xd8' -f UTF-16
}

@test "a strict error later: the BOM and what came before are written" {
  conv 1 'efbbbf61' '\xef\xbb\xbfa\xff'
  conv 1 'fffe6100' 'a\xff' -t UTF-16
}

@test "a BOM goes with the first character produced by a policy too" {
  conv 0 'efbbbfefbfbd' '\xef\xbb\xbf\xff' -e replace
  conv 0 'fffefdff' '\xff' -e replace -t UTF-16
  conv 1 '' '\xef\xbb\xbf\xff' -e ignore
  conv 1 '' '\xff' -e ignore -t UTF-16
}

@test "U+FEFF after the start is a character, not a signature" {
  conv 0 '61efbbbf62' 'a\xef\xbb\xbfb'
  conv 0 '61efbbbf62' 'a\xef\xbb\xbfb' --bom=strip
  conv 0 'fffe6100fffe6200' 'a\xef\xbb\xbfb' -t UTF-16
}

@test "a truncated BOM is not a BOM" {
  conv 1 '' '\xef\xbb'
  conv 0 'efbfbd' '\xef\xbb' -e replace
}

@test "two files each with a BOM: one BOM, at the start" {
  files 0 'efbbbf6162' -- '\xef\xbb\xbfa' '\xef\xbb\xbfb'
  files 0 'efbbbf6162' --bom=add -- '\xef\xbb\xbfa' '\xef\xbb\xbfb'
  files 0 '6162' --bom=strip -- '\xef\xbb\xbfa' '\xef\xbb\xbfb'
  files 0 'fffe61006200' -t UTF-16 -- '\xef\xbb\xbfa' '\xef\xbb\xbfb'
  files 0 'fffe61006200' -t UTF-16 -- 'a' 'b'
}

@test "first file unmarked, second marked: no BOM (auto)" {
  files 0 '6162' -- 'a' '\xef\xbb\xbfb'
  files 0 '61006200' -t UTF-16LE -- 'a' '\xef\xbb\xbfb'
  files 0 'efbbbf6162' --bom=add -- 'a' '\xef\xbb\xbfb'
}

@test "-f UTF-16: endianness and BOM are decided per file" {
  files 0 '616263' -f UTF-16 -- '\xfe\xff\x00a' '\xff\xfeb\x00' '\x00c'
  files 0 '616263' -f UTF-16 -- '\x00a' '\xff\xfeb\x00' 'c\x00'
  files 0 '616263' -f UTF-16LE -- 'a\x00' '\xff\xfeb\x00' 'c\x00'
  files 0 'feff006100620063' -f UTF-16 -t UTF-16BE -- '\xfe\xff\x00a' '\xff\xfeb\x00' 'c\x00'
}

@test "the first file is just a BOM: the signature is carried to the first character" {
  files 0 'efbbbf62' -- '\xef\xbb\xbf' 'b'
}

@test "the first file is empty: it has no signature, the second's BOM is dropped" {
  files 0 '62' -- '' '\xef\xbb\xbfb'
}

@test "--bom=add with a legacy output encoding: exit 2, no output" {
  local enc
  for enc in CP1252 ISO-8859-1 US-ASCII KOI8-R; do
    run --separate-stderr "$UTF8CONV" --bom=add -t "$enc" <<<"abc"
    assert_equal "$status" 2
    assert_equal "$output" ""
    assert_equal "$stderr" "utf8conv: --bom=add needs a Unicode output encoding, not '$enc'"
  done
}

@test "--bom=auto with a legacy output drops the signature" {
  printf '\357\273\277a\n' >in
  "$UTF8CONV" -t CP1252 in >out
  assert_hex out '61 0a'
  printf '\377\376a\000' >in
  "$UTF8CONV" -f UTF-16 -t ISO-8859-1 in >out
  assert_hex out '61'
}

@test "--report says which byte order -f UTF-16 read, and how it chose it" {
  printf 'h\0i\0' >le
  printf '\376\377\0h' >be
  run -0 --separate-stderr "$UTF8CONV" --report -f UTF-16 -o /dev/null le be
  assert_equal "${stderr_lines[0]}" "utf8conv: report: le: converted, in 4 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0, detected UTF-16LE (NUL pattern, confidence 0.99)"
  assert_equal "${stderr_lines[1]}" "utf8conv: report: be: converted, in 4 B, out 1 B, 1 char, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 0 CR 0, detected UTF-16BE (BOM, confidence 1.00)"
}
