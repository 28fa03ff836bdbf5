#!/usr/bin/env python3
"""Golden files for utf8conv's UTF-8 variants, made by real peers.

    WTF-8   Python's codecs: UTF-16 decoded with 'surrogatepass' (which
            joins surrogate pairs and keeps lone units), encoded to UTF-8
            with 'surrogatepass' (a 3-byte form per lone surrogate).  A
            string decoded from UTF-16 never holds a high surrogate
            directly followed by a low one, so that is exactly WTF-8.
    MUTF-8  Java's DataOutputStream.writeUTF and DataInputStream.readUTF
            (ModifiedUtf8.java here, run with `java ModifiedUtf8.java').
    CESU-8  ICU's converter: `uconv -f UTF-8 -t CESU-8' and back
            (Debian package icu-devtools); for ill-formed CESU-8 under
            `replace', `uconv --to-callback substitute' (only inputs on
            which ICU goes to the end: it stops at some errors).

Where no peer follows the SPEC's policies (U+FFFD for a character that
cannot be encoded, the output before a strict stop), the expected bytes
are derived here from the peers' output and the SPEC's rule, as the
comments say.

Run from anywhere: `python3 tests/golden/variants/gen.py'.  It rewrites
files/ and manifest.tsv in this directory; commit the result.  The
manifest has the columns of tests/golden/manifest.tsv, with paths
relative to this directory; tests/cli/variants.bats runs every row.
"""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")

# Texts of Unicode scalar values only: every variant can carry them.
SCALAR_CASES = [
    ("empty", ""),
    ("ascii", "hello, world\n"),
    ("nul", "A\x00B\x00\n"),
    ("bmp", "caf\u00e9 \u20ac \u4e2d \x7f\x80\u07ff\u0800\ud7ff\ue000"
            "\ufffd\uffff\n"),
    ("supplementary", "\U0001F600 \U00010437 \U00010000\U0010FFFF\n"),
    # Long enough that variants.bats, which runs every row with small
    # block sizes too, cuts sequences between reads at every offset.
    ("long", "a\U0001F600\u00e9\u20ac\x00\n" * 1500),
]

# Texts holding lone surrogates, written in UTF-16 code units: only
# WTF-8 and MUTF-8 carry them.
LONE_CASES = [
    ("lone_high", "\ud800"),
    ("lone_low", "a\udc00b"),
    ("high_high_low", "\udbff\udbff\udfff"),
    ("low_high", "\udfff\ud800z"),
    ("escape_range", "x\udc80\udcff\n"),
    ("high_at_end", "abc\ud83d"),
    ("high_then_pair", "\ud83d\ud83d\ude00!"),
    ("long_lone", "x\ud800\U0001F600\udc00\udbff\u00e9\n" * 1500),
]

rows = []
written = {}


def put(name, data):
    """Write files/NAME (once) and return its path for the manifest."""
    if name in written:
        assert written[name] == data, name
    else:
        written[name] = data
        with open(os.path.join(FILES, name), "wb") as f:
            f.write(data)
    return "files/" + name


def row(case, inp, frm, to, policy, expected, status=0, flags="-"):
    rows.append("\t".join([case, inp, frm, to, policy, flags, expected,
                           str(status)]))


def run(cmd, data):
    r = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True)
    return r.stdout


JAVA_CLASSES = None


