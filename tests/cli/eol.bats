#!/usr/bin/env bats
# Line endings: --eol=keep|lf|crlf|cr and --eol-from=cr (SPEC §11):
# lf is dos2unix, crlf unix2dos; a lone CR is data unless --eol-from=cr.

load ../test_helper
bats_require_minimum_version 1.5.0

# conv STATUS OUTHEX INPUT-PRINTF-FORMAT OPTION...: convert the input at
# block sizes 1, 2, 3 and the default; each gives exactly OUTHEX and
# exits with STATUS.
conv() {
  local want=$1 outhex=$2 input=$3 bs status
  shift 3
  printf "$input" >in
  for bs in 1 2 3 131072; do
    status=0
    "$UTF8CONV" --block-size=$bs "$@" in >out 2>err || status=$?
    [ "$status" -eq "$want" ] ||
      fail "--block-size=$bs $*: exit status $status, expected $want: $(cat err)"
    assert_hex out "$outhex" || fail "--block-size=$bs $*"
  done
}

@test "each mode on CR LF, lone CR, lone LF, CR CR LF and LF CR" {
  local in='a\r\nb\rc\nd\r\r\ne\n\rf'
  conv 0 '61 0d0a 62 0d 63 0a 64 0d 0d0a 65 0a 0d 66' "$in"
  conv 0 '61 0d0a 62 0d 63 0a 64 0d 0d0a 65 0a 0d 66' "$in" --eol=keep
  conv 0 '61 0a 62 0d 63 0a 64 0d 0a 65 0a 0d 66' "$in" --eol=lf
  conv 0 '61 0d0a 62 0d 63 0d0a 64 0d 0d0a 65 0d0a 0d 66' "$in" --eol=crlf
  conv 0 '61 0d 62 0d 63 0d 64 0d 0d 65 0d 0d 66' "$in" --eol=cr
}

@test "--eol-from=cr makes each lone CR a break too" {
  local in='a\r\nb\rc\nd\r\r\ne\n\rf'
  conv 0 '61 0a 62 0a 63 0a 64 0a 0a 65 0a 0a 66' "$in" --eol=lf --eol-from=cr
  conv 0 '61 0d0a 62 0d0a 63 0d0a 64 0d0a 0d0a 65 0d0a 0d0a 66' "$in" --eol=crlf --eol-from=cr
  conv 0 '61 0d 62 0d 63 0d 64 0d 0d 65 0d 0d 66' "$in" --eol=cr --eol-from=cr
  conv 0 '61 0d 62 0d 63 0d 64 0d 0d 65 0d 0d 66' "$in" --eol=cr --eol-from=crlf
  conv 0 '61 0a 62 0a' 'a\rb\r' --eol=lf --eol-from=cr
  conv 0 '6100 0d00 0a00 6200 0d00 0a00' 'a\rb\r' -t UTF-16LE --eol=crlf --eol-from=cr
}

@test "a progress log keeps its lone CRs, as dos2unix keeps them" {
  conv 0 '3530 25 0d 3630 25 0a' '50%%\r60%%\r\n' --eol=lf
  conv 0 '3530 25 0d 3630 25 0d0a' '50%%\r60%%\n' --eol=crlf
  conv 0 '3530 25 0d 3630 25 0d' '50%%\r60%%\r\n' --eol=cr
}

@test "--eol-from: a bad kind, or no --eol to write, is a usage error" {
  printf 'a\r' >in
  run -2 --separate-stderr "$UTF8CONV" --eol=lf --eol-from=mac in
  assert_equal "${stderr_lines[0]}" "utf8conv: invalid --eol-from mode 'mac'"
  run -2 --separate-stderr "$UTF8CONV" --eol-from=cr in
  assert_equal "${stderr_lines[0]}" "utf8conv: --eol-from=cr needs --eol=lf, crlf or cr"
}

