#!/usr/bin/env bats
# The single-byte encodings (ISO-8859-1, US-ASCII, CP1252) and the
# iconv(3) bridge (SHIFT_JIS, KOI8-R, ISO-2022-JP, //TRANSLIT, -l).
# Golden files: tests/golden/encodings/, made by its gen.py from Python's
# codecs, WHATWG's index and glibc's iconv(1), and run from its
# manifest.tsv (run_manifest, as golden.bats and variants.bats do): each
# case exits 0, says nothing on stderr and writes exactly the golden
# bytes, at several block sizes.

bats_require_minimum_version 1.5.0
load ../test_helper

ENC=$GOLDEN/encodings

# run_encodings [OPTION]...: every row of the encodings manifest: CP1252
# and ISO-8859-1 over all 256 bytes both ways, SHIFT_JIS and KOI8-R both
# ways and KOI8-R//TRANSLIT as glibc's iconv(1) converts them, with
# aliases in either case.
run_encodings() {
  require_full_iconv
  run_manifest "$ENC" 10 "$@"
}

@test "encodings golden cases (CP1252, ISO-8859-1, SHIFT_JIS, KOI8-R, //TRANSLIT), default block size" {
  run_encodings
}

@test "encodings golden cases, --block-size=1" {
  run_encodings --block-size=1
}

@test "encodings golden cases, --block-size=2" {
  skip_under_valgrind
  run_encodings --block-size=2
}

@test "encodings golden cases, --block-size=3" {
  skip_under_valgrind
  run_encodings --block-size=3
}

@test "encodings golden cases, --block-size=5" {
  skip_under_valgrind
  run_encodings --block-size=5
}

@test "encodings golden cases, --block-size=7" {
  skip_under_valgrind
  run_encodings --block-size=7
}

@test "CP1252: the five WHATWG exceptions 81 8D 8F 90 9D, both ways" {
  conv 0 'c281c28dc28fc290c29d' '\x81\x8d\x8f\x90\x9d' -f CP1252
  conv 0 '818d8f909d' '\xc2\x81\xc2\x8d\xc2\x8f\xc2\x90\xc2\x9d' -t CP1252
}

@test "CP1252 -> UTF-8 -> CP1252 round trip is byte-identical over 256 bytes" {
  "$UTF8CONV" -f CP1252 -t UTF-8 "$ENC/all-bytes.bin" >mid
  "$UTF8CONV" -f UTF-8 -t CP1252 mid >back
  cmp back "$ENC/all-bytes.bin"
}

@test "US-ASCII: 00..7F pass, 80 is an invalid byte" {
  conv 0 '007f41' '\x00\x7fA' -f ASCII -t US-ASCII
  conv 1 '61' 'a\x80b' -f US-ASCII
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid US-ASCII: 80 (invalid byte)"
  conv 0 '61efbfbd62' 'a\x80b' -f US-ASCII -e replace
}

@test "-t CP1252 -e replace: '?' for an unencodable character, the euro sign kept" {
  conv 0 '61803f62' 'a\xe2\x82\xac\xe6\x97\xa5b' -t CP1252 -e replace
}

@test "strict to ISO-8859-1: exit 1, output up to the error, names U+20AC" {
  conv 1 '78' 'x\xe2\x82\xacy' -t ISO-8859-1
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: cannot encode U+20AC in ISO-8859-1: E2 82 AC (unencodable character)"
}

@test "legacy outputs: escape and surrogateescape" {
  conv 0 '5c7536356535' '\xe6\x97\xa5' -t ISO-8859-1 -e escape
  # An invalid UTF-8 byte escaped on input is the raw byte again.
  conv 0 '61ff62' 'a\xffb' -t CP1252 -e surrogateescape
}

@test "//TRANSLIT on a built-in target: the euro sign is EUR" {
  require_full_iconv
  conv 0 '455552' '\xe2\x82\xac' -t ISO-8859-1//TRANSLIT
  # What the built-in codec can encode stays exact (WHATWG's 81, which
  # glibc's CP1252 lacks); iconv(3) transliterates the rest (U+2190).
  conv 0 '81803c2d97' '\xc2\x81\xe2\x82\xac\xe2\x86\x90\xe2\x80\x94' -t CP1252//TRANSLIT
  conv 0 '3c2d' '\xe2\x86\x90' -t windows-1252//TRANSLIT//IGNORE
}

# translit_cases: //TRANSLIT with glibc's C.UTF-8 rules, whatever the
# locale in the environment: accents stripped, U+00DF, the euro sign,
# curly quotes; '?' and exit 0 for a character there is no rule for, as
# before; a bridged target (KOI8-R has no i with diaeresis) too.
translit_cases() {
  require_full_iconv
  conv 0 '6e616976652073732045555220227122202773270a' \
    'na\xc3\xafve \xc3\x9f \xe2\x82\xac \xe2\x80\x9cq\xe2\x80\x9d \xe2\x80\x98s\xe2\x80\x99\n' -t ASCII//TRANSLIT
  conv 0 '613f62' 'a\xe6\x97\xa5b' -t ASCII//TRANSLIT
  conv 0 '6e61697665' 'na\xc3\xafve' -t KOI8-R//TRANSLIT
  conv 0 '6e61697665' 'na\xc3\xafve' -t US-ASCII//TRANSLIT//IGNORE
}

@test "//TRANSLIT follows glibc's C.UTF-8 rules under LC_ALL=C, POSIX and C.UTF-8 alike" {
  local loc
  for loc in C POSIX C.UTF-8; do
    export LC_ALL=$loc
    translit_cases
  done
}

@test "//TRANSLIT follows the same rules under another UTF-8 locale" {
  local loc
  loc=$(locale -a 2>/dev/null | grep -i -E '\.utf-?8$' | grep -v -i -E '^(C|POSIX)\.' | head -n 1)
  [ -n "$loc" ] || skip "no UTF-8 locale other than C.UTF-8 is installed"
  export LC_ALL=$loc
  translit_cases
}

@test "an invalid byte in a bridged input: one U+FFFD per byte under replace" {
  require_charset SHIFT_JIS
  conv 0 '61efbfbd62e697a5' 'a\x80b\x93\xfa' -f SHIFT_JIS -e replace
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid SHIFT_JIS: 80 (invalid byte); 1 error replaced in this file"
  conv 1 '61' 'a\x80b' -f SHIFT_JIS
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid SHIFT_JIS: 80 (invalid byte)"
}

@test "a truncated character at the end of a bridged input" {
  require_charset SHIFT_JIS
  conv 0 '61efbfbd' 'a\x93' -f SHIFT_JIS -e replace
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid SHIFT_JIS: 93 (truncated sequence); 1 error replaced in this file"
}

@test "a bridged decoder's held letter comes out before an error, under every policy (CP1258, CP1255)" {
  require_full_iconv
  # glibc's CP1258 and CP1255 hold a letter back until the next byte
  # shows whether a mark composes with it; iconv(1) loses it at a stop.
  local bs
  for bs in 65536 1; do
    conv 1 '616263' 'abc\x81' -f CP1258 --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 3: invalid CP1258: 81 (invalid byte)"
    conv 0 '41efbfbd' 'A\x81' -f CP1258 -e replace --block-size=$bs
    conv 1 'd7aa' '\xfa\xfb' -f CP1255 --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid CP1255: FB (invalid byte)"
    conv 0 'd7aaefbfbd' '\xfa\xfb' -f CP1255 -e replace --block-size=$bs
    conv 0 'd7aa5c786662' '\xfa\xfb' -f CP1255 -e escape --block-size=$bs
    conv 0 'd7aafb' '\xfa\xfb' -f CP1255 -e surrogateescape --block-size=$bs
    conv 1 'd7aa' '\xfa\xfb' -f CP1255 -e ignore --block-size=$bs
    conv 1 'd7aa' '\xfa\xfb' -f CP1255 -c --block-size=$bs
    conv 1 'd7aa' '\xfa\xfb' -f CP1255 -t UTF-8//IGNORE --block-size=$bs
  done
  # Shin and shin dot compose (U+FB2A), but not across an error.
  conv 0 'efacaa' '\xf9\xd1' -f CP1255
  conv 0 'd7a9efbfbdd781' '\xf9\xfb\xd1' -f CP1255 -e replace
}

