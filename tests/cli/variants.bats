#!/usr/bin/env bats
# UTF-8's variants CESU-8, MUTF-8 and WTF-8 (SPEC §3): exact bytes and
# exit statuses on hand-written inputs, then the golden cases of
# tests/golden/variants/ (made by Python, Java and ICU's uconv, see
# gen.py there) at several block sizes.

bats_require_minimum_version 1.5.0
load ../test_helper

VARIANTS=$GOLDEN/variants

# The names and aliases of SPEC §3.
@test "variants: names and aliases" {
  run "$UTF8CONV" -l
  assert_success
  assert_line 'CESU-8 CESU8'
  assert_line 'MUTF-8 MODIFIED-UTF-8 JAVA MUTF8'
  assert_line 'WTF-8 WTF8'
  conv 0 'c080' '\0' -t java
  conv 0 'c080' '\0' -t Modified-UTF-8
  conv 0 'c080' '\0' -t mutf8
  conv 0 'f09f9880' '\xed\xa0\xbd\xed\xb8\x80' -f cesu8
  conv 0 'eda080' '\0\xd8' -f UTF-16LE -t wtf8
}

@test "WTF-8: UTF-16LE with lone surrogates converts losslessly under strict" {
  # A, lone D800, B, lone DC00, a pair (U+1F600), lone DC00 at the end.
  local u16='A\0\0\xd8B\0\0\xdc\x3d\xd8\x00\xde\x00\xdc'
  conv 0 '41 eda080 42 edb080 f09f9880 edb080' "$u16" -f UTF-16LE -t WTF-8 -e strict
  [ ! -s err ] || fail "unexpected diagnostic: $(cat err)"
  cp out wtf8
  "$UTF8CONV" -f WTF-8 -t UTF-16LE -e strict wtf8 >back
  printf "$u16" >orig
  cmp orig back
  # A high surrogate cut from its low one by the end of the input.
  conv 0 '41 eda0bd' 'A\0\x3d\xd8' -f UTF-16LE -t WTF-8 --block-size=1
}

@test "WTF-8: round trip UTF-16LE -> WTF-8 -> UTF-16LE is byte-identical" {
  printf 'x\0\xff\xdb\xff\xdb\xff\xdf\0\xdc\0\xd8\x3d\xd8' >orig
  for bs in 1 2 3 65536; do
    "$UTF8CONV" -f UTF-16LE -t WTF-8 --block-size=$bs orig >wtf8
    "$UTF8CONV" -f WTF-8 -t UTF-16LE --block-size=$bs wtf8 >back
    cmp orig back
  done
  assert_hex wtf8 '78 edafbf f48fbfbf edb080 eda080 eda0bd'
}

@test "WTF-8: the encoder joins a high surrogate directly followed by a low one" {
  # From UTF-32 the two halves arrive as separate values.
  conv 0 'f0908080' '\0\xd8\0\0\0\xdc\0\0' -f UTF-32LE -t WTF-8
  conv 0 'f0908080' '\0\xd8\0\0\0\xdc\0\0' -f UTF-32LE -t WTF-8 --block-size=1
  conv 0 'eda080 f0908080' '\0\xd8\0\0\0\xd8\0\0\0\xdc\0\0' -f UTF-32LE -t WTF-8
  conv 0 'edb080 eda080' '\0\xdc\0\0\0\xd8\0\0' -f UTF-32LE -t WTF-8
  # MUTF-8 keeps the two 3-byte forms; they decode as one character.
  conv 0 'eda080 edb080' '\0\xd8\0\0\0\xdc\0\0' -f UTF-32LE -t MUTF-8
}

@test "WTF-8: a held-back high surrogate is written at a strict stop" {
  conv 1 'eda080' '\0\xd8\0\0\0\0\x11\0' -f UTF-32LE -t WTF-8
  grep -q 'invalid UTF-32LE' err
  conv 0 'eda080 efbfbd' '\0\xd8\0\0\0\0\x11\0' -f UTF-32LE -t WTF-8 -e replace
}

@test "WTF-8: joining never reaches across input files" {
  printf '\0\xd8\0\0' >a
  printf '\0\xdc\0\0' >b
  "$UTF8CONV" -f UTF-32LE -t WTF-8 a b >out
  assert_hex out 'eda080 edb080'
}

