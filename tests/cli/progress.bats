#!/usr/bin/env bats
# --progress: a line on standard error when it is a terminal (run under
# script(1), which gives the program a pseudo-terminal), nothing at all
# when standard error is a file or a pipe.

load ../test_helper
bats_require_minimum_version 1.5.0

# on_terminal COMMAND: run the shell COMMAND with its standard streams on
# a pseudo-terminal; what it wrote to the terminal is in the file `tty'.
on_terminal() {
  command -v script >/dev/null || skip "script(1) (bsdutils) is not installed"
  script -qec "$1" /dev/null </dev/null >tty
}

@test "progress: percent, size and ETA for a regular file on a terminal" {
  head -c 300000 /dev/zero | tr '\0' 'a' >in
  on_terminal "'$UTF8CONV' --progress --block-size=4096 in >out"
  cmp in out
  grep -a -q -E 'utf8conv: [0-9]+% [0-9.]+ (B|KiB) of 293\.0 KiB, [0-9.]+ [KMG]?i?B/s, ETA [0-9]+:[0-9][0-9]' tty \
    || fail "no progress line: $(od -c tty | head)"
}

@test "progress: bytes and rate for a pipe on a terminal" {
  on_terminal "(printf abc; sleep 0.3; printf def) | '$UTF8CONV' --progress >out"
  [ "$(cat out)" = abcdef ]
  grep -a -q -E 'utf8conv: [0-9]+ B, [0-9.]+ [KMG]?i?B/s' tty \
    || fail "no progress line: $(od -c tty | head)"
  ! grep -a -q '%' tty
}

@test "progress: the line is cleared at the end" {
  printf 'hello\n' >in
  on_terminal "'$UTF8CONV' --progress in >out"
  # The last thing written is a carriage return after blanks.
  [ "$(tail -c 2 tty | od -An -tx1 | tr -d ' ')" = 200d ] \
    || fail "not cleared: $(od -c tty | tail -3)"
  grep -a -q 'utf8conv: ' tty
}

@test "progress: nothing when standard error is a file" {
  head -c 300000 /dev/zero | tr '\0' 'b' >in
  run -0 "$UTF8CONV" --progress --block-size=1000 in
  "$UTF8CONV" --progress --block-size=1000 in >out 2>err
  cmp in out
  [ ! -s err ] || fail "stderr not empty: $(od -c err | head -3)"
}

@test "progress: nothing when standard error is a pipe, even on a terminal" {
  printf 'hello\n' >in
  on_terminal "'$UTF8CONV' --progress in 2>&1 >out | cat >err"
  [ ! -s err ]
  [ "$(cat out)" = hello ]
}

