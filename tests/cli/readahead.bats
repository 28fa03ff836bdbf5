#!/usr/bin/env bats
# Reading ahead: a big regular file that utf8conv opens, whose first block
# is not ASCII, is read by a second thread (src/readahead.c) on a machine
# with two processors or more.  It must give exactly the bytes, messages
# and exit status of the plain read loop, which standard input always
# takes.

bats_require_minimum_version 1.5.0
load ../test_helper

# make_text NAME BYTES [BAD [HEX]]: German/French-like text of about BYTES
# bytes (6% non-ASCII: 2-, 3- and 4-byte characters), with BAD bytes spread
# over its second half, each one of the bytes HEX (by default 80 C3 E2 FF,
# which may break a character or a sequence in several ways).
make_text() {
  python3 - "$1" "$2" "${3:-0}" "${4:-80c3e2ff}" <<'PY'
import random, sys
name, size, bad = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
badbytes = bytes.fromhex(sys.argv[4])
rng = random.Random(7)
words = ['Stra\u00dfe', 'caf\u00e9', 'na\u00efve', '\u20ac12', '\u201cja\u201d',
         'the', 'and', 'word', 'line', '\u00e0 la', 'gr\u00fc\u00dfe',
         '\u4e2d\u6587', '\U0001F600']
out = []
n = 0
while n < size:
    w = rng.choice(words) + (' ' if rng.random() < 0.9 else '\n')
    out.append(w)
    n += len(w.encode())
data = bytearray(''.join(out).encode())
for _ in range(bad):
    data[rng.randrange(len(data) // 2, len(data))] = rng.choice(badbytes)
open(name, 'wb').write(data)
PY
}

# threads_of INPUT ARGS...: run utf8conv with ARGS and standard input from
# the file INPUT, its output going to a FIFO that nobody reads yet, so that
# it blocks in its first write; print the number of threads it has then.
threads_of() {
  local input=$1
  shift
  mkfifo out.fifo
  "$UTF8CONV" "$@" <"$input" >out.fifo 2>/dev/null &
  local pid=$! k state=
  exec 3<out.fifo
  for k in $(seq 100); do
    state=$(awk '/^State:/{print $2}' "/proc/$pid/status" 2>/dev/null)
    [ "$state" = S ] && break
    sleep 0.05
  done
  awk '/^Threads:/{print $2}' "/proc/$pid/status"
  cat <&3 >/dev/null
  exec 3<&-
  wait "$pid" || true
  rm -f out.fifo
}

needs_two_processors() {
  [ "$(nproc)" -ge 2 ] || skip "one processor: utf8conv never reads ahead"
  [ -z "${UTF8CONV_VALGRIND-}" ] ||
    skip "the thread count is not checked under valgrind"
}

@test "a big file that is not ASCII is read by a second thread; standard input, ASCII and small blocks are not" {
  needs_two_processors
  make_text text 4000000
  python3 -c 'import sys; sys.stdout.write("plain ascii text\n" * 250000)' >ascii
  assert_equal "$(threads_of /dev/null -t UTF-16LE text)" 2
  assert_equal "$(threads_of text -t UTF-16LE)" 1
  assert_equal "$(threads_of /dev/null -t UTF-16LE ascii)" 1
  assert_equal "$(threads_of /dev/null -t UTF-16LE --block-size=1024 text)" 1
}

# blocked_of ARGS...: like threads_of, but print, for each thread other
# than the main one, its blocked-signal mask (SigBlk) in hex.
blocked_of() {
  mkfifo out.fifo
  "$UTF8CONV" "$@" </dev/null >out.fifo 2>/dev/null &
  local pid=$! k state= t
  exec 3<out.fifo
  for k in $(seq 100); do
    state=$(awk '/^State:/{print $2}' "/proc/$pid/status" 2>/dev/null)
    [ "$state" = S ] && break
    sleep 0.05
  done
  for t in /proc/$pid/task/*; do
    [ "${t##*/}" = "$pid" ] || awk '/^SigBlk:/{print $2}' "$t/status"
  done
  cat <&3 >/dev/null
  exec 3<&-
  wait "$pid" || true
  rm -f out.fifo
}

@test "the read-ahead thread blocks SIGINT, SIGTERM and SIGHUP, so the main thread takes them" {
  needs_two_processors
  make_text text 4000000
  run blocked_of -t UTF-16LE text
  assert_success
  assert_equal "${#lines[@]}" 1
  # SIGHUP is bit 0, SIGINT bit 1, SIGTERM bit 14.
  local mask=$((16#${lines[0]}))
  assert_equal "$((mask & 0x4003))" "$((0x4003))"
}

@test "read ahead: the same bytes as the plain loop, for every output and several block sizes" {
  make_text text 3000000 40
  for opts in "-t UTF-16LE -e replace" "-e escape" "-t UTF-32BE -e surrogateescape" \
              "-t CP1252 -e replace" "-e ignore"; do
    for bs in 4096 65536 100000; do
      "$UTF8CONV" $opts -q --block-size=$bs text >ahead || true
      "$UTF8CONV" $opts -q --block-size=$bs <text >plain || true
      cmp ahead plain || fail "$opts --block-size=$bs differs"
    done
  done
  # And the reference: Python's decoder with its replace handler.
  python3 -c 'import sys; sys.stdout.buffer.write(open("text","rb").read().decode("utf-8","replace").encode("utf-16-le"))' >want
  "$UTF8CONV" -t UTF-16LE -e replace -q text >got
  cmp got want
}

@test "read ahead: a strict error deep in a big file stops at the same byte, with the same message" {
  make_text text 3000000 1 ff
  run --separate-stderr "$UTF8CONV" -t UTF-16LE text
  assert_equal "$status" 1
  ahead_err=$stderr
  "$UTF8CONV" -t UTF-16LE text >ahead || true
  run --separate-stderr "$UTF8CONV" -t UTF-16LE <text
  assert_equal "$status" 1
  # The same message but for the name.
  assert_equal "${ahead_err/text:/-:}" "$stderr"
  "$UTF8CONV" -t UTF-16LE <text >plain || true
  cmp ahead plain
  # The output is everything before the error: at least half the file.
  [ "$(stat -c %s ahead)" -gt 3000000 ]
}

@test "read ahead: -i converts a big file in place, and --report counts it all" {
  make_text text 3000000
  "$UTF8CONV" -t UTF-16LE <text >want
  cp text copy
  run -0 --separate-stderr "$UTF8CONV" -t UTF-16LE --report -i copy
  cmp copy want
  [[ $stderr == *"copy: converted, in $(stat -c %s text) B, out $(stat -c %s want) B,"* ]] ||
    fail "report: $stderr"
}