# marks_as_iconv CHARSET LINE HEAD BYTES: 120 lines of LINE (printf's
# escapes) in CHARSET decode as iconv(1) decodes them, at four block
# sizes: enough lines for the table of what each byte does (made after
# 64 letters held).  Then the same with byte 81 (invalid) after the
# first HEAD characters of line 101 (BYTES bytes once printed): strict
# stops there with the held letter out first, and replace goes on with
# the mark after it composing with nothing.
marks_as_iconv() {
  local cs=$1 line=$2 head=$3 bytes=$4 text= bad rest bs i
  for ((i = 0; i < 120; i++)); do text+=$line; done
  printf "$text" >marked
  iconv -f "$cs" -t UTF-8 marked >want
  bad=${text:0:$((100 * ${#line}))}${line:0:${#head}}
  [ "${line:0:${#head}}" = "$head" ] || fail "HEAD is no start of LINE"
  rest=${text:$((100 * ${#line} + ${#head}))}
  printf "$bad" >head
  printf "$rest" >tail
  printf "$bad\\x81$rest" >marked-bad
  iconv -f "$cs" -t UTF-8 head >want-head
  { cat want-head; printf '\xef\xbf\xbd'; iconv -f "$cs" -t UTF-8 tail; } >want-replaced
  local where="utf8conv: marked-bad:101: byte $((100 * $(printf "$line" | wc -c) + bytes)): invalid $cs: 81 (invalid byte)"
  for bs in 65536 7 3 1; do
    "$UTF8CONV" -f "$cs" --block-size=$bs marked >got
    cmp got want || fail "$cs, block size $bs: not what iconv(1) gives"
    run -1 --separate-stderr "$UTF8CONV" -f "$cs" --block-size=$bs marked-bad
    assert_equal "$stderr" "$where"
    "$UTF8CONV" -f "$cs" --block-size=$bs marked-bad >got 2>/dev/null && fail "$cs, block size $bs: exit 0"
    cmp got want-head || fail "$cs, block size $bs: strict output"
    run -0 --separate-stderr "$UTF8CONV" -f "$cs" -e replace --block-size=$bs marked-bad
    assert_equal "$stderr" "$where; 1 error replaced in this file"
    "$UTF8CONV" -f "$cs" -e replace --block-size=$bs marked-bad >got 2>/dev/null
    cmp got want-replaced || fail "$cs, block size $bs: replaced output"
  done
}

@test "CP1258's tone marks compose with the letter held before them, as in iconv(1), at every block size and policy" {
  require_full_iconv
  # "Tiếng Việt": ê, then a combining acute or dot below (EC, F2), which
  # glibc composes with the letter it holds; marks after a letter that
  # has no such composite, and alone.
  marks_as_iconv CP1258 'Ti\xea\xecng Vi\xea\xf2t a\xde\xd2 \xcc\n' 'Ti\xea' 3
}

@test "CP1255's points compose with the letter held before them, and again with the next, as in iconv(1)" {
  require_full_iconv
  # Shin, shin dot, dagesh (U+FB2C, through U+FB2A held for the
  # dagesh); alef with qamats, bet with dagesh, yod with hiriq; a point
  # after a space; a point that composes with nothing.
  marks_as_iconv CP1255 '\xf9\xd1\xcc\xe0\xc8 \xe1\xcc\xe9\xc4\xec \xc8\xf9\xd2\xcc\xc8\n' '\xf9\xd1' 2
  # Where the composed letters are, once the table is made (100 lines of
  # letters held, each line's newline after a full stop, after which
  # the table is used): ISO-8859-8 has the letters, not the points.
  local plain= i bs
  for ((i = 0; i < 100; i++)); do plain+='\xf9\xec\xe5\xed.\n'; done
  printf "$plain"'\xf9\xd1\xcc\xe0\xe9\xc4\n' >off
  for bs in 65536 7 3 1; do
    run -1 --separate-stderr "$UTF8CONV" -f CP1255 -t ISO-8859-8 --block-size=$bs off
    assert_equal "$stderr" "utf8conv: off:101: byte 600: cannot encode U+FB2C in ISO-8859-8: F9 D1 CC (unencodable character)"
    run -0 --separate-stderr "$UTF8CONV" -f CP1255 -t ISO-8859-8 -e replace --block-size=$bs off
    assert_equal "$stderr" "utf8conv: off:101: byte 600: cannot encode U+FB2C in ISO-8859-8: F9 D1 CC (unencodable character); 2 errors replaced in this file"
  done
}

@test "a stateful bridged decoder keeps its state after an error (ISO-2022-JP, UTF-7)" {
  require_full_iconv
  # ESC $ B, kanji, two invalid bytes, kanji again, ESC ( B, ASCII.
  conv 0 '61e697a5efbfbdefbfbde69cac62' 'a\x1b$BF|\x80\x80K\\\x1b(Bb' -f ISO-2022-JP -e replace
  conv 0 '61e697a55c7838305c783830e69cac62' 'a\x1b$BF|\x80\x80K\\\x1b(Bb' -f ISO-2022-JP -e escape
  conv 1 '61e697a5e69cac62' 'a\x1b$BF|\x80\x80K\\\x1b(Bb' -f ISO-2022-JP -c --block-size=1
  conv 1 '61e697a5' 'a\x1b$BF|\x80\x80K\\\x1b(Bb' -f ISO-2022-JP
  # UTF-7 stays in base64 ("+ZeVnLA-" is U+65E5 U+672C).
  conv 0 'e697a5efbfbde69cac' '+ZeV\x80nLA-' -f UTF-7 -e replace
}

@test "an unencodable character in a bridged output: offset, line, bytes" {
  require_charset SHIFT_JIS
  conv 1 '0a93fa' '\n\xe6\x97\xa5\xe2\x82\xac' -t SHIFT_JIS
  assert_equal "$(cat err)" "utf8conv: in:2: byte 4: cannot encode U+20AC in SHIFT_JIS: E2 82 AC (unencodable character)"
  conv 0 '0a93fa3f' '\n\xe6\x97\xa5\xe2\x82\xac' -t SHIFT_JIS -e replace
}

@test "a character a bridged charset lacks is unencodable, exit 1, never the '*' of musl's iconv(3)" {
  require_charset SHIFT_JIS
  # musl's iconv() writes '*' for it and counts an irreversible
  # conversion, where glibc's says EILSEQ: the same error either way.
  conv 1 '68' 'h\xc3\xa9\n' -t SHIFT_JIS
  assert_equal "$(cat err)" "utf8conv: in:1: byte 1: cannot encode U+00E9 in SHIFT_JIS: C3 A9 (unencodable character)"
  conv 0 '683f0a' 'h\xc3\xa9\n' -t SHIFT_JIS -e replace
  conv 0 '6893fa0a' 'h\xe6\x97\xa5\n' -t SHIFT_JIS
}

@test "a name the C library's iconv(3) cannot open is unknown, exit 2, and never suggested" {
  # iconv --list may be another C library's (the host's under qemu-user,
  # glibc's beside a static musl build): only names iconv(3) opens count.
  local name tried=0
  for name in ISO-2022-CN-EXT IBM930 TSCII; do
    if ! "$UTF8CONV" -f "$name" </dev/null >/dev/null 2>&1; then
      run -2 --separate-stderr "$UTF8CONV" -f "$name" </dev/null
      [[ ${stderr_lines[0]} == "utf8conv: unknown encoding '$name'"* ]] || fail "${stderr_lines[0]}"
      [[ ${stderr_lines[0]} != *"'$name'"*"'$name'"* ]] || fail "suggested itself: ${stderr_lines[0]}"
      run -0 "$UTF8CONV" --list
      refute_line "$name"
      tried=$((tried + 1))
    fi
  done
  # glibc with its gconv modules opens all three: nothing to check.
  [ "$tried" -gt 0 ] || skip "iconv(3) opens ISO-2022-CN-EXT, IBM930 and TSCII here"
}

# The bridge's memo reads again the characters iconv(3) has decoded
# (src/core/codecs/iconv_bridge.c): real text, its characters repeated,
# must come out exactly, and errors where they are, at every block size.
# memo_text LANG ENC: LANG's sample ($UTF8CONV_SRCDIR/tests/detect/
# samples/LANG*.txt, UTF-8) four times, into text.u8 and, in ENC, text.
memo_text() {
  local samples=$UTF8CONV_SRCDIR/tests/detect/samples
  cat "$samples/$1.txt" "$samples/$1-3.txt" "$samples/$1.txt" "$samples/$1-3.txt" >text.u8
  "$UTF8CONV" -t "$2" text.u8 >text
}

# memo_case LANG ENC LEAD: the text of LANG in ENC, whole and with an
# illegal byte (FF) in the middle and LEAD, a lead byte, cut short at the
# end, at block sizes 65536, 1 (not under valgrind: 2, 3, 5), under
# strict, replace and escape: exact output, exit status and diagnostic.
memo_case() {
  local bs sizes='65536 1' size line
  [ -z "${UTF8CONV_VALGRIND-}" ] && sizes='65536 1 2 3 5'
  memo_text "$1" "$2"
  size=$(stat -c %s text)
  line=$(( $(wc -l <text.u8) + 1 ))
  { cat text; printf '\xff'; cat text; printf "\\x$3"; } >bad
  { cat text.u8; printf '\xef\xbf\xbd'; cat text.u8; printf '\xef\xbf\xbd'; } >want.replace
  { cat text.u8; printf '\\xff'; cat text.u8; printf "\\\\x$3"; } >want.escape
  for bs in $sizes; do
    "$UTF8CONV" -f "$2" --block-size="$bs" text >out
    cmp out text.u8 || fail "$1 in $2, block size $bs"
    run -1 --separate-stderr "$UTF8CONV" -f "$2" --block-size="$bs" -o out bad
    assert_equal "$stderr" "utf8conv: bad:$line: byte $size: invalid $2: FF (invalid byte)"
    cmp out text.u8 || fail "$1 in $2, block size $bs: strict output"
    run -0 --separate-stderr "$UTF8CONV" -f "$2" --block-size="$bs" -e replace -o out bad
    assert_equal "$stderr" "utf8conv: bad:$line: byte $size: invalid $2: FF (invalid byte); 2 errors replaced in this file"
    cmp out want.replace || fail "$1 in $2, block size $bs: replace"
    run -0 --separate-stderr "$UTF8CONV" -f "$2" --block-size="$bs" -e escape -o out bad
    cmp out want.escape || fail "$1 in $2, block size $bs: escape"
  done
}

@test "the iconv(3) bridge: Japanese text in SHIFT_JIS and EUC-JP, whole, with errors, at every block size" {
  require_charset SHIFT_JIS EUC-JP ISO-2022-JP
  memo_case ja SHIFT_JIS 93
  memo_case ja EUC-JP a4
}

@test "the iconv(3) bridge: Chinese text in GB18030 and BIG5, Korean in EUC-KR, with errors, at every block size" {
  require_full_iconv
  memo_case zh_CN GB18030 81
  memo_case zh_TW BIG5 a4
  memo_case ko EUC-KR b0
}

# hold_case ENC RUN TAIL WANT: the characters whose ENC bytes are in
# the file RUN (each new to the encoders' memo, which learns them ahead),
# then TAIL (printf, UTF-8), all of it twice, to ENC from UTF-8 (the fast
# path) and from UTF-16LE (the state machine's), at several block
# sizes: exactly RUN's bytes and WANT (printf), twice.
hold_case() {
  local bs
  "$UTF8CONV" -f "$1" "$2" >run.u8
  { cat run.u8; printf "$3"; } >one.u8
  cat one.u8 one.u8 >in.u8
  "$UTF8CONV" -t UTF-16LE in.u8 >in.u16
  { cat "$2"; printf "$4"; } >one
  cat one one >want
  for bs in 65536 1 2 3 7; do
    "$UTF8CONV" -t "$1" --block-size=$bs -o out in.u8
    cmp out want || fail "$1 from UTF-8, block size $bs"
    "$UTF8CONV" -f UTF-16LE -t "$1" --block-size=$bs -o out in.u16
    cmp out want || fail "$1 from UTF-16LE, block size $bs"
  done
}

@test "the encoders' memo learns ahead, and writes a letter the encoder holds back only once the next shows they do not compose" {
  require_full_iconv
  local x run=''
  # 63 characters of Big5 (A440..A47E), then Ê with U+0304, Ê, ê with
  # U+030C, ê: BIG5-HKSCS holds Ê and ê back and composes two of the
  # pairs into one character each (88 62, 88 A5).
  for x in $(seq 64 126); do run+=$(printf '\\xa4\\x%02x' "$x"); done
  printf "$run" >run
  hold_case BIG5-HKSCS run '\xc3\x8a\xcc\x84|\xc3\x8a|\xc3\xaa\xcc\x8c|\xc3\xaa|a' \
    '\x88\x62|\x88\x66|\x88\xa5|\x88\xa7|a'
  # 94 kanji of EUC-JISX0213 (B0A1..B0FE), then か with U+309A (one
  # character, A4 F7) and か alone (A4 AB).
  run=''
  for x in $(seq 161 254); do run+=$(printf '\\xb0\\x%02x' "$x"); done
  printf "$run" >run
  hold_case EUC-JISX0213 run '\xe3\x81\x8b\xe3\x82\x9a|\xe3\x81\x8b|a' '\xa4\xf7|\xa4\xab|a'
  # The hiragana (A4A1..A4F3, か and others held back) and the kanji
  # before them: the memo writes a held character once the next shows
  # they do not compose, and か with U+309A as the one character they
  # compose to.
  run=''
  for x in $(seq 161 243); do run+=$(printf '\\xa4\\x%02x' "$x"); done
  for x in $(seq 161 254); do run+=$(printf '\\xb0\\x%02x' "$x"); done
  printf "$run" >run
  hold_case EUC-JISX0213 run '\xe3\x81\x8b\xe3\x82\x9a|\xe3\x81\x8b|a' '\xa4\xf7|\xa4\xab|a'
  local bs
  for bs in 65536 1 2 3; do
    # Held back at the end of the input: written by the flush.
    conv 0 '61a4aba4ada4af' 'a\xe3\x81\x8b\xe3\x81\x8d\xe3\x81\x8f' -t EUC-JISX0213 --block-size=$bs
    # Before a character the charset lacks: written before the error.
    conv 1 '61a4ab' 'a\xe3\x81\x8b\xf0\x9f\x98\x80\xe3\x81\x8b' -t EUC-JISX0213 --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 4: cannot encode U+1F600 in EUC-JISX0213: F0 9F 98 80 (unencodable character)"
    conv 0 '61a4ab3fa4ab' 'a\xe3\x81\x8b\xf0\x9f\x98\x80\xe3\x81\x8b' -t EUC-JISX0213 -e replace --block-size=$bs
  done
}

# diverse ENC SEED: what 48 KiB of random bytes decode to in ENC (with
# -c), one line in 60 broken after a space, and the pairs that some
# encoders compose (か and U+309A, Ê and U+0304, ê and U+030C, æ and
# U+0300) scattered in it, some of them apart: diverse.u8, in which few
# characters repeat.
diverse() {
  python3 -c 'import random, sys
r = random.Random(int(sys.argv[1]))
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(49152)))' "$2" >noise
  iconv -c -f "$1" -t UTF-8 noise 2>/dev/null | python3 -c 'import random, sys
r = random.Random(int(sys.argv[1]))
s = sys.stdin.buffer.read().decode()
pairs = ["\u304b\u309a", "\u00ca\u0304", "\u00ea\u030c", "\u00e6\u0300",
         "\u304b", "\u00ca", "\u00ea", "\u309a", "\u0304"]
out = []
for k, c in enumerate(s):
    out.append("\n" if c == " " and r.randrange(60) == 0 else c)
    if r.randrange(40) == 0:
        out.append(r.choice(pairs))
sys.stdout.write("".join(out))' "$2" >diverse.u8
}

@test "UTF-8 to multi-byte charsets on text of many characters that seldom repeat (runs through the encoders' learner): as iconv(1) at every block size, with the pairs some compose; an error inside them at its line and byte" {
  require_full_iconv
  local enc seed=1 sizes half line byte
  sizes=$(block_sizes)
  for enc in GB18030 BIG5 BIG5-HKSCS EUC-JISX0213 SHIFT_JISX0213 EUC-TW CP949 SHIFT_JIS; do
    seed=$((seed + 1))
    diverse "$enc" "$seed"
    iconv -c -f UTF-8 -t "$enc" diverse.u8 >clean.u8.enc 2>/dev/null || true
    "$UTF8CONV" -t UTF-8 -f "$enc" clean.u8.enc >text.u8
    iconv -f UTF-8 -t "$enc" text.u8 >want
    converts_as want text.u8 -t "$enc"
    # From UTF-16LE: the state machine's values, in runs too.
    iconv -f UTF-8 -t UTF-16LE text.u8 >text.u16
    converts_as want text.u16 -f UTF-16LE -t "$enc"
    # U+1F600 (none of these but GB18030 has it) or an ill-formed byte,
    # in the middle of a line, halfway.
    half=$(( $(stat -c %s text.u8) / 2 ))
    while [ "$(head -c "$half" text.u8 | tail -c 1 | od -An -tu1)" -ge 128 ]; do
      half=$((half + 1))
    done
    head -c "$half" text.u8 >bad
    line=$(( $(wc -l <bad) + 1 ))
    { head -c "$half" text.u8 | iconv -t "$enc"; printf '?'; tail -c +$((half + 1)) text.u8 | iconv -t "$enc"; } >want
    if [ "$enc" = GB18030 ]; then
      printf '\377' >>bad
      tail -c +$((half + 1)) text.u8 >>bad
      stops_with "utf8conv: bad:$line: byte $half: invalid UTF-8: FF (invalid byte)" -t "$enc"
    else
      printf '\360\237\230\200' >>bad
      tail -c +$((half + 1)) text.u8 >>bad
      stops_with "utf8conv: bad:$line: byte $half: cannot encode U+1F600 in $enc: F0 9F 98 80 (unencodable character)" -t "$enc"
      replaced_once "utf8conv: bad:$line: byte $half: cannot encode U+1F600 in $enc: F0 9F 98 80 (unencodable character); 1 error replaced in this file" -t "$enc"
      # And from UTF-16LE, at the byte of its surrogate pair.
      iconv -f UTF-8 -t UTF-16LE bad >bad.u16
      byte=$(( $(head -c "$half" text.u8 | iconv -f UTF-8 -t UTF-16LE | wc -c) ))
      mv bad.u16 bad
      stops_with "utf8conv: bad:$line: byte $byte: cannot encode U+1F600 in $enc: 3D D8 00 DE (unencodable character)" -f UTF-16LE -t "$enc"
      replaced_once "utf8conv: bad:$line: byte $byte: cannot encode U+1F600 in $enc: 3D D8 00 DE (unencodable character); 1 error replaced in this file" -f UTF-16LE -t "$enc"
    fi
  done
}

@test "UTF-16LE and UTF-16BE to code pages of tables, of the encoders' memo and of shifts (fast paths from UTF-16): as iconv(1) at every block size; a lone surrogate halfway at its line and byte, strict and replaced" {
  require_full_iconv
  local enc form seed=20 sizes half line byte unit
  sizes=$(block_sizes)
  for enc in CP1251 KOI8-R ISO-8859-7 CP1252 IBM037 GB18030 BIG5 IBM937; do
    seed=$((seed + 1))
    diverse "$enc" "$seed"
    iconv -c -f UTF-8 -t "$enc" diverse.u8 >clean.enc 2>/dev/null || true
    "$UTF8CONV" -t UTF-8 -f "$enc" clean.enc >text.u8
    iconv -f UTF-8 -t "$enc" text.u8 >all
    half=$(( $(stat -c %s text.u8) / 2 ))
    while [ "$(head -c "$half" text.u8 | tail -c 1 | od -An -tu1)" -ge 128 ]; do
      half=$((half + 1))
    done
    line=$(( $(head -c "$half" text.u8 | wc -l) + 1 ))
    for form in UTF-16LE UTF-16BE; do
      iconv -f UTF-8 -t "$form" text.u8 >text.u16
      cp all want
      converts_as want text.u16 -f "$form" -t "$enc"
      byte=$(head -c "$half" text.u8 | iconv -f UTF-8 -t "$form" | wc -c)
      if [ "$form" = UTF-16LE ]; then unit='\000\330'; else unit='\330\000'; fi
      { head -c "$half" text.u8 | iconv -f UTF-8 -t "$form"; printf "$unit"
        tail -c +$((half + 1)) text.u8 | iconv -f UTF-8 -t "$form"; } >bad
      # U+FFFD where the charset has it (GB18030), else '?'.
      { head -c "$half" text.u8 | iconv -t "$enc"
        printf '\357\277\275' | iconv -t "$enc" 2>/dev/null ||
          printf '?' | iconv -t "$enc"
        tail -c +$((half + 1)) text.u8 | iconv -t "$enc"; } >want
      if [ "$form" = UTF-16LE ]; then unit='00 D8'; else unit='D8 00'; fi
      stops_with "utf8conv: bad:$line: byte $byte: invalid $form: $unit (lone surrogate)" -f "$form" -t "$enc"
      replaced_once "utf8conv: bad:$line: byte $byte: invalid $form: $unit (lone surrogate); 1 error replaced in this file" -f "$form" -t "$enc"
    done
  done
}

@test "code pages of tables, of the decoders' memo, of shifts, UTF-7 and CP1255 to UTF-16LE, UTF-16BE and UTF-16 (fast paths to UTF-16): as iconv(1) at every block size, --report's characters; an invalid byte halfway at its line and byte, strict and replaced" {
  require_full_iconv
  local enc to seed=40 sizes half line bad hex chars
  sizes=$(block_sizes)
  for enc in CP1251 KOI8-R IBM037 GB18030 BIG5 IBM937 UTF-7 CP1255; do
    seed=$((seed + 1))
    diverse "$enc" "$seed"
    iconv -c -f UTF-8 -t "$enc" diverse.u8 >text.enc 2>/dev/null || true
    chars=$(iconv -f "$enc" -t UTF-8 text.enc | python3 -c 'import sys; print(len(sys.stdin.buffer.read().decode()))')
    for to in UTF-16LE UTF-16BE UTF-16; do
      iconv -f "$enc" -t "$to" text.enc >want
      converts_as want text.enc -f "$enc" -t "$to"
      run -0 --separate-stderr "$UTF8CONV" -f "$enc" -t "$to" --report -o out text.enc
      assert_equal "$(printf '%s\n' "$stderr" | grep -c " $chars chars,")" 2
    done
    # An invalid byte halfway, after a newline (no shift, nothing held):
    # 98 in CP1251, FF in GB18030 and BIG5.
    case $enc in
      CP1251) bad='\230' hex=98 ;;
      GB18030|BIG5) bad='\377' hex=FF ;;
      *) continue ;;
    esac
    half=$(( $(stat -c %s text.enc) / 2 ))
    half=$(( $(head -c "$half" text.enc | wc -c) - $(head -c "$half" text.enc | sed '$!d' | wc -c) ))
    [ "$(head -c "$half" text.enc | tail -c 1)" = "" ] || fail "$enc: no line end at $half"
    line=$(( $(head -c "$half" text.enc | wc -l) + 1 ))
    { head -c "$half" text.enc; printf "$bad"; tail -c +$((half + 1)) text.enc; } >bad
    for to in UTF-16LE UTF-16BE; do
      { head -c "$half" text.enc | iconv -f "$enc" -t "$to"
        printf '\357\277\275' | iconv -f UTF-8 -t "$to"
        tail -c +$((half + 1)) text.enc | iconv -f "$enc" -t "$to"; } >want
      stops_with "utf8conv: bad:$line: byte $half: invalid $enc: $hex (invalid byte)" -f "$enc" -t "$to"
      replaced_once "utf8conv: bad:$line: byte $half: invalid $enc: $hex (invalid byte); 1 error replaced in this file" -f "$enc" -t "$to"
    done
  done
}

@test "no runs through the learner for an encoder of shifts that its memo has not found out: ISO-2022-JP-2's Greek, designated by a euro sign 800 bytes before on the same line, as iconv(1) at every block size" {
  require_full_iconv
  local sizes
  sizes=$(block_sizes)
  # The memo learns ASCII (which ISO-2022-JP-2 writes as itself) first;
  # ESC . F, written before the euro sign, holds for Y, O and the euro
  # sign after 800 bytes, on the same line (runs from the initial state
  # would designate it again).
  python3 -c 'import string, sys
sys.stdout.write(string.ascii_letters + string.digits + " .,;:!?\n" + "\u20ac " + "the quick brown fox. " * 40 + "\u03a5 \u03a9 \u20ac \u00eb\n")' >text.u8
  iconv -f UTF-8 -t ISO-2022-JP-2 text.u8 >want
  converts_as want text.u8 -t ISO-2022-JP-2
  iconv -f UTF-8 -t UTF-16LE text.u8 >text.u16
  converts_as want text.u16 -f UTF-16LE -t ISO-2022-JP-2
}

@test "the iconv(3) bridge: Japanese text in ISO-2022-JP (shifts of several bytes), whole, with errors, at every block size" {
  require_charset ISO-2022-JP
  # ESC $ B and ESC ( B are the shifts of a charset of two states, found
  # in the text (iconv_shift.c); the memo reads both states.
  memo_case ja ISO-2022-JP 1b
}

@test "ISO-2022-JP: ESC ( J (5C the yen sign) and ESC $ @ are not ESC ( B and ESC \$ B: iconv(3) reads what follows them" {
  require_charset ISO-2022-JP
  # a \ 日 \, four times, so that the memo knows \ and 日; then ESC ( J
  # \ (the yen sign), ESC $ @ 日 (JIS C 6226), ESC ( B \.
  local unit='a\\\x1b$BF|\x1b(B\\\n' bs k input=''
  for k in 1 2 3 4; do input+=$unit; done
  input+='\x1b(J\\\x1b$@F|\x1b(B\\\n'
  local want=''
  for k in 1 2 3 4; do want+='615ce697a55c0a'; done
  want+='c2a5e697a55c0a'
  for bs in 65536 1 2 3 5; do
    conv 0 "$want" "$input" -f ISO-2022-JP --block-size=$bs
  done
}

@test "ISO-2022-JP with a terminal's colours: ESC before [ is U+001B alone, read through the memo as iconv(3) reads it, at every block size" {
  require_charset ISO-2022-JP
  # Ten lines of ESC [ 3k m, 日本 between ESC $ B and ESC ( B, ESC [ 0 m,
  # " k"; an illegal FF on the eleventh; ten lines more.  The memo learns
  # the shifts, then what each ESC [ 3 and ESC [ 0 are (memo_lone): it
  # stopped at the first of those once it knew the shifts, and left the
  # rest of the file to a call of iconv() a character.
  local k bs input='' want='' want16='' wantl1=''
  for k in 0 1 2 3 4 5 6 7 8 9; do
    input+="\\x1b[3${k}m\\x1b\$BF|K\\\\\\x1b(B\\x1b[0m $k\\n"
    want+="1b5b333${k}6de697a5e69cac1b5b306d203${k}0a"
    want16+="1b005b0033003${k}006d00e5652c671b005b0030006d0020003${k}000a00"
    wantl1+="1b5b333${k}6d3f3f1b5b306d203${k}0a"
  done
  local bad='\x1b[33mb\xff\x1b[0m\n'
  for bs in 65536 1 2 3 5; do
    conv 0 "$want" "$input" -f ISO-2022-JP --block-size=$bs
    conv 0 "$want16" "$input" -f ISO-2022-JP -t UTF-16LE --block-size=$bs
    conv 0 "${want}1b5b33336d62efbfbd1b5b306d0a$want" "$input$bad$input" -f ISO-2022-JP -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:11: byte 226: invalid ISO-2022-JP: FF (invalid byte); 1 error replaced in this file"
    conv 1 "${want}1b5b33336d62" "$input$bad$input" -f ISO-2022-JP --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:11: byte 226: invalid ISO-2022-JP: FF (invalid byte)"
    # Each 日 and 本 named where it is, after the colours.
    conv 0 "$wantl1" "$input" -f ISO-2022-JP -t ISO-8859-1 -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 5: cannot encode U+65E5 in ISO-8859-1: 1B 24 42 46 7C (unencodable character); 20 errors replaced in this file"
    conv 1 "1b5b33306d" "$input" -f ISO-2022-JP -t ISO-8859-1 --block-size=$bs
  done
  # No shift in the text: the memo of the one state reads ESC [ 3k once
  # it has seen it twice, to UTF-8, UTF-16 and through the pivot.
  local plain='' wplain='' w16='' wl1
  for k in 0 1 2 3 4 5 6 7 8 9; do
    plain+="\\x1b[3${k}mab\\x1b[0m $k\\n"
    wplain+="1b5b333${k}6d61621b5b306d203${k}0a"
    w16+="1b005b0033003${k}006d00610062001b005b0030006d0020003${k}000a00"
  done
  for bs in 65536 1 2 3 5; do
    conv 0 "$wplain$wplain$wplain" "$plain$plain$plain" -f ISO-2022-JP --block-size=$bs
    conv 0 "$w16$w16$w16" "$plain$plain$plain" -f ISO-2022-JP -t UTF-16LE --block-size=$bs
    conv 0 "$wplain$wplain$wplain" "$plain$plain$plain" -f ISO-2022-JP -t ISO-8859-1 --block-size=$bs
    conv 0 "${wplain}${wplain}1b5b33336d62efbfbd1b5b306d0a$wplain" "$plain$plain$bad$plain" -f ISO-2022-JP -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:21: byte 286: invalid ISO-2022-JP: FF (invalid byte); 1 error replaced in this file"
  done
}

@test "ISO-2022-KR with a terminal's colours: each ESC [ 3k read through the memo once seen twice, as iconv(3) reads it, at every block size" {
  require_charset ISO-2022-KR
  # The header, then ten lines of ESC [ 3k m, SO 가 SI, ESC [ 0 m, " k",
  # twice; an illegal FF between.  ESC [ 3k was left to a call of
  # iconv() (and a window of the state machine) each time.
  local k bs input='\x1b$)C' lines='' want=''
  for k in 0 1 2 3 4 5 6 7 8 9; do
    lines+="\\x1b[3${k}m\\x0e0!\\x0f\\x1b[0m $k\\n"
    want+="1b5b333${k}6deab0801b5b306d203${k}0a"
  done
  input+="$lines$lines"
  for bs in 65536 1 2 3 5; do
    conv 0 "$want$want" "$input" -f ISO-2022-KR --block-size=$bs
    conv 0 "${want}efbfbd$want" "\\x1b\$)C$lines\\xff$lines" -f ISO-2022-KR -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:11: byte 164: invalid ISO-2022-KR: FF (invalid byte); 1 error replaced in this file"
  done
}

@test "the iconv(3) bridge: an illegal byte and a lead byte before a newline inside multi-byte text" {
  require_full_iconv
  # 日本 a 日 FF 本 (0x93 then a newline: one illegal byte, the newline
  # read again) 本, twice: the second time from the memo.
  local bs t='\x93\xfa\x96\x7ba\x93\xfa\xff\x96\x7b\x93\n\x96\x7b'
  for bs in 65536 1 2 3; do
    conv 0 'e697a5e69cac61e697a5efbfbde69cacefbfbd0ae69cace697a5e69cac61e697a5efbfbde69cacefbfbd0ae69cac' "$t$t" -f SHIFT_JIS -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 7: invalid SHIFT_JIS: FF (invalid byte); 4 errors replaced in this file"
    conv 1 'e697a5e69cac61e697a5' "$t$t" -f SHIFT_JIS --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 7: invalid SHIFT_JIS: FF (invalid byte)"
    conv 1 'e697a5e69cac61e697a5e69cac0ae69cace697a5e69cac61e697a5e69cac0ae69cac' "$t$t" -f SHIFT_JIS -c --block-size=$bs
  done
}

@test "the iconv(3) bridge: a character a legacy output cannot hold is named with its input bytes and offset" {
  require_full_iconv
  # 日本 and a newline three times, then 日, then 辻 (92 D2) and ｶ (B6),
  # which EUC-KR lacks: offsets and bytes in SHIFT_JIS.
  local bs t='\x93\xfa\x96\x7b\n'
  for bs in 65536 1 2 3; do
    conv 1 'eceddce20aeceddce20aeceddce20aeced' "$t$t$t\x93\xfa\x92\xd2\xb6" -f SHIFT_JIS -t EUC-KR --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:4: byte 17: cannot encode U+8FBB in EUC-KR: 92 D2 (unencodable character)"
    conv 0 'eceddce20aeceddce20aeceddce20aeced5c75386662625c7566663736' "$t$t$t\x93\xfa\x92\xd2\xb6" -f SHIFT_JIS -t EUC-KR -e escape --block-size=$bs
    conv 1 '61' 'a\x93\xfa' -f SHIFT_JIS -t ISO-8859-1 --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 1: cannot encode U+65E5 in ISO-8859-1: 93 FA (unencodable character)"
  done
  # Japanese text to ISO-8859-1 under escape: what the same text in
  # UTF-8 gives.
  memo_text ja SHIFT_JIS
  "$UTF8CONV" -t ISO-8859-1 -e escape text.u8 >want 2>/dev/null || true
  run -0 --separate-stderr "$UTF8CONV" -f SHIFT_JIS -t ISO-8859-1 -e escape -o out text
  cmp out want
  [ -s want ]
}

@test "a single-byte code page of iconv(3) (a table): an undefined byte is one error, as through the bridge" {
  local bs
  for bs in 65536 1 2; do
    # CP1251 leaves 98 undefined; C0 is U+0410.
    conv 0 '61efbfbdd090' 'a\x98\xc0' -f CP1251 -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid CP1251: 98 (invalid byte); 1 error replaced in this file"
    conv 1 '61' 'a\x98\xc0' -f CP1251 --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:1: byte 1: invalid CP1251: 98 (invalid byte)"
    conv 0 '615c783938d090' 'a\x98\xc0' -f CP1251 -e escape --block-size=$bs
  done
}

@test "a single-byte code page of iconv(3) (a table) encodes as iconv(1), and names what it cannot encode" {
  local bs
  # Привет, a box-drawing line (U+2500, KOI8-R 80), then the euro sign.
  for bs in 65536 1 3; do
    conv 1 'f0d2c9d7c5d40a80' '\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82\n\xe2\x94\x80\xe2\x82\xac' -t KOI8-R --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:2: byte 16: cannot encode U+20AC in KOI8-R: E2 82 AC (unencodable character)"
    conv 0 'f0d2c9d7c5d40a803f' '\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82\n\xe2\x94\x80\xe2\x82\xac' -t KOI8-R -e replace --block-size=$bs
  done
  # And the other way, all 256 bytes, as iconv(1) decodes them.
  command -v iconv >/dev/null || skip "iconv(1) is not installed"
  printf "$(printf '\\x%02x' $(seq 0 255))" >all
  iconv -f KOI8-R -t UTF-8 all >want
  run -0 "$UTF8CONV" -f KOI8-R -o out all
  cmp out want
}

@test "an EBCDIC code page of iconv(3) (a table without ASCII) converts as iconv(1), both ways" {
  command -v iconv >/dev/null || skip "iconv(1) is not installed"
  local bs
  printf "$(printf '\\x%02x' $(seq 0 255) $(seq 255 -1 0))" >all
  iconv -f IBM037 -t UTF-8 all >want
  for bs in 65536 1 5; do
    run -0 "$UTF8CONV" -f IBM037 --block-size=$bs -o out all
    cmp out want
    run -0 "$UTF8CONV" -t IBM037 --block-size=$bs -o back want
    cmp back all
  done
}

@test "a stateless multi-byte output remembers what iconv(3) encoded: the same bytes the second time" {
  # 日本語 twice, with the euro sign that SHIFT_JIS lacks between.
  local t='\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e'
  conv 0 '93fa967b8cea3f93fa967b8cea' "$t\xe2\x82\xac$t" -t SHIFT_JIS -e replace
  conv 1 '93fa967b8cea' "$t\xe2\x82\xac$t" -t SHIFT_JIS
  assert_equal "$(cat err)" "utf8conv: in:1: byte 9: cannot encode U+20AC in SHIFT_JIS: E2 82 AC (unencodable character)"
}

@test "UTF-8 to a stateless multi-byte output: the fast path copies runs of ASCII only where the charset writes each byte as itself" {
  require_charset JOHAB
  # JOHAB has no backslash (its 5C is the won sign): 가 and ASCII with a
  # backslash, 40 lines, as iconv(1) writes them with '?' for it; and
  # 39 lines without it, then one with it, up to it under strict.
  local k bs line='\xea\xb0\x80 abc~xyz 0123\\def\n'
  for k in $(seq 40); do printf "$line"; done >in.u8
  sed 's/\\/?/g' in.u8 | iconv -f UTF-8 -t JOHAB >want
  for k in $(seq 39); do printf '\xea\xb0\x80 abc~xyz 0123def\n'; done >last.u8
  iconv -f UTF-8 -t JOHAB last.u8 >want.strict
  printf "$line" >>last.u8
  printf '\x88\x61 abc~xyz 0123' >>want.strict
  for bs in 65536 1 7; do
    run -0 --separate-stderr "$UTF8CONV" -t JOHAB -e replace --block-size=$bs -o out in.u8
    cmp out want || fail "replace, block size $bs"
    run -1 --separate-stderr "$UTF8CONV" -t JOHAB --block-size=$bs -o out last.u8
    assert_equal "$stderr" "utf8conv: last.u8:40: byte 796: cannot encode U+005C in JOHAB: 5C (unencodable character)"
    cmp out want.strict || fail "strict, block size $bs"
  done
}

@test "UTF-8 to a stateless multi-byte output: the fast path through what it learned stops at an invalid byte, with its line" {
  # 日本語 and a newline 30 times, FF, and 30 times again: the fast path
  # takes over once the characters are learned, and must stop at FF
  # having counted 30 lines.
  local t='' want='' kr='' k bs
  for k in $(seq 30); do
    t="$t\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\n"
    want="${want}93fa967b8cea0a"
    kr="${kr}eceddce2e5de0a"
  done
  for bs in 65536 1 7; do
    conv 0 "${want}3f$want" "$t\xff$t" -t SHIFT_JIS -e replace --block-size=$bs
    assert_equal "$(cat err)" "utf8conv: in:31: byte 300: invalid UTF-8: FF (invalid byte); 1 error replaced in this file"
  done
  conv 1 "$kr" "$t\xff$t" -t EUC-KR
  assert_equal "$(cat err)" "utf8conv: in:31: byte 300: invalid UTF-8: FF (invalid byte)"
}

# run_case ENC IN LANG BAD REPL: ENC from IN (UTF-8 or, with a lone
# surrogate in BAD, WTF-8) of LANG's text (text.u8, 20 times the
# samples), BAD (printf), and the text again, at several block sizes:
# the text as iconv(1) writes it up to BAD and its diagnostic under
# strict; under replace, the text, REPL (printf: '?', or U+FFFD for a
# Unicode form) and the text as iconv(1) writes them.
run_case() {
  local bs sizes='65536 4096 1 3' samples=$UTF8CONV_SRCDIR/tests/detect/samples
  local k size line
  [ -z "${UTF8CONV_VALGRIND-}" ] || sizes='65536 7'
  for k in $(seq 10); do cat "$samples/$3.txt" "$samples/$3-3.txt"; done >text.u8
  size=$(stat -c %s text.u8)
  line=$(( $(wc -l <text.u8) + 1 ))
  { cat text.u8; printf "$4"; cat text.u8; } >bad
  iconv -f UTF-8 -t "$1" text.u8 >want
  { cat text.u8; printf "$5"; cat text.u8; } | iconv -f UTF-8 -t "$1" >want.replace
  for bs in $sizes; do
    run -1 --separate-stderr "$UTF8CONV" -f "$2" -t "$1" --block-size="$bs" -o out bad
    [[ $stderr == "utf8conv: bad:$line: byte $size: cannot encode "*" in $1: "* ]] || fail "$stderr"
    cmp out want || fail "$1, block size $bs: strict output"
    run -0 --separate-stderr "$UTF8CONV" -f "$2" -t "$1" --block-size="$bs" -e replace -o out bad
    cmp out want.replace || fail "$1, block size $bs: replace"
  done
}

@test "a stateful bridged output takes runs of characters in one iconv(3) call, and stops at one it cannot encode as one a call would" {
  require_charset ISO-2022-JP UTF-7 ISO-2022-CN
  # U+AC00, which ISO-2022-JP and ISO-2022-CN lack; a lone surrogate,
  # which no bridged output takes.
  run_case ISO-2022-JP UTF-8 ja '\xea\xb0\x80' '?'
  run_case ISO-2022-CN UTF-8 zh_CN '\xea\xb0\x80' '?'
  run_case UTF-7 WTF-8 ja '\xed\xa0\x80' '\xef\xbf\xbd'
}

@test "ISO-2022-JP's encoder learns ESC \$ B and ESC ( B as its shifts, and stops at any other escape, as iconv(1) writes them" {
  require_charset ISO-2022-JP ISO-2022-JP-2
  local bs enc k sizes='65536 4096 1 3' samples=$UTF8CONV_SRCDIR/tests/detect/samples
  [ -z "${UTF8CONV_VALGRIND-}" ] || sizes='65536 7'
  for k in $(seq 10); do cat "$samples/ja.txt" "$samples/ja-3.txt"; done >text.u8
  # The text, then ¥ and ‾ (JIS X 0201's: ESC ( J) and, in
  # ISO-2022-JP-2, 가 (KS C 5601's: ESC $ ( C), then the text again.
  for enc in ISO-2022-JP ISO-2022-JP-2; do
    { cat text.u8; printf '\xc2\xa5a\xe2\x80\xbe'
      [ "$enc" = ISO-2022-JP ] || printf '\xea\xb0\x80\xe6\x97\xa5'
      cat text.u8; } >mix.u8
    iconv -f UTF-8 -t "$enc" text.u8 >want
    iconv -f UTF-8 -t "$enc" mix.u8 >want.mix
    for bs in $sizes; do
      "$UTF8CONV" -t "$enc" --block-size="$bs" -o out text.u8
      cmp out want || fail "$enc, block size $bs"
      "$UTF8CONV" -t "$enc" --block-size="$bs" -o out mix.u8
      cmp out want.mix || fail "$enc, block size $bs: JIS X 0201, KS C 5601"
      "$UTF8CONV" -f UTF-8 -t UTF-16LE text.u8 >text.u16
      "$UTF8CONV" -f UTF-16LE -t "$enc" --block-size="$bs" -o out text.u16
      cmp out want || fail "$enc from UTF-16LE, block size $bs"
    done
  done
  # ISO-2022-JP-2 writes a character in the set it is in when that set
  # holds it: ~ after ı stays in JIS X 0212 (22 37), Τ after 가 in KS C
  # 5601 (25 53), where after ASCII they are 7E and ESC $ B 26 33.  The
  # shifts learned from ı or 가, the first of their kind, must not make
  # the memo write ~ or Τ as it learned them in the other state.
  for k in $(seq 30); do printf 'a\xc4\xb1~\xc4\xb1 b~\n'; done >tilde.u8
  for k in $(seq 30); do printf '\xea\xb0\x80\xce\xa4 a\xce\xa4\n'; done >greek.u8
  for k in tilde greek; do
    iconv -f UTF-8 -t ISO-2022-JP-2 $k.u8 >want.$k
    for bs in $sizes; do
      "$UTF8CONV" -t ISO-2022-JP-2 --block-size="$bs" -o out $k.u8
      cmp out want.$k || fail "ISO-2022-JP-2, $k, block size $bs"
    done
  done
}

@test "a stateful bridged output is reset at the end and at a strict stop" {
  require_charset ISO-2022-JP
  conv 0 '611b2442467c1b2842' 'a\xe6\x97\xa5' -t ISO-2022-JP
  conv 1 '611b2442467c1b2842' 'a\xe6\x97\xa5\xe2\x82\xac' -t ISO-2022-JP
  conv 0 '611b2442467c1b28423f' 'a\xe6\x97\xa5\xe2\x82\xac' -t ISO-2022-JP -e replace
}

@test "unknown encoding: exit 2 with a hint to --list" {
  run -2 "$UTF8CONV" -f NO-SUCH-ENCODING </dev/null
  assert_output "utf8conv: unknown encoding 'NO-SUCH-ENCODING'
Try 'utf8conv --list' for the list of encodings."
  run -2 "$UTF8CONV" -t NO-SUCH-ENCODING </dev/null
  assert_output --partial "unknown encoding 'NO-SUCH-ENCODING'"
  # With a suffix, the name without it (and an unknown suffix whole).
  run -2 "$UTF8CONV" -t NO-SUCH-ENCODING//TRANSLIT </dev/null
  assert_output "utf8conv: unknown encoding 'NO-SUCH-ENCODING'
Try 'utf8conv --list' for the list of encodings."
  run -2 "$UTF8CONV" -t UTF-8//NO-SUCH-SUFFIX </dev/null
  assert_output --partial "unknown encoding 'UTF-8//NO-SUCH-SUFFIX'"
}

@test "-l lists CP1252 with WINDOWS-1252, then iconv(3)'s names" {
  run -0 "$UTF8CONV" -l
  assert_line "CP1252 WINDOWS-1252 MS-ANSI X-CP1252"
  assert_line "ISO-8859-1 LATIN1 L1 ISO8859-1 ISO_8859-1 ISO-IR-100 ISO_8859-1:1987 CP819 IBM819 CSISOLATIN1 OSF00010001"
  assert_line "US-ASCII ASCII ANSI_X3.4-1968 ANSI_X3.4-1986 ISO646-US ISO_646.IRV:1991 US CP367 IBM367 CSASCII ISO-IR-6 OSF00010020"
  assert_line --regexp '^Encodings from iconv\(3\)'
  # glibc lists one name a line, GNU libiconv a line of aliases.
  require_charset KOI8-R SHIFT_JIS
  assert_line --regexp '^(.* )?KOI8-R( .*)?$'
  # One spelling of each: glibc lists SHIFT-JIS first.
  assert_line --regexp '^(.* )?SHIFT[-_]JIS( .*)?$'
}

@test "encodings golden files are what gen.py makes with Python, WHATWG's index and glibc's iconv" {
  command -v python3 >/dev/null || skip "python3 is required"
  command -v iconv >/dev/null || skip "iconv(1) is required"
  cp -R "$ENC" g
  chmod -R u+w g
  python3 g/gen.py >/dev/null
  diff -r "$ENC" g
}

@test "names match as ICU and WHATWG match labels, and every name of CP1252 is the built-in one" {
  local enc
  for enc in cp-1252 Windows1252 windows_1252 "windows 1252" MS-ANSI ms-ansi x-cp1252 CP01252; do
    run --separate-stderr bash -c 'printf "a\201\200" | "$UTF8CONV" -f "$1" -t UTF-16BE | od -An -tx1' sh "$enc"
    assert_equal "$status" 0
    # 0x81 is U+0081 (WHATWG's index), not glibc's error; 0x80 is the euro.
    assert_equal "$(echo $output)" "00 61 00 81 20 ac"
    assert_equal "$stderr" ""
  done
  for enc in LATIN-1 latin1 ISO_8859-1 ISO-8859-01 iso8859-1 IBM819 CP819; do
    run bash -c 'printf "\351" | "$UTF8CONV" -f "$1" | od -An -tx1' sh "$enc"
    assert_equal "$(echo $output)" "c3 a9"
  done
  printf 'a' | "$UTF8CONV" -t utf16le >out
  assert_hex out '6100'
  printf 'a' | "$UTF8CONV" -t "UTF 16 BE" >out
  assert_hex out '0061'
}

@test "unknown encoding: the closest known names as a hint, built-in and iconv(3)'s; none when nothing is close" {
  run --separate-stderr "$UTF8CONV" -t utf61le </dev/null
  assert_equal "$status" 2
  assert_equal "$output" ""
  assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'utf61le'; did you mean 'UTF-16LE', 'UTF-16BE' or 'UTF-32LE'?"
  assert_equal "${stderr_lines[1]}" "Try 'utf8conv --list' for the list of encodings."
  assert_equal "${#stderr_lines[@]}" 2
  run --separate-stderr "$UTF8CONV" -f MS-ANSII </dev/null
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding 'MS-ANSII'; did you mean 'MS-ANSI'?"
  # The closest first, from the built-in names before iconv(3)'s.
  run --separate-stderr "$UTF8CONV" -f latn1 </dev/null
  assert_equal "$status" 2
  [[ ${stderr_lines[0]} == "utf8conv: unknown encoding 'latn1'; did you mean 'LATIN1'"* ]] || fail "${stderr_lines[0]}"
  # iconv(3)'s names are suggested too.
  command -v iconv >/dev/null || skip "iconv(1) lists glibc's names"
  require_charset KOI8-R
  run --separate-stderr "$UTF8CONV" -f koi8-rr </dev/null
  assert_equal "$status" 2
  [[ ${stderr_lines[0]} == "utf8conv: unknown encoding 'koi8-rr'; did you mean 'KOI8-R'"* ]] || fail "${stderr_lines[0]}"
  run --separate-stderr "$UTF8CONV" -f "$(printf 'A%.0s' $(seq 80))" </dev/null
  assert_equal "$status" 2
  assert_equal "${stderr_lines[0]}" "utf8conv: unknown encoding '$(printf 'A%.0s' $(seq 80))'"
}

@test "iconv(3)'s names match loosely too: cp-1250, koi8_r, GB-18030, 'ISO 8859-15', 'latin 2'" {
  printf '\232' | "$UTF8CONV" -f cp-1250 >out
  assert_hex out 'c5 a1'
  printf '\305\241' | "$UTF8CONV" -t cp-1250 >out
  assert_hex out '9a'
  printf '\301' | "$UTF8CONV" -f koi8_r >out
  assert_hex out 'd0 b0'
  printf '\260\241' | "$UTF8CONV" -f GB-18030 >out
  assert_hex out 'e5 95 8a'
  printf '\244' | "$UTF8CONV" -f "ISO 8859-15" >out
  assert_hex out 'e2 82 ac'
  printf '\261' | "$UTF8CONV" -f "latin 2" >out
  assert_hex out 'c4 85'
  # Leading zeros in numbers do not count either.
  printf '\232' | "$UTF8CONV" -f CP01250 >out
  assert_hex out 'c5 a1'
}

@test "spellings uconv accepts and glibc lacks: macroman, win1251, windows1251, latin10" {
  printf '\216' | "$UTF8CONV" -f macroman >out
  assert_hex out 'c3 a9'
  printf '\303\251' | "$UTF8CONV" -t x-mac-roman >out
  assert_hex out '8e'
  printf '\300' | "$UTF8CONV" -f win1251 >out
  assert_hex out 'd0 90'
  printf '\300' | "$UTF8CONV" -f windows1251 >out
  assert_hex out 'd0 90'
  # latin10 is ISO-8859-16: A1 is U+0104.
  printf '\241' | "$UTF8CONV" -f Latin-10 >out
  assert_hex out 'c4 84'
  # win1252 is the built-in CP1252 (81 is WHATWG's U+0081).
  printf '\201\200' | "$UTF8CONV" -f win1252 >out
  assert_hex out 'c2 81 e2 82 ac'
}

@test "did you mean: the suggestions count iconv(3)'s names and the extra spellings" {
  run -2 "$UTF8CONV" -f win1251x </dev/null
  assert_line --index 0 "utf8conv: unknown encoding 'win1251x'; did you mean 'win1251', 'win1250' or 'win1252'?"
  run -2 "$UTF8CONV" -f koi8-rr </dev/null
  assert_line --index 0 --regexp "^utf8conv: unknown encoding 'koi8-rr'; did you mean 'KOI8-R'"
}

@test "-l lists each name once, under its real home: no built-in charset's name again under iconv(3)" {
  run -0 "$UTF8CONV" -l
  local iconv_part
  iconv_part=$(sed -n '/^Encodings from iconv(3)/,$p' <<<"$output")
  [ -n "$iconv_part" ] || fail "no iconv part"
  local name
  for name in UTF-8 UTF8 ISO-8859-1 ISO_8859-1 LATIN1 CP819 CP1252 WINDOWS-1252 MS-ANSI US-ASCII ANSI_X3.4-1968 UTF-16LE UCS-4LE UTF-32; do
    ! grep -q -x -e "$name" -e "$name .*" -e ".* $name" -e ".* $name .*" <<<"$iconv_part" \
      || fail "$name is listed again under iconv(3)"
  done
  # No name of iconv(3)'s twice, not even in another spelling that
  # matches the same way (glibc lists SHIFT_JIS and SHIFT-JIS, KOI8-R
  # and KOI8R, ISO-8859-15, ISO_8859-15 and ISO8859-15).
  local re
  for re in 'SHIFT[-_]JIS' 'KOI8-?R' 'ISO[-_]?8859-15' 'EUC-?JP' 'CP1251'; do
    assert_equal "$(grep -c -E -x -e "$re" -e "$re .*" -e ".* $re" -e ".* $re .*" <<<"$iconv_part")" 1
  done
  assert_line --regexp '^(.* )?KOI8-R( .*)?$'
  assert_line --regexp '^(.* )?ISO-8859-15( .*)?$'
}

@test "ISO-2022-CN: ESC SO read in one call (ESC a value, SO consumed): after it, NUL is illegal, as iconv(3) says" {
  iconv -f ISO-2022-CN -t UTF-8 </dev/null >/dev/null 2>&1 || skip "iconv(3) has no ISO-2022-CN here"
  # Found by fuzz_bridge after the memo across shifts (iconv_shift.c):
  # the SO consumed with the ESC's value was missed, and the NUL after
  # it was read from the memo of the initial state.  (The memo stopped
  # there; it now follows the shift, and the NUL goes to iconv(3).)
  printf '\x78\xD1\x78\x66\x66\x54\x69\x65\x14\x0A\x00\x00\x00\xAF\xFF\x1B\x0E\x00\xAF\xFF\x1B\x0E\x0A\x0A\x54\x69\x65\x3F\x02\x00\x00\x00\x00\x00\x00\x00\x0E' >in
  local bs
  for bs in 1 2 3 65536; do
    run -0 --separate-stderr "$UTF8CONV" --block-size="$bs" -f ISO-2022-CN -e escape --binary -o out in
    assert_hex out 785c786431786666546965140a0000005c7861665c7866661b5c7830305c7861665c7866665c7831625c7830615c783061e89aa4e8b9875c7830325c7830305c7830305c7830305c7830305c7830305c7830305c783030
  done
}

@test "ISO-2022-KR: ESC SO read in one call (ESC a value, SO consumed): the decoder's memo follows the shift" {
  iconv -f ISO-2022-KR -t UTF-8 </dev/null >/dev/null 2>&1 || skip "iconv(3) has no ISO-2022-KR here"
  # a ESC, SO 가 각 SI, b ESC, SO 가 SI, 0 ! (ASCII again), ESC, SO and
  # at once SI, SO 각 SI: twenty times, so that the memo reads the
  # characters it learned, in the state after each shift.
  local unit='a\x1b\x0e\x30\x21\x30\x22\x0fb\x1b\x0e\x30\x21\x0f\x30\x21\x1b\x0e\x0f\x0e\x30\x22\x0f'
  local want='611beab080eab081621beab08030211beab081' k bs expected=''
  { printf '\x1b$)C'; for k in $(seq 20); do printf "$unit"; done; } >in
  for k in $(seq 20); do expected+=$want; done
  for bs in 1 2 3 65536; do
    run -0 --separate-stderr "$UTF8CONV" --block-size="$bs" -f ISO-2022-KR -o out in
    assert_hex out "$expected"
  done
}

@test "ISO-2022-KR: the encoder's memo writes the header once, then the shifts, as iconv(1) does" {
  require_full_iconv
  local bs
  memo_text ko EUC-KR
  iconv -f UTF-8 -t ISO-2022-KR text.u8 >want
  for bs in 65536 1 3; do
    "$UTF8CONV" -t ISO-2022-KR --block-size=$bs -o out text.u8
    cmp out want || fail "block size $bs"
    # a, 가 a (SO before the Hangul, SI after it), 가 alone (SI by the
    # flush): the header first each time.
    conv 0 '1b24294361' 'a' -t ISO-2022-KR --block-size=$bs
    conv 0 '1b2429430e30210f61' '\xea\xb0\x80a' -t ISO-2022-KR --block-size=$bs
    conv 0 '1b2429430e30210f' '\xea\xb0\x80' -t ISO-2022-KR --block-size=$bs
  done
}

@test "CP1255: letters held back are decoded without iconv(3) as with it, at every block size, points and errors included" {
  iconv -f CP1255 -t UTF-8 </dev/null >/dev/null 2>&1 || skip "iconv(3) has no CP1255 here"
  # Hebrew letters (held back for a point that may follow), a sheqel
  # sign that ISO-8859-8 lacks, shin with its dot (composed to U+FB2A:
  # iconv(3) decides), and an undefined byte (DB).
  printf 'ab \xf9\xec\xe5\xed \xf2\xe5\xec\xed. x\xa4y \xf9\xd1\xec\xe5\xed \xe0\xdb\xe1\n' >in
  local bs
  for bs in 1 2 3 7 65536; do
    run -0 --separate-stderr "$UTF8CONV" --block-size="$bs" -f CP1255 -e replace -o out in
    assert_hex out "$(printf 'ab \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xd7\xa2\xd7\x95\xd7\x9c\xd7\x9d. x\xe2\x82\xaay \xef\xac\xaa\xd7\x9c\xd7\x95\xd7\x9d \xd7\x90\xef\xbf\xbd\xd7\x91\n' | od -An -tx1 | tr -d ' \n')"
    run -1 --separate-stderr "$UTF8CONV" --block-size="$bs" -f CP1255 -t ISO-8859-8 -o out in
    [ "$stderr" = "utf8conv: in:1: byte 15: cannot encode U+20AA in ISO-8859-8: A4 (unencodable character)" ] || fail "block size $bs: $stderr"
    # A held letter that ISO-8859-8 lacks (Yiddish double yod), after
    # 70 words of one letter (the table of what the bytes do is made at
    # the 64th letter held from the initial state) and the decoder back
    # in that state ("ab"): reported with the byte after it, from which
    # the bridge's call gave it out.
    { for k in $(seq 70); do printf '\xe0 '; done; printf 'ab \xd6y \xd4z\n'; } >in2
    run -1 --separate-stderr "$UTF8CONV" --block-size="$bs" -f CP1255 -t ISO-8859-8 -o out in2
    [ "$stderr" = "utf8conv: in2:1: byte 143: cannot encode U+05F2 in ISO-8859-8: D6 79 (unencodable character)" ] || fail "block size $bs: $stderr"
    # Where each held letter is reported: the same at every block size.
    run -0 --separate-stderr "$UTF8CONV" --block-size="$bs" -f CP1255 -t ASCII -e replace --report -o out in
    if [ "$bs" = 1 ]; then
      first=$stderr
    else
      [ "$stderr" = "$first" ] || fail "block size $bs: $stderr, block size 1: $first"
    fi
  done
}

@test "decoders of SO and SI to UTF-8 (the memo's fast path across shifts): text, and a strict stop inside SO, as iconv(1) gives them, at every block size" {
  require_charset IBM937 IBM933 ISO-2022-KR
  local spec lang enc bs pos sizes='65536 1 7'
  [ -z "${UTF8CONV_VALGRIND-}" ] && sizes='65536 1 2 3 7 100'
  for spec in zh_TW:IBM937 ko:IBM933 ko:ISO-2022-KR; do
    lang=${spec%%:*} enc=${spec#*:}
    memo_text "$lang" "$enc"
    { cat text; printf '\016\377\377\017'; cat text; } >bad
    iconv -f "$enc" -t UTF-8 text >want
    run -1 --separate-stderr iconv -f "$enc" -t UTF-8 -o want.bad bad
    pos=${stderr##* }
    for bs in $sizes; do
      "$UTF8CONV" -f "$enc" --block-size="$bs" -o out text
      cmp out want || fail "$lang in $enc, block size $bs"
      run -1 --separate-stderr "$UTF8CONV" -f "$enc" --block-size="$bs" -o out bad
      [[ $stderr == "utf8conv: bad:"*": byte $pos: invalid $enc: FF (invalid byte)" ]] || fail "$enc, block size $bs: $stderr"
      cmp out want.bad || fail "$lang in $enc, block size $bs: strict output"
    done
  done
}

@test "encoders of SO and SI from UTF-8 (the memo of their shifts as a fast path): text, a character they cannot hold and an ill-formed byte, as iconv(1) gives them, at every block size" {
  require_charset IBM937 IBM933 ISO-2022-KR
  local spec lang enc bs line size sizes='65536 1 7'
  [ -z "${UTF8CONV_VALGRIND-}" ] && sizes='65536 1 2 3 7 100'
  for spec in zh_TW:IBM937 ko:IBM933 ko:ISO-2022-KR; do
    lang=${spec%%:*} enc=${spec#*:}
    memo_text "$lang" UTF-8
    line=$(( $(wc -l <text.u8) + 1 )) size=$(stat -c %s text.u8)
    # U+1F600, which none of them holds (four bytes: the state machine
    # takes it), and FF, after which the fast path goes on.
    { cat text.u8; printf '\360\237\230\200\nx\377y\n'; cat text.u8; } >bad
    iconv -f UTF-8 -t "$enc" text.u8 >want
    { cat text.u8; printf '\nxy\n'; cat text.u8; } | iconv -f UTF-8 -t "$enc" >want.c
    for bs in $sizes; do
      "$UTF8CONV" -t "$enc" --block-size="$bs" -o out text.u8
      cmp out want || fail "$lang in $enc, block size $bs"
      run -1 --separate-stderr "$UTF8CONV" -t "$enc" --block-size="$bs" -o out bad
      assert_equal "$stderr" "utf8conv: bad:$line: byte $size: cannot encode U+1F600 in $enc: F0 9F 98 80 (unencodable character)"
      cmp out want || fail "$lang in $enc, block size $bs: strict output"
      run -1 --separate-stderr "$UTF8CONV" -t "$enc" --block-size="$bs" -c -o out bad
      assert_equal "$stderr" "utf8conv: bad:$line: byte $size: cannot encode U+1F600 in $enc: F0 9F 98 80 (unencodable character); 2 errors dropped in this file"
      cmp out want.c || fail "$lang in $enc, block size $bs: -c"
    done
  done
}

@test "SO and SI with thousands of characters, each seen a few times (what the memos learn ahead, in batches across shifts): both ways as iconv(1), at every block size" {
  require_charset IBM937 IBM1388 ISO-2022-KR
  local enc bs sizes='65536 7'
  [ -z "${UTF8CONV_VALGRIND-}" ] && sizes='65536 2 3 7 100 4096'
  # 3,000 characters of the CJK and Hangul blocks in runs between ASCII
  # and line breaks, from a fixed seed: a character of two bytes is seen
  # about twice.
  python3 -c '
import random, sys
r = random.Random(19)
out = []
for k in range(3000):
    if r.random() < 0.15:
        out.append(r.choice(["a", "Z", " ", "\n", "7"]) * r.randrange(1, 4))
    out.append(chr(r.choice([0x4E00, 0xAC00]) + r.randrange(3000)))
sys.stdout.write("".join(out) + "\n")' >text.u8
  for enc in IBM937 IBM1388 ISO-2022-KR; do
    iconv -c -f UTF-8 -t "$enc" text.u8 >text || true
    iconv -f "$enc" -t UTF-8 text >want.u8
    for bs in $sizes; do
      "$UTF8CONV" -f "$enc" --block-size="$bs" -o out text
      cmp out want.u8 || fail "decoding $enc, block size $bs"
      "$UTF8CONV" -t "$enc" --block-size="$bs" -o out want.u8
      cmp out text || fail "encoding $enc, block size $bs"
    done
  done
}

@test "UTF-8 to EBCDIC code pages (IBM037, IBM273, IBM1047, CP281) through a table of their own: as iconv(1) at every block size, the line of an error, overlong sequences" {
  require_charset IBM037 IBM273 IBM1047 CP281
  local enc sizes
  sizes=$(block_sizes)
  prose 3 300 12 Café au lait naïve über Straße niño Ærø the dog '¿qué?' \
    50% a-b x+y '(it)' '1 ½' >text.u8
  for enc in IBM037 IBM273 IBM1047; do
    iconv -f UTF-8 -t "$enc" text.u8 >want
    converts_as want text.u8 -t "$enc"
  done
  # CP281's overline is a character of three bytes of UTF-8.
  prose 4 300 12 the dog 'a‾b' '‾' '£5' x >text281.u8
  iconv -f UTF-8 -t CP281 text281.u8 >want
  converts_as want text281.u8 -t CP281
  # The euro sign is none of IBM037's: the error is on the line after
  # the text's, at its byte.
  { cat text.u8; printf 'four \342\202\254 five\n'; } >bad
  stops_with "utf8conv: bad:$(( $(wc -l <text.u8) + 1 )): byte $(( $(stat -c %s text.u8) + 5 )): cannot encode U+20AC in IBM037: E2 82 AC (unencodable character)" -t IBM037
  # C1 81, an overlong 'A', is two errors (not the letter, 0xC1).
  { cat text.u8; printf 'c\301\201d\n'; } >bad
  { iconv -f UTF-8 -t IBM037 text.u8; printf '\203\157\157\204\045'; } >want
  replaced_once "utf8conv: bad:$(( $(wc -l <text.u8) + 1 )): byte $(( $(stat -c %s text.u8) + 1 )): invalid UTF-8: C1 (overlong encoding); 2 errors replaced in this file" -t IBM037
}

@test "UTF-8 to table pages with characters of three bytes below byte 80 (EBCDIC-ES's peseta sign, CP1142's euro sign, CP290's katakana, BRF's braille): as iconv(1) at every block size, the line of an error after them" {
  require_charset EBCDIC-ES CP1142 CP290 BRF
  local pair enc sizes
  sizes=$(block_sizes)
  prose 6 300 12 the dog '₧5' 'Ñu' 'año' '¢3' 'a+b' >es.u8
  prose 7 300 12 the dog '€5' 'Ærø' 'å' >dk.u8
  prose 8 300 12 THE DOG 'アイウ' '「X」' '1。' '£5' >jp.u8
  python3 -c 'import random
r = random.Random(9)
for i in range(300):
    print("".join(chr(0x2800 + r.randrange(64)) for _ in range(r.randrange(1, 12))))' >br.u8
  for pair in EBCDIC-ES:es CP1142:dk CP290:jp BRF:br; do
    enc=${pair%%:*}
    iconv -f UTF-8 -t "$enc" "${pair#*:}.u8" >want
    converts_as want "${pair#*:}.u8" -t "$enc"
  done
  # The euro sign is none of EBCDIC-ES's: the error is on the line
  # after the text's, at its byte.
  { cat es.u8; printf 'one \342\202\254\n'; } >bad
  stops_with "utf8conv: bad:$(( $(wc -l <es.u8) + 1 )): byte $(( $(stat -c %s es.u8) + 4 )): cannot encode U+20AC in EBCDIC-ES: E2 82 AC (unencodable character)" -t EBCDIC-ES
}

@test "UTF-8 to IBM1390 and IBM1399: a kana and U+309A, and JIS X 0213's other pairs, are one character as iconv(1) writes them, at every block size; decoded from IBM1390, they go back" {
  require_charset IBM1390 IBM1399
  local enc sizes
  sizes=$(block_sizes)
  # か゚ and セ゚, æ̀, ɔ́, ˩˥ and ㇷ゚ compose; か and U+0301 do not (two
  # characters); a kana ends the text.
  prose 10 300 12 THE DOG 'アイウ' '「か゚」' 'セ゚x' 'æ̀' 'ɔ́' '˩˥' 'ㇷ゚' \
    'か́' 'かか' >jp.u8
  printf 'か' >>jp.u8
  for enc in IBM1390 IBM1399; do
    iconv -f UTF-8 -t "$enc" jp.u8 >want
    converts_as want jp.u8 -t "$enc"
    # And back: EC B5, decoded to two characters, encodes to EC B5.
    iconv -f "$enc" -t UTF-8 want >back.u8
    converts_as want back.u8 -t "$enc"
  done
  run -0 sh -c 'printf "\343\201\213\343\202\232" | "$UTF8CONV" -t IBM1390 | od -An -tx1'
  assert_output " 0e ec b5 0f"
}

@test "A character an encoder holds back to see whether the next composes with it goes out before the byte surrogateescape writes for a decoding error" {
  require_charset BIG5-HKSCS IBM1390
  local bs
  for bs in 65536 1 2 3; do
    # BIG5-HKSCS holds Ê back (Ê and U+0304 are 88 62).
    printf 'A\303\212\377B' >bad
    "$UTF8CONV" -e surrogateescape -t BIG5-HKSCS --block-size=$bs -o out bad
    assert_equal "$(od -An -tx1 out)" " 41 88 66 ff 42"
    # IBM1390 holds か back at the end of a call (か and U+309A are
    # EC B5): the byte comes after it, in the state it leaves.
    printf 'A\343\201\213\377B' >bad
    "$UTF8CONV" -e surrogateescape -t IBM1390 --block-size=$bs -o out bad
    assert_equal "$(od -An -tx1 out)" " c1 0e 44 86 ff 0f c2"
  done
}

@test "UCS-2LE, UCS-4, UTF-32LE and UTF-32BE to UTF-8: plain units without iconv(3) or the state machine, as iconv(1) at every block size, and the line of an error after them" {
  require_charset UCS-2LE UCS-4
  local bs enc sizes
  sizes=$(block_sizes)
  utf7_prose 5 300 12 >text.u8
  for enc in UCS-2LE UCS-4 UTF-32LE UTF-32BE; do
    iconv -f UTF-8 -t "$enc" text.u8 >text
    converts_as text.u8 text -f "$enc"
  done
  # After the text, a surrogate (UCS-2LE's D800, UCS-4's), or a value
  # beyond U+10FFFF: the error is on the line after the text's.
  local line size
  line=$(( $(wc -l <text.u8) + 1 ))
  for enc in UCS-2LE UCS-4 UTF-32LE UTF-32BE; do
    iconv -f UTF-8 -t "$enc" text.u8 >text
    size=$(stat -c %s text)
    case $enc in
      UCS-2LE) printf '\000\330' ;;
      UCS-4) printf '\000\000\330\000' ;;
      UTF-32LE) printf '\000\000\021\000' ;;
      UTF-32BE) printf '\000\021\000\000' ;;
    esac | cat text - >bad
    for bs in $sizes; do
      run -1 --separate-stderr "$UTF8CONV" -f "$enc" --block-size="$bs" -o out bad
      case $enc in
        UCS-2LE|UCS-4) assert_equal "$stderr" "utf8conv: bad:$line: byte $size: invalid $enc: 00 (invalid byte)" ;;
        UTF-32LE) assert_equal "$stderr" "utf8conv: bad:$line: byte $size: invalid $enc: 00 00 11 00 (beyond U+10FFFF)" ;;
        UTF-32BE) assert_equal "$stderr" "utf8conv: bad:$line: byte $size: invalid $enc: 00 11 00 00 (beyond U+10FFFF)" ;;
      esac
      cmp out text.u8 || fail "$enc, block size $bs: the text before the error"
    done
  done
}

