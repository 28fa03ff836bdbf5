#!/usr/bin/env bats
# -i, --in-place (SPEC §7, §10): each file converted alone, replaced
# atomically, left byte for byte unchanged when anything goes wrong.

bats_require_minimum_version 1.5.0
load ../test_helper

# no_temp_files: no temporary file (.NAME.utf8conv-XXXXXX) is left in the
# current directory.
no_temp_files() {
  local left
  left=$(find . -name '*.utf8conv-??????')
  [ -z "$left" ] || fail "temporary files left: $left"
}

# utf16le_bom: "hi\n" in UTF-16LE with a BOM.
utf16le_bom() {
  printf '\377\376h\000i\000\n\000'
}

@test "-i converts several files, each with its own BOM decision" {
  printf 'ab' >plain                    # UTF-8 without a BOM
  printf '\357\273\277hi\n' >marked  # UTF-8 with a BOM
  printf '\357\273\277hi\n' >marked2
  utf16le_bom >wide
  run --separate-stderr "$UTF8CONV" -f auto -t UTF-16LE -i plain marked marked2 wide
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" ""
  # A later file's BOM is its own signature, not one in the middle of a
  # concatenation: it is carried to its own output.
  assert_hex plain '61 00 62 00'
  assert_hex marked 'ff fe 68 00 69 00 0a 00'
  assert_hex marked2 'ff fe 68 00 69 00 0a 00'
  assert_hex wide 'ff fe 68 00 69 00 0a 00'
  # A UTF-16 BOM is not carried into UTF-8 (as iconv and dos2unix).
  run -0 "$UTF8CONV" -f UTF-16LE -i wide
  assert_hex wide '68 69 0a'
  no_temp_files
}

@test "-i with --bom=strip and -t UTF-16: every file big-endian, no BOM" {
  utf16le_bom >a
  printf 'x\n' >b
  run "$UTF8CONV" -f UTF-16 --bom=strip -t UTF-16 -i a b
  assert_equal "$status" 0
  assert_hex a '00 68 00 69 00 0a'
  # b has no BOM: its own decoder reads it big-endian, U+780A, whatever
  # byte order a's BOM chose.
  assert_hex b '78 0a'
}

@test "-i -t UTF-16: each file starts with its own BOM" {
  printf 'a' >a
  printf 'b' >b
  run "$UTF8CONV" -t UTF-16 -i a b
  assert_equal "$status" 0
  assert_hex a 'ff fe 61 00'
  assert_hex b 'ff fe 62 00'
}

@test "strict error: that file is byte-identical, the others are converted, exit 1" {
  printf 'one\n' >good1
  printf 'ok\n\377tail\n' >bad
  printf 'two\n' >good2
  cp bad bad.orig
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i good1 bad good2
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: bad:2: byte 3: invalid UTF-8: FF (invalid byte)"
  cmp bad bad.orig
  assert_hex good1 '6f 00 6e 00 65 00 0a 00'
  assert_hex good2 '74 00 77 00 6f 00 0a 00'
  no_temp_files
}

@test "an unencodable character under strict leaves the file unchanged" {
  printf 'caf\303\251 \342\202\254\n' >f
  cp f f.orig
  run --separate-stderr "$UTF8CONV" -t ISO-8859-1 -i f
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: f:1: byte 6: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
  cmp f f.orig
}

@test "-c -i: the file is replaced without what was dropped, exit 1" {
  printf 'a\377b\n' >f
  printf 'c\n' >g
  run --separate-stderr "$UTF8CONV" -c -i f g
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: f:1: byte 1: invalid UTF-8: FF (invalid byte); 1 error dropped in this file"
  assert_hex f '61 62 0a'
  assert_hex g '63 0a'
}

@test "-e replace -i: replaced, exit 0" {
  printf 'a\377b' >f
  run --separate-stderr "$UTF8CONV" -q -e replace -i f
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  assert_hex f '61 ef bf bd 62'
}

@test "ulimit -f: write error, the original intact, no temporary file, exit 2" {
  # 2000 bytes of UTF-8 become 8000 bytes of UTF-32; bash's ulimit -f
  # counts 1024-byte blocks.
  head -c 2000 /dev/zero | tr '\0' a >big
  printf 'small\n' >small
  cp big big.orig
  run --separate-stderr bash -c 'ulimit -f 1; "$UTF8CONV" -t UTF-32LE -i big small'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: big: write error: File too large"
  cmp big big.orig
  # The next file still fits, and is converted.
  assert_hex small '73000000 6d000000 61000000 6c000000 6c000000 0a000000'
  no_temp_files
}

