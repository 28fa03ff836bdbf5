#!/usr/bin/env bats
# Binary files (SPEC §12): the test holds for real files, whatever -f
# says.  binary-corpus.py makes, at test time, real files of many
# formats (Python's modules, ImageMagick, msgfmt, javac, ELF files of
# the system) of 1 KiB to over 1 MiB, and computes the first control
# byte of each; no binary is committed.  Every one must be left alone,
# byte for byte and inode for inode, in every mode of -i and -r, and no
# text file may be called binary.

bats_require_minimum_version 1.5.0
load ../test_helper

setup_file() {
  CORPUS=$BATS_FILE_TMPDIR/corpus
  export CORPUS
  python3 "$UTF8CONV_SRCDIR/tests/cli/binary-corpus.py" "$CORPUS" 2
}

# bins: a fresh copy of the binaries in ./bin, and their state in
# ./before (name, inode, modification time, size).
bins() {
  cp -r "$CORPUS/bin" bin
  state >before
}

state() {
  find bin -type f -printf '%p %i %T@ %s\n' | LC_ALL=C sort
}

# expected [FILE...]: the warnings that the binaries FILEs (default:
# all) give, in name order.
expected() {
  local name what
  while IFS=$'\t' read -r name what; do
    if [ $# -eq 0 ] || [[ " $* " == *" bin/$name "* ]]; then
      printf 'utf8conv: bin/%s: binary file (%s), skipped; --binary converts it\n' \
        "$name" "$what"
    fi
  done <"$CORPUS/bin.list" | LC_ALL=C sort
}

# left_alone: every binary is the corpus's, byte for byte, with the same
# inode and time, and nothing was added beside it (no backup, no
# temporary file).
left_alone() {
  diff -r "$CORPUS/bin" bin || fail "a binary was changed"
  state >after
  cmp before after || fail "an inode or a time changed: $(diff before after)"
}

# skips ARG...: run utf8conv ARG... with --report on the binaries; it
# must exit 0, warn about each with its right offset, count every one
# as skipped, and leave them alone.
skips() {
  local n
  n=$(wc -l <"$CORPUS/bin.list")
  run --separate-stderr "$UTF8CONV" --report "$@"
  assert_equal "$status" 0
  assert_equal "$(grep -v '^utf8conv: report:' <<<"$stderr" | LC_ALL=C sort)" \
    "$(expected)"
  [[ "$stderr" == *"utf8conv: report: total: $n files ($n skipped)"* ]] ||
    fail "not all $n counted as skipped: $(tail -n 1 <<<"$stderr")"
  left_alone
}

@test "real binaries are left alone under -i, with the offset of their first control byte, whatever -f and -e say" {
  bins
  skips -i bin/*
  skips -i.bak bin/*
  skips -f auto -i bin/*
  skips -f CP1252 -i bin/*
  skips -f auto --eol=lf -i bin/*
  skips -e replace -i bin/*
  skips -c -i bin/*
  skips -f CP1252 -e replace --eol=crlf -k -i bin/*
}

@test "real binaries are left alone under -r: -r -i, -r --check, -r to standard output" {
  bins
  skips -r -i bin
  skips -r -f auto -i.bak --eol=lf bin
  skips -r -f CP1252 -c -i bin
  skips -r --check bin
  skips -r -f auto --check bin
  skips -r -f CP1252 -o out bin
  assert_equal "$(stat -c %s out)" 0
}

@test "--detect says binary for every binary, with and without -r" {
  bins
  run --separate-stderr "$UTF8CONV" --detect bin/*
  assert_equal "$status" 0
  assert_equal "$output" "$(cut -f 1 "$CORPUS/bin.list" | LC_ALL=C sort | sed 's|^\(.*\)$|bin/\1: binary|')"
  assert_equal "$stderr" ""
  run --separate-stderr "$UTF8CONV" --detect -r bin
  assert_equal "$output" "$(cut -f 1 "$CORPUS/bin.list" | LC_ALL=C sort | sed 's|^\(.*\)$|bin/\1: binary|')"
  left_alone
}

# tool_files TOOL GLOB: skip unless the corpus has TOOL's files.
tool_files() {
  if grep -qx "$1" "$CORPUS/missing"; then
    skip "$1 is not installed"
  fi
}

@test "ImageMagick's JPEG, PNG, GIF, TIFF and BMP are binary" {
  tool_files convert
  bins
  run --separate-stderr "$UTF8CONV" -f auto -i bin/*.jpg bin/*.png bin/*.gif bin/*.tif bin/*.bmp
  assert_equal "$status" 0
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" "$(expected bin/i0.jpg bin/i1.jpg bin/i0.png bin/i1.png bin/i0.gif bin/i1.gif bin/i0.tif bin/i1.tif bin/i0.bmp bin/i1.bmp)"
  left_alone
}

@test "msgfmt's catalogues, in both byte orders, are binary" {
  tool_files msgfmt
  bins
  run --separate-stderr "$UTF8CONV" -f auto -i bin/*.mo
  assert_equal "$status" 0
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" "$(expected bin/l0-little.mo bin/l0-big.mo bin/l1-little.mo bin/l1-big.mo)"
  left_alone
}

@test "javac's class files are binary" {
  tool_files javac
  bins
  run --separate-stderr "$UTF8CONV" -f auto -i bin/*.class
  assert_equal "$status" 0
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" "$(expected bin/Note0.class bin/Note1.class)"
  left_alone
}

@test "a file without a magic number whose first control byte lies after 1 MiB is binary, and the warning names that byte" {
  { printf '\351t\351 '; head -c 1048576 /dev/zero | tr '\0' a; printf '\000\001'; } >late
  cp late late.orig
  for from in auto CP1252 UTF-8; do
    run --separate-stderr "$UTF8CONV" -f "$from" -i late
    assert_equal "$status" 0
    assert_equal "$stderr" "utf8conv: late: binary file (U+0000 at byte 1048580), skipped; --binary converts it"
    cmp late late.orig
  done
}

@test "text is never binary: UTF-16, UTF-32, UTF-8 with ESC, FF and SUB, CP1252, Shift_JIS, ISO-2022-KR and EBCDIC convert" {
  cp -r "$CORPUS/text" text
  local name from want
  while IFS=$'\t' read -r name from want; do
    run --separate-stderr "$UTF8CONV" -f "$from" --bom=strip -i "text/$name"
    assert_equal "$stderr" ""
    assert_equal "$status" 0
    cmp "text/$name" "$CORPUS/want/$want" || fail "$name under -f $from"
  done <"$CORPUS/text.list"
}

@test "--detect and -r -f auto --check call no text file binary that -f auto reads" {
  mkdir text
  local name
  for name in u16le-bom u16be-bom u16le u16be u32le-bom u32be-bom u32le u32be ctl cp1252 sjis; do
    cp "$CORPUS/text/$name.txt" text/
  done
  run --separate-stderr "$UTF8CONV" --detect text/*
  assert_equal "$status" 0
  [[ "$output" != *binary* ]] || fail "$output"
  assert_equal "$(wc -l <<<"$output")" 11
  [[ "$output" == *"text/u32le.txt: UTF-32LE (confidence 0.99, NUL pattern)"* ]] || fail "$output"
  [[ "$output" == *"text/u32be.txt: UTF-32BE (confidence 0.99, NUL pattern)"* ]] || fail "$output"
  run --separate-stderr "$UTF8CONV" -r -f auto --check --report text
  assert_equal "$status" 0
  [[ "$stderr" == *"total: 11 files (11 valid)"* ]] || fail "$stderr"
}

@test "BOM-less UTF-16 of other scripts (Cyrillic, Greek, Arabic, Chinese, Korean) is UTF-16 by its script, in either byte order, and converts exactly" {
  local text=(
    'Пример русского текста для проверки.'
    'Ελληνικό κείμενο για δοκιμή, χωρίς σημάδι.'
    'نص عربي للاختبار بدون علامة ترتيب البايتات'
    '中文文本的例子，这是一个测试。日本語のテキストです。我们的档案里有很多旧文件，需要转换。'
    '한국어 텍스트의 예입니다. 바이트 순서 표시가 없습니다. 오래된 문서를 변환합니다.'
  )
  local t k=0 order
  for t in "${text[@]}"; do
    printf '%s\n' "$t" >want
    for order in LE BE; do
      iconv -f UTF-8 -t UTF-16$order want >in
      run --separate-stderr "$UTF8CONV" --detect in
      assert_equal "$output" "in: UTF-16$order (confidence 0.99, NUL pattern)"
      "$UTF8CONV" -f auto in >out
      cmp out want || fail "text $k, $order: -f auto"
      "$UTF8CONV" -f UTF-16 in >out
      cmp out want || fail "text $k, $order: -f UTF-16"
      cp in f
      run --separate-stderr "$UTF8CONV" -f auto -i f
      assert_equal "$status" 0
      cmp f want || fail "text $k, $order: -f auto -i"
    done
    k=$((k + 1))
  done
  # Eight letters at least, 32 in Chinese, Japanese and Korean:
  # shorter, it is what it was (binary here: Cyrillic's 04 is a control
  # byte, and so is 0E, the low byte of 丁).
  printf 'Привет' | iconv -f UTF-8 -t UTF-16LE >short
  run --separate-stderr "$UTF8CONV" --detect short
  assert_equal "$output" "short: binary"
  printf '丁中文文本的例子这是一个测试' | iconv -f UTF-8 -t UTF-16LE >short
  run --separate-stderr "$UTF8CONV" --detect short
  assert_equal "$output" "short: binary"
  # A unit no text holds (a private-use one, a lone surrogate) rules a
  # byte order out.
  { printf 'Пример русского текста' | iconv -f UTF-8 -t UTF-16LE
    printf '\x00\xe0'; } >bad
  run --separate-stderr "$UTF8CONV" --detect bad
  assert_equal "$output" "bad: binary"
  { printf 'Пример русского текста' | iconv -f UTF-8 -t UTF-16LE
    printf '\x00\xdc'; } >bad
  run --separate-stderr "$UTF8CONV" --detect bad
  assert_equal "$output" "bad: binary"
}

@test "under the default -f, UTF-16 and UTF-32 text is invalid input, not binary: a diagnostic names the form, exit 1, unchanged" {
  cp -r "$CORPUS/text" text
  local name form
  for name in u16le-bom u16be-bom u16le u16be u32le-bom u32be-bom u32le u32be; do
    cp "text/$name.txt" orig
    run --separate-stderr "$UTF8CONV" -i "text/$name.txt"
    assert_equal "$status" 1
    case $name in
      u16le-bom) form='UTF-16LE (BOM); use -f auto or -f UTF-16' ;;
      u16be-bom) form='UTF-16BE (BOM); use -f auto or -f UTF-16' ;;
      u16le) form='UTF-16LE (no BOM); use -f auto or -f UTF-16' ;;
      u16be) form='UTF-16BE (no BOM); use -f auto or -f UTF-16' ;;
      u32le-bom) form='UTF-32LE (BOM); use -f auto or -f UTF-32' ;;
      u32be-bom) form='UTF-32BE (BOM); use -f auto or -f UTF-32' ;;
      u32le) form='UTF-32LE (no BOM); use -f auto or -f UTF-32' ;;
      u32be) form='UTF-32BE (no BOM); use -f auto or -f UTF-32' ;;
    esac
    assert_equal "$stderr" "utf8conv: text/$name.txt: looks like $form"
    cmp orig "text/$name.txt"
  done
  # -f CP1252 does not read it either.
  run --separate-stderr "$UTF8CONV" -f CP1252 --eol=lf -i text/u16le-bom.txt
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: text/u16le-bom.txt: looks like UTF-16LE (BOM); use -f auto or -f UTF-16"
}

@test "a UTF-16 file in a -r --check tree makes the exit status 1 under the default -f, and is valid under -f auto" {
  mkdir d
  printf 'plain\n' >d/a.txt
  cp "$CORPUS/text/u16le-bom.txt" d/export.txt
  run --separate-stderr "$UTF8CONV" -r --check -q d
  assert_equal "$status" 1
  assert_equal "$stderr" ""
  run --separate-stderr "$UTF8CONV" -r --check --report d
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: report: d/a.txt: valid, in 6 B, 6 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: d/export.txt: looks like UTF-16LE (BOM); use -f auto or -f UTF-16
utf8conv: report: d/export.txt: invalid (looks like UTF-16LE)
utf8conv: report: total: 2 files (1 valid, 1 invalid), in 6 B, 6 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0"
  run --separate-stderr "$UTF8CONV" -r -f auto --check -q d
  assert_equal "$status" 0
  assert_equal "$stderr" ""
}

@test "-f UTF-16LE reads UTF-16LE text, BOM or not; a UTF-32 BOM is another form, and a PNG is binary under it too" {
  printf 'h\000i\000\n\000' >a
  printf '\377\376h\000i\000\n\000' >b
  run --separate-stderr "$UTF8CONV" -f UTF-16LE --bom=strip -i a b
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  assert_hex a '68 69 0a'
  assert_hex b '68 69 0a'
  printf '\377\376\000\000h\000\000\000' >c
  run --separate-stderr "$UTF8CONV" -f UTF-16LE -i c
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: c: looks like UTF-32LE (BOM); use -f auto or -f UTF-32"
  printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >p.png
  run --separate-stderr "$UTF8CONV" -f UTF-16LE -i p.png
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: p.png: binary file (PNG, U+0000 at byte 8), skipped; --binary converts it"
  assert_hex p.png '89 50 4e 47 0d 0a 1a 0a 00 00 00 0d 49 48 44 52'
}

@test "text that starts like a magic number is still text: MZ without a PE header, RIFF without a form, BZh without a block, GIF alone" {
  printf 'MZ notes\n' >mz
  printf 'RIFF notes\n' >riff
  printf 'BZh9 notes\n' >bz
  printf 'GIF notes\n' >gif
  printf 'OTTO notes\n' >otto
  run --separate-stderr "$UTF8CONV" -f auto -i --report mz riff bz gif otto
  assert_equal "$status" 0
  [[ "$stderr" != *binary* ]] || fail "$stderr"
  [[ "$stderr" == *"total: 5 files (5 unchanged)"* ]] || fail "$stderr"
}

@test "ISO-2022-KR's shifts and EBCDIC's NEL (bytes 0E, 0F, 15) are characters of the decoded text, not binary bytes" {
  cp "$CORPUS/text/kr.txt" "$CORPUS/text/ebcdic.txt" .
  # Read byte by byte, each file holds a control byte that text does not.
  grep -q "$(printf '\016')" kr.txt
  grep -q "$(printf '\025')" ebcdic.txt
  run --separate-stderr "$UTF8CONV" -f ISO-2022-KR --bom=strip -i kr.txt
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  cmp kr.txt "$CORPUS/want/kr.txt"
  run --separate-stderr "$UTF8CONV" -f IBM037 --bom=strip -r -i ebcdic.txt
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  cmp ebcdic.txt "$CORPUS/want/ebcdic.txt"
}
