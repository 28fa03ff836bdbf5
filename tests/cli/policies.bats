#!/usr/bin/env bats
# Error policies (-e strict|replace|escape|surrogateescape|ignore, -c,
# --byte-subst, --unicode-subst) on hand-written inputs, exact bytes.

bats_require_minimum_version 1.5.0
load ../test_helper

@test "strict is the default: stops before the error, exit 1" {
  conv 1 '6162' 'ab\xffcd'
  conv 1 '6162' 'ab\xffcd' -e strict
  conv 1 '610a62' 'a\nb\xe1\x80'
}

@test "strict: an error at the very first character gives empty output" {
  conv 1 '' '\x80abc'
  conv 1 '' '\x80abc' -t UTF-16
  conv 1 '' '\xc0\x80' -t UTF-32LE
}

@test "strict: valid input converts with exit 0" {
  conv 0 '61c3a9e282acf09f9880' 'a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'
  conv 0 '6100e900ac203dd800de' 'a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80' -t UTF-16LE
}

@test "replace: Unicode Table 3-8 example, one U+FFFD per maximal subpart" {
  conv 0 '61efbfbdefbfbdefbfbd62efbfbd63efbfbdefbfbd64' \
    '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' -e replace
  conv 0 '0061fffdfffdfffd0062fffd0063fffdfffd0064' \
    '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' -e replace -t UTF-16BE
}

@test "replace: overlong, surrogate and beyond-U+10FFFF forms byte by byte" {
  conv 0 'efbfbdefbfbd' '\xc0\xaf' -e replace
  conv 0 'efbfbdefbfbdefbfbd' '\xe0\x80\xaf' -e replace
  conv 0 'efbfbdefbfbdefbfbd' '\xed\xa0\x80' -e replace
  conv 0 'efbfbdefbfbdefbfbdefbfbd' '\xf4\x90\x80\x80' -e replace
  conv 0 'efbfbd41' '\xf0\x9f\x98A' -e replace
  conv 0 'efbfbd' '\xf0\x9f\x98' -e replace
  conv 0 'efbfbdefbfbd' '\xfe\xff' -e replace
}

@test "replace: UTF-16 lone surrogates and UTF-32 bad units" {
  conv 0 '61efbfbd62' 'a\x00\x00\xd8b\x00' -f UTF-16LE -e replace
  conv 0 '61efbfbd62' '\x00a\xdc\x00\x00b' -f UTF-16BE -e replace
  conv 0 '61efbfbd' 'a\x00\x00\xd8' -f UTF-16LE -e replace
  conv 0 '6162efbfbd' 'a\x00b\x00c' -f UTF-16LE -e replace
  conv 0 '61efbfbd62' 'a\x00\x00\x00\x00\x00\x11\x00b\x00\x00\x00' -f UTF-32LE -e replace
  conv 0 '61efbfbd' 'a\x00\x00\x00\x80\x80' -f UTF-32LE -e replace
}

@test "escape: Python's backslashreplace, lowercase \\xhh" {
  conv 0 '615c7838305c786666625c' 'a\x80\xffb\\' -e escape
  conv 0 '5c7865315c783830' '\xe1\x80' -e escape
  conv 0 '615c7830305c78643862' 'a\x00\x00\xd8b\x00' -f UTF-16LE -e escape
  conv 0 '615c7830305c7830305c7831315c78303062' 'a\x00\x00\x00\x00\x00\x11\x00b\x00\x00\x00' -f UTF-32LE -e escape
  conv 0 '5c0078003800300000d800dc' '\x80\xf0\x90\x80\x80' -e escape -t UTF-16LE
}

@test "escape: --byte-subst format, and it selects escape by itself" {
  conv 0 '613c38303e3c46463e62' 'a\x80\xffb' --byte-subst='<%02X>'
  conv 0 '613c38303e3c46463e62' 'a\x80\xffb' -e escape --byte-subst='<%02X>'
  conv 0 '61283132382928323535290a' 'a\x80\xff\n' --byte-subst='(%u)'
  conv 0 '3c30303e3c44383e' '\x00\xd8' -f UTF-16LE --byte-subst='<%02X>'
}

