#!/usr/bin/env python3
"""Generate the golden files of tests/cli/encodings.bats.

Run from anywhere:

    python3 tests/golden/encodings/gen.py [TESTDATA-DIR]

It rewrites, byte-identically on every run, the files beside it.  Each
expected result comes from an oracle independent of utf8conv:

  all-bytes.bin          the 256 bytes 00..FF
  cp1252-all.utf8        those bytes as CP1252, in UTF-8: Python's cp1252
                         codec plus WHATWG's five exceptions (81 8D 8F 90
                         9D are U+0081 U+008D U+008F U+0090 U+009D); when
                         WHATWG's index-windows-1252.txt is found (in
                         TESTDATA-DIR, $UTF8CONV_TESTDATA or
                         ../shared/testdata beside the source tree), the
                         script checks that both agree
  latin1-all.utf8        those bytes as ISO-8859-1 (Python's latin-1)
  ja.utf8, ja.sjis       a Japanese sample, and glibc's iconv(1)
                         conversion of it to SHIFT_JIS
  ja.sjis.utf8           glibc's iconv -f SHIFT_JIS of ja.sjis (not quite
                         ja.utf8: glibc reads 5C and 7E as JIS X 0201's
                         U+00A5 and U+203E, but writes ASCII's '~' as 7E)
  ru.utf8, ru.koi8r      a Russian sample, and glibc's iconv -t KOI8-R
  ru.koi8r.utf8          glibc's iconv -f KOI8-R of ru.koi8r
  translit.utf8          text with characters KOI8-R lacks
  translit.koi8r         glibc's iconv -t KOI8-R//TRANSLIT of it, run with
                         LC_ALL=C.UTF-8: utf8conv transliterates with the
                         C.UTF-8 locale's rules whatever the user's locale
  manifest.tsv           the cases: which file, converted how, must give
                         which file, in the format of tests/golden/ (see
                         run_manifest in tests/test_helper.bash)
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..', '..'))

WHATWG_EXCEPTIONS = {0x81: 0x81, 0x8D: 0x8D, 0x8F: 0x8F, 0x90: 0x90,
                     0x9D: 0x9D}

JA = ('日本語のテキスト、ｶﾀｶﾅ（半角）と全角ＡＢＣ。\n'
      '─━│ 〒〜・ ¥ ‾\n'
      'ASCII too: {[<tab>]}\t~\n')
RU = ('Съешь же ещё этих мягких французских булок, да выпей чаю.\n'
      'ЁЖИК ёжик - не ёлка. ░▒▓ ≤≥ ÷ ©\n')
TRANSLIT = 'Price: 5 € — «quoted» “text” ‘x’ … Привет ½ naïve Straße\n'


# The cases of manifest.tsv: name, input, from, to, expected output.
# Every one runs under strict and must exit 0 with nothing on stderr.
CASES = [
    ('cp1252-all', 'all-bytes.bin', 'CP1252', 'UTF-8', 'cp1252-all.utf8'),
    ('cp1252-all.windows-1252', 'all-bytes.bin', 'windows-1252', 'UTF-8',
     'cp1252-all.utf8'),
    ('latin1-all', 'all-bytes.bin', 'ISO-8859-1', 'UTF-8',
     'latin1-all.utf8'),
    ('latin1-all.to-latin1', 'latin1-all.utf8', 'UTF-8', 'latin1',
     'all-bytes.bin'),
    ('ja.from-SHIFT_JIS', 'ja.sjis', 'SHIFT_JIS', 'UTF-8', 'ja.sjis.utf8'),
    ('ja.from-shift_jis', 'ja.sjis', 'shift_jis', 'UTF-8', 'ja.sjis.utf8'),
    ('ja.to-SHIFT_JIS', 'ja.utf8', 'UTF-8', 'SHIFT_JIS', 'ja.sjis'),
    ('ru.to-KOI8-R', 'ru.utf8', 'UTF-8', 'KOI8-R', 'ru.koi8r'),
    ('ru.from-koi8-r', 'ru.koi8r', 'koi8-r', 'UTF-8', 'ru.koi8r.utf8'),
    ('translit.to-KOI8-R//TRANSLIT', 'translit.utf8', 'UTF-8',
     'KOI8-R//TRANSLIT', 'translit.koi8r'),
]


def write(name, data):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(data)


def iconv(data, to, frm='UTF-8', locale='C'):
    env = dict(os.environ, LC_ALL=locale)
    return subprocess.run(['iconv', '-f', frm, '-t', to], input=data,
                          stdout=subprocess.PIPE, check=True,
                          env=env).stdout


def cp1252_chars():
    chars = []
    for b in range(256):
        if b in WHATWG_EXCEPTIONS:
            chars.append(chr(WHATWG_EXCEPTIONS[b]))
        else:
            chars.append(bytes([b]).decode('cp1252'))
    return chars


def check_whatwg(chars):
    dirs = sys.argv[1:2] + [os.environ.get('UTF8CONV_TESTDATA', ''),
                            os.path.join(TOP, '..', 'shared', 'testdata')]
    for d in dirs:
        path = os.path.join(d, 'index-windows-1252.txt') if d else ''
        if path and os.path.exists(path):
            break
    else:
        print('gen.py: index-windows-1252.txt not found; Python only',
              file=sys.stderr)
        return
    seen = 0
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            pointer, code = line.split('\t')[:2]
            if chars[0x80 + int(pointer)] != chr(int(code, 16)):
                raise SystemExit('gen.py: byte %02X differs from %s'
                                 % (0x80 + int(pointer), path))
            seen += 1
    if seen != 128:
        raise SystemExit('gen.py: %s has %d entries' % (path, seen))


def main():
    all_bytes = bytes(range(256))
    chars = cp1252_chars()
    check_whatwg(chars)
    write('all-bytes.bin', all_bytes)
    write('cp1252-all.utf8', ''.join(chars).encode('utf-8'))
    write('latin1-all.utf8', all_bytes.decode('latin-1').encode('utf-8'))

    ja = JA.encode('utf-8')
    write('ja.utf8', ja)
    sjis = iconv(ja, 'SHIFT_JIS')
    write('ja.sjis', sjis)
    write('ja.sjis.utf8', iconv(sjis, 'UTF-8', 'SHIFT_JIS'))

    ru = RU.encode('utf-8')
    write('ru.utf8', ru)
    koi8r = iconv(ru, 'KOI8-R')
    write('ru.koi8r', koi8r)
    write('ru.koi8r.utf8', iconv(koi8r, 'UTF-8', 'KOI8-R'))

    tr = TRANSLIT.encode('utf-8')
    write('translit.utf8', tr)
    write('translit.koi8r', iconv(tr, 'KOI8-R//TRANSLIT', locale='C.UTF-8'))

    rows = ['# generated by gen.py; do not edit',
            '# case\tinput\tfrom\tto\tpolicy\tflags\texpected\tstatus']
    for name, src, frm, to, expected in CASES:
        rows.append('\t'.join([name, src, frm, to, 'strict', '-', expected,
                               '0']))
    write('manifest.tsv', ('\n'.join(rows) + '\n').encode('ascii'))


if __name__ == '__main__':
    main()
