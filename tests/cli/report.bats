#!/usr/bin/env bats
# --report: one line per file and a total line on standard error, in the
# exact format of the man page's REPORT section.

load ../test_helper
bats_require_minimum_version 1.5.0

@test "report: -f auto, a mixed UTF-8/CP1252 file and a UTF-16LE file" {
  # The confidence depends on the code pages and languages the detector
  # weighs: six high bytes are weak evidence (another reading comes close
  # to CP1252's), and the file is still read as mixed UTF-8 + CP1252.
  require_detection_charsets
  printf 'caf\303\251 \351t\351 \200 \201\n' >old.txt
  printf '\377\376h\000i\000' >new.txt
  run -0 --separate-stderr "$UTF8CONV" -f auto --report old.txt new.txt
  assert_equal "$stderr" "\
utf8conv: report: old.txt: converted, in 14 B, out 19 B, 13 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0, detected UTF-8 + CP1252 (mixed, weak evidence, confidence 0.00), 4 CP1252 fallbacks (4 B)
utf8conv: report: new.txt: converted, in 6 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 0 CR 0, detected UTF-16LE (BOM, confidence 1.00)
utf8conv: report: total: 2 files (2 converted), in 20 B, out 21 B, 15 chars, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 1 CR 0, detected UTF-8 1, UTF-16LE 1, 4 CP1252 fallbacks (4 B)"
}

@test "report: -f auto, UTF-16BE from the NUL pattern, BOM written" {
  printf '\000h\000i' >in
  run -0 --separate-stderr "$UTF8CONV" -f auto -t UTF-16 --report in
  assert_equal "$stderr" "\
utf8conv: report: in: converted, in 4 B, out 6 B, 2 chars, 0 errors, BOM seen 0 written 1 removed 0, line breaks CRLF 0 LF 0 CR 0, detected UTF-16BE (NUL pattern, confidence 0.99)
utf8conv: report: total: 1 file (1 converted), in 4 B, out 6 B, 2 chars, 0 errors, BOM seen 0 written 1 removed 0, line breaks CRLF 0 LF 0 CR 0, detected UTF-16BE 1"
}

