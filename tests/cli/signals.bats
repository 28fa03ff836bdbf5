#!/usr/bin/env bats
# Fatal signals at random instants (SPEC §7, §12): whatever instant
# SIGINT, SIGTERM or SIGHUP reaches a batch job in place, every file holds
# its old bytes or its new ones, never a mix, and no temporary file is
# left.  The delays come from a fixed seed, but where in the job each
# signal lands still depends on the machine: each run checks everything.

bats_require_minimum_version 1.5.0
load ../test_helper

# make_tree DIR: 300 small CP1252 files, one of them with a second name
# (a hard link), and two of 1.5 MB (big enough to be read ahead by a
# second thread).
make_tree() {
  python3 - "$1" <<'PY'
import os, random, sys
top = sys.argv[1]
rng = random.Random(11)
words = ['caf\xe9', 'na\xefve', '\x80 12', '\x93ja\x94', 'Stra\xdfe',
         'the', 'and', 'line', '\xe0 la', 'gr\xfc\xdfe']
os.makedirs(os.path.join(top, 'sub'))
for i in range(300):
    n = rng.randrange(40, 3000)
    text = ' '.join(rng.choice(words) for _ in range(n // 6)) + '\r\n'
    d = top if i % 2 else os.path.join(top, 'sub')
    open(os.path.join(d, 'f%03d.txt' % i), 'w', encoding='latin-1',
         newline='').write(text)
for name in ('big1.txt', 'big2.txt'):
    text = ' '.join(rng.choice(words) for _ in range(250000)) + '\n'
    open(os.path.join(top, name), 'w', encoding='latin-1',
         newline='').write(text)
os.link(os.path.join(top, 'f001.txt'), os.path.join(top, 'link.txt'))
PY
}

# sums DIR: "NAME CHECKSUM SIZE" for each file under DIR, NAME relative.
sums() {
  (cd "$1" && find . -type f -exec cksum {} + | awk '{ print $3, $1, $2 }')
}

@test "SIGINT, SIGTERM and SIGHUP at random instants of -r -i: every file old or new, no temporary left" {
  [ -z "${UTF8CONV_VALGRIND-}" ] ||
    skip "under valgrind the signal reaches the wrapper, not utf8conv"
  make_tree orig
  # The new bytes of every file: each converted alone, to a stream.
  mkdir new
  (cd orig && find . -type f) | while read -r f; do
    mkdir -p "new/$(dirname "$f")"
    "$UTF8CONV" -f CP1252 --eol=lf "orig/$f" >"new/$f"
  done
  # Every file's name and checksum, old and new: a file of the tree
  # under test must have one of its two lines.
  { sums orig; sums new; } >old-new
  RANDOM=4242
  local run sig delay st f ended=0 killed=0
  for run in $(seq 40); do
    rm -rf work
    cp -a orig work
    sig=$(( RANDOM % 3 ))
    sig=$(echo HUP INT TERM | cut -d' ' -f$((sig + 1)))
    delay=$(printf '0.%03d' $(( RANDOM % 300 )))
    # Job control, so that the background job does not start with
    # SIGINT ignored; and env, for a runner that started this test with
    # SIGINT ignored, which bash cannot undo.
    run bash -c 'set -m
      env --default-signal=INT,TERM,HUP "$UTF8CONV" -q -f CP1252 --eol=lf -r -i work & pid=$!
      sleep '"$delay"'
      kill -'"$sig"' $pid 2>/dev/null
      wait $pid'
    case $status in
      0) ended=$((ended + 1)) ;;
      129 | 130 | 143) killed=$((killed + 1)) ;;
      *) fail "run $run: SIG$sig after ${delay}s: exit status $status: $output" ;;
    esac
    left=$(find work -name '*.utf8conv-??????')
    [ -z "$left" ] || fail "run $run: SIG$sig after ${delay}s left: $left"
    f=$(sums work | awk 'NR == FNR { ok[$0] = 1; next } !($0 in ok)' old-new -)
    [ -z "$f" ] || fail "run $run: SIG$sig after ${delay}s: neither old nor new: $f"
    [ "$(find work -type f | wc -l)" -eq "$(find orig -type f | wc -l)" ] ||
      fail "run $run: the number of files changed"
  done
  echo "# $killed runs killed, $ended finished first" >&3
  [ "$killed" -gt 0 ] || fail "no run was killed: the job is too short for the test"
}