@test "a CR at the very end is a lone CR, data unless --eol-from=cr; empty input stays empty" {
  conv 0 '61 0d' 'a\r' --eol=lf
  conv 0 '61 0d' 'a\r' --eol=crlf
  conv 0 '0d' '\r' --eol=crlf
  conv 0 '61 0a' 'a\r' --eol=lf --eol-from=cr
  conv 0 '0d0a' '\r' --eol=crlf --eol-from=cr
  conv 0 '' '' --eol=crlf
  conv 0 '' '' --eol=crlf --bom=add
}

@test "U+0085, U+2028 and U+2029 are not touched" {
  conv 0 'c285 e280a8 e280a9 0a' '\302\205\342\200\250\342\200\251\r\n' --eol=lf
}

@test "UTF-16LE and UTF-16BE, in and out: a CR at the end of a read waits for the next character" {
  # At block sizes 1, 2 and 3 the CR unit (2 bytes) ends a read or is
  # cut by one.
  conv 0 '61 0a 62 0d 63' 'a\0\r\0\n\0b\0\r\0c\0' -f UTF-16LE --eol=lf
  conv 0 '61 0a 62 0a 63' 'a\0\r\0\n\0b\0\r\0c\0' -f UTF-16LE --eol=lf --eol-from=cr
  conv 0 '6100 0d00 6200 0d00 0a00' 'a\0\r\0b\0\n\0' -f UTF-16LE -t UTF-16LE --eol=crlf
  conv 0 '6100 0d00 0a00 6200 0d00 0a00' 'a\0\r\0b\0\n\0' -f UTF-16LE -t UTF-16LE --eol=crlf --eol-from=cr
  conv 0 '0061 000d 0062 000d' '\0a\0\r\0\n\0b\0\r' -f UTF-16BE -t UTF-16BE --eol=cr
  conv 0 '6100 0a00 6200 0d00' 'a\r\nb\r' -t UTF-16LE --eol=lf
  conv 0 '0000000d 0000000a 0000000d 00000078' '\n\rx' -t UTF-32BE --eol=crlf
}

@test "legacy encodings: CP1252 in, ISO-8859-1 out" {
  conv 0 'c3a9 0d0a c2a0' '\351\n\240' -f CP1252 --eol=crlf
  conv 0 'e9 0a 41' '\303\251\r\nA' -t ISO-8859-1 --eol=lf
}

@test "a BOM and CRLF for Excel: -f auto --bom=add --eol=crlf" {
  printf 'name;city\nJos\351;K\366ln\n' >in.csv
  run -0 "$UTF8CONV" -f auto --bom=add --eol=crlf -o out.csv in.csv
  assert_hex out.csv 'efbbbf 6e616d653b63697479 0d0a 4a6f73c3a93b4bc3b66c6e 0d0a'
}

@test "a CR before an invalid byte is lone under every policy; the replacement is never a break" {
  # 'a' CR 0x81 LF 'b': the CR is lone, the LF alone.
  conv 1 '61 0d' 'a\r\201\nb' --eol=lf
  conv 1 '61 0a' 'a\r\201\nb' --eol=lf --eol-from=cr
  conv 0 '61 0d efbfbd 0a 62' 'a\r\201\nb' --eol=lf -e replace
  conv 0 '61 0d 5c783831 0d0a 62' 'a\r\201\nb' --eol=crlf -e escape
  conv 0 '61 0d0a 5c783831 0d0a 62' 'a\r\201\nb' --eol=crlf -e escape --eol-from=cr
  conv 0 '61 0d 81 0d 62' 'a\r\201\nb' --eol=cr -e surrogateescape
  conv 1 '61 0d 0a 62' 'a\r\201\nb' --eol=lf -c
}

@test "an invalid byte after a CR at the end of a read, UTF-16LE: the CR is lone" {
  conv 0 '61 0d efbfbd' 'a\0\r\0\0\330' -f UTF-16LE --eol=lf -e replace
  conv 0 '61 0a efbfbd' 'a\0\r\0\0\330' -f UTF-16LE --eol=lf -e replace --eol-from=cr
  conv 0 '6100 0d00 fdff' 'a\0\r\0\0\330' -f UTF-16LE -t UTF-16LE --eol=crlf -e replace
}

