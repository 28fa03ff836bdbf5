#!/usr/bin/env python3
"""tools/detect-test-samples.py: write the short real-language samples of
tests/detect/samples/ (issue 13) and their README, from the installed
gettext catalogues of GPL-compatible packages.  The detector's tests encode
each sample in every code page its README names.

Usage: tools/detect-test-samples.py [OUTDIR]   (default tests/detect/samples)

Each sample is whole translated strings (20-200 characters, each with a
non-ASCII letter, each encodable in all of the language's code pages),
consecutive in the catalogue from a fixed pseudo-random start, joined with
newlines, until the sample reaches its size in UTF-8: about 300, 600 and
1000 bytes (LANG-1, -2 and -3).  LANG-4, for the languages of TELLING
only, holds every string of 20-200 characters with a letter that two of
the language's code pages encode differently (CP1253's and ISO-8859-7's
capital alpha with tonos, ISO-8859-15's oe ligature), then the strings
that follow the first of them, to about 300 bytes: without it the
samples read alike in both, and a test could not tell them apart by
name.  The same catalogues give the same files."""

import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, 'bench'))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import catalog  # noqa: E402

TARGETS = (300, 600, 1000)

# The catalogue each language's samples come from: coreutils where Debian
# has it in that language, else another GPL-3+ (diffutils), GPL-2+ (apt)
# or LGPL-2+ (GTK 3) package.  Hebrew: coreutils has none, and Debian's
# diffutils, grep, sed and wget catalogues hold it in visual order.
# Licence as in the package's debian/copyright ("Files: *", for GTK
# "Files: po/*"); the catalogues are "distributed under the same license
# as the package".
SOURCE = {'he': 'gtk30', 'lv': 'diffutils', 'ar': 'apt'}
LICENCE = {'coreutils': 'GPL-3+', 'diffutils': 'GPL-3+', 'apt': 'GPL-2+',
           'gtk30': 'LGPL-2+'}

# CP437 is a candidate of SPEC §13 too; it holds the same Western letters
# as CP850 for these languages' text.
EXTRA = {'de': ('cp437',), 'fr': ('cp437',), 'es': ('cp437',)}

NAME = {'cp1250': 'CP1250', 'iso8859_2': 'ISO-8859-2', 'cp1251': 'CP1251',
        'koi8_r': 'KOI8-R', 'iso8859_5': 'ISO-8859-5', 'koi8_u': 'KOI8-U',
        'cp1253': 'CP1253', 'iso8859_7': 'ISO-8859-7', 'cp1254': 'CP1254',
        'cp1255': 'CP1255', 'cp1256': 'CP1256', 'cp1257': 'CP1257',
        'cp1252': 'CP1252', 'iso8859_15': 'ISO-8859-15', 'cp437': 'CP437',
        'cp850': 'CP850', 'mac_roman': 'MACINTOSH', 'shift_jis': 'SHIFT_JIS',
        'euc_jp': 'EUC-JP', 'gb18030': 'GB18030', 'big5': 'BIG5',
        'euc_kr': 'EUC-KR'}


# LANG-4: letters on which the two code pages differ, and the two.
TELLING = {'el': ('\u0386\u0385\u2018\u2019', ('cp1253', 'iso8859_7')),
           'fr': ('\u20ac\u0160\u0161\u017d\u017e\u0152\u0153\u0178',
                  ('cp1252', 'iso8859_15'))}


def encodable(s, cps):
    try:
        for cp in cps:
            s.encode(cp)
        return True
    except UnicodeEncodeError:
        return False


def package_of(path):
    pkg = subprocess.run(['dpkg-query', '-S', path], capture_output=True,
                         text=True).stdout.split(':')[0]
    ver = subprocess.run(['dpkg-query', '-W', '-f=${Version}', pkg],
                         capture_output=True, text=True).stdout
    return pkg, ver