@test "SIGKILL while writing: the original intact; only a temporary file of the documented name is left" {
  yes abcdefgh | head -c 200M >big || true
  local before left pid
  before=$(cksum <big)
  "$UTF8CONV" -t UTF-32LE -i big &
  pid=$!
  # Wait until the temporary file has some output in it.
  until [ -n "$(find . -name '.big.utf8conv-??????' -size +0)" ]; do
    kill -0 "$pid" 2>/dev/null || fail "utf8conv ended before it could be killed"
  done
  kill -9 "$pid"
  wait "$pid" || assert_equal "$?" 137
  assert_equal "$(cksum <big)" "$before"
  left=$(ls -A | grep -v '^big$' || true)
  [[ $left =~ ^\.big\.utf8conv-[A-Za-z0-9]{6}$ ]] || fail "left behind: $left"
  rm -f .big.utf8conv-??????
}

@test "SIGTERM, SIGINT, SIGHUP while writing: temporary file removed, original intact" {
  yes abcdefgh | head -c 200M >big || true
  local before sig
  before=$(cksum <big)
  for sig in TERM INT HUP; do
    # Job control, so that the background job does not start with SIGINT
    # ignored; and env, for a runner that started this test with SIGINT
    # ignored (a background job of a script), which bash cannot undo.
    run bash -c 'set -m
      env --default-signal=INT,TERM,HUP "$UTF8CONV" -t UTF-32LE -i big & pid=$!
      until [ -n "$(find . -name ".big.utf8conv-??????" -size +0)" ]; do
        kill -0 $pid 2>/dev/null || exit 99
      done
      kill -'"$sig"' $pid; wait $pid'
    case $sig in
      TERM) assert_equal "$status" 143 ;;
      INT) assert_equal "$status" 130 ;;
      HUP) assert_equal "$status" 129 ;;
    esac
    assert_equal "$(cksum <big)" "$before"
    no_temp_files
  done
}

@test "permission bits are kept" {
  printf 'a' >f640
  printf 'b' >f600
  printf 'c' >f444
  chmod 640 f640
  chmod 600 f600
  chmod 444 f444
  run "$UTF8CONV" -t UTF-16BE -i f640 f600 f444
  assert_equal "$status" 0
  assert_equal "$(stat -c %a f640) $(stat -c %a f600) $(stat -c %a f444)" "640 600 444"
  assert_hex f640 '00 61'
  assert_hex f444 '00 63'
}

@test "owner and group are kept when running as root" {
  [ "$(id -u)" = 0 ] || skip "needs root"
  printf 'a' >f
  chown 65534:65534 f
  chmod 4750 f
  run "$UTF8CONV" -t UTF-16LE -i f
  assert_equal "$status" 0
  assert_equal "$(stat -c '%u:%g %a' f)" "65534:65534 4750"
  assert_hex f '61 00'
}

@test "-i.bak keeps the original as FILE.bak" {
  utf16le_bom >f
  run --separate-stderr "$UTF8CONV" -f UTF-16LE -i.bak f
  assert_equal "$status" 0
  assert_hex f '68 69 0a'
  assert_hex f.bak 'ff fe 68 00 69 00 0a 00'
  no_temp_files
}

@test "an existing backup is never replaced: that file unchanged, exit 2, the others converted" {
  printf 'new' >f
  printf 'stale backup' >f.orig
  printf 'other' >g
  run --separate-stderr "$UTF8CONV" -t UTF-16BE --in-place=.orig f g
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: f: the backup 'f.orig' exists; file left unchanged"
  assert_hex f '6e 65 77'
  assert_hex f.orig '73 74 61 6c 65 20 62 61 63 6b 75 70'
  assert_hex g '00 6f 00 74 00 68 00 65 00 72'
  assert_hex g.orig '6f 74 68 65 72'
  no_temp_files
}

