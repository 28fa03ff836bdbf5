#!/usr/bin/env bats
# --check (SPEC §2, §10): validate only, no output; one line for each
# invalid file; exit 1 if any file is invalid, 2 on trouble.

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

@test "--check ignores -e: always strict" {
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

@test "--check -f UTF-16LE -t WTF-8: still an error, the input must be well-formed" {
  printf 'a\000\000\330b\000' >u16
  run --separate-stderr "$UTF8CONV" --check -f UTF-16LE -t WTF-8 u16
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

@test "--check -t ENC//IGNORE is still strict" {
  printf '\342\202\254' >euro
  run --separate-stderr "$UTF8CONV" --check -t ISO-8859-1//IGNORE euro
  assert_equal "$status" 1
  assert_equal "$stderr" "utf8conv: euro:1: byte 0: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
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
