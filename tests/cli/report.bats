#!/usr/bin/env bats
# --report: one line per file and a total line on standard error, in the
# exact format of the man page's REPORT section.

load ../test_helper
bats_require_minimum_version 1.5.0

@test "report: -f auto, a mixed UTF-8/CP1252 file and a UTF-16LE file" {
  printf 'caf\303\251 \351t\351 \200 \201\n' >old.txt
  printf '\377\376h\000i\000' >new.txt
  run -0 --separate-stderr "$UTF8CONV" -f auto --report old.txt new.txt
  assert_equal "$stderr" "\
utf8conv: report: old.txt: converted, in 14 B, out 19 B, 13 chars, 0 errors, BOM seen 0 written 0 removed 0, detected UTF-8 (no BOM), 4 CP1252 fallbacks (4 B)
utf8conv: report: new.txt: converted, in 6 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1, detected UTF-16LE (BOM)
utf8conv: report: total: 2 files (2 converted), in 20 B, out 21 B, 15 chars, 0 errors, BOM seen 1 written 0 removed 1, detected UTF-8 1, UTF-16LE 1, 4 CP1252 fallbacks (4 B)"
}

@test "report: -f auto, UTF-16BE from the NUL pattern, BOM written" {
  printf '\000h\000i' >in
  run -0 --separate-stderr "$UTF8CONV" -f auto -t UTF-16 --report in
  assert_equal "$stderr" "\
utf8conv: report: in: converted, in 4 B, out 6 B, 2 chars, 0 errors, BOM seen 0 written 1 removed 0, detected UTF-16BE (NUL pattern)
utf8conv: report: total: 1 file (1 converted), in 4 B, out 6 B, 2 chars, 0 errors, BOM seen 0 written 1 removed 0, detected UTF-16BE 1, 0 CP1252 fallbacks (0 B)"
}

@test "report: errors by kind and the replacements" {
  printf 'a\341\200b\200\n' >bad.txt
  run -0 --separate-stderr "$UTF8CONV" -e replace -q --report bad.txt
  assert_equal "$stderr" "\
utf8conv: report: bad.txt: converted, in 6 B, out 9 B, 3 chars, 2 errors (decoding: 1 unexpected continuation byte, 1 truncated sequence), 2 replaced, BOM seen 0 written 0 removed 0
utf8conv: report: total: 1 file (1 converted), in 6 B, out 9 B, 3 chars, 2 errors (decoding: 1 unexpected continuation byte, 1 truncated sequence), 2 replaced, BOM seen 0 written 0 removed 0"
}

@test "report: replace to a legacy output counts each error once, plurals" {
  # Regression: the U+FFFD of a decoding error, written as '?' in a
  # legacy output, was counted again as an unencodable character.
  printf 'a\377\377b\300\257c\342\202\254\342\202\254\n' >bad.txt
  run -0 "$UTF8CONV" -e replace -t ISO-8859-1 --report -o out bad.txt
  assert_hex out '61 3f 3f 62 3f 3f 63 3f 3f 0a'
  assert_equal "$output" "\
utf8conv: bad.txt:1: byte 1: invalid UTF-8: FF (invalid byte); 6 errors replaced in this file
utf8conv: report: bad.txt: converted, in 14 B, out 10 B, 6 chars, 6 errors (decoding: 1 unexpected continuation byte, 1 overlong encoding, 2 invalid bytes; encoding: 2 unencodable characters), 6 replaced, BOM seen 0 written 0 removed 0
utf8conv: report: total: 1 file (1 converted), in 14 B, out 10 B, 6 chars, 6 errors (decoding: 1 unexpected continuation byte, 1 overlong encoding, 2 invalid bytes; encoding: 2 unencodable characters), 6 replaced, BOM seen 0 written 0 removed 0"
}

@test "report: an encoding error, escaped" {
  printf 'A\000\000\330' >in
  run -0 --separate-stderr "$UTF8CONV" -f UTF-16LE -t UTF-32LE -e surrogateescape -q --report in
  assert_equal "$stderr" "\
utf8conv: report: in: converted, in 4 B, out 8 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0
utf8conv: report: total: 1 file (1 converted), in 4 B, out 8 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0"
  run -1 --separate-stderr "$UTF8CONV" -f UTF-16LE -e surrogateescape -q --report in
  assert_equal "${stderr_lines[1]}" "utf8conv: report: in: stopped, in 4 B, out 1 B, 2 chars, 1 error (encoding: 1 unencodable character), BOM seen 0 written 0 removed 0"
}