@test "UTF-8 to CP1252, KOI8-R and CP874: characters of three bytes through a table, as iconv(1) at every block size; an error's line after them; an overlong form and a surrogate are errors" {
  require_charset KOI8-R CP874
  local enc sizes
  sizes=$(block_sizes)
  # Quotation marks and dashes of CP1252, box drawing of KOI8-R, Thai of
  # CP874, between ASCII and letters of two bytes.
  prose 9 300 12 “quoted” it’s €5 a—b wait… café the dog >text.CP1252
  prose 9 300 12 ─│┌ ╔═╗ дом ≤ the x >text.KOI8-R
  prose 9 300 12 สวัสดี ไทย € … the 1 >text.CP874
  for enc in CP1252 KOI8-R CP874; do
    iconv -f UTF-8 -t "$enc" "text.$enc" >want
    converts_as want "text.$enc" -t "$enc"
  done
  # U+20AD is none of CP1252's: the error is on the line after the
  # text's.  E0 80 AF (an overlong '/') and ED A0 80 (a surrogate) are
  # three errors each, not characters of the table.
  local line size
  line=$(( $(wc -l <text.CP1252) + 1 ))
  size=$(stat -c %s text.CP1252)
  { cat text.CP1252; printf 'x\342\202\255y\n'; } >bad
  stops_with "utf8conv: bad:$line: byte $(( size + 1 )): cannot encode U+20AD in CP1252: E2 82 AD (unencodable character)" -t CP1252
  { cat text.CP1252; printf 'x\340\200\257y\n'; } >bad
  { iconv -f UTF-8 -t CP1252 text.CP1252; printf 'x???y\n'; } >want
  replaced_once "utf8conv: bad:$line: byte $(( size + 1 )): invalid UTF-8: E0 (overlong encoding); 3 errors replaced in this file" -t CP1252
  { cat text.CP1252; printf 'x\355\240\200y\n'; } >bad
  replaced_once "utf8conv: bad:$line: byte $(( size + 1 )): invalid UTF-8: ED (surrogate); 3 errors replaced in this file" -t CP1252
}

