#!/usr/bin/env python3
"""Write src/core/detect_model.h: the language models of -f auto's
code-page detector (src/core/detect_score.c), trained from text.

Usage: tools/gen-detect-model.py TRAINDIR > src/core/detect_model.h

TRAINDIR holds LANG.txt files in UTF-8, as tools/detect-training-text.py
writes them.  Training sources, and nothing else: Debian's translated
manual pages (manpages-de, -fr, -es, -cs, -pl, -hu, -ru, -uk, -tr, -el,
-ja, -zh) and the gettext catalogues of GUI and library packages
(Linux-PAM, PackageKit, at-spi2-core, gdk-pixbuf, shared-mime-info,
xdg-user-dirs, software-properties, iso-codes; for the languages added
later, also avahi, appstream, gsettings-desktop-schemas, gstreamer,
polkit, xkeyboard-config and python-apt).  The detection benchmark
of bench/ uses the catalogues of other packages (coreutils, tar, grep,
sed, bash, findutils, diffutils, dpkg, apt, gettext, wget, gnupg2, libc,
util-linux, glib20, gtk20, gtk30), and the extraction drops every string
that those catalogues also hold, so the benchmark measures text the
model has never seen.

One model, `west', is no single language: the text of the Western
languages that have no model of their own (Italian, Portuguese, Catalan,
Dutch, Danish, Swedish, Norwegian Bokmål, Romanian), pooled, so that their text
read in a Western code page costs what Latin text costs.

The model of a language is a table of costs of character bigrams: the
cost of the pair (A, B) is -ln P(B | A), estimated from the training
text, in quarters of a nat, from 0 to 63.  Before counting, an ASCII
letter is folded to lower case, and any other ASCII character and the
punctuation of is_punct become U+0020 (the curly single quotes are kept:
ISO-8859-7 reads CP1253's capital alpha with tonos as one, and Greek
text seldom holds one between letters); ş, ţ and their capitals become
ș, ț (ROMANIAN), Persian's yeh Arabic's (FOLD); other characters above U+007F are kept as they are.  Only pairs that hold at least one character
above U+007F are counted (those are the pairs that tell code pages
apart), and only the KEEP_PAIRS most frequent of each language.  The
pair (0, C), which folding never makes, holds the cost -ln P(C) of the
character C among those above U+007F (the KEEP_CHARS most frequent): an
unseen pair (A, C) costs that plus BACKOFF in detect_score.c.

The table is a hash table of 2^BITS buckets per language with linear
probing: a pair's hash picks its first bucket and a CHECK_BITS check
value, and the pair is in the first bucket from there on that holds its
check, or absent at the first empty bucket (cost UNSEEN).  The check
keeps a pair the language never showed from taking the cost of another
pair that shares its bucket (without it, about a third of the unseen
pairs of a large model looked as likely as common ones).  Two pairs with
the same bucket and check share one entry, with the lower cost.  Each
table is written as strings of one character per bucket for the cost
and two for the check (ALPHABET[value], letters, digits, '+' and '-':
no quote, no backslash, no trigraph), and model_digit maps them back,
so the header stays small.

The hash and the folding must stay in step with detect_score.c.
"""

import math
import os
import sys

BITS = 13
CHECK_BITS = 12           # Two characters of ALPHABET.
UNSEEN = 60              # 15 nats: a pair the language never showed.
SCALE = 4                # Costs in quarters of a nat.
# Only the most frequent pairs and characters of each language are kept,
# so that the table stays small and about half full at most (Chinese and
# Japanese have hundreds of thousands of pairs).
KEEP_PAIRS = 3000
KEEP_CHARS = 1200
ALPHABET = ('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
            'abcdefghijklmnopqrstuvwxyz+-')

# The languages, in the order of enum detect_lang in detect_score.c.
LANGS = ('de', 'fr', 'es', 'cs', 'pl', 'hu', 'ru', 'uk', 'el', 'tr', 'he',
         'ar', 'lt', 'lv', 'et', 'ja', 'zh_CN', 'zh_TW', 'ko', 'west',
         'ro', 'sk', 'sl', 'hr', 'bg', 'sr', 'mk', 'be', 'fi', 'is', 'ga',
         'sq', 'fa', 'vi', 'th', 'it', 'nl')


PUNCT = (0xA0, 0xAB, 0xBB, 0x2013, 0x2014, 0x201C, 0x201D, 0x201E, 0x2026,
         0x20AC)


def is_punct(c):
    """Punctuation that text in any script may hold: the no-break space,
    guillemets, dashes, curly quotes, the ellipsis and the euro sign."""
    return c in PUNCT


# Romanian's s and t with a cedilla (ş ţ, all that CP1250 and ISO-8859-2
# have) and with a comma below (ș ț, ISO-8859-16's) are one letter,
# written at the same bytes: counted as the comma forms, so that
# Romanian text costs the same in either code page and the bytes where
# they differ decide.
ROMANIAN = {0x15E: 0x218, 0x15F: 0x219, 0x162: 0x21A, 0x163: 0x21B}
# Persian's yeh (U+06CC) is not in CP1256, which writes it as Arabic's
# (U+064A, byte ED): counted as that.
FOLD = {**ROMANIAN, 0x6CC: 0x64A}


