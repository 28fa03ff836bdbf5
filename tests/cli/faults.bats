#!/usr/bin/env bats
# Fault injection: what the environment does wrong (full disks, closed or
# vanishing readers, write limits, unreadable or odd inputs, signals).
# Every command runs under timeout(1): a hang is a failure, not a stuck CI.

bats_require_minimum_version 1.5.0
load ../test_helper

# Seconds after which a command counts as hung.
HANG=60

# big FILE: about 4 MiB of mixed text.
big() {
  local i
  for i in $(seq 1 2000); do
    printf 'l\xc3\xa9ne %05d \xf0\x9f\x98\x80 \xe2\x82\xac abcdefghij\n' "$i"
  done >chunk
  for i in $(seq 1 60); do cat chunk; done >"$1"
  rm chunk
}

# --- write side -------------------------------------------------------

@test "faults: > /dev/full: exit 2, one message, no hang" {
  [ -w /dev/full ] || skip "/dev/full is required"
  big in
  run --separate-stderr timeout $HANG bash -c '"$UTF8CONV" -t UTF-16LE in > /dev/full'
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: write error: No space left on device"
}

@test "faults: > /dev/full from a pipe that keeps coming: exit 2, no hang" {
  [ -w /dev/full ] || skip "/dev/full is required"
  run --separate-stderr timeout $HANG bash -c \
    'yes "é" | "$UTF8CONV" > /dev/full; echo "status ${PIPESTATUS[1]}" >&2'
  [[ $stderr == *"utf8conv: write error: No space left on device"* ]] || fail "stderr: $stderr"
  [[ $stderr == *"status 2" ]] || fail "stderr: $stderr"
}

@test "faults: stdout closed (>&-): exit 2 and a message" {
  big in
  run --separate-stderr timeout $HANG bash -c '"$UTF8CONV" in >&-'
  assert_equal "$status" 2
  [[ $stderr == "utf8conv: write error"* ]] || fail "stderr: $stderr"
}

@test "faults: a reader that goes away (| head -c 1): quiet, like cat" {
  big in
  run --separate-stderr timeout $HANG bash -c \
    'trap - PIPE; "$UTF8CONV" -t UTF-16LE in | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}" >status'
  assert_equal "$stderr" ""
  # Killed by SIGPIPE (128 + 13), as cat is; a plain exit 0 is quiet too.
  [[ $(cat status) == 141 || $(cat status) == 0 ]] || fail "status $(cat status)"
}

@test "faults: a reader that goes away while SIGPIPE is ignored: still quiet" {
  big in
  run --separate-stderr timeout $HANG bash -c \
    'trap "" PIPE; "$UTF8CONV" in | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}" >status'
  assert_equal "$stderr" ""
  [[ $(cat status) == 141 || $(cat status) == 0 ]] || fail "status $(cat status)"
}

@test "faults: ulimit -f during -o, SIGXFSZ ignored: exit 2, write error" {
  big in
  run --separate-stderr timeout $HANG bash -c \
    'trap "" XFSZ; ulimit -f 64; "$UTF8CONV" -t UTF-32LE -o out in'
  assert_equal "$status" 2
  [[ $stderr == *"File too large"* ]] || fail "stderr: $stderr"
}

@test "faults: ulimit -f during -o: never a silent success" {
  big in
  run --separate-stderr timeout $HANG bash -c \
    'ulimit -f 64; "$UTF8CONV" -t UTF-32LE -o out in'
  # Either SIGXFSZ (128 + 25), as for cat, or a reported write error.
  [ "$status" -ne 0 ] || fail "exit 0 with a truncated output"
  if [ "$status" -eq 2 ]; then
    [[ $stderr == *"File too large"* ]] || fail "stderr: $stderr"
  else
    assert_equal "$status" 153
  fi
}

@test "faults: ulimit -f during -o onto its own input: the input is intact" {
  big in
  cp in orig
  run --separate-stderr timeout $HANG bash -c \
    'ulimit -f 64; "$UTF8CONV" -t UTF-32LE -o in in'
  [ "$status" -ne 0 ] || fail "exit 0"
  cmp in orig
}