# prose SEED LINES WORDS WORD...: LINES sentences of up to WORDS of the
# WORDs each, drawn with the random seed SEED.
prose() {
  python3 -c 'import random, sys
r = random.Random(int(sys.argv[1]))
words = sys.argv[4:]
for i in range(int(sys.argv[2])):
    sys.stdout.write(" ".join(r.choice(words) for _ in range(r.randrange(1, int(sys.argv[3])))) + ".\n")' "$@"
}

# utf7_prose SEED LINES WORDS [WORD]...: prose with words that need
# base64 now and then (accents, CJK, and in UTF-7 the optional direct
# characters, which glibc writes in base64), and the WORDs too.
utf7_prose() {
  prose "$1" "$2" "$3" the lazy dog café naïve 日本語 Straße a-b x+y 'P&L' \
    '(it)' wait: 'yes?' 50% '<tag>' '~home' "${@:4}"
}

# converts_as WANT FILE OPTION...: at each block size of $sizes,
# utf8conv OPTION... converts FILE to exactly WANT.
converts_as() {
  local bs want=$1 file=$2
  shift 2
  for bs in $sizes; do
    "$UTF8CONV" "$@" --block-size="$bs" -o out "$file"
    cmp out "$want" || fail "$*, block size $bs"
  done
}