@test "WTF-8: a pair as two 3-byte forms is ill-formed, the low one is the error" {
  conv 1 '00d8' '\xed\xa0\x80\xed\xb0\x80' -f WTF-8 -t UTF-16LE
  grep -q 'byte 3: invalid WTF-8: ED B0 80 (surrogate)' err || fail "$(cat err)"
  conv 0 '00d8 fdff' '\xed\xa0\x80\xed\xb0\x80' -f WTF-8 -t UTF-16LE -e replace
  conv 0 '00d8 fdff' '\xed\xa0\x80\xed\xb0\x80' -f WTF-8 -t UTF-16LE -e replace --block-size=1
  conv 0 'f0908080' '\xf0\x90\x80\x80' -f WTF-8 -t WTF-8
}

@test "WTF-8: a data lone surrogate to UTF-8 is an encoding error" {
  conv 1 '61' 'a\xed\xa0\x80b' -f WTF-8 -t UTF-8 -e strict
  grep -q 'cannot encode U+D800 in UTF-8' err || fail "$(cat err)"
  conv 0 '61 efbfbd 62' 'a\xed\xa0\x80b' -f WTF-8 -t UTF-8 -e replace
  conv 0 '61 5c7564383030 62' 'a\xed\xa0\x80b' -f WTF-8 -t UTF-8 -e escape
  # ignore drops it, and exits 1 for having dropped something (SPEC §2).
  conv 1 '6162' 'a\xed\xa0\x80b' -f WTF-8 -t UTF-8 -e ignore
  # But not a decoding error: WTF-8 input is well-formed.
  "$UTF8CONV" --check -f WTF-8 in
  run "$UTF8CONV" --check -f WTF-8 -t UTF-8 in
  assert_failure 1
}

@test "MUTF-8: NUL is written as C0 80" {
  conv 0 '61 c080 62' 'a\0b' -t MUTF-8
  conv 0 'c080 c080' '\0\0' -t MUTF-8 --block-size=1
  conv 0 'c080' '\0\0' -f UTF-16LE -t MUTF-8
}

@test "MUTF-8: a raw 00 byte is accepted on input" {
  conv 0 '0061 0000 0062 0000' 'a\0b\xc0\x80' -f MUTF-8 -t UTF-16BE
  conv 0 '61 c080 62 c080' 'a\0b\xc0\x80' -f MUTF-8 -t MUTF-8
  conv 0 '61 00 62 00' 'a\0b\xc0\x80' -f MUTF-8 -t UTF-8
  # Other overlong forms stay ill-formed.
  conv 1 '' '\xc0\x81' -f MUTF-8
  conv 1 '' '\xe0\x80\x80' -f MUTF-8
}

@test "MUTF-8: supplementary as two 3-byte forms, lone surrogates both ways" {
  conv 0 'eda0bd edb880' '\xf0\x9f\x98\x80' -t MUTF-8
  conv 0 'f09f9880' '\xed\xa0\xbd\xed\xb8\x80' -f MUTF-8
  conv 0 '00d8 4100 00dc' '\xed\xa0\x80A\xed\xb0\x80' -f MUTF-8 -t UTF-16LE
  conv 0 'eda080 41 edb080' '\0\xd8A\0\0\xdc' -f UTF-16LE -t MUTF-8
  # 4-byte forms are ill-formed.
  conv 0 'efbfbd efbfbd efbfbd efbfbd' '\xf0\x9f\x98\x80' -f MUTF-8 -e replace
}

@test "CESU-8: a 6-byte surrogate pair to UTF-8" {
  conv 0 'f09f9880' '\xed\xa0\xbd\xed\xb8\x80' -f CESU-8 -t UTF-8
  conv 0 'f09f9880' '\xed\xa0\xbd\xed\xb8\x80' -f CESU-8 -t UTF-8 --block-size=1
  conv 0 'f48fbfbf' '\xed\xaf\xbf\xed\xbf\xbf' -f CESU-8 -t UTF-8
  conv 0 'eda0bd edb880' '\xf0\x9f\x98\x80' -t CESU-8
}