@test "faults: ulimit -f during -i: original intact, no temporary left" {
  mkdir d
  big d/in
  cp d/in orig
  run --separate-stderr timeout $HANG bash -c \
    'ulimit -f 64; "$UTF8CONV" -i -t UTF-32LE d/in'
  [ "$status" -ne 0 ] || fail "exit 0"
  cmp d/in orig
  assert_equal "$(ls d)" "in"
}

@test "faults: SIGKILL during -i: the original is intact" {
  big in
  cp in orig
  # --block-size=1 makes the conversion slow enough to be caught.
  timeout -s KILL 0.5 "$UTF8CONV" --block-size=1 -i -t UTF-16LE in || true
  cmp in orig
}

# --- read side --------------------------------------------------------

@test "faults: a missing file: exit 2, named, the next file still converted" {
  printf 'ok\n' >there
  run --separate-stderr timeout $HANG "$UTF8CONV" missing there
  assert_equal "$status" 2
  assert_equal "$output" "ok"
  assert_equal "$stderr" "utf8conv: missing: No such file or directory"
}

@test "faults: a directory: exit 2, named, the next file still converted" {
  mkdir dir
  printf 'ok\n' >there
  run --separate-stderr timeout $HANG "$UTF8CONV" dir there
  assert_equal "$status" 2
  assert_equal "$output" "ok"
  assert_equal "$stderr" "utf8conv: dir: Is a directory"
}

@test "faults: an unreadable file, as an unprivileged user: exit 2, named" {
  # As root, utf8conv runs as nobody (test_helper.bash).
  unprivileged_dir
  printf 'x' >secret
  chmod 000 secret
  run --separate-stderr timeout $HANG "${AS_USER[@]}" "$UTF8CONV" secret
  unprivileged_cleanup
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: secret: Permission denied"
}

@test "faults: a FIFO whose writer pauses inside a sequence" {
  mkfifo fifo
  ( printf 'a\xe2'; sleep 0.3; printf '\x82\xac'; sleep 0.3; printf 'b\xf0\x9f'; sleep 0.3; printf '\x98\x80' ) >fifo &
  run --separate-stderr timeout $HANG "$UTF8CONV" -t UTF-16BE -o out fifo
  wait
  assert_equal "$status" 0
  assert_hex out "0061 20ac 0062 d83d de00"
}

@test "faults: a FIFO that ends inside a sequence: strict error at the right byte" {
  mkfifo fifo
  ( printf 'ab'; sleep 0.3; printf '\xf0\x9f\x98' ) >fifo &
  run --separate-stderr timeout $HANG "$UTF8CONV" fifo
  wait
  assert_equal "$status" 1
  assert_equal "$output" "ab"
  assert_equal "$stderr" "utf8conv: fifo:1: byte 2: invalid UTF-8: F0 9F 98 (truncated sequence)"
}

@test "faults: /dev/zero | head -c upstream: every NUL converted" {
  timeout $HANG bash -c 'head -c 3000000 /dev/zero | "$UTF8CONV" -t UTF-16LE >out'
  assert_equal "$(stat -c %s out)" 6000000
  assert_equal "$(tr -d '\0' <out | wc -c)" 0
}

@test "faults: input that ends inside a sequence, every policy" {
  printf 'ab\xe2\x82' >in
  run --separate-stderr "$UTF8CONV" in
  assert_equal "$status" 1
  assert_equal "$output" "ab"
  assert_equal "$stderr" "utf8conv: in:1: byte 2: invalid UTF-8: E2 82 (truncated sequence)"
  "$UTF8CONV" -e replace -q in >out
  assert_hex out "61 62 ef bf bd"
  "$UTF8CONV" -e escape -q in >out
  assert_equal "$(cat out)" 'ab\xe2\x82'
  "$UTF8CONV" -e surrogateescape in >out
  cmp in out
  run "$UTF8CONV" -e ignore -q in
  assert_equal "$status" 1
  assert_equal "$output" "ab"
}

@test "faults: UTF-16 input that ends inside a unit or a pair" {
  printf 'a\0\x3d\xd8\x00' >in
  run --separate-stderr "$UTF8CONV" -f UTF-16LE in
  assert_equal "$status" 1
  assert_equal "$output" "a"
  [[ $stderr == "utf8conv: in:1: byte 2: "*"(truncated sequence)" ]] || fail "stderr: $stderr"
}
