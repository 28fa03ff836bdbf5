#!/usr/bin/env bats
# Batch jobs that lose nothing (SPEC §12): binaries, unchanged files,
# backups, one file once, input is output, not a regular file,
# timestamps, quoted names, --report-json, and a crash at any instant.
# Each test is named after what it guards; the numbers are those of the
# failures listed in the issue "Batch jobs that lose nothing".

bats_require_minimum_version 1.5.0
load ../test_helper

# elf FILE: 3000 bytes that start like an ELF executable (its first
# control character, U+0002, at byte 4) and hold every byte value.
elf() {
  {
    printf '\177ELF\002\001\001\000'
    local i
    for i in $(seq 1 12); do
      printf '%b' "$(printf '\\%03o' $(seq 0 255))"
    done
  } | head -c 3000 >"$1"
}

# inode FILE / times FILE: what must not change when FILE is untouched.
inode() { stat -c %i "$1"; }
times() { stat -c '%x %y' "$1"; }

no_temp_files() {
  local left
  left=$(find . -name '*.utf8conv-??????')
  [ -z "$left" ] || fail "temporary files left: $left"
}

# --- 2. binary files ----------------------------------------------------

@test "2: -r -f auto -i skips a binary file, byte for byte, with a warning naming the offset; exit 0" {
  mkdir d
  elf d/prog
  cp d/prog prog.orig
  printf 'caf\351\n' >d/text.txt
  run --separate-stderr "$UTF8CONV" -r -f auto -i d
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: d/prog: binary file (ELF, U+0002 at byte 4), skipped; --binary converts it"
  cmp d/prog prog.orig
  assert_hex d/text.txt '63 61 66 c3 a9 0a'
}

@test "2: -i alone skips a binary file too, and --binary converts it" {
  elf prog
  cp prog prog.orig
  run --separate-stderr "$UTF8CONV" -f CP1252 -i prog
  assert_equal "$status" 0
  cmp prog prog.orig
  run --separate-stderr "$UTF8CONV" -f CP1252 --binary -i prog
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  ! cmp -s prog prog.orig || fail "--binary did not convert"
  [ "$(stat -c %s prog)" -gt 3000 ]
}

@test "2: -q silences the binary warning, not the skip" {
  elf prog
  cp prog prog.orig
  run --separate-stderr "$UTF8CONV" -q -f CP1252 -i prog
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  cmp prog prog.orig
}

@test "2: -r --check and -r to standard output skip binaries too; a filter run does not test" {
  mkdir d
  elf d/prog
  printf 'ok\n' >d/t
  run --separate-stderr "$UTF8CONV" -r --check -q d
  assert_equal "$status" 0
  run --separate-stderr "$UTF8CONV" -r -q -f CP1252 d
  assert_equal "$status" 0
  assert_equal "$output" "ok"
  # Without -r, FILE to standard output is a filter: converted as asked.
  "$UTF8CONV" -f CP1252 d/prog >out
  [ "$(stat -c %s out)" -gt 3000 ]
}

@test "2: UTF-16LE text is not binary: -f UTF-16LE converts it, the default -f calls it invalid input, -f auto converts it" {
  printf 'h\000i\000\n\000' >u16
  run --separate-stderr "$UTF8CONV" -f UTF-16LE -i u16
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  assert_hex u16 '68 69 0a'
  # Read as UTF-8 it would hold U+0000 at byte 1; its NUL pattern says
  # that it is UTF-16LE, which -f UTF-8 does not read: exit 1, unchanged.
  printf 'h\000i\000\n\000' >u16
  run --separate-stderr "$UTF8CONV" -i u16
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: u16: looks like UTF-16LE (no BOM); use -f auto or -f UTF-16"
  assert_hex u16 '68 00 69 00 0a 00'
  # -f auto decides first: BOM-less UTF-16 is text.
  printf '\000h\000i\000\n' >be
  run --separate-stderr "$UTF8CONV" -f auto -i be
  assert_equal "$stderr" ""
  assert_hex be '68 69 0a'
}

@test "2: text controls (TAB, FF, ESC, SUB, BS, VT, CR) are not binary; other C0 controls are" {
  printf 'a\tb\fc\033[1md\032e\bf\vg\r\n\351' >ok
  run --separate-stderr "$UTF8CONV" -f CP1252 -i ok
  assert_equal "$stderr" ""
  assert_hex ok '61 09 62 0c 63 1b 5b 31 6d 64 1a 65 08 66 0b 67 0d 0a c3 a9'
  printf 'abc\001\351' >bell
  run --separate-stderr "$UTF8CONV" -f CP1252 -i bell
  assert_equal "$stderr" "utf8conv: bell: binary file (U+0001 at byte 3), skipped; --binary converts it"
  assert_hex bell '61 62 63 01 e9'
}