@test "a file system that refuses hard links: the backup is made by renaming" {
  command -v cc >/dev/null || skip "needs a C compiler for the link() shim"
  skip_under_qemu "the host's loader would preload the link() shim into the emulator"
  cat >nolink.c <<'EOF'
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
/* Leave a mark, so that a program the shim never reached (a static
   one) skips the test rather than failing it.  */
__attribute__ ((constructor)) static void
mark (void)
{
  close (open ("preloaded", O_WRONLY | O_CREAT, 0644));
}
int link (const char *a, const char *b) { (void) a; (void) b; errno = EPERM; return -1; }
int linkat (int d1, const char *a, int d2, const char *b, int f)
{ (void) d1; (void) a; (void) d2; (void) b; (void) f; errno = EPERM; return -1; }
EOF
  cc -shared -fPIC -o nolink.so nolink.c || skip "cannot build a shared object"
  printf 'x\n' >f
  printf 'y\n' >g
  printf 'stale' >g.bak
  # Under AddressSanitizer the shim comes before ASan's runtime in the
  # list of libraries, which ASan refuses unless told not to check.
  run --separate-stderr env LD_PRELOAD="$PWD/nolink.so" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    "$UTF8CONV" -t UTF-16LE -i.bak f g
  [ -e preloaded ] || skip "utf8conv is linked statically: LD_PRELOAD cannot reach it"
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: g: the backup 'g.bak' exists; file left unchanged"
  assert_hex f '78 00 0a 00'
  assert_hex f.bak '78 0a'
  assert_hex g '79 0a'
  assert_hex g.bak '73 74 61 6c 65'
  no_temp_files
}

@test "no backup is made for a file left unchanged" {
  printf '\377' >f
  run "$UTF8CONV" -i.bak f
  assert_equal "$status" 1
  [ ! -e f.bak ] || fail "f.bak was made"
  assert_hex f 'ff'
}

@test "an empty SUFFIX makes no backup" {
  printf 'x' >f
  run "$UTF8CONV" -t UTF-16LE --in-place= f
  assert_equal "$status" 0
  assert_equal "$(ls -A)" "f"
  assert_hex f '78 00'
}

@test "a symbolic link is followed: the target is converted, the link stays a link" {
  mkdir real
  printf 'x\n' >real/f
  chmod 640 real/f
  ln -s real/f link
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i.bak link
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  [ -L link ] || fail "link is no longer a symbolic link"
  assert_equal "$(readlink link)" "real/f"
  assert_hex real/f '78 00 0a 00'
  assert_equal "$(stat -c %a real/f)" "640"
  # The backup goes beside the target, under the target's name.
  assert_hex real/f.bak '78 0a'
  [ ! -e link.bak ] || fail "backup made beside the link"
  [ -z "$(find . -name '*.utf8conv-*')" ] || fail "temporary file left"
}

@test "a dangling symbolic link is an error for that file, exit 2" {
  ln -s nowhere dangling
  printf 'x' >f
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i dangling f
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: dangling: No such file or directory"
  assert_equal "$(readlink dangling)" "nowhere"
  assert_hex f '78 00'
}

@test "a hard link not named keeps the old contents, with a warning" {
  printf 'x' >f
  ln f other
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i f
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: f: warning: the file has other hard links; the conversion breaks the link (names not converted in this run keep the old contents)"
  assert_hex f '78 00'
  assert_hex other '78'
}

@test "the hard link warning is off with -q" {
  printf 'x' >f
  ln f other
  run --separate-stderr "$UTF8CONV" -q -t UTF-16LE -i f
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  assert_hex f '78 00'
  assert_hex other '78'
}

@test "-i with no FILE is a usage error" {
  run --separate-stderr "$UTF8CONV" -i
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: --in-place needs a FILE
Try 'utf8conv --help' for more information."
}

@test "-i with - is a usage error, and nothing is converted" {
  printf 'x' >f
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i f - </dev/null
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: --in-place cannot convert standard input
Try 'utf8conv --help' for more information."
  assert_hex f '78'
}

@test "-i with -o is a usage error, and nothing is converted" {
  printf 'x' >f
  run --separate-stderr "$UTF8CONV" -t UTF-16LE -i -o out f
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: cannot combine --in-place and --output
Try 'utf8conv --help' for more information."
  assert_hex f '78'
  [ ! -e out ] || fail "out was made"
}

@test "-i with --check is a usage error" {
  printf 'x' >f
  run --separate-stderr "$UTF8CONV" -i --check f
  assert_equal "$status" 2
  assert_equal "${stderr##*$'\n'}" "Try 'utf8conv --help' for more information."
}

@test "a directory, a FIFO: errors for those files, exit 2, the others converted" {
  mkdir dir
  mkfifo fifo
  printf 'a' >a
  printf 'b' >b
  run --separate-stderr timeout 10 "$UTF8CONV" -t UTF-16LE -i a dir fifo b
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: dir: Is a directory
utf8conv: fifo: not a regular file"
  assert_hex a '61 00'
  assert_hex b '62 00'
  [ -d dir ] && [ -p fifo ]
  no_temp_files
}

@test "2 wins over 1 under -i" {
  printf '\377' >bad
  run "$UTF8CONV" -i bad missing
  assert_equal "$status" 2
  assert_hex bad 'ff'
}