# stops_with DIAG OPTION...: at each block size of $sizes, utf8conv
# OPTION... stops on `bad' (status 1) with the diagnostic DIAG.
stops_with() {
  local bs diag=$1
  shift
  for bs in $sizes; do
    run -1 --separate-stderr "$UTF8CONV" "$@" --block-size="$bs" -o out bad
    assert_equal "$stderr" "$diag"
  done
}

# The block sizes of the tests of a fast path: fewer under valgrind.
block_sizes() {
  if [ -z "${UTF8CONV_VALGRIND-}" ]; then
    echo 65536 1 2 3 5 7 100 4096
  else
    echo 65536 1 3
  fi
}

# replaced_once DIAG OPTION...: at each block size of $sizes, utf8conv
# OPTION... -e replace converts `bad' to `want', with the diagnostic
# DIAG.
replaced_once() {
  local bs diag=$1
  shift
  for bs in $sizes; do
    run -0 --separate-stderr "$UTF8CONV" "$@" --block-size="$bs" -e replace -o out bad
    assert_equal "$stderr" "$diag"
    cmp out want || fail "block size $bs: replace"
  done
}

# The block sizes of the UTF-7 tests: at 4200 and 4500, blocks of their
# texts end inside base64 after an error.
utf7_sizes() {
  if [ -z "${UTF8CONV_VALGRIND-}" ]; then
    echo 65536 1 2 3 5 17 100 4096 4200 4500 8192
  else
    echo 65536 4200 1
  fi
}

