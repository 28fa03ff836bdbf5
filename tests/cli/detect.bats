#!/usr/bin/env bats
# -f auto beyond CP1252 (SPEC §13): the legacy code page of a file that is
# not well-formed UTF-8 is detected from its first 64 KiB; --fallback
# names it instead; --detect prints what was found.  The samples are
# real translated messages (tests/detect/samples/README).

load ../test_helper
bats_require_minimum_version 1.5.0

SAMPLES="$UTF8CONV_SRCDIR/tests/detect/samples"

# detects LANG ENC: the sample LANG encoded in ENC is detected as ENC.
detects() {
  "$UTF8CONV" -t "$2" "$SAMPLES/$1.txt" >"$1.$2"
  run -0 "$UTF8CONV" --detect "$1.$2"
  [[ $output =~ ^"$1.$2: $2 (confidence "(0|1)\.[0-9][0-9]")"$ ]] \
    || fail "$1 in $2: $output"
}

# converts_back LANG ENC: -f auto converts LANG.ENC back to the sample's
# bytes at block sizes 1, 2, 3, 7 and the default.
converts_back() {
  local b
  for b in 1 2 3 7 default; do
    local size=()
    [ "$b" = default ] || size=(--block-size="$b")
    run -0 "$UTF8CONV" -f auto "${size[@]}" -o "out.$b" "$1.$2"
    cmp "out.$b" "$SAMPLES/$1.txt" || fail "$1 in $2, block size $b"
  done
}

# round_trips LANG ENC: the sample LANG encoded in ENC is detected as ENC,
# and -f auto converts it back to the sample's bytes.
round_trips() {
  detects "$1" "$2"
  converts_back "$1" "$2"
}

# reads_back LANG ENC ALIKE: the sample LANG encoded in ENC, which the code
# page ALIKE decodes to the same text, is detected as ENC or ALIKE, and -f
# auto converts it back to the sample's bytes.  For text that holds no
# byte on which the two differ: its name cannot be told from its bytes.
reads_back() {
  "$UTF8CONV" -t "$2" "$SAMPLES/$1.txt" >"$1.$2"
  "$UTF8CONV" -f "$3" "$1.$2" | cmp - "$SAMPLES/$1.txt" \
    || fail "$1 reads otherwise in $2 and $3: the test needs another sample"
  run -0 "$UTF8CONV" --detect "$1.$2"
  [[ $output =~ ^"$1.$2: "("$2"|"$3")" (confidence "(0|1)\.[0-9][0-9]")"$ ]] \
    || fail "$1 in $2: $output"
  converts_back "$1" "$2"
}

@test "detect: Western European code pages" {
  round_trips de CP1252
  round_trips fr CP1252
  round_trips es CP1252
  round_trips de CP850
  round_trips fr CP850
  round_trips es CP850
  round_trips de MACINTOSH
  round_trips fr MACINTOSH
  round_trips es MACINTOSH
}

@test "detect: ISO-8859-15 is told from CP1252 by the oe ligature, and reads back where they agree" {
  # fr-4 holds "inœud" (BD in ISO-8859-15, 9C in CP1252).
  round_trips fr-4 ISO-8859-15
  round_trips fr-4 CP1252
  # The other samples hold no €, Š, š, Ž, ž, Œ, œ or Ÿ: both code pages
  # read them alike, and CP1252 (the earlier candidate) is the name.
  reads_back de ISO-8859-15 CP1252
  reads_back fr ISO-8859-15 CP1252
  reads_back es-1 ISO-8859-15 CP1252
}

@test "detect: CP437 text reads back exactly, as CP850 reads it alike" {
  # CP437 and CP850 differ in box drawing, a few symbols and the capitals
  # with accents that these samples lack (es.txt has Ó, which CP437 has
  # not: es-1 is used instead); CP850, the earlier candidate, is named.
  reads_back de CP437 CP850
  reads_back fr CP437 CP850
  reads_back es-1 CP437 CP850
}

@test "detect: Central European code pages" {
  round_trips cs CP1250
  round_trips pl CP1250
  round_trips cs ISO-8859-2
  # pl.txt has a letter ISO-8859-2 lacks; pl-1 has not.
  round_trips pl-1 ISO-8859-2
  # Hungarian's letters (ő, ű, á, é...) are the same bytes in both, and
  # CP1250, the earlier candidate, is the name.
  reads_back hu-1 ISO-8859-2 CP1250
  round_trips hu-1 CP1250
}