@test "2: the whole file is looked at, not its first 32 KiB; the warning names the right offset" {
  { head -c 32768 /dev/zero | tr '\0' a; printf '\000\351'; } >late
  cp late late.orig
  run --separate-stderr "$UTF8CONV" -f CP1252 -i late
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: late: binary file (U+0000 at byte 32768), skipped; --binary converts it"
  cmp late late.orig
}

# --- unchanged files ----------------------------------------------------

@test "a file whose converted bytes equal its bytes is not rewritten: same inode, same times, no backup" {
  printf 'plain ASCII\n' >a
  printf 'caf\303\251\n' >u
  touch -d '2001-02-03 04:05:06.123456789' a u
  local ia iu ta tu
  ia=$(inode a) iu=$(inode u) ta=$(times a) tu=$(times u)
  run --separate-stderr "$UTF8CONV" -f auto -i.bak --report a u
  assert_equal "$status" 0
  assert_equal "$(inode a) $(inode u)" "$ia $iu"
  assert_equal "$(times a)" "$ta"
  assert_equal "$(times u)" "$tu"
  [ ! -e a.bak ] && [ ! -e u.bak ] || fail "a backup was made"
  assert_equal "${stderr_lines[0]}" "utf8conv: report: a: unchanged, in 12 B, 12 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 1 CR 0, detected ASCII (ASCII, confidence 1.00)"
  no_temp_files
}

@test "unchanged: the same file in a read-only directory is fine; a shorter output is a change" {
  unprivileged_dir
  mkdir ro
  printf 'same\n' >ro/f
  chmod -R a+rX ro
  chmod a-w ro
  run --separate-stderr "${AS_USER[@]}" "$UTF8CONV" -i ro/f
  chmod u+w ro
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  # -c drops the invalid byte: the output is a prefix of the input, and
  # the file is replaced.
  printf 'ab\377' >p
  run "$UTF8CONV" -c -i p
  assert_equal "$status" 1
  assert_hex p '61 62'
  unprivileged_cleanup
}

