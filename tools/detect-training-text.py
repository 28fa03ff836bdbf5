#!/usr/bin/env python3
"""tools/detect-training-text.py: write UTF-8 training text for the code-page
detector (issue 13), one file per language, from sources the detection
benchmark (bench/detect) never reads:

  - the gettext catalogues of every package NOT in bench/catalog.py's
    BENCH_DOMAINS, less every string that also occurs in the benchmark's
    text of the same language (gnulib's messages, for example, are
    translated once and shipped by many packages);
  - the translated manual pages under /usr/share/man/LANG/ (Debian
    packages manpages-LANG; another genre), with the roff markup removed.

Usage: tools/detect-training-text.py OUTDIR [--langs cs,ru,...]
       [--max-bytes N]

Writes OUTDIR/LANG.txt (UTF-8, one string or text line a line) and
OUTDIR/SOURCES (what each file was made from).  The output is not
committed.  The same installed packages give the same bytes."""

import argparse
import glob
import gzip
import os
import re
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'bench'))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import catalog  # noqa: E402

MAN_DIR = '/usr/share/man'

# roff macros whose arguments are running text.
TEXT_MACROS = {'SH', 'SS', 'B', 'I', 'BR', 'BI', 'IB', 'IR', 'RB', 'RI', 'SM',
               'SB', 'IP', 'TP', 'UR', 'MT', 'Nm', 'Nd', 'Sh', 'Ss'}
ESCAPES = re.compile(r'\\(?:f(?:\[[^]]*\]|\(..|.)|s[-+]?\d+|\(..|\*(?:\(..|\[[^]]*\]|.)'
                     r'|\[[^]]*\]|[-&e|^:%/,!c]|.)')


def roff_text(src):
    """The running text of a manual page's roff source."""
    out = []
    for line in src.splitlines():
        if line.startswith(('.\\"', '\'\\"', '\\"')):
            continue
        if line.startswith(('.', "'")):
            parts = line[1:].split(None, 1)
            if not parts or parts[0] not in TEXT_MACROS or len(parts) < 2:
                continue
            line = parts[1].replace('"', '')
        line = ESCAPES.sub(lambda m: '-' if m.group(0) == '\\-' else
                           ('\\' if m.group(0) == '\\e' else ''), line)
        line = line.strip()
        if line:
            out.append(line)
    return out


def man_pages(lang):
    """The paths of the manual pages in lang's directories, sorted."""
    dirs, _ = catalog.LANGS[lang]
    paths = []
    for d in dirs:
        paths += glob.glob(os.path.join(MAN_DIR, d, 'man*', '*'))
    return sorted(p for p in paths if os.path.isfile(p) and not os.path.islink(p))


def read_man(path):
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rb') as f:
            data = f.read()
        return data.decode('utf-8')
    except (OSError, UnicodeDecodeError, EOFError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('outdir')
    ap.add_argument('--langs', default=None,
                    help='comma-separated languages (default all: %s)'
                    % ','.join(catalog.LANGS))
    ap.add_argument('--max-bytes', type=int, default=8 << 20,
                    help='at most this much text per language, catalogues '
                         'first (default 8 MiB)')
    a = ap.parse_args()
    langs = a.langs.split(',') if a.langs else list(catalog.LANGS)
    for lang in langs:
        if lang not in catalog.LANGS:
            print('detect-training-text: unknown language %r' % lang, file=sys.stderr)
            return 2
    os.makedirs(a.outdir, exist_ok=True)
    sources = []
    for lang in langs:
        bench = set(catalog.bench_strings(lang))
        bench_lines = {s.strip() for s in bench}
        seen, out, size = set(), [], 0
        used, dropped = [], 0
        cats = catalog.catalogues(lang)
        for dom in sorted(cats):
            if dom in catalog.BENCH_DOMAINS:
                continue
            strs = catalog.strings(cats[dom])
            if catalog.visual_order(strs):
                continue
            n0 = len(out)
            for s in strs:
                if s in bench or s.strip() in bench_lines:
                    dropped += 1
                    continue
                if s in seen:
                    continue
                b = len(s.encode('utf-8')) + 1
                if size + b > a.max_bytes:
                    break
                seen.add(s)
                out.append(s)
                size += b
            if len(out) > n0:
                used.append('%s (%d)' % (dom, len(out) - n0))
        cat_bytes = size
        npages = 0
        for p in man_pages(lang):
            if size >= a.max_bytes:
                break
            src = read_man(p)
            if src is None:
                continue
            lines = [x for x in roff_text(src) if x.strip() not in bench_lines]
            b = sum(len(x.encode('utf-8')) + 1 for x in lines)
            if not lines or size + b > a.max_bytes:
                continue
            out.extend(lines)
            size += b
            npages += 1
        with open(os.path.join(a.outdir, lang + '.txt'), 'w', encoding='utf-8') as f:
            for s in out:
                f.write(s + '\n')
        sources.append('%s: %d bytes; catalogues %d bytes from %s; %d strings '
                       'left out because the benchmark has them; manual pages '
                       '%d bytes from %d pages under %s'
                       % (lang, size, cat_bytes, ', '.join(used) or 'none', dropped,
                          size - cat_bytes, npages,
                          ', '.join(os.path.join(MAN_DIR, d) for d in catalog.LANGS[lang][0])))
        print(sources[-1].split(';')[0], file=sys.stderr)
    with open(os.path.join(a.outdir, 'SOURCES'), 'w', encoding='utf-8') as f:
        f.write('Training text written by tools/detect-training-text.py.\n'
                'Benchmark domains (never used here): %s\n\n'
                % ' '.join(catalog.BENCH_DOMAINS))
        f.write('\n'.join(sources) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
