#!/usr/bin/env python3
"""Extract the training text of -f auto's code-page detector to DIR.

Usage: tools/detect-training-text.py DIR

Writes DIR/LANG.txt (UTF-8, one line of text per line) for each language
of the model, from two sources that Debian ships, and nothing else:

1. The translated manual pages of Debian's manpages-LANG packages (only
   the files those packages own, as `dpkg -L` lists them): de, fr, es,
   cs, pl, hu, ru, uk, tr, el, ja, and zh (zh_CN and zh_TW).  The roff
   markup is stripped; what remains is running text.
2. The gettext catalogues (.mo files under /usr/share/locale) of these
   GUI and library packages only: Linux-PAM, PackageKit, at-spi2-core,
   gdk-pixbuf, shared-mime-info, xdg-user-dirs, software-properties
   and iso-codes (iso_639*, iso_3166*); for the languages added later
   (ro, sk, sl, hr, bg, sr, mk, be, fi, is, ga, sq, fa, vi, th, it, nl) also
   those of avahi, appstream, gsettings-desktop-schemas, gstreamer,
   polkit, xkeyboard-config, python-apt and iso-codes' iso_15924 and
   iso_4217.  They give the languages that have no translated manual
   pages (he, ar, lt, lv, et, ko and the later ones) their text,
   and the others some more, and the pooled model `west' of the
   Western languages that have no model of their own (Italian,
   Portuguese, Catalan, Dutch, Danish, Swedish, Norwegian Bokmål,
   Romanian) all of its text.  (Finnish, Icelandic, Irish, Galician and Albanian were
   left out of the pool: with them, which bring ð, þ, ý and ë, CP1252's
   reading of Czech and Lithuanian text came out cheaper, and
   bench/detect lost a Czech and a Lithuanian sample more.)

The detection benchmark (bench/ of the project) takes its text from the
catalogues of command-line and toolkit packages (coreutils, tar, grep,
sed, bash, findutils, diffutils, dpkg, apt, gettext, wget, gnupg2, libc,
util-linux, glib20, gtk20, gtk30): none of them is read here, and any
string that also occurs in those catalogues of the same language is
dropped, so that the model never sees the benchmark's text.

The output is not committed; tools/gen-detect-model.py reads it.
"""

import glob
import gzip
import os
import re
import struct
import subprocess
import sys

LOCALE_DIR = '/usr/share/locale'

# Language of the model -> (manpages package or None, locale directories
# of its manual pages, locale directory of its catalogues).
LANGS = {
    'de': ('manpages-de', ('de',), 'de'),
    'fr': ('manpages-fr', ('fr',), 'fr'),
    'es': ('manpages-es', ('es',), 'es'),
    'cs': ('manpages-cs', ('cs',), 'cs'),
    'pl': ('manpages-pl', ('pl',), 'pl'),
    'hu': ('manpages-hu', ('hu',), 'hu'),
    'ru': ('manpages-ru', ('ru',), 'ru'),
    'uk': ('manpages-uk', ('uk',), 'uk'),
    'tr': ('manpages-tr', ('tr',), 'tr'),
    'el': ('manpages-el', ('el',), 'el'),
    'he': (None, (), 'he'),
    'ar': (None, (), 'ar'),
    'lt': (None, (), 'lt'),
    'lv': (None, (), 'lv'),
    'et': (None, (), 'et'),
    'ja': ('manpages-ja', ('ja',), 'ja'),
    'zh_CN': ('manpages-zh', ('zh_CN',), 'zh_CN'),
    'zh_TW': ('manpages-zh', ('zh_TW',), 'zh_TW'),
    'ko': (None, (), 'ko'),
    # The languages of SPEC §13 added after the first twenty models:
    # catalogues only (Debian's manpages-l10n has none of them but
    # Finnish and Romanian, and those are left uninstalled so that every
    # new model comes from the same kind of text), with the more
    # GUI and library catalogues of EXTRA_DOMAINS.
    'ro': (None, (), 'ro'),
    'sk': (None, (), 'sk'),
    'sl': (None, (), 'sl'),
    'hr': (None, (), 'hr'),
    'bg': (None, (), 'bg'),
    'sr': (None, (), 'sr'),
    'mk': (None, (), 'mk'),
    'be': (None, (), 'be'),
    'fi': (None, (), 'fi'),
    'is': (None, (), 'is'),
    'ga': (None, (), 'ga'),
    'sq': (None, (), 'sq'),
    'fa': (None, (), 'fa'),
    'vi': (None, (), 'vi'),
    'th': (None, (), 'th'),
    # Italian also has a model of its own (and stays in `west'): pooled,
    # its one-letter words è and à cost so much that the Slovak model
    # read Italian text as CP1250 (è, à as č, ŕ) more cheaply.
    'it': (None, (), 'it'),
    # Dutch also has a model of its own (and stays in `west'): pooled,
    # its few letters above 7F (ë, ï, é and the curly quotes) weigh too
    # little, and a short Dutch text read as MACINTOSH or CP1257 cost
    # less than as CP1252.
    'nl': (None, (), 'nl'),
    # One model for the Western languages that have none of their own,
    # so that their text read in a Western code page is read as Latin
    # text (SPEC §13: Western text of a language the model does not
    # know stays Western): their catalogues, pooled.
    'west': (None, (), ('it', 'pt', 'pt_BR', 'ca', 'nl', 'da', 'sv', 'nb',
                        'ro')),
}