def java(mode, data):
    """Java's ModifiedUtf8 on DATA.  It is compiled once with javac when
    there is one (each run of the source launcher compiles it again,
    which made this script take about a minute)."""
    global JAVA_CLASSES
    source = os.path.join(HERE, "ModifiedUtf8.java")
    if JAVA_CLASSES is None:
        JAVA_CLASSES = ""
        if shutil.which("javac"):
            JAVA_CLASSES = tempfile.mkdtemp(prefix="mutf8-")
            atexit.register(shutil.rmtree, JAVA_CLASSES, True)
            subprocess.run(["javac", "-d", JAVA_CLASSES, source], check=True)
    if JAVA_CLASSES:
        return run(["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                    "-cp", JAVA_CLASSES, "ModifiedUtf8", mode], data)
    return run(["java", source, mode], data)


def uconv(frm, to, data):
    return run(["uconv", "-f", frm, "-t", to], data)


def canonical(units_text):
    """The string UTF-16 gives for these code units: valid pairs joined,
    lone surrogates kept."""
    u16 = units_text.encode("utf-16-le", "surrogatepass")
    s = u16.decode("utf-16-le", "surrogatepass")
    for a, b in zip(s, s[1:]):
        assert not ("\ud800" <= a <= "\udbff" and "\udc00" <= b <= "\udfff")
    return s


def is_surrogate(ch):
    return "\ud800" <= ch <= "\udfff"


def replaced(s):
    """SPEC §4: `replace' writes U+FFFD for what a Unicode output cannot
    hold (Python's 'replace' would write '?')."""
    return "".join("\ufffd" if is_surrogate(ch) else ch for ch in s)


def before_first_surrogate(s):
    """SPEC §4: under `strict' the output holds the conversion of
    everything before the error."""
    for i, ch in enumerate(s):
        if is_surrogate(ch):
            return s[:i]
    return s


def wtf8_rows(case, s, lone):
    u16le = put(case + ".u16le", s.encode("utf-16-le", "surrogatepass"))
    u16be = put(case + ".u16be", s.encode("utf-16-be", "surrogatepass"))
    wtf8 = put(case + ".wtf8", s.encode("utf-8", "surrogatepass"))
    # SPEC §3: lossless under every policy, both ways.
    for policy in ("strict", "replace"):
        row(case + ".u16le-wtf8." + policy, u16le, "UTF-16LE", "WTF-8",
            policy, wtf8)
    row(case + ".u16be-wtf8.strict", u16be, "UTF-16BE", "WTF-8", "strict",
        wtf8)
    row(case + ".wtf8-u16le.strict", wtf8, "WTF-8", "UTF-16LE", "strict",
        u16le)
    row(case + ".wtf8-u16be.strict", wtf8, "WTF-8", "UTF-16BE", "strict",
        u16be)
    row(case + ".wtf8-wtf8.strict", wtf8, "WTF-8", "WTF-8", "strict", wtf8)
    if lone:
        # A data lone surrogate going to UTF-8 is an encoding error.
        rep = put(case + ".wtf8-utf8.replace",
                  replaced(s).encode("utf-8"))
        row(case + ".wtf8-utf8.replace", wtf8, "WTF-8", "UTF-8", "replace",
            rep)
        cut = put(case + ".wtf8-utf8.strict",
                  before_first_surrogate(s).encode("utf-8"))
        row(case + ".wtf8-utf8.strict", wtf8, "WTF-8", "UTF-8", "strict",
            cut, 1)
    else:
        utf8 = put(case + ".utf8", s.encode("utf-8"))
        row(case + ".wtf8-utf8.strict", wtf8, "WTF-8", "UTF-8", "strict",
            utf8)
        row(case + ".utf8-wtf8.strict", utf8, "UTF-8", "WTF-8", "strict",
            wtf8)


def mutf8_rows(case, s, lone):
    raw16 = s.encode("utf-16-be", "surrogatepass")
    u16be = put(case + ".u16be", raw16)
    m = java("encode", raw16)
    assert java("decode", m) == raw16, case
    mutf8 = put(case + ".mutf8", m)
    for policy in ("strict", "replace"):
        row(case + ".u16be-mutf8." + policy, u16be, "UTF-16BE", "MUTF-8",
            policy, mutf8)
    row(case + ".mutf8-u16be.strict", mutf8, "MUTF-8", "UTF-16BE", "strict",
        u16be)
    row(case + ".mutf8-mutf8.strict", mutf8, "MUTF-8", "MUTF-8", "strict",
        mutf8)
    if lone:
        rep = put(case + ".mutf8-utf8.replace",
                  replaced(s).encode("utf-8"))
        row(case + ".mutf8-utf8.replace", mutf8, "MUTF-8", "UTF-8",
            "replace", rep)
    else:
        utf8 = put(case + ".utf8", s.encode("utf-8"))
        row(case + ".mutf8-utf8.strict", mutf8, "MUTF-8", "UTF-8", "strict",
            utf8)
        row(case + ".utf8-mutf8.strict", utf8, "UTF-8", "MUTF-8", "strict",
            mutf8)


def mutf8_raw_nul_rows():
    """A raw 00 byte is accepted on input (as readUTF accepts it) but
    written as C0 80."""
    raw = b"A\x00B\x00\xc0\x80\n"
    u16 = java("decode", raw)
    inp = put("raw_nul.mutf8-in", raw)
    row("raw_nul.mutf8-u16be.strict", inp, "MUTF-8", "UTF-16BE", "strict",
        put("raw_nul.u16be", u16))
    row("raw_nul.mutf8-mutf8.strict", inp, "MUTF-8", "MUTF-8", "strict",
        put("raw_nul.mutf8", java("encode", u16)))


def cesu8_rows(case, s):
    utf8 = put(case + ".utf8", s.encode("utf-8"))
    c = uconv("UTF-8", "CESU-8", s.encode("utf-8"))
    assert uconv("CESU-8", "UTF-8", c) == s.encode("utf-8"), case
    cesu8 = put(case + ".cesu8", c)
    u16le = put(case + ".u16le", s.encode("utf-16-le"))
    row(case + ".utf8-cesu8.strict", utf8, "UTF-8", "CESU-8", "strict",
        cesu8)
    row(case + ".cesu8-utf8.strict", cesu8, "CESU-8", "UTF-8", "strict",
        utf8)
    row(case + ".cesu8-u16le.strict", cesu8, "CESU-8", "UTF-16LE", "strict",
        u16le)
    row(case + ".u16le-cesu8.strict", u16le, "UTF-16LE", "CESU-8", "strict",
        cesu8)
    row(case + ".cesu8-cesu8.strict", cesu8, "CESU-8", "CESU-8", "strict",
        cesu8)


def cesu8_lone_rows(case, s):
    """Lone surrogates in UTF-16 input are decoding errors for a CESU-8
    output: U+FFFD under `replace', then ICU's CESU-8 of the result."""
    u16le = put(case + ".u16le", s.encode("utf-16-le", "surrogatepass"))
    c = uconv("UTF-8", "CESU-8", replaced(s).encode("utf-8"))
    row(case + ".u16le-cesu8.replace", u16le, "UTF-16LE", "CESU-8",
        "replace", put(case + ".u16le-cesu8.replace", c))


# Ill-formed CESU-8: a high surrogate without its low one is one U+FFFD,
# and whatever follows is read again, as ICU does.
CESU8_ILLFORMED_CASES = [
    ("high_then_d7ff", b"x\xed\xa0\x80\xed\x9f\xbfy"),
    ("high_high_low", b"x\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80y"),
    ("high_then_ascii", b"x\xed\xa0\x80y"),
    ("high_then_3byte", b"x\xed\xa0\x80\xe1\x80\x80y"),
    ("lone_low", b"x\xed\xb0\x80y"),
]


def cesu8_illformed_rows():
    for case, data in CESU8_ILLFORMED_CASES:
        inp = put("cesu8_bad_" + case + ".cesu8", data)
        r = subprocess.run(["uconv", "-f", "CESU-8", "-t", "UTF-8",
                            "--to-callback", "substitute"], input=data,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert r.returncode == 0, case
        if case == "lone_low":
            # ICU takes ED B0 80 as one error; utf8conv, following the
            # maximal subparts of Unicode 3.9 (ED cannot start a
            # well-formed CESU-8 sequence with B0), as three.
            assert r.stdout == b"x\xef\xbf\xbdy", r.stdout
            expected = b"x" + b"\xef\xbf\xbd" * 3 + b"y"
        else:
            expected = r.stdout
        row("cesu8_bad_" + case + ".cesu8-utf8.replace", inp, "CESU-8",
            "UTF-8", "replace", put("cesu8_bad_" + case + ".utf8", expected))


def main():
    for tool in ("java", "uconv"):
        if not shutil.which(tool):
            sys.exit("gen.py: %s is needed (apt-get install %s)"
                     % (tool, "openjdk-17-jdk-headless" if tool == "java"
                        else "icu-devtools"))
    if os.path.isdir(FILES):
        shutil.rmtree(FILES)
    os.makedirs(FILES)
    for case, text in SCALAR_CASES:
        s = canonical(text)
        wtf8_rows(case, s, False)
        mutf8_rows(case, s, False)
        cesu8_rows(case, s)
    for case, text in LONE_CASES:
        s = canonical(text)
        wtf8_rows(case, s, True)
        mutf8_rows(case, s, True)
        cesu8_lone_rows(case, s)
    mutf8_raw_nul_rows()
    cesu8_illformed_rows()
    with open(os.path.join(HERE, "manifest.tsv"), "w") as f:
        f.write("# generated by gen.py; do not edit\n")
        f.write("# case\tinput\tfrom\tto\tpolicy\tflags\texpected\tstatus\n")
        for r in rows:
            f.write(r + "\n")
    print("%d rows, %d files" % (len(rows), len(written)))


if __name__ == "__main__":
    main()