@test "escape: --unicode-subst does not change how bytes are escaped" {
  conv 0 '613c38303e62' 'a\x80b' -e escape --byte-subst='<%02X>' --unicode-subst='[U+%04X]'
  conv 0 '613c38303e62' 'a\x80b' --unicode-subst='[U+%04X]' --byte-subst='<%02X>'
  conv 0 '615c78383062' 'a\x80b' --unicode-subst='[U+%04X]'
}

@test "--byte-subst with -e replace: -e wins" {
  conv 0 '61efbfbd62' 'a\xffb' -e replace --byte-subst='<%02X>'
  conv 0 '61efbfbd62' 'a\xffb' --byte-subst='<%02X>' -e replace
}

# all_bytes FILE: the 256 byte values, then a few more escapes.
all_bytes() {
  local b
  : >"$1"
  for b in $(seq 0 255) 255 128 0 192 128 237 160 128; do
    printf "\\x$(printf %02x "$b")" >>"$1"
  done
  [ "$(wc -c <"$1")" -eq 264 ]
}

@test "surrogateescape: UTF-8 to UTF-8 is the identity on all 256 byte values" {
  all_bytes all
  "$UTF8CONV" -e surrogateescape all >out
  cmp out all
  "$UTF8CONV" -e surrogateescape --block-size=1 all >out
  cmp out all
}

@test "surrogateescape: round trip of all byte values through UTF-16LE" {
  local b want=
  all_bytes all
  "$UTF8CONV" -e surrogateescape -t UTF-16LE all >u16
  # the UTF-16LE form: ASCII as itself, every other byte b as U+DC00+b
  for b in $(seq 0 127); do want+=$(printf '%02x00' "$b"); done
  for b in $(seq 128 255); do want+=$(printf '%02xdc' "$b"); done
  want+=ffdc80dc0000c0dc80dceddca0dc80dc
  assert_hex u16 "$want"
  "$UTF8CONV" -f UTF-16LE -e surrogateescape u16 >back
  cmp back all
  "$UTF8CONV" -f UTF-16LE -e surrogateescape --block-size=3 u16 >back
  cmp back all
}

@test "surrogateescape: round trip through UTF-32BE and UTF-16" {
  printf 'a\xff\xc3\xa9\xed\xa0\x80\xf0\x9f\x98\x80z' >all
  "$UTF8CONV" -e surrogateescape -t UTF-32BE all >u32
  assert_hex u32 '000000610000dcff000000e90000dced0000dca00000dc800001f6000000007a'
  "$UTF8CONV" -f UTF-32BE -e surrogateescape u32 >back
  cmp back all
  "$UTF8CONV" -e surrogateescape -t UTF-16 all >u16
  assert_hex u16 'fffe6100ffdce900eddca0dc80dc3dd800de7a00'
  "$UTF8CONV" -f UTF-16 -e surrogateescape --bom=strip u16 >back
  cmp back all
}

@test "surrogateescape: UTF-16LE to UTF-16LE is the identity with lone surrogates" {
  printf 'a\x00\x00\xd8b\x00\x00\xdc\xff\xdf\x3d\xd8\x00\xde\x00\xdb\x00\xd8' >in
  "$UTF8CONV" -f UTF-16LE -t UTF-16LE -e surrogateescape in >out
  cmp out in
  "$UTF8CONV" -f UTF-16LE -t UTF-16LE -e surrogateescape --block-size=1 in >out
  cmp out in
  dd if=in of=in.be conv=swab status=none
  "$UTF8CONV" -f UTF-16BE -t UTF-16BE -e surrogateescape --block-size=3 in.be >out
  cmp out in.be
}

@test "surrogateescape: lone DC80-DCFF from UTF-16 become raw bytes in UTF-8" {
  conv 0 '6180ff62' 'a\x00\x80\xdc\xff\xdcb\x00' -f UTF-16LE -e surrogateescape
}