@test "UTF-7 and UTF-7-IMAP: the text between base64 is read without iconv(3), as iconv(1) reads it, at every block size, and not after an error inside base64" {
  require_charset UTF-7 UTF-7-IMAP
  local bs enc sizes
  sizes=$(utf7_sizes)
  # Below 4096 bytes at once (the block size) the text is all iconv(3)'s.
  utf7_prose 7 400 12 >text.u8
  for enc in UTF-7 UTF-7-IMAP; do
    iconv -f UTF-8 -t "$enc" text.u8 >text
    converts_as text.u8 text -f "$enc"
  done
  # After the error the decoder is in base64 (U+65E5 U+672C three times),
  # which the state machine goes on in a byte a call: the letters after
  # are base64 until the '-'.
  iconv -f UTF-8 -t UTF-7 text.u8 >text
  # The text after it takes the state machine to the end of a block,
  # and the next one starts where it left the decoder (in base64, at
  # block sizes 4200 and 4500).
  { cat text; printf 'abc\200+ZeVnLGXlZyxl5Wcs-and then some plain text\n'; cat text; } >bad
  { cat text.u8; printf 'abc\357\277\275\346\227\245\346\234\254\346\227\245\346\234\254\346\227\245\346\234\254and then some plain text\n'; cat text.u8; } >want
  replaced_once "utf8conv: bad:$(( $(wc -l <text.u8) + 1 )): byte $(( $(stat -c %s text) + 3 )): invalid UTF-7: 80 (invalid byte); 1 error replaced in this file" -f UTF-7
}

