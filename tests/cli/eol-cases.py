#!/usr/bin/env python3
"""Write the cases of eol.bats's model test into DIR: random text with
line breaks of every kind, in several pairs of encodings, and what
--eol=MODE must make of it, computed here from Python's codecs.  One
line per case in DIR/cases: NAME FROM TO MODE, where MODE is an --eol
mode, with +cr for --eol-from=cr.  DIR/NAME.in holds the input and
DIR/NAME.want the expected output.  SMALL (any second
argument) makes fewer, shorter cases, for runs under valgrind.

The texts mix ASCII runs long enough for the vector kernels, non-ASCII
letters of 2, 3 and 4 bytes, and CR, LF and CR LF at every position, so
that with small block sizes a CR ends a read."""

import os
import random
import re
import sys

PY = {'UTF-8': 'utf-8', 'UTF-16LE': 'utf-16-le', 'UTF-16BE': 'utf-16-be',
      'UTF-16': 'utf-16',
      'UTF-32BE': 'utf-32-be', 'CP1252': 'cp1252', 'ISO-8859-1': 'latin-1'}
# Pairs that take each fast path (its output bytes or its input bytes
# seen by the line-ending stage) and pairs without one.
PAIRS = [('UTF-8', 'UTF-8'), ('UTF-8', 'UTF-16LE'), ('UTF-16LE', 'UTF-8'),
         ('UTF-16BE', 'UTF-8'), ('UTF-8', 'ISO-8859-1'), ('CP1252', 'UTF-8'),
         ('UTF-8', 'UTF-32BE'), ('UTF-16BE', 'UTF-16LE'),
         # Python writes a BOM, which is not carried into UTF-8.
         ('UTF-16', 'UTF-8')]
# What each mode replaces, and with what (SPEC §11): lf is dos2unix
# (CR LF to LF), crlf unix2dos (a lone LF to CR LF), cr turns CR LF and
# a lone LF into CR; a lone CR is data.  With --eol-from=cr (+cr) a
# lone CR is a break too.
RULES = {'lf': ('\r\n', '\n'), 'crlf': ('(?<!\r)\n', '\r\n'),
         'cr': ('\r\n|\n', '\r'), 'lf+cr': ('\r\n|\r|\n', '\n'),
         'crlf+cr': ('\r\n|\r|\n', '\r\n')}
LATIN = 'aé\u00fcZ '
WIDE = 'é€😀\u0800'


def text(rng, n, latin):
    pieces = []
    while sum(map(len, pieces)) < n:
        k = rng.random()
        if k < 0.25:
            pieces.append(rng.choice(['\r', '\n', '\r\n', '\r\r\n', '\n\r']))
        elif k < 0.5:
            pieces.append('x' * rng.choice([1, 15, 31, 32, 33, 63, 64, 65, 200]))
        else:
            alphabet = LATIN if latin else LATIN + WIDE
            pieces.append(''.join(rng.choice(alphabet)
                                  for _ in range(rng.randint(1, 20))))
    return ''.join(pieces)


def main():
    out = sys.argv[1]
    small = len(sys.argv) > 2
    rng = random.Random(20261125)
    cases = []
    for i, (src, dst) in enumerate(PAIRS):
        latin = PY[src] in ('cp1252', 'latin-1') or PY[dst] in ('cp1252', 'latin-1')
        for j, size in enumerate([40, 700] if small else [40, 700, 5000]):
            t = text(rng, size, latin)
            for k, mode in enumerate(['keep'] + list(RULES)):
                want = t if mode == 'keep' else re.sub(*RULES[mode], t)
                name = f'c{i}-{j}-{k}'
                with open(os.path.join(out, name + '.in'), 'wb') as f:
                    f.write(t.encode(PY[src]))
                with open(os.path.join(out, name + '.want'), 'wb') as f:
                    f.write(want.encode(PY[dst]))
                cases.append(f'{name} {src} {dst} {mode}')
    with open(os.path.join(out, 'cases'), 'w') as f:
        f.write('\n'.join(cases) + '\n')


main()