@test "detect: Cyrillic code pages" {
  round_trips ru CP1251
  round_trips ru KOI8-R
  # Some pairs of their bytes are well-formed UTF-8, which -f auto
  # reads as UTF-8 (SPEC §13): detected, but not every byte comes back.
  detects ru ISO-8859-5
  detects uk KOI8-U
  # ru-1 holds no such pair.
  round_trips ru-1 ISO-8859-5
}

@test "detect: KOI8-U text without a well-formed UTF-8 pair reads back exactly" {
  # Every Ukrainian sample holds a KOI8-U pair that is well-formed UTF-8
  # (р before і, D2 A6, is U+04A6).  Lines 19-22 of uk-3 hold none, and
  # their є (A4) is not KOI8-R's.
  sed -n '19,22p' "$SAMPLES/uk-3.txt" >uk.txt
  "$UTF8CONV" -t KOI8-U uk.txt >uk.KOI8-U
  run -0 "$UTF8CONV" --detect uk.KOI8-U
  [[ $output =~ ^"uk.KOI8-U: KOI8-U (confidence "0\.[0-9][0-9]")"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto uk.KOI8-U
  assert_output "$(cat uk.txt)"
  run -0 "$UTF8CONV" -f auto --block-size=1 -o out uk.KOI8-U
  cmp out uk.txt
}

@test "detect: Greek, Turkish, Hebrew, Arabic and Baltic code pages" {
  round_trips el CP1253
  round_trips tr CP1254
  round_trips he CP1255
  detects ar CP1256
  round_trips lt CP1257
  round_trips lv-1 CP1257
  round_trips et-1 CP1257
  # ar.txt holds a CP1256 pair that is well-formed UTF-8; ar-1 holds none.
  round_trips ar-1 CP1256
}

@test "detect: CP1253's capital alpha with tonos is not read as ISO-8859-7's right single quote" {
  # el-4 holds "Άγνωστο" (A2 in CP1253, B6 in ISO-8859-7; ISO-8859-7 reads
  # A2 as U+2019, which the Greek model never saw).  The pair (space,
  # U+2019) used to share a hash bucket with a common Greek pair and cost
  # almost nothing: the confidence was 0.28, and on longer text the
  # answer was ISO-8859-7.
  "$UTF8CONV" -t CP1253 "$SAMPLES/el-4.txt" >el-4.CP1253
  run -0 "$UTF8CONV" --detect el-4.CP1253
  assert_output "el-4.CP1253: CP1253 (confidence 0.64)"
  converts_back el-4 CP1253
  round_trips el-4 ISO-8859-7
  # The other Greek samples hold no byte on which the two differ.
  reads_back el ISO-8859-7 CP1253
  reads_back el-3 ISO-8859-7 CP1253
}

@test "detect: multi-byte code pages decode the whole file" {
  # The candidates are the Windows supersets CP932 and CP949 (SPEC §13):
  # Shift_JIS and EUC-KR text that holds nothing of the supersets' own
  # reads alike in them, and is named by them.
  reads_back ja SHIFT_JIS CP932
  round_trips ja CP932
  round_trips ja EUC-JP
  round_trips zh_CN GB18030
  round_trips zh_TW BIG5
  reads_back ko EUC-KR CP949
  round_trips ko CP949
}

@test "detect: a Windows Japanese memo with ①, ㈱, Ⅰ and № is CP932, not GB18030" {
  printf '社内連絡メモ\n①会議は午後三時から第二会議室で行います。\n②資料は㈱山田商事の見積書（№１２３）を使います。\n③第Ⅰ期の売上報告は来週までに提出してください。\n' >memo.txt
  "$UTF8CONV" -t CP932 memo.txt >memo.CP932
  # Shift_JIS has none of the four.
  run -1 "$UTF8CONV" -q -t SHIFT_JIS memo.txt
  run -0 "$UTF8CONV" --detect memo.CP932
  [[ $output =~ ^"memo.CP932: CP932 (confidence "(0|1)\.[0-9][0-9]")"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto -o out memo.CP932
  cmp out memo.txt
  run -0 "$UTF8CONV" -f auto --block-size=1 -o out memo.CP932
  cmp out memo.txt
}

@test "detect: DOS Russian CP866, Turkish ISO-8859-9 and Baltic ISO-8859-13" {
  # Lower-case р..я (E0..EF) before two of а..п (A0..AF) are
  # well-formed UTF-8, which -f auto reads as UTF-8 for now (as in
  # ISO-8859-5 and KOI8-U): detected, but not every byte comes back.
  detects ru CP866
  detects ru-1 CP866
  detects ru-2 CP866
  # ISO-8859-9 differs from CP1254 only in 80..9F, which Turkish text in
  # ISO-8859-9 does not use: CP1254, the earlier candidate, is the name.
  reads_back tr ISO-8859-9 CP1254
  reads_back tr-1 ISO-8859-9 CP1254
  # ISO-8859-13 and CP1257 differ in the quotation marks: lt-1 holds
  # none and reads alike in both (CP1257 is named); lv-1 holds ” (A1,
  # which CP1257 leaves undefined), and so does lt-1 with „ ” added.
  reads_back lt-1 ISO-8859-13 CP1257
  round_trips lv-1 ISO-8859-13
  printf '\xe2\x80\x9eFailas\xe2\x80\x9d nerastas: \xe2\x80\x9eFail\xc5\xb3 s\xc4\x85ra\xc5\xa1as\xe2\x80\x9d tu\xc5\xa1\xc4\x8dias.\n' >lt.txt
  cat "$SAMPLES/lt-1.txt" >>lt.txt
  "$UTF8CONV" -t ISO-8859-13 lt.txt >lt.ISO-8859-13
  run -0 "$UTF8CONV" --detect lt.ISO-8859-13
  [[ $output =~ ^"lt.ISO-8859-13: ISO-8859-13 (confidence "(0|1)\.[0-9][0-9]")"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto -o out lt.ISO-8859-13
  cmp out lt.txt
}

@test "detect: Western text of a language without a model of its own stays Western" {
  # Italian CP1252 text was read as CP1251 (è, à as и, а), Portuguese
  # as MacRoman, Danish as CP1257.  The samples are the team's own
  # (tests/detect/samples/README).
  round_trips it-w CP1252
  round_trips pt-w CP1252
  round_trips da-w CP1252
  round_trips nl-w CP1252
}

@test "detect: weak evidence stays CP1252" {
  printf 'caf\xe9 cr\xe8me\n' >in
  run -0 "$UTF8CONV" --detect in
  assert_output "in: CP1252 (confidence 0.45)"
  run -0 "$UTF8CONV" -f auto in
  assert_output "café crème"
}

@test "detect: well-formed UTF-8, ASCII and UTF-16 are their UTF form" {
  printf 'na\xc3\xafve\n' >u8
  printf 'plain\n' >ascii
  printf '\xff\xfea\x00\n\x00' >u16
  printf 'a\x00b\x00c\x00d\x00' >nul
  run -0 "$UTF8CONV" --detect u8 ascii u16 nul
  assert_output "u8: UTF-8 (confidence 1.00)
ascii: UTF-8 (confidence 1.00)
u16: UTF-16LE (confidence 1.00)
nul: UTF-16LE (confidence 1.00)"
}

@test "detect: --detect converts nothing, and an unreadable file is exit 2" {
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  run -2 --separate-stderr "$UTF8CONV" --detect ru missing ru
  assert_output "ru: CP1251 (confidence 0.99)
ru: CP1251 (confidence 0.99)"
  assert_equal "$stderr" "utf8conv: missing: No such file or directory"
}

@test "detect: --detect is -f auto's; another -f or -o is a usage error" {
  run -2 --separate-stderr "$UTF8CONV" --detect -f CP1252 /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --detect works with -f auto only (its default)"
  run -2 --separate-stderr "$UTF8CONV" --detect -o out /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --detect converts nothing: no -i, --check, -t or -o"
}

@test "detect: --fallback=ENC reads ill-formed UTF-8 in ENC, built in or iconv's" {
  printf '\xd0\xf3\xf1\xf1\xea\xe8\xe9 \xc3\xa9\n' >in
  run -0 "$UTF8CONV" -f auto --fallback=CP1252 in
  assert_output "Ðóññêèé é"
  run -0 "$UTF8CONV" -f auto --fallback=windows-1251 in
  assert_output "Русский é"
  run -0 "$UTF8CONV" -f auto in
  assert_output "Русский é"
  run -0 "$UTF8CONV" -f auto --fallback=KOI8-R --detect in
  assert_output "in: KOI8-R (confidence 1.00)"
}

@test "detect: --fallback needs a single-byte encoding and -f auto" {
  run -2 --separate-stderr "$UTF8CONV" -f auto --fallback=SHIFT_JIS /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback needs a single-byte encoding, not 'SHIFT_JIS'"
  run -2 --separate-stderr "$UTF8CONV" -f auto --fallback=UTF-16LE /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback needs a single-byte encoding, not 'UTF-16LE'"
  run -2 --separate-stderr "$UTF8CONV" --fallback=CP1251 /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback works with -f auto only"
  run -2 "$UTF8CONV" -f auto --fallback=no-such-thing /dev/null
}

@test "detect: --report names the code page, how it was chosen and the confidence" {
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  "$UTF8CONV" -t SHIFT_JIS "$SAMPLES/ja.txt" >ja
  run -0 --separate-stderr "$UTF8CONV" -f auto --report -o /dev/null ru ja
  [[ ${stderr_lines[0]} == *", detected UTF-8 (no BOM), 321 CP1251 fallbacks (321 B) (model, confidence 0.99)" ]] \
    || fail "${stderr_lines[0]}"
  # The candidate is CP932, Shift_JIS's Windows superset (SPEC §13).
  [[ ${stderr_lines[1]} == *", detected CP932 (model, confidence 0.99)" ]] \
    || fail "${stderr_lines[1]}"
}

@test "detect: a UTF-8 window with a few CP1252 bytes later reads them as CP1252" {
  # 16 well-formed Cyrillic letters decide UTF-8 before the window ends.
  printf '\xd0\xb0%.0s' $(seq 16) >in
  printf ' caf\xe9\n' >>in
  run -0 "$UTF8CONV" --detect in
  assert_output "in: CP1252 (confidence 1.00)"
  run -0 "$UTF8CONV" -f auto in
  assert_output "аааааааааааааааа café"
}

@test "detect: the same answer at every block size, for a window cut in a character" {
  local b
  "$UTF8CONV" -t EUC-JP "$SAMPLES/ja.txt" >ja
  # 70 KiB: the window ends inside the text.
  for b in $(seq 100); do cat ja; done | head -c 71680 >big
  "$UTF8CONV" -f EUC-JP -e replace big >want
  for b in 1 2 3 7 4096 default; do
    local size=()
    [ "$b" = default ] || size=(--block-size="$b")
    "$UTF8CONV" -f auto -e replace "${size[@]}" big >"out.$b"
    cmp "out.$b" want || fail "block size $b"
  done
}

@test "detect: on a pipe, the window is held back, the ASCII before it is not" {
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  mkfifo fifo
  "$UTF8CONV" -f auto <fifo >out &
  local pid=$!
  exec 5>fifo
  printf 'ascii first\n' >&5
  cat ru >&5
  # Wait for the ASCII line (up to 20 s on a loaded machine), then give
  # the Cyrillic text time to come out if it were not held back.
  for _ in $(seq 200); do [ -s out ] && break; sleep 0.1; done
  sleep 0.5
  # The ASCII line is out; the Cyrillic text waits for the window.
  assert_equal "$(cat out)" "ascii first"
  exec 5>&-
  wait "$pid"
  assert_equal "$(cat out)" "ascii first
$(cat "$SAMPLES/ru.txt")"
}

@test "detect: a mixed archive in place, --report names each file's code page; the total says legacy when they differ" {
  mkdir archive
  head -n 3 "$SAMPLES/ru.txt" | "$UTF8CONV" -t CP1251 >archive/notes-ru.txt
  head -n 3 "$SAMPLES/pl.txt" | "$UTF8CONV" -t CP1250 >archive/lista-pl.txt
  head -n 3 "$SAMPLES/de.txt" >archive/readme.txt
  run -0 --separate-stderr "$UTF8CONV" -r -f auto -i.bak --report archive
  assert_equal "$stderr" "\
utf8conv: report: archive/lista-pl.txt: converted, in 180 B, out 191 B, 180 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 3 CR 0, detected UTF-8 (no BOM), 9 CP1250 fallbacks (9 B) (model, confidence 0.88)
utf8conv: report: archive/notes-ru.txt: converted, in 79 B, out 137 B, 79 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 3 CR 0, detected UTF-8 (no BOM), 58 CP1251 fallbacks (58 B) (model, confidence 0.96)
utf8conv: report: archive/readme.txt: unchanged, in 184 B, 180 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 3 CR 0, detected UTF-8 (no BOM), 0 CP1252 fallbacks (0 B)
utf8conv: report: total: 3 files (2 converted, 1 unchanged), in 443 B, out 328 B, 439 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 9 CR 0, detected UTF-8 3, 67 legacy fallbacks (67 B)"
  head -n 3 "$SAMPLES/ru.txt" | cmp - archive/notes-ru.txt
  head -n 3 "$SAMPLES/pl.txt" | cmp - archive/lista-pl.txt
}
