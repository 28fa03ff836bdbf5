#!/usr/bin/env bats
# --check (SPEC §2, §10): validate only, no output; one line for each
# invalid file; exit 1 if any file is invalid, 2 on trouble.  Without -t
# each input must be well-formed in its own encoding, strictly; with -t
# it is a dry run of the conversion, each file on its own.

bats_require_minimum_version 1.5.0
load ../test_helper

@test "--check on valid files: exit 0, nothing written anywhere" {
  printf 'ok\n' >a
  printf 'caf\303\251 \342\202\254 \360\237\230\200\n' >b
  : >empty
  run --separate-stderr "$UTF8CONV" --check a b empty
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" ""
}

@test "--check: one line per invalid file, the first error of each, exit 1" {
  printf 'l1\nl2 \341\200 x \377\n' >bad1
  printf 'fine\n' >good
  printf '\300\257\n' >bad2
  run --separate-stderr "$UTF8CONV" --check bad1 good bad2
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: bad1:2: byte 6: invalid UTF-8: E1 80 (truncated sequence)
utf8conv: bad2:1: byte 0: invalid UTF-8: C0 (overlong encoding)"
}

@test "--check writes nothing to standard output, even for a big file" {
  # 9 bytes a line: 333333 lines, then the partial line 333334.
  yes 'abc déf' | head -c 3000000 >big || true
  printf '\377' >>big
  "$UTF8CONV" --check big >out 2>err && fail "exit 0 on an invalid file"
  [ ! -s out ] || fail "stdout: $(head -c 100 out)"
  assert_equal "$(cat err)" "utf8conv: big:333334: byte 3000000: invalid UTF-8: FF (invalid byte)"
}

@test "--check -q: only the exit status" {
  printf '\377' >bad
  printf 'ok' >good
  run --separate-stderr "$UTF8CONV" --check -q good bad
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" ""
  run --separate-stderr "$UTF8CONV" --check --quiet good
  assert_equal "$status" 0
  assert_equal "$stderr" ""
}

@test "--check: an unreadable file is trouble, 2 wins over 1" {
  printf '\377' >bad
  run --separate-stderr "$UTF8CONV" --check bad missing
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: bad:1: byte 0: invalid UTF-8: FF (invalid byte)
utf8conv: missing: No such file or directory"
}

@test "--check: a directory is trouble" {
  mkdir dir
  run --separate-stderr "$UTF8CONV" --check dir
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: dir: Is a directory"
}

@test "--check without -t ignores -e, -c and the formats: always strict" {
  printf 'a\377b\n' >bad
  local p
  for p in replace escape surrogateescape ignore; do
    run --separate-stderr "$UTF8CONV" --check -e "$p" bad
    assert_equal "$status" 1
    assert_equal "$output" ""
    assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte)"
  done
  run --separate-stderr "$UTF8CONV" --check -c bad
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte)"
  run --separate-stderr "$UTF8CONV" --check --byte-subst='<%02X>' bad
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte)"
}

@test "--check reads standard input as -" {
  run --separate-stderr bash -c 'printf "x\n\355\240\200" | "$UTF8CONV" --check'
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: -:2: byte 2: invalid UTF-8: ED (surrogate)"
}

@test "--check -f UTF-16LE: a lone surrogate is an error" {
  printf 'a\000\n\000\000\330b\000' >u16
  run --separate-stderr "$UTF8CONV" --check -f UTF-16LE u16
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: u16:2: byte 4: invalid UTF-16LE: 00 D8 (lone surrogate)"
}

@test "--check -f UTF-16LE -t WTF-8: a dry run passes a lone surrogate, as the conversion does" {
  printf 'a\000\000\330b\000' >u16
  run --separate-stderr "$UTF8CONV" --check -f UTF-16LE -t WTF-8 u16
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" ""
  # Without -t the input must be well-formed UTF-16LE.
  run --separate-stderr "$UTF8CONV" --check -f UTF-16LE u16
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: u16:1: byte 2: invalid UTF-16LE: 00 D8 (lone surrogate)"
}

@test "--check -f WTF-8: a lone surrogate is fine without -t, unencodable with -t UTF-8" {
  printf 'a\355\240\200b\n' >w
  run --separate-stderr "$UTF8CONV" --check -f WTF-8 w
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  run --separate-stderr "$UTF8CONV" --check -f WTF-8 -t UTF-16LE w
  assert_equal "$status" 0
  assert_equal "$stderr" ""
  run --separate-stderr "$UTF8CONV" --check -f WTF-8 -t UTF-8 w
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: w:1: byte 1: cannot encode U+D800 in UTF-8: ED A0 80 (unencodable character)"
}

@test "--check -t ISO-8859-1: an unencodable character is reported" {
  printf 'caf\303\251\n\342\202\254\n' >euro
  printf 'caf\303\251\n' >latin
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 latin euro
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: euro:2: byte 6: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
  # Without -t, only the input's well-formedness is checked.
  run --separate-stderr "$UTF8CONV" --check latin euro
  assert_equal "$status" 0
  assert_equal "$stderr" ""
}

@test "--check -t ENC//IGNORE drops as the conversion does: its warning, exit 1" {
  printf '\342\202\254' >euro
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1//IGNORE euro
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: euro:1: byte 0: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character); 1 error dropped in this file"
}