@test "UTF-8 to UTF-7 and UTF-7-IMAP: the text between base64 is written without iconv(3), as iconv(1) writes it, at every block size, and not after an error inside base64" {
  require_charset UTF-7 UTF-7-IMAP
  local bs enc sizes
  sizes=$(utf7_sizes)
  # Below 4096 bytes at once (the block size) every character goes to
  # iconv(3).
  utf7_prose 11 500 14 and then some plain words to read >text.u8
  for enc in UTF-7 UTF-7-IMAP; do
    iconv -f UTF-8 -t "$enc" text.u8 >want
    converts_as want text.u8 -t "$enc"
  done
  # An ill-formed byte between characters in base64: the state machine
  # writes U+FFFD in base64, and the encoder is still in it after.
  { cat text.u8; printf '\346\227\245\346\234\254\200\350\252\236and then some plain words to read\n'; cat text.u8; } >bad
  { cat text.u8; printf '\346\227\245\346\234\254\357\277\275\350\252\236and then some plain words to read\n'; cat text.u8; } | iconv -f UTF-8 -t UTF-7 >want
  replaced_once "utf8conv: bad:$(( $(wc -l <text.u8) + 1 )): byte $(( $(stat -c %s text.u8) + 6 )): invalid UTF-8: 80 (unexpected continuation byte); 1 error replaced in this file" -t UTF-7
}

