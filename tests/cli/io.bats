#!/usr/bin/env bats
# Input and output: write errors, SIGPIPE, streaming, FIFOs, directories.

bats_require_minimum_version 1.5.0
load ../test_helper

@test "writing to /dev/full: write error, exit 2" {
  [ -w /dev/full ] || skip "/dev/full is required"
  run --separate-stderr bash -c 'printf "abc" | "$UTF8CONV" > /dev/full'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: write error: No space left on device"
}

@test "writing a big input to /dev/full: exit 2 at once" {
  [ -w /dev/full ] || skip "/dev/full is required"
  run --separate-stderr bash -c 'head -c 1000000 /dev/zero | "$UTF8CONV" --block-size=1000 > /dev/full'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: write error: No space left on device"
}

@test "--help, --version and --list to /dev/full: one write error, exit 2 (not 1)" {
  [ -w /dev/full ] || skip "/dev/full is required"
  local opt
  for opt in --help --version --list; do
    run --separate-stderr "$UTF8CONV" "$opt"
    assert_equal "$status" 0
    run --separate-stderr bash -c '"$UTF8CONV" "$1" > /dev/full' sh "$opt"
    assert_equal "$status" 2
    assert_equal "$stderr" "utf8conv: write error: No space left on device"
  done
}

@test "-o /dev/full: write error, exit 2" {
  [ -w /dev/full ] || skip "/dev/full is required"
  printf 'abc' >in
  run --separate-stderr "$UTF8CONV" -o /dev/full in
  assert_equal "$status" 2
  [[ $stderr == *"write error"* ]] || fail "stderr: $stderr"
}

@test "closed standard output: write error, exit 2" {
  run --separate-stderr bash -c 'printf "abc" | "$UTF8CONV" >&-'
  assert_equal "$status" 2
  [[ $stderr == "utf8conv: write error"* ]] || fail "stderr: $stderr"
}

@test "closed standard output with empty input: exit 0 or write error, never silent failure" {
  run --separate-stderr bash -c '"$UTF8CONV" </dev/null >&-'
  if [ "$status" -ne 0 ]; then
    assert_equal "$status" 2
    [[ $stderr == *"write error"* ]] || fail "stderr: $stderr"
  fi
}

@test "a reader that goes away ends the program quietly" {
  run --separate-stderr bash -c 'yes | head -c 1000000 | "$UTF8CONV" | head -c 1; echo " ${PIPESTATUS[2]}"'
  assert_equal "$stderr" ""
  [[ $output == "y 0" || $output == "y 141" ]] || fail "output: $output"
}

@test "a reader that goes away, SIGPIPE ignored by the parent: still no message" {
  # Started with SIGPIPE ignored, the program resets it (DESIGN.md) or gets
  # EPIPE; either way it must end without a message.
  yes | head -c 1000000 >big || true
  run --separate-stderr bash -c 'trap "" PIPE; "$UTF8CONV" big 2>err | head -c 1; echo " ${PIPESTATUS[0]}"'
  assert_equal "$(cat err)" ""
  [[ $output == "y 0" || $output == "y 141" ]] || fail "output: $output"
}

@test "streaming: output is written before the input ends" {
  mkfifo fifo
  "$UTF8CONV" -t UTF-16LE <fifo >out 2>err &
  local pid=$! i fd
  # (bats itself uses file descriptor 3)
  exec {fd}>fifo
  printf 'ab\xc3' >&"$fd"
  for i in $(seq 1 40); do
    [ "$(wc -c <out)" -ge 4 ] && break
    sleep 0.1
  done
  local early
  early=$(hex out)
  printf '\xa9\n' >&"$fd"
  exec {fd}>&-
  wait "$pid"
  assert_equal "$early" "61006200"
  assert_hex out '61006200e9000a00'
}

@test "streaming with a small block size" {
  mkfifo fifo
  "$UTF8CONV" --block-size=2 <fifo >out 2>err &
  local pid=$! i fd
  # (bats itself uses file descriptor 3)
  exec {fd}>fifo
  printf 'line 1\n' >&"$fd"
  for i in $(seq 1 40); do
    [ "$(wc -c <out)" -ge 7 ] && break
    sleep 0.1
  done
  local early
  early=$(cat out)
  printf 'line 2\n' >&"$fd"
  exec {fd}>&-
  wait "$pid"
  assert_equal "$early" "line 1"
  assert_equal "$(cat out)" "line 1
line 2"
}

@test "reading from a FIFO named as a file" {
  mkfifo fifo
  printf 'h\xc3\xa9' >fifo &
  "$UTF8CONV" -t UTF-16BE fifo >out
  wait
  assert_hex out '006800e9'
}

@test "a directory as input: exit 2, the other files still converted" {
  mkdir d
  printf 'x' >x
  run --separate-stderr "$UTF8CONV" d x
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: d: Is a directory"
  assert_equal "$output" "x"
}

@test "an unreadable file: exit 2, and the next file is still converted" {
  # Root can read anything: as root, the test runs utf8conv as nobody.
  unprivileged_dir
  printf 'x' >secret
  chmod 000 secret
  printf 'y' >open
  chmod 644 open
  run --separate-stderr "${AS_USER[@]}" "$UTF8CONV" secret open
  unprivileged_cleanup
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: secret: Permission denied"
  assert_equal "$output" "y"
}

@test "a large input converts with any block size" {
  local i
  for i in $(seq 1 2000); do printf 'l\xc3\xa9ne %d \xf0\x9f\x98\x80 \xe2\x82\xac\n' "$i"; done >big
  "$UTF8CONV" -t UTF-16LE big >u16
  "$UTF8CONV" -f UTF-16LE u16 >back
  cmp back big
  for i in 1 5 4096; do
    "$UTF8CONV" --block-size=$i -t UTF-16LE big >u16b
    cmp u16 u16b
  done
}

@test "output to a pipe and to a regular file are identical" {
  printf 'a\xffb' >in
  "$UTF8CONV" -e escape in >file 2>/dev/null
  "$UTF8CONV" -e escape in 2>/dev/null | cat >piped
  cmp file piped
  assert_hex file '615c78666662'
}