@test "--check -t with -e replace, escape, surrogateescape: handled errors, the conversion's warning, exit 0" {
  printf 'a\377b\n\342\202\254\n' >bad
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 -e replace bad
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors replaced in this file"
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 --unicode-subst='&#%d;' bad
  assert_equal "$status" 0
  assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors escaped in this file"
  # surrogateescape handles the byte, not the euro sign: a strict stop.
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 -e surrogateescape bad
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: bad:2: byte 4: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 -c bad
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: bad:1: byte 1: invalid UTF-8: FF (invalid byte); 2 errors dropped in this file"
}

@test "--check -t: each file stands alone, where the conversion would stop at the first" {
  printf 'x\342\202\254' >a
  printf 'ok\n' >b
  printf '\377' >c
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1 a b c
  assert_equal "$status" 1
  assert_equal "$output" ""
  assert_equal "$stderr" "utf8conv: a:1: byte 1: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)
utf8conv: c:1: byte 0: invalid UTF-8: FF (invalid byte)"
  run --separate-stderr "$UTF8CONV" -t ISO-8859-1 a b c
  assert_equal "$status" 1
  assert_equal "$output" "x"
  assert_equal "$stderr" "utf8conv: a:1: byte 1: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
}

# dry_run_matches OPTION... -- FILE...: `--check OPTION... FILE...`
# writes nothing, prints on standard error exactly what converting each
# FILE alone with OPTION... prints, in turn, and exits with the highest
# of their statuses.
dry_run_matches() {
  local opts=() f s want=0
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  : >want_err
  for f in "$@"; do
    s=0
    "$UTF8CONV" "${opts[@]}" "$f" >/dev/null 2>>want_err || s=$?
    [ "$s" -le "$want" ] || want=$s
  done
  s=0
  "$UTF8CONV" --check "${opts[@]}" "$@" >check_out 2>check_err || s=$?
  [ "$s" -eq "$want" ] || fail "--check ${opts[*]} $*: exit $s, the conversion's $want"
  cmp -s want_err check_err || fail "--check ${opts[*]} $*: stderr differs:
$(diff want_err check_err)"
  [ ! -s check_out ] || fail "--check ${opts[*]} $*: wrote $(hex check_out)"
}

@test "--check -t is a dry run: the conversion's exit status and diagnostics, byte for byte, no output" {
  printf 'caf\303\251\n' >ok
  printf 'a\377b\n\342\202\254\n\341\200' >bad
  printf 'a\000\n\000\000\330b\000\377' >u16
  printf 'a\355\240\200b\n' >w
  printf '\357\273\277\342\202\254x\377' >bom
  local t p
  for t in ISO-8859-1 UTF-8 UTF-16 ASCII ISO-8859-1//IGNORE; do
    for p in strict replace escape surrogateescape ignore; do
      dry_run_matches -t "$t" -e "$p" -- ok bad bom
      dry_run_matches -t "$t" -e "$p" --block-size=1 -- bad
    done
    dry_run_matches -t "$t" -- bad ok
    dry_run_matches -t "$t" -c -- bad
    dry_run_matches -t "$t" --byte-subst='<%02X>' -- bad bom
    dry_run_matches -t "$t" --byte-subst='<%04x>' --unicode-subst='[U+%06X]' -- bad
    dry_run_matches -t "$t" -f auto -- bad bom
  done
  for t in WTF-8 MUTF-8 UTF-8 UTF-16BE CESU-8 ISO-8859-1; do
    for p in strict replace escape surrogateescape ignore; do
      dry_run_matches -f UTF-16LE -t "$t" -e "$p" -- u16
      dry_run_matches -f WTF-8 -t "$t" -e "$p" -- w
    done
  done
  # //TRANSLIT comes from iconv(3); musl's has none.
  if have_target ISO-8859-1//TRANSLIT; then
    dry_run_matches -t ISO-8859-1//TRANSLIT -- bad ok
  fi
  dry_run_matches -t ISO-8859-1 --bom=strip -e replace -- bom
  dry_run_matches -t UTF-16 --bom=add -e escape -- bom ok
  dry_run_matches -t ISO-8859-1 -e replace --verbose -- ok bad
  dry_run_matches -t ISO-8859-1 -e escape -- ok missing bad
}
@test "--check -f UTF-16 with a BOM and -t UTF-16: valid, silent" {
  printf '\376\377\000h\000i' >u
  run --separate-stderr "$UTF8CONV" --check -f UTF-16 -t UTF-16 u
  assert_equal "$status" 0
  assert_equal "$output" ""
  assert_equal "$stderr" ""
}

@test "--check: an error in one file does not stop the others" {
  printf '\377' >a
  printf '\377' >b
  run --separate-stderr "$UTF8CONV" --check --block-size=1 a b
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: a:1: byte 0: invalid UTF-8: FF (invalid byte)
utf8conv: b:1: byte 0: invalid UTF-8: FF (invalid byte)"
}

@test "--check with -o is a usage error, and -o's file is not made" {
  printf 'x' >f
  run --separate-stderr "$UTF8CONV" --check -o out f
  assert_equal "$status" 2
  assert_equal "$stderr" "utf8conv: cannot combine --check and --output
Try 'utf8conv --help' for more information."
  [ ! -e out ] || fail "out was made"
}