@test "diagnostics give input line numbers and input byte offsets" {
  printf 'a\r\nb\rc\r\n\377' >in
  for eol in keep lf crlf cr; do
    run -1 --separate-stderr "$UTF8CONV" --eol=$eol in
    assert_equal "$stderr" "utf8conv: in:3: byte 8: invalid UTF-8: FF (invalid byte)"
  done
}

@test "an unencodable character after a CR: the CR is written first" {
  conv 1 '61 0d' 'a\r\342\202\254' -t ISO-8859-1 --eol=crlf
  conv 1 '61 0d0a' 'a\r\342\202\254' -t ISO-8859-1 --eol=crlf --eol-from=cr
  conv 0 '61 0d 3f 0d0a' 'a\r\342\202\254\n' -t ISO-8859-1 --eol=crlf -e replace
}

@test "every encoding pair and mode against Python's codecs, at many block sizes and each kernel set (kernel_sets)" {
  # Block sizes of a few bytes for the reference (no fast paths), and
  # those where the fast paths work, with a CR at the end of some reads,
  # for the kernel sets.
  local small= ref_sizes="1 2 3 7" sizes="5 64 1000 131072"
  if [ -n "${UTF8CONV_VALGRIND-}" ]; then small=1 ref_sizes=1 sizes=64; fi
  mkdir cases
  python3 "$UTF8CONV_SRCDIR/tests/cli/eol-cases.py" cases $small
  local impls impl name from to mode bs n=0
  impls=$(kernel_sets reference scalar sse2 avx2 avx512 avx512vbmi2 neon)
  for impl in $impls; do
    while read -r name from to mode; do
      # MODE is an --eol mode, with +cr for --eol-from=cr.
      local opts=(--eol=${mode%+cr})
      [ "$mode" = "${mode%+cr}" ] || opts+=(--eol-from=cr)
      for bs in $([ $impl = reference ] && echo $ref_sizes || echo $sizes); do
        UTF8CONV_IMPL=$impl "$UTF8CONV" -f $from -t $to "${opts[@]}" \
          --block-size=$bs "cases/$name.in" >out ||
          fail "$impl $name: -f $from -t $to ${opts[*]} --block-size=$bs: exit $?"
        cmp -s out "cases/$name.want" ||
          fail "$impl $name: -f $from -t $to ${opts[*]} --block-size=$bs: output differs"
        n=$((n + 1))
      done
    done <cases/cases
  done
  [ "$n" -ge 100 ] || fail "only $n runs"
}

