#!/usr/bin/env bats
# -r, --recursive: the regular files under each directory FILE, in the
# byte order of their names; symbolic links and special files inside the
# tree are skipped.

bats_require_minimum_version 1.5.0
load ../test_helper

# A tree with files out of order, a subdirectory, a symbolic link to a
# file, a FIFO and an empty directory.
make_tree() {
  mkdir -p d/sub d/empty
  printf 'b\n' >d/b.txt
  printf 'a\n' >d/a.txt
  printf 'c\351\n' >d/sub/c.txt
  ln -s ../a.txt d/sub/link.txt
  mkfifo d/fifo
}

@test "-r: the files of a tree in name order, links and FIFOs skipped" {
  make_tree
  printf 'top\n' >top.txt
  run --separate-stderr timeout 10 "$UTF8CONV" -r -f CP1252 d top.txt
  assert_equal "$status" 0
  assert_equal "$output" "a
b
cé
top"
  assert_equal "$stderr" ""
}

@test "-r: a strict error stops the run as without -r, and names the file" {
  make_tree
  run --separate-stderr timeout 10 "$UTF8CONV" -r d
  assert_equal "$status" 1
  assert_equal "$output" "a
b
c"
  assert_equal "$stderr" "utf8conv: d/sub/c.txt:1: byte 1: invalid UTF-8: E9 (truncated sequence)"
}

@test "-r -i: every file of the tree converted in place, with backups" {
  make_tree
  timeout 10 "$UTF8CONV" -r -f auto -i.bak d
  assert_hex d/sub/c.txt '63 c3 a9 0a'
  assert_hex d/sub/c.txt.bak '63 e9 0a'
  assert_hex d/a.txt '61 0a'
  [ -L d/sub/link.txt ] || fail "the link was replaced"
  [ -p d/fifo ] || fail "the FIFO was replaced"
  [ ! -e d/sub/link.txt.bak ] || fail "the link was converted"
}

@test "-r --check: one line per invalid file, exit 1" {
  make_tree
  printf '\377\n' >d/sub/z.txt
  run --separate-stderr timeout 10 "$UTF8CONV" -r --check d
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: d/sub/c.txt:1: byte 1: invalid UTF-8: E9 (truncated sequence)
utf8conv: d/sub/z.txt:1: byte 0: invalid UTF-8: FF (invalid byte)"
}

@test "-r: a directory without files is nothing, not standard input" {
  mkdir empty
  run --separate-stderr "$UTF8CONV" -r empty <<<"not read"
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" ""
}

@test "-r without FILE reads standard input; without -r a directory is an error" {
  run -0 "$UTF8CONV" -r <<<"stdin"
  assert_output "stdin"
  mkdir d
  run --separate-stderr "$UTF8CONV" d
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: d: Is a directory"
}

@test "-r: an unreadable directory is diagnosed, exit 2, the rest converted" {
  # Root can read any directory: as root, utf8conv runs as nobody.
  unprivileged_dir
  mkdir -p d/closed d/open
  printf 'x\n' >d/closed/f
  printf 'y\n' >d/open/g
  chmod -R a+rX d
  chmod 000 d/closed
  run --separate-stderr "${AS_USER[@]}" "$UTF8CONV" -r d
  chmod 755 d/closed
  unprivileged_cleanup
  assert_equal "$status" 2
  assert_equal "$output" "y"
  assert_equal "$stderr" "utf8conv: cannot read directory 'd/closed': Permission denied"
}

@test "1: -r --check follows a symbolic link to a directory given as FILE" {
  mkdir real
  printf 'ok\n' >real/a
  printf '\377\n' >real/b
  ln -s real link
  run --separate-stderr "$UTF8CONV" -r --check link
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: link/b:1: byte 0: invalid UTF-8: FF (invalid byte)"
  # A link to a directory inside the tree is not followed.
  mkdir top
  ln -s ../real top/inner
  run --separate-stderr "$UTF8CONV" -r --check --report top
  assert_equal "$status" 0
  assert_equal "$stderr" "\
utf8conv: report: top/inner: skipped (link)
utf8conv: report: total: 1 file (1 skipped), in 0 B, 0 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 0 CR 0"
}