def telling_sample(lang, path):
    """The text of LANG-4 (see TELLING), from the catalogue PATH."""
    letters, cps = TELLING[lang]
    pool = [s for s in catalog.strings(path)
            if 20 <= len(s) <= 200 and any(ord(c) > 127 for c in s)
            and encodable(s, cps)]
    parts = [s for s in pool if any(c in s for c in letters)]
    n = sum(len(s.encode('utf-8')) + 1 for s in parts)
    j = pool.index(parts[0]) + 1
    while n < TARGETS[0]:
        s = pool[j % len(pool)]
        j += 1
        if s not in parts:
            parts.append(s)
            n += len(s.encode('utf-8')) + 1
    return ('\n'.join(parts) + '\n').encode('utf-8')


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, 'tests', 'detect',
                                                             'samples')
    os.makedirs(out, exist_ok=True)
    rows = []
    total = 0
    for lang, (_, cps) in catalog.LANGS.items():
        cps = cps + EXTRA.get(lang, ())
        dom = SOURCE.get(lang, 'coreutils')
        path = catalog.catalogues(lang)[dom]
        pool = [s for s in catalog.strings(path)
                if 20 <= len(s) <= 200 and any(ord(c) > 127 for c in s)
                and encodable(s, cps)]
        rng = random.Random('tests/detect/%s' % lang)
        used = set()
        for k, target in enumerate(TARGETS, 1):
            j = rng.randrange(len(pool))
            parts, n = [], 0
            while n < target:
                s = pool[j % len(pool)]
                j += 1
                if s in used:
                    continue
                used.add(s)
                parts.append(s)
                n += len(s.encode('utf-8')) + 1
            data = ('\n'.join(parts) + '\n').encode('utf-8')
            with open(os.path.join(out, '%s-%d.txt' % (lang, k)), 'wb') as f:
                f.write(data)
            total += len(data)
        pkg, ver = package_of(path)
        rows.append('| %s-{1,2,3}.txt | %s | %s | %s %s (%s) | %s |' % (
            lang, lang, ' '.join(NAME[c] for c in cps), pkg, ver,
            catalog.mo_version(path), LICENCE[dom]))
        if lang in TELLING:
            data = telling_sample(lang, path)
            with open(os.path.join(out, '%s-4.txt' % lang), 'wb') as f:
                f.write(data)
            total += len(data)
            rows.append('| %s-4.txt | %s | %s | %s %s (%s) | %s |' % (
                lang, lang, ' '.join(NAME[c] for c in TELLING[lang][1]),
                pkg, ver, catalog.mo_version(path), LICENCE[dom]))
    with open(os.path.join(out, 'README'), 'w', encoding='utf-8') as f:
        f.write(README % dict(rows='\n'.join(rows), total=total))
    print('%d bytes of samples in %s' % (total, out), file=sys.stderr)
    return 0


README = '''Test samples for code-page detection (issue 13)
================================================

Short real-language texts, stored as UTF-8.  The detector's tests encode
each one in every code page of its row and check what `--detect` and
`-f auto` make of the bytes.  No one on the team wrote them: they are
translated messages from Debian's gettext catalogues (.mo files under
/usr/share/locale/LANG/LC_MESSAGES/), whole strings joined with newlines,
of about 300, 600 and 1000 bytes (LANG-1, -2 and -3).

They were written by tools/detect-test-samples.py (run it again to
regenerate them; the same catalogues give the same bytes), on Debian 12,
and picked as the script says: strings of 20-200 characters with a
non-ASCII letter, each encodable in every code page of the row.

Licences: each catalogue is "distributed under the same license as the
package" (its .po header), and the package's debian/copyright gives the
licence of its files ("Files: *"; for GTK "Files: po/*").  GPL-3+,
GPL-2+ and LGPL-2+ text may be distributed with utf8conv
(GPL-3.0-or-later).  Translation copyright stays with the translators
named in each catalogue (the Free Translation Project's teams for
coreutils and diffutils, Debian's team for apt, GNOME's team for GTK).

| files | language | code pages | Debian package version (catalogue) | licence |
|---|---|---|---|---|
%(rows)s

CP437 rows: SPEC §13 lists CP437 among the candidates; the Western
samples hold only letters it has.

LANG-4 rows: the strings of the catalogue with a letter that the two
code pages encode differently (Greek: the capital alpha with tonos, A2
in CP1253 and B6 in ISO-8859-7; French: the oe ligature, BD in
ISO-8859-15 and 9C in CP1252), then the strings that follow the first of
them, to about 300 bytes.  The other samples read alike in both code
pages.

Total: %(total)d bytes.


The files LANG.txt (no number)
------------------------------

Each LANG.txt (without a number) holds a few translated messages, in UTF-8, taken unchanged
from the gettext catalogue (.mo file) of one Debian 12 package in that
language.  The tests encode a sample in each legacy code page of its
language and check what `utf8conv --detect` and `-f auto` make of it.

They are the same kind of text as the detection benchmark's (command-line
messages), but they are test data, not the benchmark; the detector's
model never saw them (tools/gen-detect-model.py trains on manual pages and
GUI catalogues only, and drops any string these packages' catalogues hold).

| file | package (text domain) | licence |
|---|---|---|
| ar.txt | apt (apt) | GPL-2.0-or-later |
| he.txt | sed (sed) | GPL-3.0-or-later |
| every other file | coreutils (coreutils) | GPL-3.0-or-later |

The translations are the work of the packages' translation teams
(the Translation Project and Debian's translators), under their
packages' licences, which are compatible with utf8conv's
GPL-3.0-or-later.
'''


if __name__ == '__main__':
    sys.exit(main())