def fold(c):
    if is_punct(c):
        return 0x20
    if c in FOLD:
        return FOLD[c]
    if c < 0x80:
        if 0x41 <= c <= 0x5A:
            return c + 0x20
        if 0x61 <= c <= 0x7A:
            return c
        return 0x20
    return c


def pair_hash(a, b):
    h = (a * 0x9E3779B1 + b) & 0xFFFFFFFF
    h = (h * 0x85EBCA77) & 0xFFFFFFFF
    h ^= h >> 15
    return h


def bucket(a, b):
    """The first bucket of the pair (A, B) and its check value."""
    h = pair_hash(a, b)
    check = ((h * 0xC2B2AE3D) & 0xFFFFFFFF) >> (32 - CHECK_BITS)
    return h >> (32 - BITS), check


def insert(table, checks, a, b, q):
    """Put the pair (A, B) of cost Q into the table, by linear probing."""
    k, check = bucket(a, b)
    while table[k] != UNSEEN and checks[k] != check:
        k = (k + 1) % len(table)
    if table[k] == UNSEEN or q < table[k]:
        table[k] = q
    checks[k] = check


def train(path):
    pairs, firsts = {}, {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            prev = 0x20
            for ch in line.rstrip('\n') + ' ':
                c = fold(ord(ch))
                if c >= 0x80 or prev >= 0x80:
                    pairs[(prev, c)] = pairs.get((prev, c), 0) + 1
                firsts[prev] = firsts.get(prev, 0) + 1
                prev = c
    table = [UNSEEN] * (1 << BITS)
    checks = [0] * (1 << BITS)
    # Unigrams, for the back-off of unseen pairs: the pair (0, C) holds
    # -ln P(C) over the characters above U+007F.
    total = sum(n for c, n in firsts.items() if c >= 0x80)
    unigrams = sorted(((n, c) for c, n in firsts.items() if c >= 0x80),
                      reverse=True)[:KEEP_CHARS]
    for n, c in unigrams:
        q = min(UNSEEN - 1, int(round(-math.log(n / total) * SCALE)))
        insert(table, checks, 0, c, q)
    kept = sorted(((n, ab) for ab, n in pairs.items()), reverse=True)
    for n, (a, b) in kept[:KEEP_PAIRS]:
        cost = -math.log(n / firsts[a])
        q = min(UNSEEN - 1, int(round(cost * SCALE)))
        insert(table, checks, a, b, q)
    # A lookup stops at an empty bucket: some must stay empty, and
    # enough of them that the probes stay short.
    assert 4 * sum(q != UNSEEN for q in table) <= 3 * len(table)
    return table, checks


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: gen-detect-model.py TRAINDIR')
    out = sys.stdout
    out.write('/* GENERATED FILE, by tools/gen-detect-model.py from Debian\'s '
              'translated manual\n   pages and GUI catalogues; do not '
              'edit.  See that script for the\n   sources and the '
              'format.  */\n\n')
    out.write('enum { MODEL_BITS = %d, MODEL_CHECK_BITS = %d, '
              'MODEL_UNSEEN = %d,\n       MODEL_SCALE = %d, '
              'MODEL_LANGS = %d };\n\n'
              % (BITS, CHECK_BITS, UNSEEN, SCALE, len(LANGS)))
    digit = [0] * 128
    for q, ch in enumerate(ALPHABET):
        digit[ord(ch)] = q
    out.write('/* The value that each character of model_costs and '
              'model_checks\n   stands for.  */\n'
              'static unsigned char const model_digit[128] = {\n')
    for i in range(0, 128, 16):
        out.write('  %s,\n' % ', '.join('%d' % d for d in digit[i:i + 16]))
    out.write('};\n\n')
    # Rows of 2048 characters, below the longest string ISO C requires
    # compilers to take: language L's bucket K has its cost in
    # model_costs[L * ROWS + K / 2048][K % 2048], and its check in the two
    # characters of model_checks[L * 2 * ROWS + K / 1024] from 2 * (K %
    # 1024) on, the high six bits first.
    rows = (1 << BITS) // 2048
    tables = [train(os.path.join(sys.argv[1], lang + '.txt'))
              for lang in LANGS]
    out.write('enum { MODEL_ROWS = %d };\n\n' % rows)
    half = 1 << (CHECK_BITS // 2)
    write_rows(out, 'model_costs[MODEL_LANGS * MODEL_ROWS]',
               [''.join(ALPHABET[q] for q in table) for table, _ in tables])
    write_rows(out, 'model_checks[MODEL_LANGS * 2 * MODEL_ROWS]',
               [''.join(ALPHABET[c // half] + ALPHABET[c % half]
                        for c in checks) for _, checks in tables])


def write_rows(out, decl, strings):
    """The strings of each language, one per language in the order of
    LANGS, as the rows of 2048 characters of the array DECL."""
    out.write('static char const %s[2048 + 1] = {\n' % decl)
    for lang, s in zip(LANGS, strings):
        for r in range(len(s) // 2048):
            out.write('  /* %s, row %d */\n' % (lang, r))
            row = s[r * 2048:(r + 1) * 2048]
            for i in range(0, len(row), 72):
                out.write('  "%s"\n' % row[i:i + 72])
            out.write('  ,\n')
    out.write('};\n\n')


if __name__ == '__main__':
    main()