@test "invalid input, every policy: each kernel set (kernel_sets) and block size gives the reference's bytes and status" {
  python3 - >in <<'PY'
import random, sys
rng = random.Random(11)
parts = [b'\r', b'\n', b'\r\n', b'x' * 40, b'\xc3\xa9', b'\xe2\x82\xac',
         b'\x81', b'\xc3', b'\xed\xa0\x80', b'\xf0\x9f\x98\x80', b'\xe2\x82']
sys.stdout.buffer.write(b''.join(rng.choice(parts) for _ in range(600)))
PY
  local impls impl pol mode bs st want_st sizes="2 3 64 131072"
  [ -n "${UTF8CONV_VALGRIND-}" ] && sizes=3
  impls=$(kernel_sets scalar sse2 avx2 avx512 avx512vbmi2 neon)
  for pol in strict replace escape surrogateescape ignore; do
    for to in UTF-8 UTF-16LE ISO-8859-1; do
      for mode in lf crlf cr lf+cr; do
        local opts=(--eol=${mode%+cr})
        [ "$mode" = "${mode%+cr}" ] || opts+=(--eol-from=cr)
        want_st=0
        UTF8CONV_IMPL=reference "$UTF8CONV" -e $pol -t $to "${opts[@]}" \
          --block-size=1 in >want 2>/dev/null || want_st=$?
        for impl in $impls; do
          for bs in $sizes; do
            st=0
            UTF8CONV_IMPL=$impl "$UTF8CONV" -e $pol -t $to "${opts[@]}" \
              --block-size=$bs in >out 2>/dev/null || st=$?
            [ "$st" -eq "$want_st" ] && cmp -s out want ||
              fail "$impl -e $pol -t $to ${opts[*]} --block-size=$bs: status $st (want $want_st) or bytes differ"
          done
        done
      done
    done
  done
  # The reference itself against Python's codecs, whose replace (one
  # U+FFFD per maximal subpart), backslashreplace and surrogateescape
  # error handlers are utf8conv's replace, escape and surrogateescape.
  for pol in replace:replace escape:backslashreplace surrogateescape:surrogateescape; do
    for mode in lf crlf cr; do
      UTF8CONV_IMPL=reference "$UTF8CONV" -e ${pol%%:*} --eol=$mode in >out
      python3 - ${pol#*:} $mode <<'PY' >want
import re, sys
# dos2unix, unix2dos and CR: a lone CR is data.
pattern, brk = {'lf': ('\r\n', '\n'), 'crlf': ('(?<!\r)\n', '\r\n'),
                'cr': ('\r\n|\n', '\r')}[sys.argv[2]]
text = open('in', 'rb').read().decode('utf-8', sys.argv[1])
sys.stdout.buffer.write(re.sub(pattern, brk, text).encode('utf-8', 'surrogateescape'))
PY
      cmp -s out want || fail "reference -e ${pol%%:*} --eol=$mode differs from Python"
    done
  done
}

@test "--report counts the breaks read by kind, says when a file mixes them and what was written" {
  printf 'a\r\nb\r\nc\n' >mixed
  printf 'a\r\nb\r\n' >dos
  run -0 --separate-stderr "$UTF8CONV" --report --eol=lf mixed dos
  assert_equal "$stderr" "\
utf8conv: report: mixed: converted, in 8 B, out 6 B, 8 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 2 LF 1 CR 0 (mixed) written as LF
utf8conv: report: dos: converted, in 6 B, out 4 B, 6 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 2 LF 0 CR 0 written as LF
utf8conv: report: total: 2 files (2 converted), in 14 B, out 10 B, 14 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 4 LF 1 CR 0 (1 mixed)"
  run -0 "$UTF8CONV" --report-json=- --eol=crlf -o /dev/null mixed
  assert_line --index 0 '{"type":"file","file":"mixed","outcome":"converted","reason":null,"bytes_in":8,"bytes_out":9,"chars":8,"errors":0,"decoding_errors":{},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":2,"lf":1,"cr":0},"bom_seen":0,"bom_written":0,"mixed_breaks":true,"breaks_written":"crlf"}'
  assert_line --index 1 '{"type":"total","files":1,"outcomes":{"converted":1,"unchanged":0,"skipped":0,"failed":0,"stopped":0,"valid":0,"invalid":0},"bytes_in":8,"bytes_out":9,"chars":8,"errors":0,"decoding_errors":{},"encoding_errors":0,"handled":0,"line_breaks":{"crlf":2,"lf":1,"cr":0},"bom_seen":0,"bom_written":0,"mixed_break_files":1}'
}

@test "--report counts breaks that the fast paths convert, and a CR LF cut by a read" {
  python3 -c 'import sys; sys.stdout.buffer.write(b"x" * 100 + b"\r" + b"\n" + (b"y" * 70 + b"\r\n") * 50 + b"z\r" + b"w" * 40 + b"\n")' >in
  for bs in 1 101 4096; do
    run -0 --separate-stderr "$UTF8CONV" --report --block-size=$bs in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 3745 B, out 3745 B, 3745 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 51 LF 1 CR 1 (mixed)"
    run -0 --separate-stderr "$UTF8CONV" --report --block-size=$bs -t UTF-16LE -o /dev/null in
    assert_equal "${stderr_lines[0]}" "utf8conv: report: in: converted, in 3745 B, out 7490 B, 3745 chars, 0 errors, BOM seen 0 written 0 removed 0, line breaks CRLF 51 LF 1 CR 1 (mixed)"
  done
}

@test "--report after a strict stop counts the breaks of the text before the error, the same at every block size and --eol" {
  # 30,000 characters of letters, Han, LF, CR and CR LF, and U+1F600
  # (none of BIG5's) after the first 20,000, which end in a CR.
  python3 -c 'import random, sys
r = random.Random(3)
s = "".join(r.choice(["a", "b", "\n", "\r", "\r\n", "\u4e2d", "\u6587", " "]) for _ in range(30000))
s = s[:20000].rstrip("\r") + "\r" + "\U0001F600" + s[20000:]
sys.stdout.buffer.write(s.encode())' >in
  local bs eol pre crlf lf cr
  pre=$(python3 -c 'import sys; s = open("in", encoding="utf-8", newline="").read(); p = s[:s.index("\U0001F600")]; print(p.count("\r\n"), p.count("\n") - p.count("\r\n"), p.count("\r") - p.count("\r\n"))')
  read -r crlf lf cr <<<"$pre"
  for eol in keep lf crlf; do
    for bs in 1 3 100 4096 65536; do
      run -1 --separate-stderr "$UTF8CONV" --report --eol=$eol --block-size=$bs -t BIG5 -o out in
      [[ "${stderr_lines[1]}" == *" line breaks CRLF $crlf LF $lf CR $cr (mixed)"* ]] ||
        fail "--eol=$eol --block-size=$bs: ${stderr_lines[1]}"
    done
  done
  # The same from UTF-16LE, through the state machine.
  iconv -f UTF-8 -t UTF-16LE in >in.u16
  for bs in 2 4096 65536; do
    run -1 --separate-stderr "$UTF8CONV" --report --block-size=$bs -f UTF-16LE -t BIG5 -o out in.u16
    [[ "${stderr_lines[1]}" == *" line breaks CRLF $crlf LF $lf CR $cr (mixed)"* ]] ||
      fail "UTF-16LE --block-size=$bs: ${stderr_lines[1]}"
  done
}

@test "-i --eol alone replaces dos2unix: files that need no change keep their inode and times" {
  printf 'a\r\nb\r\n' >dos.txt
  printf 'a\nb\n' >unix.txt
  touch -d '2001-01-01 00:00:00' unix.txt dos.txt
  local ino
  ino=$(stat -c %i unix.txt)
  run -0 --separate-stderr "$UTF8CONV" -i --eol=lf --report dos.txt unix.txt
  assert_hex dos.txt '61 0a 62 0a'
  assert_hex unix.txt '61 0a 62 0a'
  assert_equal "$(stat -c %i unix.txt)" "$ino"
  assert_equal "$(stat -c %Y unix.txt)" "$(date -d '2001-01-01 00:00:00' +%s)"
  assert_equal "${stderr_lines[1]}" "utf8conv: report: unix.txt: unchanged, in 4 B, 4 chars, 0 errors, BOM seen 0, line breaks CRLF 0 LF 2 CR 0"
  # unix2dos, and -k keeps the times of the converted file.
  run -0 "$UTF8CONV" -i -k --eol=crlf unix.txt
  assert_hex unix.txt '61 0d0a 62 0d0a'
  assert_equal "$(stat -c %Y unix.txt)" "$(date -d '2001-01-01 00:00:00' +%s)"
}

@test "--check --eol writes nothing; a bad --eol mode is a usage error" {
  printf 'a\r\n' >in
  run -0 --separate-stderr "$UTF8CONV" --check --eol=crlf in
  assert_equal "$output" ""
  run -2 --separate-stderr "$UTF8CONV" --eol=dos in
  assert_equal "${stderr_lines[0]}" "utf8conv: invalid --eol mode 'dos'"
}