@test "report: a strict stop, and the file not reached" {
  printf 'ok\n\377\n' >bad.txt
  printf 'fine\n' >good.txt
  run -1 --separate-stderr "$UTF8CONV" --report bad.txt good.txt
  assert_equal "$stderr" "\
utf8conv: bad.txt:2: byte 3: invalid UTF-8: FF (invalid byte)
utf8conv: report: bad.txt: stopped, in 5 B, out 3 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 0 written 0 removed 0
utf8conv: report: total: 1 file (1 stopped), in 5 B, out 3 B, 3 chars, 1 error (decoding: 1 invalid byte), BOM seen 0 written 0 removed 0"
}

@test "report: BOMs seen, written and removed across files" {
  printf '\357\273\277a\n' >a
  printf '\357\273\277b\n' >b
  run -0 --separate-stderr "$UTF8CONV" --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: converted, in 5 B, out 5 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0
utf8conv: report: b: converted, in 5 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1
utf8conv: report: total: 2 files (2 converted), in 10 B, out 7 B, 4 chars, 0 errors, BOM seen 2 written 1 removed 1"
  run -0 --separate-stderr "$UTF8CONV" --bom=strip --report a
  assert_equal "${stderr_lines[0]}" "utf8conv: report: a: converted, in 5 B, out 2 B, 2 chars, 0 errors, BOM seen 1 written 0 removed 1"
}

@test "report: under -i each file has its own BOM decision" {
  printf '\357\273\277a\n' >a
  printf '\357\273\277b\n' >b
  run -0 --separate-stderr "$UTF8CONV" -t UTF-16LE -i --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: converted, in 5 B, out 6 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0
utf8conv: report: b: converted, in 5 B, out 6 B, 2 chars, 0 errors, BOM seen 1 written 1 removed 0
utf8conv: report: total: 2 files (2 converted), in 10 B, out 12 B, 4 chars, 0 errors, BOM seen 2 written 2 removed 0"
  assert_hex a 'ff fe 61 00 0a 00'
  assert_hex b 'ff fe 62 00 0a 00'
}

@test "report: -i, files whose bytes would not change are unchanged, and nothing is said to be written" {
  printf '\357\273\277a\n' >a
  printf 'b\n' >b
  run -0 --separate-stderr "$UTF8CONV" -i --report a b
  assert_equal "$stderr" "\
utf8conv: report: a: unchanged, in 5 B, 2 chars, 0 errors, BOM seen 1
utf8conv: report: b: unchanged, in 2 B, 2 chars, 0 errors, BOM seen 0
utf8conv: report: total: 2 files (2 unchanged), in 7 B, out 0 B, 4 chars, 0 errors, BOM seen 1 written 0 removed 0"
}

@test "report: a file that cannot be opened" {
  printf 'x\n' >a
  run -2 --separate-stderr "$UTF8CONV" --report missing a
  assert_equal "$stderr" "\
utf8conv: missing: No such file or directory
utf8conv: report: missing: failed (No such file or directory)
utf8conv: report: a: converted, in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0
utf8conv: report: total: 2 files (1 converted, 1 failed), in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0"
}

@test "report: characters converted by the fast paths are counted" {
  local i
  : >in
  for i in $(seq 1 2000); do printf 'caf\303\251 \342\202\254 \360\237\230\200 x\n' >>in; done
  # 2000 lines of 17 bytes, 11 characters (12 UTF-16 units).
  for impl in "" reference; do
    run -0 --separate-stderr env UTF8CONV_IMPL=$impl "$UTF8CONV" --report in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 34000 B, out 34000 B, 22000 chars, 0 errors, BOM seen 0 written 0 removed 0"
    run -0 --separate-stderr env UTF8CONV_IMPL=$impl "$UTF8CONV" -f auto -t UTF-16LE --report in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 34000 B, out 48000 B, 22000 chars, 0 errors, BOM seen 0 written 0 removed 0, detected UTF-8 (no BOM), 0 CP1252 fallbacks (0 B)"
  done
}

@test "report: nothing without --report" {
  printf 'caf\351\n' >in
  run -0 --separate-stderr "$UTF8CONV" -f auto in
  assert_equal "$stderr" ""
}