@test "surrogateescape: other lone surrogates to UTF-8 are strict errors" {
  conv 1 '61' 'a\x00\x00\xd8b\x00' -f UTF-16LE -e surrogateescape
  conv 1 '61' 'a\x00\x00\x00\x00\xdc\x00\x00' -f UTF-32LE -e surrogateescape
}

@test "surrogateescape: an error holding a byte below 0x80 is strict" {
  conv 1 '6162' 'a\x00b\x00c' -f UTF-16LE -e surrogateescape
  conv 1 '61' 'a\x00\x00\x00\x00\x00\x11\x00b\x00\x00\x00' -f UTF-32LE -e surrogateescape
  conv 0 '6162ff' 'a\x00b\x00\xff' -f UTF-16LE -e surrogateescape
}

@test "ignore: drops the errors, exit 1" {
  conv 1 '61626364' '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' -e ignore
  conv 1 '6162' 'a\x00\x00\xd8b\x00' -f UTF-16LE -e ignore
  conv 1 '' '\xff' -e ignore
}

@test "ignore: valid input gives exit 0" {
  conv 0 '61c3a9' 'a\xc3\xa9' -e ignore
  conv 0 '61c3a9' 'a\xc3\xa9' -c
}

@test "-c is --errors=ignore" {
  conv 1 '61626364' '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' -c
  conv 1 '0061006200630064' '\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64' -c -t UTF-16BE
}

@test "the last -e wins" {
  conv 0 '61efbfbd' 'a\xff' -e strict -e replace
  conv 1 '61' 'a\xff' -e replace -e strict
}

@test "replace, escape and surrogateescape exit 0 with a warning on stderr" {
  local p
  for p in replace escape surrogateescape; do
    printf 'a\xff' >in
    run --separate-stderr "$UTF8CONV" -e "$p" in
    assert_success
    [ -n "$stderr" ] || fail "no warning under $p"
  done
}

@test "a substitute written without the encoder: after a held-back WTF-8 high surrogate, after the BOM, in wide and legacy outputs" {
  # replace's U+FFFD is encoded once per run, escape's text is ASCII;
  # neither may pass a BOM still to write or a WTF-8 high surrogate the
  # encoder holds back.
  conv 0 'eda080efbfbd' '\xed\xa0\x80\xff' -f WTF-8 -t WTF-8 -e replace
  conv 0 'eda0805c786666' '\xed\xa0\x80\xff' -f WTF-8 -t WTF-8 -e escape
  conv 0 'fffefdff6100' '\xffa' -t UTF-16 -e replace
  conv 0 'fffe5c00780066006600' '\xff' -t UTF-16 -e escape
  conv 0 '61005c00780066006600' 'a\xff' -t UTF-16LE -e escape
  conv 0 'efbbbfefbfbd61' '\xffa' --bom=add -e replace
  conv 0 '615c786666' 'a\xff' -t CP1252 -e escape
  conv 0 '613f' 'a\xff' -t CP1252 -e replace
  conv 0 '61000000fdff0000' 'a\xff' -t UTF-32LE -e replace
}

@test "--byte-subst: a field of width 70 is written whole (no cut at 64)" {
  printf 'a\303b' >in
  printf 'a<%070x>b' 0xc3 >want
  run --separate-stderr "$UTF8CONV" -f ASCII -t ASCII --byte-subst='<%070x>' in
  assert_equal "$status" 0
  assert_equal "$output" "$(cat want)"
  assert_equal "$stderr" "utf8conv: in:1: byte 1: invalid US-ASCII: C3 (invalid byte); 1 error escaped in this file"
  "$UTF8CONV" -f ASCII -t ASCII --byte-subst='<%-70X>|' --block-size=1 in >out 2>/dev/null
  printf 'a<%-70X>|b' 0xc3 >want
  cmp out want
}

