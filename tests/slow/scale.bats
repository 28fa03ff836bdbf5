#!/usr/bin/env bats
# Slow tests of scale ("make check-slow"; not part of "make check"):
# offsets beyond 4 GiB and constant memory on a long pipe.

bats_require_minimum_version 1.5.0
load ../test_helper

@test "slow: a 5 GiB sparse file with an invalid byte at its end: right offset" {
  local size=$((5 * 1024 * 1024 * 1024))
  truncate -s "$size" big || skip "cannot make a 5 GiB sparse file here"
  # The last byte, at offset 5368709119 = 5 GiB - 1, becomes FF.
  printf '\377' | dd of=big bs=1 seek=$((size - 1)) conv=notrunc status=none
  assert_equal "$(stat -c %s big)" "$size"
  run --separate-stderr "$UTF8CONV" -o /dev/null big
  rm -f big
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: big:1: byte 5368709119: invalid UTF-8: FF (invalid byte)"
}

@test "slow: converting a 2 GiB pipe keeps peak RSS under 16 MiB" {
  [ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time, package time) is needed"
  # Mixed text (1- to 4-byte characters) to UTF-16LE: every fast path and
  # the state machine take part.  Peak RSS is measured, not assumed.
  bash -c 'set -o pipefail
    yes "$(printf "h\303\251llo w\303\266rld \342\202\254 \360\237\230\200 plain text")" |
      head -c 2G |
      /usr/bin/time -v -o time.log "$UTF8CONV" -t UTF-16LE >/dev/null' || true
  local kb
  kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' time.log)
  grep -q 'Exit status: 0' time.log || fail "$(cat time.log)"
  echo "peak RSS: $kb KiB" >&3
  [ -n "$kb" ] && [ "$kb" -lt 16384 ] || fail "peak RSS $kb KiB"
}
