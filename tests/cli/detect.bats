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
  require_detection_charsets
  "$UTF8CONV" -t "$2" "$SAMPLES/$1.txt" >"$1.$2"
  run -0 "$UTF8CONV" --detect "$1.$2"
  [[ $output =~ ^"$1.$2: $2 (confidence "(0|1)\.[0-9][0-9]", legacy)"$ ]] \
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

# converts LANG ENC: as round_trips, at the default block size only (the
# other block sizes are the older languages' tests' to check; this keeps
# the many short samples of the later languages fast).
converts() {
  detects "$1" "$2"
  run -0 "$UTF8CONV" -f auto -o out "$1.$2"
  cmp out "$SAMPLES/$1.txt" || fail "$1 in $2"
}

# reads_back LANG ENC ALIKE: the sample LANG encoded in ENC, which the code
# page ALIKE decodes to the same text, is detected as ENC or ALIKE, and -f
# auto converts it back to the sample's bytes.  For text that holds no
# byte on which the two differ: its name cannot be told from its bytes.
reads_back() {
  require_detection_charsets
  "$UTF8CONV" -t "$2" "$SAMPLES/$1.txt" >"$1.$2"
  "$UTF8CONV" -f "$3" "$1.$2" | cmp - "$SAMPLES/$1.txt" \
    || fail "$1 reads otherwise in $2 and $3: the test needs another sample"
  run -0 "$UTF8CONV" --detect "$1.$2"
  [[ $output =~ ^"$1.$2: "("$2"|"$3")" (confidence "(0|1)\.[0-9][0-9]", legacy)"$ ]] \
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
  # Some pairs of their bytes are well-formed UTF-8; a legacy file is
  # read by its code page, every byte of it (SPEC §5), so they come
  # back too.
  round_trips ru ISO-8859-5
  round_trips uk KOI8-U
  round_trips ru-1 ISO-8859-5
}