@test "--byte-subst and --unicode-subst: GNU libiconv's %010000x, exact bytes, any block size" {
  printf 'a\377b\342\202\254\n' >in
  printf 'a<0x%010000x>b[%010000X]\n' 0xff 0x20ac >want
  local bs
  for bs in 131072 1 3; do
    "$UTF8CONV" -t ISO-8859-1 --byte-subst='<0x%010000x>' \
      --unicode-subst='[%010000X]' --block-size="$bs" in >out 2>err
    cmp out want
  done
  # Two bytes of one error, each its own field, to UTF-16LE.
  printf '\341\200' >in2
  printf '%010000x|%010000x|' 0xe1 0x80 >want8
  "$UTF8CONV" -t UTF-16LE --byte-subst='%010000x|' --block-size=1 in2 >out
  "$UTF8CONV" -f UTF-8 -t UTF-16LE want8 >want
  cmp out want
}

@test "--byte-subst and --unicode-subst: literal text is written in the output encoding" {
  # € and é as UTF-8, as UTF-16LE (AC 20, E9 00) and as ISO-8859-1 (E9).
  conv 0 '61e282ac666662' 'a\377b' --byte-subst='€%02x'
  conv 0 '6100ac20660066006200' 'a\377b' -t UTF-16LE --byte-subst='€%02x' --unicode-subst='é%X'
  conv 0 '6100ac2066006600620000d8' 'a\377b\355\240\200' -f WTF-8 -t UTF-16LE --byte-subst='€%02x' --unicode-subst='é%X'
  conv 0 '61e282ac66666244383030c3a9' 'a\377b\355\240\200' -f WTF-8 -t UTF-8 --byte-subst='€%02x' --unicode-subst='%Xé'
  conv 0 '61e9666662' 'a\377b' -t ISO-8859-1 --byte-subst='é%02x'
  conv 0 '61e95b323041435d62' 'a\342\202\254b' -t ISO-8859-1 --unicode-subst='é[%04X]'
  conv 0 '61e95b323041435d62' 'a\342\202\254b' -t ISO-8859-1 --unicode-subst='é[%04X]' --block-size=1
  conv 0 '61e2809c333737e2809d62' 'a\377b' --byte-subst='‘%u’' --byte-subst='“%o”'
}

@test "--byte-subst/--unicode-subst: a character the output cannot hold is a usage error naming it" {
  printf 'a\342\202\254b' >in
  run --separate-stderr "$UTF8CONV" -t ISO-8859-1 --unicode-subst='€%x' in
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: --unicode-subst format '\\342\\202\\254%x': cannot encode U+20AC in ISO-8859-1
Try 'utf8conv --help' for more information."
  run --separate-stderr "$UTF8CONV" -t ASCII --byte-subst='<%x>é' -e replace in
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: --byte-subst format '<%x>\\303\\251': cannot encode U+00E9 in US-ASCII
Try 'utf8conv --help' for more information."
  run --separate-stderr "$UTF8CONV" -t latin1 --unicode-subst='😀%x' --check in
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: --unicode-subst format '\\360\\237\\230\\200%x': cannot encode U+1F600 in ISO-8859-1
Try 'utf8conv --help' for more information."
}

@test "--byte-subst/--unicode-subst: invalid UTF-8 or a width above 2147483647 is a usage error" {
  run --separate-stderr "$UTF8CONV" --byte-subst=$'\377%x' </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: invalid --byte-subst format '\\377%x': not valid UTF-8
Try 'utf8conv --help' for more information."
  run --separate-stderr "$UTF8CONV" --unicode-subst='%2147483648x' </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: invalid --unicode-subst format '%2147483648x': a width or precision above 2147483647
Try 'utf8conv --help' for more information."
  run --separate-stderr "$UTF8CONV" --unicode-subst='%x%d' </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: invalid --unicode-subst format '%x%d'
Try 'utf8conv --help' for more information."
}

@test "--byte-subst/--unicode-subst: flags, width and precision as printf(1) writes them" {
  local f want
  printf 'a\377b' >in
  for f in '%#o' '%#x' '%#X' '%-6d|' '%06u' '%.4x' '%8.4X' '%-#8x|' '%08.3o' '%.0d'; do
    want=$(printf "a${f}b" 255)
    run --separate-stderr "$UTF8CONV" --byte-subst="$f" in
    assert_equal "$status" 0
    assert_equal "$output" "$want"
  done
}