@test "an unwritable directory: the file is left unchanged, exit 2" {
  # Root can write into any directory: as root, utf8conv runs as nobody.
  unprivileged_dir
  mkdir ro
  printf 'x' >ro/f
  chmod 666 ro/f
  chmod 555 ro
  run --separate-stderr "${AS_USER[@]}" "$UTF8CONV" -t UTF-16LE -i ro/f
  chmod 755 ro
  hexf=$(hex ro/f)
  unprivileged_cleanup
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: cannot create a temporary file beside 'ro/f': Permission denied"
  assert_equal "$hexf" '78'
}

@test "-o FILE that is an input goes through the same replacement: mode and link kept" {
  printf 'x\n' >f
  chmod 604 f
  ln -s f link
  run "$UTF8CONV" -t UTF-16LE -o link f
  assert_equal "$status" 0
  [ -L link ] || fail "link is no longer a symbolic link"
  assert_hex f '78 00 0a 00'
  assert_equal "$(stat -c %a f)" "604"
  no_temp_files
}

@test "-o FILE that is an input, strict error: unchanged, no temporary file" {
  printf 'x\377' >f
  run "$UTF8CONV" -t UTF-16LE -o f f
  assert_equal "$status" 1
  assert_hex f '78 ff'
  no_temp_files
}

@test "batch (README): find -exec --bom=strip -i strips each CSV's BOM, nothing else" {
  mkdir -p d/sub
  printf '\357\273\277a,b\n' >d/x.csv
  printf '\357\273\277c\n' >d/sub/y.csv
  printf 'no bom\n' >d/z.csv
  printf '\357\273\277keep\n' >d/keep.txt
  find d -name '*.csv' -exec "$UTF8CONV" --bom=strip -i {} +
  assert_hex d/x.csv '61 2c 62 0a'
  assert_hex d/sub/y.csv '63 0a'
  assert_hex d/z.csv '6e 6f 20 62 6f 6d 0a'
  assert_hex d/keep.txt 'ef bb bf 6b 65 65 70 0a'
  no_temp_files
}

@test "batch (README): --bom=add -o excel.csv writes exactly one BOM" {
  printf 'a,b\n' >data.csv
  "$UTF8CONV" --bom=add -t UTF-8 -o excel.csv data.csv
  assert_hex excel.csv 'ef bb bf 61 2c 62 0a'
  printf '\357\273\277a,b\n' >data.csv
  "$UTF8CONV" --bom=add -t UTF-8 -o excel.csv data.csv
  assert_hex excel.csv 'ef bb bf 61 2c 62 0a'
  assert_hex data.csv 'ef bb bf 61 2c 62 0a'
}

@test "a forgotten backup suffix: -i .bak FILE is refused before anything is converted, exit 2, with the hint -i.bak" {
  printf 'caf\351\n' >a.txt
  run --separate-stderr "$UTF8CONV" -c -f CP1252 -i .bak a.txt
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: '.bak' is not a file; to keep backups with that suffix, attach it: '-i.bak'"
  assert_equal "${stderr_lines[1]}" "Try 'utf8conv --help' for more information."
  assert_hex a.txt '63 61 66 e9 0a'
  [ ! -e a.txt.bak ] || fail "a backup was made"
}

@test "a forgotten backup suffix: -ci ~, and --in-place .orig, are refused too; a.txt is untouched" {
  printf 'caf\351\n' >a.txt
  run --separate-stderr "$UTF8CONV" -f CP1252 -ci '~' a.txt
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: '~' is not a file; to keep backups with that suffix, attach it: '-i~'"
  run --separate-stderr "$UTF8CONV" -f CP1252 --in-place .orig a.txt
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: '.orig' is not a file; to keep backups with that suffix, attach it: '-i.orig'"
  assert_hex a.txt '63 61 66 e9 0a'
}

@test "an existing file called .bak after -i is converted as a file, as are long or attached names" {
  printf 'caf\351\n' >a.txt
  printf 'x\351\n' >.bak
  run --separate-stderr "$UTF8CONV" -f CP1252 -i .bak a.txt
  assert_equal "$status" 0
  assert_hex .bak '78 c3 a9 0a'
  assert_hex a.txt '63 61 66 c3 a9 0a'
  printf 'caf\351\n' >a.txt
  run --separate-stderr "$UTF8CONV" -f CP1252 -i.bak a.txt
  assert_equal "$status" 0
  assert_hex a.txt.bak '63 61 66 e9 0a'
  # A name longer than a suffix is a file that is missing.
  run --separate-stderr "$UTF8CONV" -f CP1252 -i .missing-file a.txt
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: .missing-file: No such file or directory"
}