@test "UTF-8 to UTF-7 and UTF-7-IMAP on text that is mostly base64 (every character to iconv(3), runs decoded by the kernels): as iconv(1) writes it at every block size; an ill-formed byte halfway at its line and byte, replaced and strict" {
  require_charset UTF-7 UTF-7-IMAP
  local bs enc sizes line byte
  sizes=$(utf7_sizes)
  # Glibc writes the optional direct characters in base64: no stretch of
  # 16 characters that are their bytes, so the runs take everything.
  prose 5 700 9 '50%' '<tag>' '~home' 'P&L' '[x]' '{y}' '#z' '@w' 'café' \
    '日本語' '"q"' 'a;b' '€' '𝄞' >text.u8
  for enc in UTF-7 UTF-7-IMAP; do
    iconv -f UTF-8 -t "$enc" text.u8 >want
    converts_as want text.u8 -t "$enc"
  done
  line=$(( $(wc -l <text.u8) + 1 ))
  byte=$(( $(stat -c %s text.u8) + 5 ))
  { cat text.u8; printf '<50%%>\200{1}\n'; cat text.u8; } >bad
  { cat text.u8; printf '<50%%>\357\277\275{1}\n'; cat text.u8; } | iconv -f UTF-8 -t UTF-7 >want
  replaced_once "utf8conv: bad:$line: byte $byte: invalid UTF-8: 80 (unexpected continuation byte); 1 error replaced in this file" -t UTF-7
  { cat text.u8; printf '<50%%>'; } | iconv -f UTF-8 -t UTF-7 >want
  for bs in $sizes; do
    run -1 --separate-stderr "$UTF8CONV" -t UTF-7 --block-size="$bs" -o out bad
    assert_equal "$stderr" "utf8conv: bad:$line: byte $byte: invalid UTF-8: 80 (unexpected continuation byte)"
    cmp out want || fail "block size $bs: strict"
  done
}

@test "UTF-8 to ISO-2022-CN, whose encoder no memo follows (runs of values a call, decoded by the kernels): as iconv(1) writes it at every block size; a character it cannot encode halfway at its line and byte, replaced and strict" {
  require_charset ISO-2022-CN
  local bs sizes line byte
  sizes=$(block_sizes)
  # GB 2312 after ESC $ ) A and SO, CNS 11643 plane 1 after ESC $ ) G
  # and plane 2 after ESC $ * H and ESC N; ASCII after SI.
  prose 3 900 9 中文 資料 臺灣 電腦 數據 的 是 the data ok '(1)' 乾 >text.u8
  iconv -f UTF-8 -t ISO-2022-CN text.u8 >want
  converts_as want text.u8 -t ISO-2022-CN
  line=$(( $(wc -l <text.u8) + 1 ))
  byte=$(( $(stat -c %s text.u8) + 6 ))
  { cat text.u8; printf '\344\270\255\346\226\207\342\202\254\346\226\207 ok\n'; cat text.u8; } >bad
  { cat text.u8; printf '\344\270\255\346\226\207?\346\226\207 ok\n'; cat text.u8; } | iconv -f UTF-8 -t ISO-2022-CN >want
  replaced_once "utf8conv: bad:$line: byte $byte: cannot encode U+20AC in ISO-2022-CN: E2 82 AC (unencodable character); 1 error replaced in this file" -t ISO-2022-CN
  for bs in $sizes; do
    run -1 --separate-stderr "$UTF8CONV" -t ISO-2022-CN --block-size="$bs" -o out bad
    assert_equal "$stderr" "utf8conv: bad:$line: byte $byte: cannot encode U+20AC in ISO-2022-CN: E2 82 AC (unencodable character)"
    { cat text.u8; printf '\344\270\255\346\226\207'; } | iconv -f UTF-8 -t ISO-2022-CN >want
    cmp out want || fail "block size $bs: strict"
  done
}

@test "UTF-7 to UTF-8 takes runs of iconv(3) calls: text, and glibc's lone surrogate after it, as a byte at a time gives them, at every block size" {
  require_charset UTF-7
  local bs size sizes='65536 1 7'
  [ -z "${UTF8CONV_VALGRIND-}" ] && sizes='65536 1 2 3 7 100 4096'
  memo_text ja UTF-7
  size=$(stat -c %s text)
  # `+xxf' is U+C717; glibc rejects the lone surrogate that `fx...'
  # makes: given a byte at a time, it blames each byte after the `f'
  # (tests/README, "Decided findings").
  { cat text; printf '+xxffxxxxxxxx-ab\n'; } >bad
  { cat text.u8; printf '\354\234\227'; for i in $(seq 11); do printf '\357\277\275'; done; } >want
  for bs in $sizes; do
    "$UTF8CONV" -f UTF-7 --block-size="$bs" -o out text
    cmp out text.u8 || fail "block size $bs"
    run -0 --separate-stderr "$UTF8CONV" -f UTF-7 --block-size="$bs" -e replace -o out bad
    assert_equal "$stderr" "utf8conv: bad:$(( $(wc -l <text.u8) + 1 )): byte $((size + 6)): invalid UTF-7: 78 (invalid byte); 11 errors replaced in this file"
    cmp out want || fail "block size $bs: replace"
  done
}