@test "-f auto -i converts an archive once; run twice, the second run changes nothing" {
  mkdir arc
  printf 'caf\351\n' >arc/cp1252.txt
  printf 'na\303\257ve\n' >arc/utf8.txt
  printf '\377\376h\000\351\000\n\000' >arc/utf16.txt
  "$UTF8CONV" -r -f auto -i.bak arc
  local sums inodes
  sums=$(cd arc && cksum *.txt)
  inodes=$(stat -c %i arc/*.txt)
  assert_hex arc/cp1252.txt '63 61 66 c3 a9 0a'
  # A UTF-16 BOM is not carried into UTF-8.
  assert_hex arc/utf16.txt '68 c3 a9 0a'
  run --separate-stderr "$UTF8CONV" -r -f auto -i.bak --report arc
  assert_equal "$status" 0
  assert_equal "$(cd arc && cksum *.txt)" "$sums"
  assert_equal "$(stat -c %i arc/*.txt)" "$inodes"
  assert_equal "${stderr_lines[-1]}" "utf8conv: report: total: 5 files (3 unchanged, 2 skipped), in 17 B, out 0 B, 14 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 3 CR 0, detected UTF-8 3"
  # The backups of the first run are kept as they were; the file that
  # was UTF-8 already has none.
  assert_hex arc/cp1252.txt.bak '63 61 66 e9 0a'
  [ ! -e arc/utf8.txt.bak ] || fail "a backup of an unchanged file"
  [ ! -e arc/cp1252.txt.bak.bak ] || fail "a backup was converted"
}

# --- 3. backups ---------------------------------------------------------

@test "3: running -i.bak twice never overwrites a backup: the original bytes stay, exit 2" {
  printf 'caf\351\n' >a.txt
  "$UTF8CONV" -f CP1252 -i.bak a.txt
  assert_hex a.txt.bak '63 61 66 e9 0a'
  run --separate-stderr "$UTF8CONV" -f CP1252 -i.bak a.txt
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: a.txt: the backup 'a.txt.bak' exists; file left unchanged"
  assert_hex a.txt.bak '63 61 66 e9 0a'
  assert_hex a.txt '63 61 66 c3 a9 0a'
}

@test "3: -r -i.bak skips the backups and utf8conv's temporary files in the tree" {
  mkdir d
  printf 'x\351\n' >d/a.txt
  printf 'old\351\n' >d/b.txt.bak
  printf 'tmp\351\n' >d/.c.txt.utf8conv-Ab12Cd
  run --separate-stderr "$UTF8CONV" -r -f CP1252 -i.bak --report d
  assert_equal "$status" 0
  assert_equal "$stderr" "\
utf8conv: report: d/.c.txt.utf8conv-Ab12Cd: skipped (temporary file)
utf8conv: report: d/a.txt: converted, in 3 B, out 4 B, 3 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: d/b.txt.bak: skipped (backup)
utf8conv: report: total: 3 files (1 converted, 2 skipped), in 3 B, out 4 B, 3 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
  assert_hex d/b.txt.bak '6f 6c 64 e9 0a'
  assert_hex d/.c.txt.utf8conv-Ab12Cd '74 6d 70 e9 0a'
  [ ! -e d/b.txt.bak.bak ] || fail "a backup of a backup"
}

# --- 4. one file, once --------------------------------------------------

@test "4: -i with a symbolic link to a file already named converts it once" {
  printf 'caf\351\n' >a.txt
  ln -s a.txt l.txt
  run --separate-stderr "$UTF8CONV" -f CP1252 -i a.txt l.txt
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: l.txt: warning: the same file as 'a.txt', converted once; skipped"
  assert_hex a.txt '63 61 66 c3 a9 0a'
}

@test "4: -i converts a hard link's second name too, and the same name twice once" {
  printf 'caf\351\n' >a.txt
  ln a.txt h.txt
  run --separate-stderr "$UTF8CONV" -q -f CP1252 -i --report a.txt h.txt a.txt
  assert_equal "$status" 0
  assert_hex a.txt '63 61 66 c3 a9 0a'
  # The first rename broke the link; the second name is converted from
  # the old bytes it still held.
  assert_hex h.txt '63 61 66 c3 a9 0a'
  assert_equal "${stderr_lines[1]}" "utf8conv: report: h.txt: converted, in 5 B, out 6 B, 5 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0"
  assert_equal "${stderr_lines[2]}" "utf8conv: report: a.txt: skipped (same file)"
}

@test "4: hard links under -i --eol=lf: every name holds the converted text, with a warning; a second run is a no-op" {
  printf 'a\r\nb\r\n' >a.txt
  ln a.txt b.txt
  ln -s a.txt s.txt
  run --separate-stderr "$UTF8CONV" -i --eol=lf a.txt b.txt s.txt
  assert_equal "$status" 0
  assert_equal "${stderr_lines[0]}" "utf8conv: a.txt: warning: the file has other hard links; the conversion breaks the link (names not converted in this run keep the old contents)"
  assert_equal "${stderr_lines[1]}" "utf8conv: b.txt: warning: a hard link of 'a.txt', whose conversion broke the link; converted too"
  assert_equal "${stderr_lines[2]}" "utf8conv: s.txt: warning: the same file as 'a.txt', converted once; skipped"
  assert_equal "${#stderr_lines[@]}" 3
  assert_hex a.txt '61 0a 62 0a'
  assert_hex b.txt '61 0a 62 0a'
  # Two files now, one name each.
  [ "$(stat -c %i a.txt)" != "$(stat -c %i b.txt)" ] || fail "still one inode"
  assert_equal "$(stat -c %h a.txt)" 1
  assert_equal "$(stat -c %h b.txt)" 1
  local ia ib
  ia=$(stat -c %i a.txt)
  ib=$(stat -c %i b.txt)
  run --separate-stderr "$UTF8CONV" -i --eol=lf --report a.txt b.txt
  assert_equal "$status" 0
  assert_equal "${stderr_lines[0]}" "utf8conv: report: a.txt: unchanged, in 4 B, 4 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 2 CR 0"
  assert_equal "${stderr_lines[1]}" "utf8conv: report: b.txt: unchanged, in 4 B, 4 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 2 CR 0"
  assert_equal "$(stat -c %i a.txt) $(stat -c %i b.txt)" "$ia $ib"
}

@test "4: a hard link met after its first name's queue was committed is converted from its old bytes" {
  local i names=()
  printf 'x\351\n' >first
  ln first last
  for i in $(seq 1 300); do printf 'x\351\n' >f$i; names+=(f$i); done
  run --separate-stderr "$UTF8CONV" -q -f CP1252 -i first "${names[@]}" last first
  assert_equal "$status" 0
  assert_hex first '78 c3 a9 0a'
  assert_hex last '78 c3 a9 0a'
  assert_hex f300 '78 c3 a9 0a'
}

@test "4: the same file met again after its queue was committed is still converted once" {
  local i names=()
  for i in $(seq 1 300); do printf 'x\351\n' >f$i; names+=(f$i); done
  run --separate-stderr "$UTF8CONV" -f CP1252 -i "${names[@]}" f1
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: f1: warning: the same file as 'f1', converted once; skipped"
  assert_hex f1 '78 c3 a9 0a'
  assert_hex f300 '78 c3 a9 0a'
}

# --- 5. input is output -------------------------------------------------

@test "5: utf8conv f >> f refuses f as cat does; the file does not grow; exit 2" {
  printf 'x\n' >f
  run --separate-stderr bash -c '"$UTF8CONV" f >>f'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: f: input file is output file"
  assert_hex f '78 0a'
}

@test "5: another input is still converted; a non-empty output that is an input is refused" {
  printf 'a\n' >a
  printf 'f\n' >f
  run --separate-stderr bash -c '"$UTF8CONV" a f b 2>err >f; echo $?; cat err'
  # f was emptied by the shell, a was written to it, then f is refused.
  assert_equal "${output}" "2
utf8conv: f: input file is output file
utf8conv: b: No such file or directory"
  assert_hex f '61 0a'
  # An empty output that is an input is no loop: as cat, converted.
  printf 'x\n' >g
  run bash -c '"$UTF8CONV" g >g; echo $?'
  assert_output "0"
  assert_hex g ''
}

@test "5: standard input that is the output file, opened for appending" {
  printf 'x\n' >f
  run --separate-stderr bash -c '"$UTF8CONV" <f >>f'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: -: input file is output file"
  assert_hex f '78 0a'
}

# --- 7. not a regular file ----------------------------------------------

@test "7: -i on a process substitution, /dev/stdin or a FIFO says not a regular file, exit 2" {
  run --separate-stderr bash -c '"$UTF8CONV" -i <(echo hi)'
  assert_equal "$status" 2
  [[ $stderr =~ ^utf8conv:\ /dev/fd/[0-9]+:\ not\ a\ regular\ file$ ]] || fail "stderr: $stderr"
  run --separate-stderr bash -c 'echo hi | "$UTF8CONV" -i /dev/stdin'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: /dev/stdin: not a regular file"
  # Even when standard input is a regular file: /dev/stdin is a
  # descriptor, not a file of its own.
  printf 'caf\351\n' >f
  run --separate-stderr bash -c '"$UTF8CONV" -f CP1252 -i /dev/stdin <f'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: /dev/stdin: not a regular file"
  assert_hex f '63 61 66 e9 0a'
  mkfifo fifo
  run --separate-stderr timeout 10 "$UTF8CONV" -i fifo
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: fifo: not a regular file"
}

# --- -k, --keep-timestamps ----------------------------------------------

@test "-k keeps each converted file's access and modification times, to the nanosecond" {
  printf 'caf\351\n' >a
  printf 'na\357ve\n' >b
  touch -a -d '2001-02-03 04:05:06.123456789' a b
  touch -m -d '2002-03-04 05:06:07.987654321' a b
  local ta
  ta=$(times a)
  run --separate-stderr "$UTF8CONV" -f CP1252 -k -i a
  assert_equal "$status" 0
  # Reading the file (assert_hex) may change its access time: first the
  # times.
  assert_equal "$(times a)" "$ta"
  assert_hex a '63 61 66 c3 a9 0a'
  run --separate-stderr "$UTF8CONV" -f CP1252 --keep-timestamps -i.orig b
  assert_equal "$(times b)" "$ta"
  assert_hex b '6e 61 c3 af 76 65 0a' 
}

@test "without -k a converted file gets the time of the conversion" {
  printf 'caf\351\n' >a
  touch -d '2001-02-03 04:05:06' a
  "$UTF8CONV" -f CP1252 -i a
  [ "$(stat -c %Y a)" -gt 1000000000 ] && [ "$(stat -c %Y a)" -ge "$(($(date +%s) - 60))" ] ||
    fail "mtime $(stat -c %y a)"
}

@test "-k without -i is a usage error" {
  run --separate-stderr "$UTF8CONV" -k </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: --keep-timestamps works with --in-place only
Try 'utf8conv --help' for more information."
}

# --- 9. names are quoted ------------------------------------------------

@test "9: a name holding a newline or an escape sequence is quoted in diagnostics and in the report" {
  printf 'a\377\n' >"$(printf 'x\ny')"
  printf 'b\377\n' >"$(printf 'e\033[31m')"
  run --separate-stderr "$UTF8CONV" -e replace --report "$(printf 'x\ny')" "$(printf 'e\033[31m')"
  assert_equal "$status" 0
  assert_equal "$stderr" "\
utf8conv: 'x'\$'\\n''y':1: byte 1: invalid UTF-8: FF (invalid byte); 1 error replaced in this file
utf8conv: report: 'x'\$'\\n''y': converted, in 3 B, out 5 B, 2 chars, 1 error (decoding: 1 invalid byte), 1 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: 'e'\$'\\033''[31m':1: byte 1: invalid UTF-8: FF (invalid byte); 1 error replaced in this file
utf8conv: report: 'e'\$'\\033''[31m': converted, in 3 B, out 5 B, 2 chars, 1 error (decoding: 1 invalid byte), 1 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 2 files (2 converted), in 6 B, out 10 B, 4 chars, 2 errors (decoding: 2 invalid bytes), 2 replaced, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 2 CR 0"
  [[ $stderr != *$'\033'* ]] || fail "an escape reached the terminal"
}

@test "9: names with spaces and colons are quoted, plain names are not" {
  printf '\377' >'a b'
  printf '\377' >'c:d'
  printf '\377' >plain
  run --separate-stderr "$UTF8CONV" --check 'a b' c:d plain
  assert_equal "$status" 1
  assert_equal "$stderr" "\
utf8conv: 'a b':1: byte 0: invalid UTF-8: FF (invalid byte)
utf8conv: 'c:d':1: byte 0: invalid UTF-8: FF (invalid byte)
utf8conv: plain:1: byte 0: invalid UTF-8: FF (invalid byte)"
}

# --- a crash at any instant ---------------------------------------------

# crash_tree: 12 files in two directories, CP1252 text of several sizes,
# and their expected conversions in want/.
crash_tree() {
  mkdir -p t/a t/b want/a want/b
  local i f
  for i in $(seq 1 12); do
    f=$([ $((i % 2)) = 0 ] && echo a || echo b)/f$i.txt
    head -c $((i * 300)) /dev/zero | tr '\0' 'x' >t/$f
    printf 'caf\351 %d\n' "$i" >>t/$f
    head -c $((i * 300)) /dev/zero | tr '\0' 'x' >want/$f
    printf 'caf\303\251 %d\n' "$i" >>want/$f
  done
  cp -a t old
}

# each_old_or_new: every file of t/ holds its old or its new bytes.
each_old_or_new() {
  local f
  for f in $(cd old && find . -type f); do
    cmp -s "t/$f" "old/$f" || cmp -s "t/$f" "want/$f" ||
      fail "t/$f is neither old nor new ($1): $(hex "t/$f" | head -c 80)"
  done
}

@test "crash: SIGKILL at every rename, write, syncfs and fsync of -r -i leaves each file old or new" {
  command -v strace >/dev/null || skip "strace is not installed"
  [ -z "${UTF8CONV_VALGRIND-}" ] || skip "strace over valgrind is not this test's subject"
  strace -o /dev/null -e inject=rename:signal=SIGKILL:when=1 true 2>/dev/null ||
    skip "strace cannot inject signals here"
  local call when kills=0
  for call in rename write syncfs fsync; do
    for when in 1 2 5 9 12; do
      rm -rf t old want
      crash_tree
      run strace -f -o /dev/null -e trace=$call -e inject=$call:signal=SIGKILL:when=$when \
        "$UTF8CONV" -r -f auto -i t
      [ "$status" -eq 137 ] && kills=$((kills + 1))
      each_old_or_new "SIGKILL at $call #$when"
      # A run after the crash finishes the job and skips what the
      # killed run left behind.
      run --separate-stderr "$UTF8CONV" -r -f auto -i t
      assert_equal "$status" 0
      diff -r -x '*.utf8conv-*' t want || fail "not converted after $call #$when"
    done
  done
  # Most of those points exist: the run was killed there.
  [ "$kills" -ge 12 ] || fail "only $kills runs were killed"
}

@test "4: a hard link of a file left unchanged keeps its link, and is skipped as the same file" {
  printf 'a\nb\n' >a.txt
  ln a.txt b.txt
  run --separate-stderr "$UTF8CONV" -i --eol=lf --report a.txt b.txt
  assert_equal "$status" 0
  assert_equal "${stderr_lines[0]}" "utf8conv: report: a.txt: unchanged, in 4 B, 4 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 2 CR 0"
  assert_equal "${stderr_lines[1]}" "utf8conv: b.txt: warning: the same file as 'a.txt', converted once; skipped"
  assert_equal "${stderr_lines[2]}" "utf8conv: report: b.txt: skipped (same file)"
  assert_equal "$(stat -c %h a.txt)" 2
  assert_equal "$(stat -c %i a.txt)" "$(stat -c %i b.txt)"
  assert_hex b.txt '61 0a 62 0a'
}
