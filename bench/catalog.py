"""bench/catalog.py: read GNU gettext catalogues (.mo files) and hold the
split between the packages whose translations the detection benchmark uses
and the packages the detector's training text may come from.

bench/detect takes its text from BENCH_DOMAINS only;
tools/detect-training-text.py takes its text from every other catalogue
and from the translated manual pages, and also drops any string that
occurs in the benchmark's text of the same language (gnulib's messages,
for example, are translated once and shipped by many packages)."""

import glob
import os
import re
import struct

LOCALE_DIR = '/usr/share/locale'

# Text domains (the .mo file names) of the benchmark.  Chosen for coverage:
# command-line tools first, then the GLib/GTK family, which carries most of
# what Debian has in Hebrew, Arabic and the Baltic languages.  util-linux's
# catalogues are in the package util-linux-locales, gtk30's in
# libgtk-3-common (bench/README).
BENCH_DOMAINS = (
    'coreutils', 'tar', 'grep', 'sed', 'bash', 'findutils', 'diffutils',
    'dpkg', 'apt', 'gettext-runtime', 'gettext-tools', 'wget', 'gnupg2',
    'libc', 'util-linux', 'glib20', 'gtk30', 'gtk20',
)

# Each language of the benchmark: the locale directories its catalogues
# live in (the first that exists per domain wins) and the legacy code pages
# its text is encoded in (Python codec names).
LANGS = {
    'cs': (('cs',), ('cp1250', 'iso8859_2')),
    'pl': (('pl',), ('cp1250', 'iso8859_2')),
    'hu': (('hu',), ('cp1250', 'iso8859_2')),
    'ru': (('ru',), ('cp1251', 'koi8_r', 'iso8859_5', 'cp866')),
    'uk': (('uk',), ('koi8_u',)),
    'el': (('el',), ('cp1253', 'iso8859_7')),
    'tr': (('tr',), ('cp1254', 'iso8859_9')),
    'he': (('he',), ('cp1255',)),
    'ar': (('ar',), ('cp1256',)),
    'lt': (('lt',), ('cp1257', 'iso8859_13')),
    'lv': (('lv',), ('cp1257', 'iso8859_13')),
    'et': (('et',), ('cp1257', 'iso8859_13')),
    'de': (('de',), ('cp1252', 'iso8859_15', 'cp850', 'mac_roman')),
    'fr': (('fr',), ('cp1252', 'iso8859_15', 'cp850', 'mac_roman')),
    'es': (('es',), ('cp1252', 'iso8859_15', 'cp850', 'mac_roman')),
    'ja': (('ja',), ('shift_jis', 'cp932', 'euc_jp')),
    'zh_CN': (('zh_CN',), ('gb18030',)),
    'zh_TW': (('zh_TW',), ('big5',)),
    'ko': (('ko',), ('euc_kr', 'cp949')),
    # Western languages that the detector's model does not know: their
    # text must stay Western (SPEC §13).  Romanian is also written in
    # CP1250.
    'it': (('it',), ('cp1252',)),
    'pt': (('pt', 'pt_BR'), ('cp1252',)),
    'ca': (('ca',), ('cp1252',)),
    'nl': (('nl',), ('cp1252',)),
    'da': (('da',), ('cp1252',)),
    'sv': (('sv',), ('cp1252',)),
    'nb': (('nb',), ('cp1252',)),
    'fi': (('fi',), ('cp1252',)),
    'ro': (('ro',), ('cp1252', 'cp1250', 'iso8859_16')),
    # The languages of SPEC §13 the model learnt later (the Western ones
    # above, Finnish and Romanian, as well).
    'sk': (('sk',), ('cp1250', 'iso8859_2')),
    'sl': (('sl',), ('cp1250', 'iso8859_2')),
    'hr': (('hr',), ('cp1250', 'iso8859_2')),
    'bg': (('bg',), ('cp1251', 'iso8859_5')),
    'sr': (('sr',), ('cp1251', 'iso8859_5')),
    'mk': (('mk',), ('cp1251', 'iso8859_5')),
    'be': (('be',), ('cp1251', 'iso8859_5')),
    'is': (('is',), ('cp1252',)),
    'ga': (('ga',), ('cp1252',)),
    'sq': (('sq',), ('cp1252',)),
    'fa': (('fa',), ('cp1256',)),
    'vi': (('vi',), ('cp1258',)),
    'th': (('th',), ('cp874',)),
}