@test "report: errors by kind and the replacements" {
  printf 'a\341\200b\200\n' >bad.txt
  run -0 --separate-stderr "$UTF8CONV" -e replace -q --report bad.txt
  assert_equal "$stderr" "\
utf8conv: report: bad.txt: converted, in 6 B, out 9 B, 3 chars, 2 errors (decoding: 1 unexpected continuation byte, 1 truncated sequence), 2 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 1 file (1 converted), in 6 B, out 9 B, 3 chars, 2 errors (decoding: 1 unexpected continuation byte, 1 truncated sequence), 2 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: replace to a legacy output counts each error once, plurals" {
  # Regression: the U+FFFD of a decoding error, written as '?' in a
  # legacy output, was counted again as an unencodable character.
  printf 'a\377\377b\300\257c\342\202\254\342\202\254\n' >bad.txt
  run -0 "$UTF8CONV" -e replace -t ISO-8859-1 --report -o out bad.txt
  assert_hex out '61 3f 3f 62 3f 3f 63 3f 3f 0a'
  assert_equal "$output" "\
utf8conv: bad.txt:1: byte 1: invalid UTF-8: FF (invalid byte); 6 errors replaced in this file
utf8conv: report: bad.txt: converted, in 14 B, out 10 B, 6 chars, 6 errors (decoding: 1 unexpected continuation byte, 1 overlong encoding, 2 invalid bytes; encoding: 2 unencodable characters), 6 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 1 file (1 converted), in 14 B, out 10 B, 6 chars, 6 errors (decoding: 1 unexpected continuation byte, 1 overlong encoding, 2 invalid bytes; encoding: 2 unencodable characters), 6 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: an encoding error, escaped" {
  printf 'A\000\000\330' >in
  run -0 --separate-stderr "$UTF8CONV" -f UTF-16LE -t UTF-32LE -e surrogateescape -q --report in
  assert_equal "$stderr" "\
utf8conv: report: in: converted, in 4 B, out 8 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0
utf8conv: report: total: 1 file (1 converted), in 4 B, out 8 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0"
  run -1 --separate-stderr "$UTF8CONV" -f UTF-16LE -e surrogateescape -q --report in
  assert_equal "${stderr_lines[1]}" "utf8conv: report: in: stopped, in 4 B, out 1 B, 2 chars, 1 error (encoding: 1 unencodable character), BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0"
}

@test "report: a file that an unencodable character stopped counts the characters up to it, that one included, at any block size" {
  # Decoding runs ahead of encoding by a window that depends on the path
  # and the block size; the count does not.
  printf 'Привет, мир! \360\237\230\200 и ещё текст, много текста\n' >ru
  printf '中文字符\360\237\230\200中文字符中文字符中文字符\n' >zh
  local bs
  for bs in 1 2 3 7 100 65536; do
    # (What was read, "in", is what the blocks brought in.)
    run -1 --separate-stderr "$UTF8CONV" -t KOI8-R --report --block-size=$bs ru
    [[ ${stderr_lines[1]} == "utf8conv: report: ru: stopped, in "*" B, out 13 B, 14 chars, 1 error (encoding: 1 unencodable character), BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0" ]] ||
      fail "KOI8-R, block size $bs: ${stderr_lines[1]}"
    run -1 --separate-stderr "$UTF8CONV" -t CP1251 --report --block-size=$bs ru
    [[ ${stderr_lines[1]} == *", out 13 B, 14 chars, "* ]] || fail "CP1251, block size $bs: ${stderr_lines[1]}"
  done
  if have_target IBM937; then
    for bs in 1 2 3 7 100 65536; do
      run -1 --separate-stderr "$UTF8CONV" -t IBM937 --report --block-size=$bs zh
      [[ ${stderr_lines[1]} == *", 5 chars, "* ]] ||
        fail "IBM937, block size $bs: ${stderr_lines[1]}"
    done
  fi
}

@test "report: a strict stop, and the file not reached" {
  printf 'ok\n\377\n' >bad.txt
  printf 'fine\n' >good.txt
  run -1 --separate-stderr "$UTF8CONV" --report bad.txt good.txt
  assert_equal "$stderr" "\
utf8conv: bad.txt:2: byte 3: invalid UTF-8: FF (invalid byte)
utf8conv: report: bad.txt: stopped, in 5 B, out 3 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 1 file (1 stopped), in 5 B, out 3 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: BOMs seen, written and removed across files" {
  printf '\357\273\277a\n' >a
  printf '\357\273\277b\n' >b
  run -0 --separate-stderr "$UTF8CONV" --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: converted, in 5 B, out 5 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: b: converted, in 5 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (2 converted), in 10 B, out 7 B, 4 chars, 0 errors, BOM seen 2 written 1 removed 1, line breaks CRLF 0 LF 2 CR 0"
  run -0 --separate-stderr "$UTF8CONV" --bom=strip --report a
  assert_equal "${stderr_lines[0]}" "utf8conv: report: a: converted, in 5 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: under -i each file has its own BOM decision" {
  printf '\357\273\277a\n' >a
  printf '\357\273\277b\n' >b
  run -0 --separate-stderr "$UTF8CONV" -t UTF-16LE -i --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: converted, in 5 B, out 6 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: b: converted, in 5 B, out 6 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (2 converted), in 10 B, out 12 B, 4 chars, 0 errors, BOM seen 2 written 2 removed 0, line breaks CRLF 0 LF 2 CR 0"
  assert_hex a 'ff fe 61 00 0a 00'
  assert_hex b 'ff fe 62 00 0a 00'
}

@test "report: -i, files whose bytes would not change are unchanged, and nothing is said to be written" {
  printf '\357\273\277a\n' >a
  printf 'b\n' >b
  run -0 --separate-stderr "$UTF8CONV" -i --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: unchanged, in 5 B, 2 chars, 0 errors, BOM seen 1, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: b: unchanged, in 2 B, 2 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (2 unchanged), in 7 B, out 0 B, 4 chars, 0 errors, BOM seen 1 written 0 removed 0, line breaks CRLF 0 LF 2 CR 0"
}

@test "report: a file that cannot be opened" {
  printf 'x\n' >a
  run -2 --separate-stderr "$UTF8CONV" --report missing a
  assert_equal "$stderr" "\
utf8conv: missing: No such file or directory
utf8conv: report: missing: failed (No such file or directory)
utf8conv: report: a: converted, in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (1 converted, 1 failed), in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: characters converted by the fast paths are counted" {
  local i
  : >in
  for i in $(seq 1 2000); do printf 'caf\303\251 \342\202\254 \360\237\230\200 x\n' >>in; done
  # 2000 lines of 17 bytes, 11 characters (12 UTF-16 units).
  for impl in "" reference; do
    run -0 --separate-stderr env UTF8CONV_IMPL=$impl "$UTF8CONV" --report in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 34000 B, out 34000 B, 22000 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 2000 CR 0"
    run -0 --separate-stderr env UTF8CONV_IMPL=$impl "$UTF8CONV" -f auto -t UTF-16LE --report in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 34000 B, out 48000 B, 22000 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 2000 CR 0, detected UTF-8 (UTF-8, confidence 0.99)"
  done
}

@test "report: nothing without --report" {
  printf 'caf\351\n' >in
  run -0 --separate-stderr "$UTF8CONV" -f auto in
  assert_equal "$stderr" ""
}

@test "6: report: a file that -i left unchanged after a strict stop is failed, and no BOM is said removed" {
  printf '\357\273\277ok\n\377\n' >bad
  printf '\357\273\277ok\n' >good
  run --separate-stderr "$UTF8CONV" --bom=strip -i --report bad good
  assert_equal "$status" 1
  assert_equal "$stderr" "\
utf8conv: bad:2: byte 6: invalid UTF-8: FF (invalid byte)
utf8conv: report: bad: failed (data error), in 8 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 1, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: good: converted, in 6 B, out 3 B, 3 chars, 0 errors, BOM seen 1 written 0 removed 1, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (1 converted, 1 failed), in 14 B, out 3 B, 6 chars, 1 error (decoding: 1 invalid byte), BOM seen 2 written 0 removed 1, line breaks CRLF 0 LF 2 CR 0"
  assert_hex bad 'ef bb bf 6f 6b 0a ff 0a'
}

@test "6: report: a file whose write failed is failed with the reason, exit 2" {
  head -c 2000 /dev/zero | tr '\0' a >big
  printf 'small\n' >small
  run --separate-stderr bash -c 'ulimit -f 1; "$UTF8CONV" -t UTF-32LE -i --report big small'
  assert_equal "$status" 2
  assert_equal "$stderr" "\
utf8conv: big: write error: File too large
utf8conv: report: big: failed (write error: File too large), in 2000 B, 2000 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 0 CR 0
utf8conv: report: small: converted, in 6 B, out 24 B, 6 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (1 converted, 1 failed), in 2006 B, out 24 B, 2006 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: --check names each file valid or invalid" {
  printf 'ok\n' >a
  printf '\377' >b
  run --separate-stderr "$UTF8CONV" --check -q --report a b
  assert_equal "$status" 1
  assert_equal "$stderr" "\
utf8conv: report: a: valid, in 3 B, 3 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: b: invalid, in 1 B, 0 chars, 1 error (decoding: 1 invalid byte), BOM seen 0, line breaks CRLF 0 LF 0 CR 0
utf8conv: report: total: 2 files (1 valid, 1 invalid), in 4 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "1: report: -r on a symbolic link to a directory follows it; links inside the tree are skipped and counted" {
  # The detector's confidence depends on the code pages it weighs.
  require_detection_charsets
  mkdir -p real/sub
  printf 'caf\351\n' >real/a.txt
  printf 'ok\n' >real/sub/b.txt
  ln -s a.txt real/l.txt
  ln -s real link
  run --separate-stderr "$UTF8CONV" -r -f auto -i --report link
  assert_equal "$status" 0
  assert_equal "$stderr" "\
utf8conv: report: link/a.txt: converted, in 5 B, out 6 B, 5 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0, detected CP1252 (legacy, model, confidence 0.13)
utf8conv: report: link/l.txt: skipped (link)
utf8conv: report: link/sub/b.txt: unchanged, in 3 B, 3 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0, detected ASCII (ASCII, confidence 1.00)
utf8conv: report: total: 3 files (1 converted, 1 unchanged, 1 skipped), in 8 B, out 6 B, 8 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 2 CR 0, detected CP1252 1, UTF-8 1"
  assert_hex real/a.txt '63 61 66 c3 a9 0a'
  [ -L real/l.txt ] && [ -L link ] || fail "a link was replaced"
}

@test "--report-json: one object per data error, per file and a total, as JSON Lines" {
  printf 'a\341\200b\n' >a.txt
  printf 'x\n' >"$(printf 'n\377')"
  printf '\177ELF\002' >prog
  run --separate-stderr "$UTF8CONV" -e replace -q -i --report-json=- a.txt "$(printf 'n\377')" prog missing
  assert_equal "$status" 2
  assert_equal "$output" '{"type":"error","file":"a.txt","line":1,"offset":1,"encoding":"UTF-8","bytes":"e180","kind":"truncated sequence","action":"replaced"}
{"type":"file","file":"a.txt","outcome":"converted","reason":null,"bytes_in":5,"bytes_out":6,"chars":3,"errors":1,"decoding_errors":{"truncated sequence":1},"encoding_errors":0,"handled":1,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":0,"mixed_breaks":false,"breaks_written":"keep"}
{"type":"file","file":"n\udcff","outcome":"unchanged","reason":null,"bytes_in":2,"bytes_out":null,"chars":2,"errors":0,"decoding_errors":{},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":null,"mixed_breaks":false,"breaks_written":null}
{"type":"file","file":"prog","outcome":"skipped","reason":"binary","binary_offset":4}
{"type":"file","file":"missing","outcome":"failed","reason":"No such file or directory"}
{"type":"total","files":4,"outcomes":{"converted":1,"unchanged":1,"skipped":1,"failed":1,"stopped":0,"valid":0,"invalid":0},"bytes_in":7,"bytes_out":6,"chars":5,"errors":1,"decoding_errors":{"truncated sequence":1},"encoding_errors":0,"handled":1,"line_breaks":{"crlf":0,"lf":2,"cr":0},"bom_seen":0,"bom_written":0,"mixed_break_files":0}'
  # The text diagnostics are unchanged by it.
  assert_equal "$stderr" "utf8conv: missing: No such file or directory"
}

@test "--report-json: a name that is not UTF-8 comes back byte for byte through Python's surrogateescape" {
  command -v python3 >/dev/null || skip "python3 is not installed"
  printf 'x\351\n' >"$(printf 'caf\351 \303\251\033')"
  "$UTF8CONV" -f CP1252 -i --report-json=r.json -- *
  python3 -c '
import json, os, sys
lines = [json.loads(l) for l in open("r.json", encoding="utf-8")]
name = os.fsencode(lines[0]["file"])
assert name == b"caf\xe9 \xc3\xa9\x1b", name
assert lines[0]["outcome"] == "converted" and lines[-1]["type"] == "total"
' || fail "$(cat r.json)"
}

@test "--report-json=FILE with a stream: errors as they happen, a strict stop, and the text on standard output" {
  printf 'ok\n\377\n' >bad
  run --separate-stderr "$UTF8CONV" --report-json=r.json bad
  assert_equal "$status" 1
  assert_equal "$output" "ok"
  assert_equal "$stderr" "utf8conv: bad:2: byte 3: invalid UTF-8: FF (invalid byte)"
  assert_equal "$(cat r.json)" '{"type":"error","file":"bad","line":2,"offset":3,"encoding":"UTF-8","bytes":"ff","kind":"invalid byte","action":"stopped"}
{"type":"file","file":"bad","outcome":"stopped","reason":null,"bytes_in":5,"bytes_out":3,"chars":3,"errors":1,"decoding_errors":{"invalid byte":1},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":0,"mixed_breaks":false,"breaks_written":"keep"}
{"type":"total","files":1,"outcomes":{"converted":0,"unchanged":0,"skipped":0,"failed":0,"stopped":1,"valid":0,"invalid":0},"bytes_in":5,"bytes_out":3,"chars":3,"errors":1,"decoding_errors":{"invalid byte":1},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":0,"mixed_break_files":0}'
}

@test "--report-json=- is refused when the text goes to standard output; a write error on FILE is exit 2" {
  run --separate-stderr "$UTF8CONV" --report-json=- </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: --report-json=- needs the text to go elsewhere (-i, -o or --check)
Try 'utf8conv --help' for more information."
  printf 'x\n' >a
  run --separate-stderr "$UTF8CONV" --report-json=/dev/full a
  assert_equal "$status" 2
  assert_equal "$output" "x"
  assert_equal "$stderr" "utf8conv: /dev/full: write error: No space left on device"
}

@test "--report-json: an unencodable character names it, and -f auto names the detected encoding" {
  # The detector's confidence depends on the code pages it weighs.
  require_detection_charsets
  printf '\342\202\254\n' >e
  printf 'caf\351\n' >f
  run --separate-stderr "$UTF8CONV" -t ISO-8859-1 -e replace -q -o /dev/null --report-json=- e
  assert_equal "${lines[0]}" '{"type":"error","file":"e","line":1,"offset":0,"encoding":"ISO-8859-1","bytes":"e282ac","kind":"unencodable character","char":"U+20AC","action":"replaced"}'
  run --separate-stderr "$UTF8CONV" -f auto --check --report-json=- f
  assert_equal "${lines[0]}" '{"type":"file","file":"f","outcome":"valid","reason":null,"bytes_in":5,"bytes_out":null,"chars":5,"errors":0,"decoding_errors":{},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":null,"mixed_breaks":false,"breaks_written":null,"detected":"CP1252","detected_by":"model","detected_encoding":"CP1252","detected_kind":"legacy","cp1252_fallbacks":0,"cp1252_fallback_bytes":0,"fallback_encoding":"CP1252","fallback_by":"model","confidence_percent":13}'
}

@test "file names: a UTF-8 name stays readable under a UTF-8 locale, as coreutils shows it; escaped under LC_ALL=C" {
  locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"
  printf 'a\377\n' >"$(printf '\320\276\321\202\321\207\321\221\321\202.txt')"
  local name
  name=$(printf '\320\276\321\202\321\207\321\221\321\202.txt')
  run --separate-stderr env LC_ALL=C.UTF-8 "$UTF8CONV" -c --report "$name"
  assert_equal "$status" 1
  assert_equal "${stderr_lines[0]}" "utf8conv: $name:1: byte 1: invalid UTF-8: FF (invalid byte); 1 error dropped in this file"
  assert_equal "${stderr_lines[1]}" "utf8conv: report: $name: converted, in 3 B, out 2 B, 2 chars, 1 error (decoding: 1 invalid byte), 1 dropped, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
  run --separate-stderr env LC_ALL=C "$UTF8CONV" -c --report "$name"
  assert_equal "$status" 1
  assert_equal "${stderr_lines[0]}" "utf8conv: ''\$'\\320\\276\\321\\202\\321\\207\\321\\221\\321\\202''.txt':1: byte 1: invalid UTF-8: FF (invalid byte); 1 error dropped in this file"
  assert_equal "${stderr_lines[1]}" "utf8conv: report: ''\$'\\320\\276\\321\\202\\321\\207\\321\\221\\321\\202''.txt': converted, in 3 B, out 2 B, 2 chars, 1 error (decoding: 1 invalid byte), 1 dropped, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
  # The converted bytes do not depend on the locale.
  LC_ALL=C.UTF-8 "$UTF8CONV" -c "$name" >out.utf8 2>/dev/null || true
  LC_ALL=C "$UTF8CONV" -c "$name" >out.c 2>/dev/null || true
  printf 'a\n' >expected
  cmp expected out.utf8
  cmp expected out.c
}

@test "file names: control characters and invalid bytes are escaped in every locale; the JSON report keeps its reversible form" {
  locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"
  printf 'x\n' >"$(printf 'b\tc\377.txt')"
  local lc
  for lc in C.UTF-8 C; do
    run --separate-stderr env LC_ALL=$lc "$UTF8CONV" --report --report-json=r.$lc.jsonl -o /dev/null b*
    assert_equal "$status" 0
    assert_equal "${stderr_lines[0]}" "utf8conv: report: 'b'\$'\\t''c'\$'\\377''.txt': converted, in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
  done
  cmp r.C.UTF-8.jsonl r.C.jsonl
}

@test "arguments that are not file names are quoted the same in every locale, with ASCII quotes" {
  locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"
  local lc
  for lc in C.UTF-8 C; do
    run --separate-stderr env LC_ALL=$lc "$UTF8CONV" -f NO-SUCH </dev/null
    assert_equal "$status" 2
    assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'NO-SUCH'"
    run --separate-stderr env LC_ALL=$lc "$UTF8CONV" -f "$(printf 'caf\303\251')" </dev/null
    assert_equal "$status" 2
    assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'caf\\303\\251'"
  done
}

@test "report totals: --check says nothing of output, in the text and the JSON total" {
  printf 'ok\n' >a
  run --separate-stderr "$UTF8CONV" --check --report --report-json=r.jsonl a
  assert_equal "$status" 0
  assert_equal "${stderr_lines[1]}" "utf8conv: report: total: 1 file (1 valid), in 3 B, 3 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0"
  assert_equal "$(tail -n 1 r.jsonl)" '{"type":"total","files":1,"outcomes":{"converted":0,"unchanged":0,"skipped":0,"failed":0,"stopped":0,"valid":1,"invalid":0},"bytes_in":3,"bytes_out":null,"chars":3,"errors":0,"decoding_errors":{},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":0,"lf":1,"cr":0},"bom_seen":0,"bom_written":null,"mixed_break_files":0}'
}

@test "report totals: output to /dev/full counts only the bytes actually written" {
  [ -w /dev/full ] || skip "no /dev/full"
  printf 'hello' >h
  run --separate-stderr "$UTF8CONV" --report h
  assert_equal "${stderr_lines[0]}" "utf8conv: report: h: converted, in 5 B, out 5 B, 5 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0"
  "$UTF8CONV" --report h >/dev/full 2>err && fail "exit status 0 on /dev/full"
  assert_equal "$(cat err)" "utf8conv: write error: No space left on device
utf8conv: report: h: failed (write error), in 5 B, out 0 B, 5 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0
utf8conv: report: total: 1 file (1 failed), in 5 B, out 0 B, 5 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0"
}

@test "report totals: a GB18030-only run names no CP1252 fallbacks; a run that fell back names them" {
  command -v iconv >/dev/null || skip "iconv(1) is required"
  iconv -f UTF-8 -t GB18030 "$UTF8CONV_SRCDIR/tests/detect/samples/zh_CN.txt" >zh.gb ||
    skip "iconv cannot write GB18030"
  run --separate-stderr "$UTF8CONV" -f auto --report -o /dev/null zh.gb
  assert_equal "$status" 0
  assert_equal "${#stderr_lines[@]}" 2
  [[ ${stderr_lines[1]} == *", detected GB18030 1" ]] || fail "total: ${stderr_lines[1]}"
  [[ $stderr != *fallback* ]] || fail "a fallback named: $stderr"
  # UTF-8 with one CP1252 byte: mixed, one fallback.
  printf 'caf\303\251 na\303\257ve, d\303\251j\303\240 vu, caf\351\n' >old.txt
  run --separate-stderr "$UTF8CONV" -f auto --report -o /dev/null old.txt
  [[ ${stderr_lines[1]} == *", 1 CP1252 fallback (1 B)" ]] || fail "total: ${stderr_lines[1]}"
}

@test "report totals: an unreadable directory under -r is counted, as failed" {
  # Root can read any directory: as root, utf8conv runs as nobody.
  unprivileged_dir
  mkdir -p d/closed d/open
  printf 'x\n' >d/closed/f
  printf 'y\n' >d/open/g
  chmod -R a+rX d
  chmod 000 d/closed
  run --separate-stderr "${AS_USER[@]}" "$UTF8CONV" -r --report d
  chmod 755 d/closed
  unprivileged_cleanup
  assert_equal "$status" 2
  assert_equal "$output" "y"
  assert_equal "$stderr" "utf8conv: cannot read directory 'd/closed': Permission denied
utf8conv: report: d/closed: failed (Permission denied)
utf8conv: report: d/open/g: converted, in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (1 converted, 1 failed), in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
}

@test "report: the characters of an EBCDIC page and of GB2312 read through a fast path are counted once each, at any block size" {
  # A fast path to UTF-8 counts the characters of its output: the input of
  # an EBCDIC page has bytes that would be UTF-8 continuation bytes.
  require_charset IBM500 GB2312
  for i in $(seq 300); do printf '\201\202\203\301\302'; done >e.txt
  for i in $(seq 300); do printf 'a\260\241\n'; done >g.txt
  for bs in 1 3 4096 65536; do
    run -0 --separate-stderr "$UTF8CONV" -f IBM500 --report --block-size=$bs -o out e.txt
    assert_equal "${stderr_lines[0]}" "utf8conv: report: e.txt: converted, in 1500 B, out 1500 B, 1500 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 0 CR 0"
    run -0 --separate-stderr "$UTF8CONV" -f GB2312 --report --block-size=$bs -o out g.txt
    assert_equal "${stderr_lines[0]}" "utf8conv: report: g.txt: converted, in 1200 B, out 1500 B, 900 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 300 CR 0"
  done
}