# The languages that also read EXTRA_DOMAINS: the new ones (the text of
# the first twenty, and so their models, stay as they were).
NEW_LANGS = ('ro', 'sk', 'sl', 'hr', 'bg', 'sr', 'mk', 'be', 'fi', 'is',
             'ga', 'sq', 'fa', 'vi', 'th', 'it', 'nl')

TRAIN_DOMAINS = re.compile(
    r'^(Linux-PAM|PackageKit|at-spi2-core|gdk-pixbuf|shared-mime-info|'
    r'xdg-user-dirs|software-properties|iso_639.*|iso_3166.*)\.mo$')

# More GUI and library catalogues, for the new languages, which have
# less text in TRAIN_DOMAINS.
EXTRA_DOMAINS = re.compile(
    r'^(avahi|appstream|gsettings-desktop-schemas|gstreamer-1\.0|polkit-1|'
    r'xkeyboard-config|python-apt|iso_15924|iso_4217)\.mo$')

BENCH_DOMAINS = (
    'coreutils', 'tar', 'grep', 'sed', 'bash', 'findutils', 'diffutils',
    'dpkg', 'apt', 'gettext-runtime', 'gettext-tools', 'wget', 'gnupg2',
    'libc', 'util-linux', 'glib20', 'gtk30', 'gtk20',
)


def read_mo(path):
    """The translated strings of a .mo file (plural forms split)."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 28:
        return []
    magic = struct.unpack('<I', data[:4])[0]
    end = {0x950412de: '<', 0xde120495: '>'}.get(magic)
    if end is None:
        return []
    n, orig, trans = struct.unpack(end + '3I', data[8:20])
    charset, out = 'utf-8', []
    for i in range(n):
        ol, oo = struct.unpack(end + '2I', data[orig + 8 * i:orig + 8 * i + 8])
        tl, to = struct.unpack(end + '2I',
                               data[trans + 8 * i:trans + 8 * i + 8])
        msgstr = data[to:to + tl]
        if ol == 0:
            m = re.search(rb'charset=([-\w.:]+)', msgstr)
            if m:
                charset = m.group(1).decode('ascii')
            continue
        out.append(msgstr)
    text = []
    for s in out:
        try:
            text.extend(s.decode(charset).split('\0'))
        except (UnicodeDecodeError, LookupError):
            pass
    return [t for t in text if t.strip()]


def locales(locale):
    """The locale directories of a model: one, or a tuple of them."""
    return locale if isinstance(locale, tuple) else (locale,)


def bench_strings(locale):
    seen = set()
    for loc in locales(locale):
        for dom in BENCH_DOMAINS:
            path = os.path.join(LOCALE_DIR, loc, 'LC_MESSAGES', dom + '.mo')
            if os.path.exists(path):
                seen.update(s.strip() for s in read_mo(path))
    return seen


ROFF_ESCAPES = re.compile(
    r'\\f(\[[^]]*\]|\(..|.)|\\s[-+]?\d+|\\\*(\[[^]]*\]|\(..|.)|'
    r'\\\(..|\\\[[^]]*\]|\\[&|^:/,%e~ 0-]|\\".*$')


def roff_text(raw):
    """Running text of a roff page: macro lines and escapes removed."""
    lines = []
    for line in raw.splitlines():
        if line.startswith(('.', "'")):
            # Keep the words of headings and of font macros.
            m = re.match(r"[.'](SH|SS|B|I|BR|IR|RB|RI|BI|IB|TP|IP)\s+(.*)",
                         line)
            if not m:
                continue
            line = m.group(2).replace('"', '')
        line = ROFF_ESCAPES.sub('', line)
        if line.strip():
            lines.append(line)
    return lines


def man_pages(package, dirs):
    out = subprocess.run(['dpkg', '-L', package], capture_output=True,
                         text=True, check=False).stdout.split('\n')
    for path in sorted(out):
        if not path.endswith('.gz') or not os.path.isfile(path):
            continue
        if not any('/usr/share/man/%s/' % d in path for d in dirs):
            continue
        with gzip.open(path, 'rb') as f:
            raw = f.read()
        try:
            yield from roff_text(raw.decode('utf-8'))
        except UnicodeDecodeError:
            continue


def catalogue_text(locale, extra):
    for loc in locales(locale):
        base = os.path.join(LOCALE_DIR, loc, 'LC_MESSAGES')
        for path in sorted(glob.glob(os.path.join(base, '*.mo'))):
            name = os.path.basename(path)
            if TRAIN_DOMAINS.match(name) or (extra
                                             and EXTRA_DOMAINS.match(name)):
                yield from read_mo(path)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: detect-training-text.py DIR')
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for lang, (package, dirs, locale) in LANGS.items():
        banned = bench_strings(locale)
        lines = []
        if package:
            lines.extend(man_pages(package, dirs))
        lines.extend(catalogue_text(locale, lang in NEW_LANGS))
        kept = [l.replace('\n', ' ') for l in lines
                if l.strip() not in banned]
        with open(os.path.join(outdir, lang + '.txt'), 'w',
                  encoding='utf-8') as f:
            for l in kept:
                f.write(l + '\n')
        print('%s: %d lines, %d dropped' % (lang, len(kept),
                                              len(lines) - len(kept)))


if __name__ == '__main__':
    main()