def read_mo(path, header=False):
    """The (msgid, msgstr) pairs of a .mo file, decoded with the charset its
    header names.  Plural forms stay joined by NUL; the header entry
    (msgid "") is left out, or is all that is returned (as a string) when
    header is true."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 28:
        return '' if header else []
    magic = struct.unpack('<I', data[:4])[0]
    if magic == 0x950412de:
        end = '<'
    elif magic == 0xde120495:
        end = '>'
    else:
        return '' if header else []
    _, n, orig, trans = struct.unpack(end + '4I', data[4:20])
    pairs = []
    for i in range(n):
        ol, oo = struct.unpack(end + '2I', data[orig + 8 * i:orig + 8 * i + 8])
        tl, to = struct.unpack(end + '2I', data[trans + 8 * i:trans + 8 * i + 8])
        pairs.append((data[oo:oo + ol], data[to:to + tl]))
    charset = 'utf-8'
    for mid, mstr in pairs:
        if mid == b'':
            m = re.search(rb'charset=([-\w.:]+)', mstr)
            if m:
                charset = m.group(1).decode('ascii')
    if header:
        return next((s.decode(charset, 'replace') for i, s in pairs if i == b''), '')
    out = []
    for mid, mstr in pairs:
        if mid == b'':
            continue
        try:
            out.append((mid.decode(charset, 'replace'), mstr.decode(charset)))
        except (LookupError, UnicodeDecodeError):
            continue
    return out


def strings(path):
    """The translated strings of a .mo file: each plural form on its own,
    context markers removed, empty and untranslated (msgstr = msgid)
    strings left out."""
    out = []
    for mid, mstr in read_mo(path):
        ids = set(mid.split('\0'))
        for s in mstr.split('\0'):
            if s.strip() and s not in ids:
                out.append(s)
    return out


HEBREW_WORD = re.compile('[\u05d0-\u05ea]{2,}')
HEBREW_FINALS = '\u05da\u05dd\u05df\u05e3\u05e5'


def visual_order(strs):
    """Whether Hebrew text is stored in visual order (reversed, as some old
    catalogues for terminals are: diffutils, grep, sed, wget and make in
    Debian 12): more words begin with a final letter than end with one.
    CP1255 text is in logical order, so such catalogues are left out."""
    words = HEBREW_WORD.findall(' '.join(strs))
    first = sum(1 for w in words if w[0] in HEBREW_FINALS)
    last = sum(1 for w in words if w[-1] in HEBREW_FINALS)
    return first > last


def catalogues(lang):
    """{domain: path} of the installed catalogues of a language."""
    dirs, _ = LANGS.get(lang, ((lang,), ()))
    found = {}
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(LOCALE_DIR, d, 'LC_MESSAGES', '*.mo'))):
            dom = os.path.basename(p)[:-3]
            found.setdefault(dom, p)
    return found


def mo_version(path):
    """Project-Id-Version of a catalogue's header, or ''."""
    m = re.search(r'Project-Id-Version: *([^\n]*)', read_mo(path, header=True))
    return m.group(1).strip() if m else ''


def bench_strings(lang):
    """The benchmark's strings of a language: the BENCH_DOMAINS catalogues in
    that order (less Hebrew in visual order), each string once."""
    cats = catalogues(lang)
    seen = set()
    out = []
    for dom in BENCH_DOMAINS:
        if dom in cats:
            strs = strings(cats[dom])
            if visual_order(strs):
                continue
            for s in strs:
                if s not in seen:
                    seen.add(s)
                    out.append(s)
    return out
