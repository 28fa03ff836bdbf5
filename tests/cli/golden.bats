#!/usr/bin/env bats
# Golden cases made by tests/golden/gen.py (an oracle built on Python's
# codecs): for every row of tests/golden/manifest.tsv, run utf8conv on the
# input and compare the output bytes and the exit status.  The same rows
# are run with several --block-size values: the output must not depend on
# where the input is split.

load ../test_helper

# run_golden [OPTION]...: run every manifest row with the extra options;
# print every mismatch and fail if there was one.
run_golden() {
  local manifest=$GOLDEN/manifest.tsv
  [ -r "$manifest" ] || fail "missing $manifest"
  local name input from to policy flags expected want
  local n=0 bad=0 status
  while IFS=$'\t' read -r name input from to policy flags expected want; do
    case $name in '#'*|'') continue ;; esac
    n=$((n + 1))
    local -a extra=()
    [ "$flags" = - ] || read -r -a extra <<<"$flags"
    status=0
    "$UTF8CONV" -f "$from" -t "$to" -e "$policy" "${extra[@]}" "$@" \
      "$GOLDEN/$input" >out 2>err || status=$?
    if [ "$status" != "$want" ]; then
      echo "FAIL $name: exit status $status, expected $want ($(head -c 200 err))"
      bad=$((bad + 1))
    elif ! cmp -s out "$GOLDEN/$expected"; then
      echo "FAIL $name: output $(hex out | head -c 120), expected $(hex "$GOLDEN/$expected" | head -c 120)"
      bad=$((bad + 1))
    fi
  done <"$manifest"
  echo "$bad of $n golden cases failed (options: ${*:-none})"
  [ "$n" -ge 100 ] || fail "only $n rows in $manifest"
  [ "$bad" -eq 0 ]
}

@test "golden cases, default block size" {
  run_golden
}

@test "golden cases, --block-size=1" {
  run_golden --block-size=1
}

@test "golden cases, --block-size=2" {
  run_golden --block-size=2
}

@test "golden cases, --block-size=3" {
  run_golden --block-size=3
}

@test "golden cases, --block-size=7" {
  run_golden --block-size=7
}

@test "golden files are what gen.py makes" {
  command -v python3 >/dev/null || skip "python3 is required"
  cp -R "$GOLDEN" g
  chmod -R u+w g
  python3 g/gen.py 2>/dev/null
  diff -r "$GOLDEN" g
}