@test "progress: with --report, the report lines are clean" {
  printf 'x\n' >a
  on_terminal "'$UTF8CONV' --progress --report a 2>&1 >out | cat >err"
  [ "$(cat err)" = "utf8conv: report: a: converted, in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0
utf8conv: report: total: 1 file (1 converted), in 2 B, out 2 B, 2 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 0 LF 1 CR 0" ]
}

@test "progress: at most about ten updates a second" {
  # Sixty reads spread over about 1.5 s: without a limit, one update per
  # read; with it, about ten a second (plus the first), whatever the
  # speed of the machine, since the bound is taken from the time the run
  # really took.
  local start end ms draws
  start=$(date +%s%N)
  on_terminal "for i in \$(seq 60); do printf x; sleep 0.025; done | '$UTF8CONV' --progress >out"
  end=$(date +%s%N)
  [ "$(cat out)" = "$(printf 'x%.0s' $(seq 60))" ]
  ms=$(((end - start) / 1000000))
  draws=$(grep -a -o 'utf8conv: ' tty | wc -l)
  [ "$draws" -ge 2 ] || fail "only $draws updates in $ms ms"
  [ "$draws" -le $((ms / 100 + 3)) ] || fail "$draws updates in $ms ms"
}

@test "8: progress: a diagnostic clears the bar's line first, so it is never printed over the bar" {
  printf 'hello\n' >a
  mkdir d
  on_terminal "'$UTF8CONV' --progress -o out a d; true"
  # The bar was drawn, then blanked, then the diagnostic: no bar text
  # before it on its line.
  grep -a -q 'utf8conv: file 1 of 2, 6 B' tty || fail "no bar: $(od -c tty | head)"
  grep -a -q -E $'\r +\rutf8conv: d: Is a directory\r?$' tty ||
    fail "not cleared first: $(od -c tty | head -20)"
}

@test "8: progress: no bar when the converted text goes to the same terminal" {
  printf 'hello\n' >a
  on_terminal "'$UTF8CONV' --progress a"
  assert_equal "$(cat tty)" $'hello\r'
  # To a file, the bar is drawn even though standard output is the
  # terminal.
  on_terminal "'$UTF8CONV' --progress -o out a"
  grep -a -q 'utf8conv: ' tty || fail "no bar with -o: $(od -c tty | head)"
  assert_equal "$(cat out)" hello
}

@test "8: progress: the line is cleared on SIGINT and SIGTERM" {
  local sig
  for sig in INT TERM; do
    # set -m: without job control, bash starts background commands
    # with SIGINT ignored; its job messages go to /dev/null.  env, for a
    # runner that started this test with SIGINT ignored.
    on_terminal "bash -c 'exec 3>&2 2>/dev/null; set -m; (printf abc; sleep 5) | env --default-signal=INT,TERM \"$UTF8CONV\" --progress -o out 2>&3 & pid=\$!; sleep 1; kill -$sig \$pid; wait \$pid; echo \$? >st'"
    grep -a -q 'utf8conv: 3 B' tty || fail "no bar: $(od -c tty | head)"
    # The last thing written is the cleared line: blanks between two
    # carriage returns.
    [[ "$(tr -d '\n' <tty)" =~ $'\r'\ +$'\r'$ ]] || fail "SIG$sig: not cleared: $(od -c tty | tail -4)"
    # Killed by the signal, not ended by the input's end.
    assert_equal "$(cat st)" "$([ $sig = INT ] && echo 130 || echo 143)"
  done
}

@test "progress: several files say which file of how many" {
  command -v mkfifo >/dev/null || skip "mkfifo is not installed"
  mkfifo f1 f2
  on_terminal "(printf abc; sleep 0.3; printf def) >f1 & (sleep 0.3; printf ghi; sleep 0.3; printf jkl) >f2 & '$UTF8CONV' --progress -o out f1 f2; wait"
  assert_equal "$(cat out)" abcdefghijkl
  grep -a -q -E 'utf8conv: file 1 of 2, [0-9]+ B, [0-9.]+ [KMG]?i?B/s' tty \
    || fail "no 'file 1 of 2': $(od -c tty | head)"
  grep -a -q -E 'utf8conv: file 2 of 2, [0-9]+ B, [0-9.]+ [KMG]?i?B/s' tty \
    || fail "no 'file 2 of 2': $(od -c tty | head)"
}

@test "progress: regular files: file N of M before the percentage; -r counts the files it walked" {
  head -c 300000 /dev/zero | tr '\0' 'a' >a
  cp a b
  on_terminal "'$UTF8CONV' --progress --block-size=4096 -o out a b"
  grep -a -q -E 'utf8conv: file 1 of 2, [0-9]+% [0-9.]+ (B|KiB) of 585\.9 KiB, [0-9.]+ [KMG]?i?B/s, ETA [0-9]+:[0-9][0-9]' tty \
    || fail "no progress line: $(od -c tty | head)"
  mkdir t
  cp a b t/
  ln -s a t/link
  on_terminal "'$UTF8CONV' -r --progress --block-size=4096 -o out t"
  grep -a -q -E 'utf8conv: file 1 of 2, ' tty || fail "no 'file 1 of 2': $(od -c tty | head)"
  # One file: no count.
  on_terminal "'$UTF8CONV' --progress --block-size=4096 -o out a"
  ! grep -a -q 'file 1' tty
}