@test "detect: KOI8-U text without a well-formed UTF-8 pair reads back exactly" {
  require_detection_charsets
  # Every Ukrainian sample holds a KOI8-U pair that is well-formed UTF-8
  # (р before і, D2 A6, is U+04A6).  Lines 19-22 of uk-3 hold none, and
  # their є (A4) is not KOI8-R's.
  sed -n '19,22p' "$SAMPLES/uk-3.txt" >uk.txt
  "$UTF8CONV" -t KOI8-U uk.txt >uk.KOI8-U
  run -0 "$UTF8CONV" --detect uk.KOI8-U
  [[ $output =~ ^"uk.KOI8-U: KOI8-U (confidence "0\.[0-9][0-9]", legacy)"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto uk.KOI8-U
  assert_output "$(cat uk.txt)"
  run -0 "$UTF8CONV" -f auto --block-size=1 -o out uk.KOI8-U
  cmp out uk.txt
}

@test "detect: Greek, Turkish, Hebrew, Arabic and Baltic code pages" {
  round_trips el CP1253
  # tr.txt holds no byte on which CP1254 and ISO-8859-9 differ (80..9F):
  # ISO-8859-9 is named, and reads it alike.
  reads_back tr CP1254 ISO-8859-9
  round_trips he CP1255
  # ar.txt holds a CP1256 pair that is well-formed UTF-8: read as CP1256.
  round_trips ar CP1256
  round_trips lt CP1257
  round_trips lv-1 CP1257
  round_trips et-1 CP1257
  round_trips ar-1 CP1256
}

@test "detect: CP1253's capital alpha with tonos is not read as ISO-8859-7's right single quote" {
  require_detection_charsets
  # el-4 holds "Άγνωστο" (A2 in CP1253, B6 in ISO-8859-7; ISO-8859-7 reads
  # A2 as U+2019, which the Greek model never saw).  The pair (space,
  # U+2019) used to share a hash bucket with a common Greek pair and cost
  # almost nothing: the confidence was 0.28, and on longer text the
  # answer was ISO-8859-7.
  "$UTF8CONV" -t CP1253 "$SAMPLES/el-4.txt" >el-4.CP1253
  run -0 "$UTF8CONV" --detect el-4.CP1253
  assert_output "el-4.CP1253: CP1253 (confidence 0.64, legacy)"
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
  [[ $output =~ ^"memo.CP932: CP932 (confidence "(0|1)\.[0-9][0-9]", legacy)"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto -o out memo.CP932
  cmp out memo.txt
  run -0 "$UTF8CONV" -f auto --block-size=1 -o out memo.CP932
  cmp out memo.txt
}

@test "detect: DOS Russian CP866, Turkish ISO-8859-9 told from CP1254, and Baltic ISO-8859-13" {
  # Lower-case р..я (E0..EF) before two of а..п (A0..AF) are
  # well-formed UTF-8; a legacy file is read by its code page, every
  # byte of it (SPEC §5), so they come back too.
  round_trips ru CP866
  round_trips ru-1 CP866
  round_trips ru-2 CP866
  # ISO-8859-9 differs from CP1254 only in 80..9F (C1 controls in
  # ISO-8859-9, quotation marks and more in CP1254): text without those
  # bytes is named ISO-8859-9, text with them CP1254.
  round_trips tr ISO-8859-9
  round_trips tr-1 ISO-8859-9
  printf '\xe2\x80\x9cDosya\xe2\x80\x9d bulunamad\xc4\xb1 \xe2\x80\x93 yeniden deneyin.\n' >tr.txt
  cat "$SAMPLES/tr-1.txt" >>tr.txt
  "$UTF8CONV" -t CP1254 tr.txt >tr.CP1254
  run -0 "$UTF8CONV" --detect tr.CP1254
  [[ $output =~ ^"tr.CP1254: CP1254 (confidence "(0|1)\.[0-9][0-9]", legacy)"$ ]] \
    || fail "$output"
  run -0 "$UTF8CONV" -f auto -o out tr.CP1254
  cmp out tr.txt
  # ISO-8859-13 and CP1257 differ in the quotation marks: lt-1 holds
  # none and reads alike in both (CP1257 is named); lv-1 holds ” (A1,
  # which CP1257 leaves undefined), and so does lt-1 with „ ” added.
  reads_back lt-1 ISO-8859-13 CP1257
  round_trips lv-1 ISO-8859-13
  printf '\xe2\x80\x9eFailas\xe2\x80\x9d nerastas: \xe2\x80\x9eFail\xc5\xb3 s\xc4\x85ra\xc5\xa1as\xe2\x80\x9d tu\xc5\xa1\xc4\x8dias.\n' >lt.txt
  cat "$SAMPLES/lt-1.txt" >>lt.txt
  "$UTF8CONV" -t ISO-8859-13 lt.txt >lt.ISO-8859-13
  run -0 "$UTF8CONV" --detect lt.ISO-8859-13
  [[ $output =~ ^"lt.ISO-8859-13: ISO-8859-13 (confidence "(0|1)\.[0-9][0-9]", legacy)"$ ]] \
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

@test "detect: Dutch with few letters above ASCII and curly quotes is CP1252" {
  # Read as MACINTOSH (‘ ’ as ë í) while Dutch had only the pooled
  # `west' model; it has a model of its own since.
  round_trips nl-q CP1252
  run -0 "$UTF8CONV" --detect nl-q.CP1252
  assert_output "nl-q.CP1252: CP1252 (confidence 0.61, legacy)"
}

@test "detect: Romanian in CP1250 is CP1250, and ISO-8859-16 where its bytes say so" {
  # Romanian read as CP1252 (12 % right at 200 B, 0 % above).  Its
  # letters are the same bytes in CP1250, ISO-8859-2 and ISO-8859-16
  # (ş in the first two, ș in the last): CP1250 is named; ro16-w's „ ”
  # (A5, B5) are ISO-8859-16's alone.
  converts ro-w CP1250
  reads_back ro-w ISO-8859-2 CP1250
  converts ro16-w ISO-8859-16
}

@test "detect: Slovak, Slovenian and Croatian in CP1250 and ISO-8859-2" {
  converts sk-w CP1250
  converts sk-w ISO-8859-2
  converts sl-w CP1250
  converts sl-w ISO-8859-2
  converts hr-w CP1250
  converts hr-w ISO-8859-2
}

@test "detect: Bulgarian, Serbian, Macedonian and Belarusian in CP1251 and ISO-8859-5" {
  # Macedonian's ејќ in CP1251 (E5 BC 9D) is well-formed UTF-8, a CJK
  # character the language never holds: no evidence of a mixed file.
  local l
  for l in bg sr mk be; do
    converts "$l-w" CP1251
    converts "$l-w" ISO-8859-5
  done
  converts bg-w KOI8-R
}

@test "detect: Finnish, Icelandic, Irish and Albanian stay CP1252" {
  converts fi-w CP1252
  converts is-w CP1252
  converts ga-w CP1252
  converts sq-w CP1252
}

@test "detect: Persian in CP1256, Vietnamese in CP1258 and Thai in CP874" {
  converts fa-w CP1256
  # CP1258 writes most tones as combining marks; -f auto gives the
  # composed letters back.
  converts vi-w CP1258
  converts th-w CP874
  # TIS-620 is CP874 without 80..9F: the same bytes, named CP874.
  reads_back th-w TIS-620 CP874
}

@test "detect: weak evidence stays CP1252" {
  require_detection_charsets
  printf 'caf\xe9 cr\xe8me\n' >in
  run -0 "$UTF8CONV" --detect in
  assert_output "in: CP1252 (confidence 0.37, legacy)"
  run -0 "$UTF8CONV" -f auto in
  assert_output "café crème"
}

@test "detect: well-formed UTF-8, ASCII and UTF-16 are their UTF form" {
  printf 'na\xc3\xafve\n' >u8
  printf 'plain\n' >ascii
  printf '\xff\xfea\x00\n\x00' >u16
  printf 'a\x00b\x00c\x00d\x00' >nul
  run -0 "$UTF8CONV" --detect u8 ascii u16 nul
  assert_output "u8: UTF-8 (confidence 0.99, UTF-8)
ascii: ASCII (confidence 1.00, ASCII)
u16: UTF-16LE (confidence 1.00, BOM)
nul: UTF-16LE (confidence 0.99, NUL pattern)"
}

@test "detect: --detect converts nothing, and an unreadable file is exit 2" {
  require_detection_charsets
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  run -2 --separate-stderr "$UTF8CONV" --detect ru missing ru
  assert_output "ru: CP1251 (confidence 0.99, legacy)
ru: CP1251 (confidence 0.99, legacy)"
  assert_equal "$stderr" "utf8conv: missing: No such file or directory"
}

@test "detect: --detect is -f auto's; another -f or -o is a usage error" {
  run -2 --separate-stderr "$UTF8CONV" --detect -f CP1252 /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --detect works with -f auto only (its default)"
  run -2 --separate-stderr "$UTF8CONV" --detect -o out /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --detect converts nothing: no -i, --check, -t or -o"
}

@test "detect: --fallback=ENC reads ill-formed UTF-8 in ENC, built in or iconv's" {
  require_detection_charsets
  printf '\xd0\xf3\xf1\xf1\xea\xe8\xe9 \xc3\xa9\n' >in
  run -0 "$UTF8CONV" -f auto --fallback=CP1252 in
  assert_output "Ðóññêèé é"
  run -0 "$UTF8CONV" -f auto --fallback=windows-1251 in
  assert_output "Русский é"
  run -0 "$UTF8CONV" -f auto in
  assert_output "Русский é"
  run -0 "$UTF8CONV" -f auto --fallback=KOI8-R --detect in
  assert_output "in: UTF-8 + KOI8-R (confidence 1.00, mixed)"
}

@test "detect: --fallback needs a single-byte encoding and -f auto" {
  require_detection_charsets
  run -2 --separate-stderr "$UTF8CONV" -f auto --fallback=SHIFT_JIS /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback needs a single-byte encoding, not 'SHIFT_JIS'"
  run -2 --separate-stderr "$UTF8CONV" -f auto --fallback=UTF-16LE /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback needs a single-byte encoding, not 'UTF-16LE'"
  run -2 --separate-stderr "$UTF8CONV" --fallback=CP1251 /dev/null
  assert_equal "${stderr_lines[0]}" "utf8conv: --fallback works with -f auto only"
  run -2 "$UTF8CONV" -f auto --fallback=no-such-thing /dev/null
}

@test "detect: --report names the code page, how it was chosen and the confidence" {
  require_detection_charsets
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  "$UTF8CONV" -t SHIFT_JIS "$SAMPLES/ja.txt" >ja
  run -0 --separate-stderr "$UTF8CONV" -f auto --report -o /dev/null ru ja
  [[ ${stderr_lines[0]} == *", detected CP1251 (legacy, model, confidence 0.99)" ]] \
    || fail "${stderr_lines[0]}"
  # The candidate is CP932, Shift_JIS's Windows superset (SPEC §13).
  [[ ${stderr_lines[1]} == *", detected CP932 (legacy, model, confidence 0.99)" ]] \
    || fail "${stderr_lines[1]}"
}

@test "detect: a UTF-8 window with a few CP1252 bytes later reads them as CP1252" {
  # 16 well-formed Cyrillic letters decide UTF-8 before the window ends.
  printf '\xd0\xb0%.0s' $(seq 16) >in
  printf ' caf\xe9\n' >>in
  run -0 "$UTF8CONV" --detect in
  assert_output "in: UTF-8 + CP1252 (confidence 0.99, mixed)"
  run -0 "$UTF8CONV" -f auto in
  assert_output "аааааааааааааааа café"
}

@test "detect: the same answer at every block size, for a window cut in a character" {
  require_detection_charsets
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
  require_detection_charsets
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

@test "detect: a legacy archive in place, --report names each file's code page and kind" {
  require_detection_charsets
  mkdir archive
  head -n 3 "$SAMPLES/ru.txt" | "$UTF8CONV" -t CP1251 >archive/notes-ru.txt
  head -n 3 "$SAMPLES/pl.txt" | "$UTF8CONV" -t CP1250 >archive/lista-pl.txt
  head -n 3 "$SAMPLES/de.txt" >archive/readme.txt
  run -0 --separate-stderr "$UTF8CONV" -r -f auto -i.bak --report archive
  assert_equal "$stderr" "\
utf8conv: report: archive/lista-pl.txt: converted, in 180 B, out 191 B, 180 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 3 CR 0, detected CP1250 (legacy, model, confidence 0.88)
utf8conv: report: archive/notes-ru.txt: converted, in 79 B, out 137 B, 79 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 3 CR 0, detected CP1251 (legacy, model, confidence 0.96)
utf8conv: report: archive/readme.txt: unchanged, in 184 B, 180 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 3 CR 0, detected UTF-8 (UTF-8, confidence 0.99)
utf8conv: report: total: 3 files (2 converted, 1 unchanged), in 443 B, out 328 B, 439 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 9 CR 0, detected CP1250 1, CP1251 1, UTF-8 1"
  head -n 3 "$SAMPLES/ru.txt" | cmp - archive/notes-ru.txt
  head -n 3 "$SAMPLES/pl.txt" | cmp - archive/lista-pl.txt
}

# legacy_exact FILE TEXT: -f auto converts FILE to exactly TEXT and a
# newline, at block sizes 1, 2, 3, 7, 4096 and the default.
legacy_exact() {
  local b
  printf '%s\n' "$2" >want
  for b in 1 2 3 7 4096 default; do
    local size=()
    [ "$b" = default ] || size=(--block-size="$b")
    run -0 "$UTF8CONV" -f auto "${size[@]}" -o "out.$b" "$1"
    cmp "out.$b" want || fail "$1, block size $b"
  done
}

@test "detect: legacy text whose byte pairs are well-formed UTF-8 is read by its code page, every byte" {
  # KOI8-R счётчик, её: DE A3 and C5 A3 are well-formed UTF-8 (U+07A3).
  printf '\xf3\xde\xa3\xd4\xde\xc9\xcb\x3a\x20\xc5\xa3\x20\xc6\xc1\xca\xcc\x20\xce\xc5\x20\xce\xc1\xca\xc4\xc5\xce\x2e\x0a' >koi8r
  run -0 "$UTF8CONV" --detect koi8r
  assert_output --regexp '^koi8r: KOI8-R \(confidence 0\.[0-9][0-9], legacy\)$'
  legacy_exact koi8r "Счётчик: её файл не найден."
  # CP1251 «ФАЙЛ»: CB BB (Л») is U+02FB.
  printf '\xd4\xe0\xe9\xeb\x20\xab\xd4\xc0\xc9\xcb\xbb\x20\xed\xe5\x20\xed\xe0\xe9\xe4\xe5\xed\x2e\x0a' >cp1251
  legacy_exact cp1251 "Файл «ФАЙЛ» не найден."
  # KOI8-U ні: CE A6 is U+03A6.
  printf '\xe6\xc1\xca\xcc\x20\xce\xc5\x20\xda\xce\xc1\xca\xc4\xc5\xce\xcf\x2c\x20\xce\xa6\x20\xcb\xc1\xd4\xc1\xcc\xcf\xc7\xd5\x2c\x20\xce\xa6\x20\xd0\xcf\xd3\xc9\xcc\xc1\xce\xce\xd1\x2e\x0a' >koi8u
  run -0 "$UTF8CONV" --detect koi8u
  assert_output --regexp '^koi8u: KOI8-U \(confidence 0\.[0-9][0-9], legacy\)$'
  legacy_exact koi8u "Файл не знайдено, ні каталогу, ні посилання."
  # MacRoman l’été: D5 8E is U+054E.
  printf '\x43\xd5\x65\x73\x74\x20\x6c\xd5\x8e\x74\x8e\x20\x88\x20\x6c\x61\x20\x70\x6c\x61\x67\x65\x2c\x20\x74\x72\x8f\x73\x20\x63\x68\x61\x75\x64\x2e\x0a' >mac
  legacy_exact mac "C’est l’été à la plage, très chaud."
  # CP1252 Spaß“: DF 93 is U+07D3.
  printf '\x42\x69\x74\x74\x65\x20\x53\x70\x61\xdf\x93\x20\x75\x6e\x64\x20\x84\x47\x72\xfc\xdf\x65\x93\x20\x66\xfc\x72\x20\x61\x6c\x6c\x65\x2e\x0a' >cp1252
  legacy_exact cp1252 "Bitte Spaß“ und „Grüße“ für alle."
}

@test "detect: UTF-8 and CP1252 mixed in one file are read as mixed, exactly" {
  printf 'caf\303\251 et caf\351, cr\303\250me et cr\350me\n' >western
  run -0 "$UTF8CONV" --detect western
  assert_output --regexp '^western: UTF-8 \+ CP1252 \(confidence 0\.[0-9][0-9], mixed\)$'
  legacy_exact western "café et café, crème et crème"
  # Cyrillic: Привет in UTF-8, then in CP1251.
  printf '\320\237\321\200\320\270\320\262\320\265\321\202 \317\360\350\342\345\362\n' >cyrillic
  run -0 "$UTF8CONV" --detect cyrillic
  assert_output --regexp '^cyrillic: UTF-8 \+ CP1251 \(confidence 0\.[0-9][0-9], mixed\)$'
  legacy_exact cyrillic "Привет Привет"
}

@test "detect: a byte the code page leaves undefined is named so" {
  # 81, which CP1253 leaves undefined, in a mixed file and in Greek
  # CP1253 text (AA).
  printf 'caf\303\251 \201\n' >mixed
  run -1 --separate-stderr "$UTF8CONV" -f auto --fallback=CP1253 mixed
  assert_equal "$stderr" "utf8conv: mixed:1: byte 6: invalid CP1253: 81 (undefined in CP1253)"
  printf '\xd4\xef \xe1\xf1\xf7\xe5\xdf\xef \xaa\n' >legacy
  run -1 --separate-stderr "$UTF8CONV" -f auto --fallback=CP1253 legacy
  assert_equal "$stderr" "utf8conv: legacy:1: byte 10: invalid CP1253: AA (undefined in CP1253)"
  run -0 --separate-stderr "$UTF8CONV" -f auto --fallback=CP1253 --report -e replace -q -o /dev/null legacy
  [[ $stderr == *"1 error (decoding: 1 undefined byte), 1 replaced"* ]] || fail "$stderr"
}

# ascii_head N: N bytes of ASCII, then the Russian sample in CP1251.
ascii_head() {
  head -c "$1" /dev/zero | tr '\0' 'a' >head
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >ru
  cat head ru >in
  cat head "$SAMPLES/ru.txt" >want
}

@test "detect: a long ASCII head does not use the window up, on a file and on a pipe, at every block size" {
  local n b
  for n in 65536 204800; do
    ascii_head "$n"
    run -0 "$UTF8CONV" --detect in
    assert_output "in: CP1251 (confidence 0.99, legacy)"
    for b in 1 2 3 7 4096 default; do
      local size=()
      [ "$b" = default ] || size=(--block-size="$b")
      "$UTF8CONV" -f auto "${size[@]}" in | cmp - want || fail "$n, file, block size $b"
      cat in | "$UTF8CONV" -f auto "${size[@]}" | cmp - want \
        || fail "$n, pipe, block size $b"
    done
  done
}

@test "detect: ASCII is reported as ASCII, with confidence 1.00" {
  printf 'plain text\n' >ascii
  run -0 "$UTF8CONV" --detect ascii
  assert_output "ascii: ASCII (confidence 1.00, ASCII)"
  run -0 --separate-stderr "$UTF8CONV" -f auto --report -o /dev/null ascii
  [[ ${stderr_lines[0]} == *", detected ASCII (ASCII, confidence 1.00)" ]] \
    || fail "${stderr_lines[0]}"
}

@test "detect: --if-unsure=skip leaves an unsure file untouched, with a warning, exit 0" {
  printf 'caf\xe9 cr\xe8me\n' >weak
  cp weak weak.orig
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >sure
  cp sure sure.orig
  run -0 --separate-stderr "$UTF8CONV" -f auto --if-unsure=skip -i --report weak sure
  assert_equal "${stderr_lines[0]}" "utf8conv: weak: warning: unsure: CP1252 0.37, below 0.90; skipped"
  [[ ${stderr_lines[1]} == "utf8conv: report: weak: skipped (unsure: CP1252 0.37)"* ]] \
    || fail "${stderr_lines[1]}"
  [[ ${stderr_lines[3]} == *"(1 converted, 1 skipped)"* ]] || fail "${stderr_lines[3]}"
  cmp weak weak.orig
  cmp sure "$SAMPLES/ru.txt"
  # convert (the default) converts it.
  run -0 "$UTF8CONV" -f auto --if-unsure=convert weak
  assert_output "café crème"
  # In a stream, nothing of it after its ASCII head.
  run -0 --separate-stderr "$UTF8CONV" -f auto --if-unsure=skip weak
  assert_output "caf"
  assert_equal "$stderr" "utf8conv: weak: warning: unsure: CP1252 0.37, below 0.90; skipped after its ASCII head"
  run -2 --separate-stderr "$UTF8CONV" --if-unsure=skip weak
  assert_equal "${stderr_lines[0]}" "utf8conv: --if-unsure works with -f auto only"
  run -2 "$UTF8CONV" -f auto --if-unsure=maybe weak
}

@test "detect: a pair of Greek or Cyrillic legacy text that is well-formed UTF-8 by chance does not make the file mixed" {
  # CP1253 ΟΊ (CF BA) is UTF-8 U+03FA, a Greek letter too.
  printf '\xd0\xd1\xcf\xc5\xc9\xc4\xcf\xd0\xcf\xba\xc7\xd3\xc7\x3a\x20\xc7\x20\xe1\xf1\xf7\xe5\xe9\xef\xe8\xde\xea\xe7\x20\xe5\xdf\xed\xe1\xe9\x20\xe7\xec\xe9\xf4\xe5\xeb\xde\xf2\x2e\x0a' >el
  run -0 "$UTF8CONV" --detect el
  assert_output --regexp '^el: CP1253 \(confidence 0\.[0-9][0-9], legacy\)$'
  legacy_exact el "ΠΡΟΕΙΔΟΠΟΊΗΣΗ: Η αρχειοθήκη είναι ημιτελής."
  # CP1251 Её (C5 B8) is UTF-8 U+0178, before Russian text.
  printf '\xc5\xb8\x20\xe2\xfb\xe2\xee\xe4\x20\xee\xf2\xef\xf0\xe0\xe2\xeb\xff\xe5\xf2\xf1\xff\x20\xed\xe0\x20\xe2\xfb\xf5\xee\xe4\x2e\x0a' >ru
  "$UTF8CONV" -t CP1251 "$SAMPLES/ru.txt" >>ru
  { printf 'Её вывод отправляется на выход.\n'; cat "$SAMPLES/ru.txt"; } >want.ru
  run -0 "$UTF8CONV" --detect ru
  assert_output "ru: CP1251 (confidence 0.99, legacy)"
  run -0 "$UTF8CONV" -f auto -o out ru
  cmp out want.ru
}