@test "CESU-8: 4-byte forms and lone surrogates are ill-formed" {
  conv 1 '' '\xf0\x9f\x98\x80' -f CESU-8
  grep -q 'byte 0: invalid CESU-8: F0 (invalid byte)' err || fail "$(cat err)"
  conv 0 'efbfbd efbfbd efbfbd efbfbd' '\xf0\x9f\x98\x80' -f CESU-8 -e replace
  # Maximal subparts of CESU-8's own well-formed sequences, except that
  # a high surrogate without its low one is one error of its own three
  # bytes, so that an ED after it is read again and can start a
  # character (regression: U+D7FF and U+10000 were swallowed).
  conv 0 'efbfbd 41' '\xed\xa0\x80A' -f CESU-8 -e replace
  conv 0 'efbfbd efbfbd efbfbd 41' '\xed\xa0\x80\xed\xb0A' -f CESU-8 -e replace
  conv 0 'efbfbd ed9fbf' '\xed\xa0\x80\xed\x9f\xbf' -f CESU-8 -e replace
  conv 0 'efbfbd f0908080' '\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80' -f CESU-8 -e replace
  conv 1 '78' 'x\xed\xa0\x80\xed\x9f\xbf' -f CESU-8
  grep -q 'byte 1: invalid CESU-8: ED A0 80 (surrogate)' err || fail "$(cat err)"
  conv 0 'efbfbd efbfbd efbfbd' '\xed\xb0\x80' -f CESU-8 -e replace
  conv 0 '5c786564 5c786230 5c783830' '\xed\xb0\x80' -f CESU-8 -e escape
  # A lone surrogate cannot be written in CESU-8.
  conv 1 '41' 'A\xed\xa0\x80' -f WTF-8 -t CESU-8
  grep -q 'cannot encode U+D800 in CESU-8' err || fail "$(cat err)"
  conv 0 '41 efbfbd' 'A\xed\xa0\x80' -f WTF-8 -t CESU-8 -e replace
}

@test "surrogateescape to WTF-8 and MUTF-8 writes 3-byte forms of DC80-DCFF" {
  conv 0 '61 edb280 edb3bf 62' 'a\x80\xffb' -e surrogateescape -t WTF-8
  conv 0 '61 edb280 edb3bf 62' 'a\x80\xffb' -e surrogateescape -t MUTF-8
  # And back: to UTF-8 they are the raw bytes again.
  conv 0 '61 80 ff 62' 'a\xed\xb2\x80\xed\xb3\xbfb' -f WTF-8 -e surrogateescape
  conv 0 '61 80 ff 62' 'a\xed\xb2\x80\xed\xb3\xbfb' -f MUTF-8 -e surrogateescape
  # To CESU-8 they are raw bytes too (SPEC §3).
  conv 0 '61 80 ff 62' 'a\x80\xffb' -e surrogateescape -t CESU-8
  # So CESU-8 to CESU-8 is the identity on any input.
  conv 0 'eda080 41 ff f0 eda0bdedb880 edb080' \
    '\xed\xa0\x80A\xff\xf0\xed\xa0\xbd\xed\xb8\x80\xed\xb0\x80' \
    -f CESU-8 -t CESU-8 -e surrogateescape
}

# run_variants [OPTION]...: every row of the variants manifest.
run_variants() {
  run_manifest "$VARIANTS" 200 "$@"
}

@test "variant golden cases, default block size" {
  run_variants
}

@test "variant golden cases, --block-size=1" {
  run_variants --block-size=1
}

@test "variant golden cases, --block-size=2" {
  skip_under_valgrind
  run_variants --block-size=2
}

@test "variant golden cases, --block-size=5" {
  skip_under_valgrind
  run_variants --block-size=5
}

@test "variant golden cases, --block-size=7" {
  skip_under_valgrind
  run_variants --block-size=7
}

@test "variant golden files are what gen.py makes with Python, Java and uconv" {
  command -v python3 >/dev/null || skip "python3 is required"
  command -v java >/dev/null || skip "java is required"
  command -v uconv >/dev/null || skip "uconv (icu-devtools) is required"
  cp -R "$VARIANTS" g
  chmod -R u+w g
  python3 g/gen.py >/dev/null
  diff -r "$VARIANTS" g
}

@test "WTF-8 output joins a high surrogate with the low one after an error (man page)" {
  # The values that reach the encoder are joined, as WTF-8 requires of
  # any such pair, whatever came between them in the input.
  conv 0 'f09083bf' '\xed\xa0\x80\xff' -f WTF-8 -t WTF-8 -e surrogateescape
  conv 1 'f0908080' '\xed\xa0\x80\xff\xed\xb0\x80' -f WTF-8 -t WTF-8 -e ignore
  conv 1 'eda080' '\xed\xa0\x80\xff\xed\xb0\x80' -f WTF-8 -t WTF-8
  conv 0 'eda080 efbfbd edb080' '\xed\xa0\x80\xff\xed\xb0\x80' -f WTF-8 -t WTF-8 -e replace
}
