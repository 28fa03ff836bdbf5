"""The legacy code page cases of bench/run (issue 19): utf8conv against
glibc iconv(1) (and ICU uconv beside) on code pages that are not built in.

Targets, each a paired ratio (utf8conv's time / iconv's, the median of
the ratios of runs taken back to back):
  - decode CP1250, CP1251, CP1253, CP866, KOI8-R, ISO-8859-2, ISO-8859-5
    to UTF-8: at most 0.40 each;
  - encode UTF-8 to CP1250, CP1251, CP866, KOI8-R, ISO-8859-7: at most
    0.50 each;
  - decode and encode Shift_JIS, GB18030, Big5, EUC-KR: at most 0.85;
  - utf8conv -f KOI8-R on a 6-byte file starts about as fast as cat.
Beside them, UTF-16LE to code pages of each kind (tables, the encoders'
memo, shifts) and back, on what random bytes decode to in each.  With
--legacy-all, every name of `iconv -l` both ways on a small file made
of its own characters, and the 10 worst ratios.

The text is generated with fixed seeds: words of the code page's own
letters (mixed with ASCII letters for the Latin scripts), and for the
CJK code pages characters of their repertoire with a Zipf-like
frequency, so that common characters repeat as in real text.  The
legacy files are made by iconv(1) from the UTF-8 ones."""

import os
import random
import statistics
import subprocess
import time

DEVNULL_W = os.open(os.devnull, os.O_WRONLY)

# name, Python codec, kind of text, decode target, encode target
SINGLE = [
    ('CP1250', 'cp1250', 'latin', 0.40, 0.50),
    ('CP1251', 'cp1251', 'high', 0.40, 0.50),
    ('CP1253', 'cp1253', 'high', 0.40, None),
    ('CP866', 'cp866', 'high', 0.40, 0.50),
    ('KOI8-R', 'koi8_r', 'high', 0.40, 0.50),
    ('ISO-8859-2', 'iso8859_2', 'latin', 0.40, None),
    ('ISO-8859-5', 'iso8859_5', 'high', 0.40, None),
    ('ISO-8859-7', 'iso8859_7', 'high', None, 0.50),
]

MULTI = [
    ('SHIFT_JIS', 'shift_jis', [(0x3041, 0x3093), (0x30A1, 0x30F6),
                                (0x4E00, 0x9FA0)]),
    ('GB18030', 'gb18030', [(0x4E00, 0x9FA0)]),
    ('BIG5', 'big5', [(0x4E00, 0x9FA0)]),
    ('EUC-KR', 'euc_kr', [(0xAC00, 0xD7A3), (0x4E00, 0x9FA0)]),
]


def timed(argv):
    t0 = time.perf_counter()
    code = subprocess.call(argv, stdout=DEVNULL_W, stderr=DEVNULL_W)
    return time.perf_counter() - t0, code


def cpu_timed(argv):
    """The CPU time (user and system) ARGV takes, which a loaded machine
    disturbs less than the wall time.  Started by posix_spawn (a vfork,
    as a shell's small fork is in effect): a child forked from this
    Python process carries its copy of the process until it execs, which
    charged iconv(1) about 1.2 ms a run and utf8conv 0.9 (IBM937, what
    512 KiB of random bytes decode to: 0.97 by a fork, 1.08 by
    posix_spawn, 1.10 by perf stat's task-clock)."""
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, DEVNULL_W, 1),
        (os.POSIX_SPAWN_DUP2, DEVNULL_W, 2)])
    _, status, ru = os.wait4(pid, 0)
    return ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def zipf_lines(rng, items, size, k, sep, end):
    """Lines of K of ITEMS each, the first ones the most frequent (Zipf),
    joined by SEP and ended by END, up to SIZE bytes of UTF-8."""
    weights = [1.0 / (j + 1) for j in range(len(items))]
    out, total = [], 0
    while total < size:
        line = sep.join(rng.choices(items, weights, k=k)) + end()
        out.append(line)
        total += len(line.encode('utf-8'))
    return ''.join(out)


def single_text(codec, kind, size, seed):
    """UTF-8 text of words of CODEC's letters, about SIZE bytes."""
    rng = random.Random(seed)
    high = [bytes([b]).decode(codec, 'replace') for b in range(0x80, 0x100)]
    high = [c for c in high if c.isalpha()]
    low = [chr(c) for c in range(ord('a'), ord('z') + 1)]
    words = []
    for _ in range(3000):
        n = rng.randint(2, 9)
        if kind == 'latin':
            w = ''.join(rng.choice(high) if rng.random() < 0.12
                        else rng.choice(low) for _ in range(n))
        else:
            w = ''.join(rng.choice(high) for _ in range(n))
        words.append(w)
    return zipf_lines(rng, words, size, 12, ' ',
                      lambda: rng.choice('.,;!?') + '\n')


def multi_text(codec, ranges, size, seed):
    """UTF-8 text of CODEC's characters in RANGES, Zipf-like."""
    rng = random.Random(seed)
    chars = []
    for lo, hi in ranges:
        for c in range(lo, hi + 1):
            try:
                chr(c).encode(codec)
                chars.append(chr(c))
            except UnicodeEncodeError:
                pass
    rng.shuffle(chars)
    chars = chars[:4000]
    return zipf_lines(rng, chars, size, 40, '',
                      lambda: '\u3002 12, ab\n')


def marked_text(kind, size, seed):
    """UTF-8 text with letters that take combining marks in the code
    pages whose decoders hold a letter back: Vietnamese syllables with
    tones (CP1258 and TCVN write most as a letter and a mark), or Hebrew
    with points (CP1255: shin, shin dot and dagesh compose twice)."""
    import unicodedata
    rng = random.Random(seed)
    if kind == 'vietnamese':
        vowels = [unicodedata.normalize('NFC', v + t)
                  for v in 'aăâeêioôơuưy'
                  for t in ('', '\u0300', '\u0301', '\u0309', '\u0303',
                            '\u0323')]
        onsets = ['', 'b', 'c', 'd', 'đ', 'g', 'h', 'k', 'l', 'm', 'n',
                  'ng', 'nh', 'ph', 'qu', 's', 't', 'th', 'tr', 'v', 'x']
        finals = ['', '', 'c', 'ch', 'm', 'n', 'ng', 'nh', 'p', 't']
        words = [rng.choice(onsets) + rng.choice(vowels) + rng.choice(finals)
                 for _ in range(3000)]
    else:
        letters = [chr(c) for c in range(0x05D0, 0x05EB)]
        points = [chr(c) for c in list(range(0x05B0, 0x05BA)) + [0x05BB,
                                                                 0x05BC]]
        words = []
        for _ in range(3000):
            w = ''
            for _ in range(rng.randint(2, 6)):
                c = rng.choice(letters)
                if c == '\u05e9' and rng.random() < 0.5:
                    c += rng.choice('\u05c1\u05c2') + (
                        '\u05bc' if rng.random() < 0.3 else '')
                elif rng.random() < 0.6:
                    c += rng.choice(points)
                w += c
            words.append(w)
    return zipf_lines(rng, words, size, 10, ' ', lambda: '.\n')


def write_pair(cache, name, text, log):
    """NAME.utf8 and NAME.legacy in CACHE (kept); their paths."""
    u8 = os.path.join(cache, 'legacy-%s.utf8' % name)
    lg = os.path.join(cache, 'legacy-%s.legacy' % name)
    if not (os.path.exists(u8) and os.path.exists(lg)):
        log('writing %s' % lg)
        with open(u8, 'w', encoding='utf-8') as f:
            f.write(text())
        # What glibc cannot encode (Python's codecs know a few more) is
        # left out, and the UTF-8 file made again from the result.
        with open(lg, 'wb') as f:
            subprocess.run(['iconv', '-c', '-f', 'UTF-8', '-t', name, u8],
                           stdout=f, stderr=DEVNULL_W)
        with open(u8, 'wb') as f:
            subprocess.run(['iconv', '-f', name, '-t', 'UTF-8', lg],
                           stdout=f, check=True)
    return u8, lg


def paired(cmds, runs, clock=timed):
    """Median times of CMDS (name -> argv, first is the reference) and the
    median of the per-run ratios of each to the reference."""
    names = list(cmds)
    times = {k: [] for k in names}
    for r in range(runs):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t, code = clock(cmds[k])
            times[k].append(t if code == 0 else float('nan'))
    ref = names[0]
    ratio = {k: statistics.median(a / b for a, b in zip(times[k], times[ref]))
             for k in names}
    return {k: statistics.median(v) for k, v in times.items()}, ratio


def same_output(a, b):
    x = subprocess.run(a, capture_output=True).stdout
    y = subprocess.run(b, capture_output=True).stdout
    return x == y


def instructions(argv, path, empty, ir):
    """Instructions per byte of ARGV on PATH (start-up subtracted)."""
    if ir is None:
        return None
    a, b = ir(argv + [path]), ir(argv + [empty])
    if a is None or b is None:
        return None
    return (a - b) / os.path.getsize(path)


def slice_of(path, n=1 << 20):
    """The first N bytes of PATH, cut at a line end (safe in every code
    page here: 0A is only LF)."""
    sl = path + '.1m'
    if not os.path.exists(sl):
        with open(path, 'rb') as f:
            data = f.read(n)
        with open(sl, 'wb') as f:
            f.write(data[:data.rfind(b'\n') + 1])
    return sl


def row(label, med, ratio, target, ipb, check):
    r = ratio['utf8conv']
    mark = '' if target is None else (' ✓' if r <= target else ' ✗')
    uc = ('%.2f' % ratio['uconv']) if 'uconv' in ratio else '–'
    ips = ' / '.join('–' if v is None else '%.1f' % v for v in ipb)
    return '| %s | %.3f | %.3f | **%.2f**%s | %s | %s | %s | %s |' % (
        label, med['iconv'], med['utf8conv'], r, mark,
        '–' if target is None else '≤ %.2f' % target, uc, ips, check)


def goal_rows(cache, u8c, runs, size, log, which, ir):
    lines = ['| case | iconv s | utf8conv s | ratio | target | uconv ratio '
             '| instr/B utf8conv / iconv | output = iconv |',
             '|---|---|---|---|---|---|---|---|']
    empty = os.path.join(cache, 'empty')
    open(empty, 'wb').close()
    cases = []
    for k, (name, codec, kind, dt, et) in enumerate(SINGLE):
        u8, lg = write_pair(cache, name, lambda: single_text(
            codec, kind, size, 100 + k), log)
        cases.append((name, u8, lg, dt, et))
    for k, (name, codec, ranges) in enumerate(MULTI):
        u8, lg = write_pair(cache, name, lambda: multi_text(
            codec, ranges, size, 200 + k), log)
        cases.append((name, u8, lg, 0.85, 0.85))
    for name, u8, lg, dt, et in cases:
        for direction, src, frm, to, target in (
                ('decode', lg, name, 'UTF-8', dt),
                ('encode', u8, 'UTF-8', name, et)):
            if target is None:
                continue
            cmds = {'iconv': ['iconv', '-f', frm, '-t', to, src],
                    'utf8conv': [u8c, '-f', frm, '-t', to, src]}
            if which('uconv'):
                cmds['uconv'] = ['uconv', '-f', frm, '-t', to, src]
            check = 'ok' if same_output(cmds['iconv'], cmds['utf8conv']) \
                else 'MISMATCH'
            med, ratio = paired(cmds, runs)
            sl = slice_of(src)
            ipb = [instructions([u8c, '-f', frm, '-t', to], sl, empty, ir),
                   instructions(['iconv', '-f', frm, '-t', to], sl, empty,
                                ir)]
            label = '%s %s (%.0f MiB)' % (
                direction, '%s→UTF-8' % name if direction == 'decode'
                else 'UTF-8→%s' % name, os.path.getsize(src) / (1 << 20))
            lines.append(row(label, med, ratio, target, ipb, check))
            log('   ' + lines[-1])
    return lines


def startup_rows(cache, u8c, log, ir):
    tiny = os.path.join(cache, 'legacy-tiny.koi8r')
    with open(tiny, 'wb') as f:
        f.write(b'\xf0\xd2\xc9\xd7\xc5\n')
    tiny8 = os.path.join(cache, 'legacy-tiny.utf8')
    with open(tiny8, 'wb') as f:
        f.write('Привет\n'.encode('utf-8'))
    cmds = {'cat': ['cat', tiny], 'utf8conv': [u8c, '-f', 'KOI8-R', tiny],
            'iconv': ['iconv', '-f', 'KOI8-R', '-t', 'UTF-8', tiny],
            'utf8conv to': [u8c, '-t', 'KOI8-R', tiny8],
            'iconv to': ['iconv', '-f', 'UTF-8', '-t', 'KOI8-R', tiny8]}
    med, _ = paired(cmds, 60)
    lines = ['', '| 6-byte KOI8-R file (or 13 bytes of UTF-8 to KOI8-R) '
             '| median ms | instructions |', '|---|---|---|']
    for k in cmds:
        n = ir(cmds[k]) if ir else None
        lines.append('| %s | %.2f | %s |' % (' '.join(
            os.path.basename(a) for a in cmds[k][:-1]), 1000 * med[k],
            '–' if n is None else '{:,}'.format(n)))
    log('\n'.join(lines))
    return lines


def cpu_row(label, u8c, frm, to, path, runs, ir):
    """A row of LABEL: PATH from FRM to TO, CPU time (paired runs) and
    instructions against iconv(1), and whether the outputs agree."""
    cmds = {'iconv': ['iconv', '-f', frm, '-t', to, path],
            'utf8conv': [u8c, '-f', frm, '-t', to, path]}
    check = 'ok' if same_output(cmds['iconv'], cmds['utf8conv']) \
        else 'MISMATCH'
    med, ratio = paired(cmds, runs, cpu_timed)
    n = [ir(cmds[k]) if ir else None for k in ('utf8conv', 'iconv')]
    insn = '–' if None in n else '%.2f' % (n[0] / n[1])
    return '| %s | %.1f | %.1f | **%.2f** | %s | %s |' % (
        label, 1000 * med['iconv'], 1000 * med['utf8conv'], ratio['utf8conv'],
        insn, check)


def marks_rows(cache, u8c, log, ir, runs=11, size=2 << 20):
    """Decoding text with marks in the code pages that hold a letter
    back: CPU time and instructions (the whole run, the making of the
    table of what each byte does included) against iconv(1)."""
    lines = ['', '| decode | iconv CPU ms | utf8conv CPU ms | ratio '
             '| instructions, ratio | output = iconv |',
             '|---|---|---|---|---|---|']
    for name, kind, seed in (('CP1258', 'vietnamese', 300),
                             ('TCVN', 'vietnamese', 300),
                             ('CP1255', 'hebrew', 301)):
        u8 = os.path.join(cache, 'legacy-marks-%s.utf8' % kind)
        lg = os.path.join(cache, 'legacy-marks-%s.legacy' % name)
        if not os.path.exists(u8):
            with open(u8, 'w', encoding='utf-8') as f:
                f.write(marked_text(kind, size, seed))
        if not os.path.exists(lg):
            with open(lg, 'wb') as f:
                subprocess.run(['iconv', '-c', '-f', 'UTF-8', '-t', name, u8],
                               stdout=f, stderr=DEVNULL_W)
        lines.append(cpu_row('%s (%.1f MiB)' % (
            name, os.path.getsize(lg) / (1 << 20)), u8c, name, 'UTF-8', lg,
            runs, ir))
        log('   ' + lines[-1])
    return lines


def noise_text(cache, name, size=1 << 19):
    """What SIZE random bytes (seed 7) decode to in NAME with -c, as
    UTF-8: a file in CACHE, its path."""
    src = os.path.join(cache, 'legacy-all.noise')
    if not os.path.exists(src):
        rng = random.Random(7)
        with open(src, 'wb') as f:
            f.write(bytes(rng.randrange(256) for _ in range(size)))
    u8 = os.path.join(cache, 'legacy-noise-%s.utf8' % name)
    if not os.path.exists(u8):
        with open(u8, 'wb') as f:
            subprocess.run(['iconv', '-c', '-f', name, '-t', 'UTF-8', src],
                           stdout=f, stderr=DEVNULL_W)
    return u8


# From UTF-16LE: tables (CP1252 built in), the encoders' memo, shifts.
FROM_UTF16 = ['CP1251', 'KOI8-R', 'CP1252', 'IBM037', 'GB18030', 'BIG5',
              'SHIFT_JIS', 'EUC-KR', 'CP949', 'EUC-TW', 'BIG5-HKSCS',
              'EUC-JISX0213', 'IBM937']


# To UTF-16LE: tables, the decoders' memo, shifts, UTF-7, a hold table.
TO_UTF16 = ['CP1251', 'KOI8-R', 'IBM037', 'GB18030', 'BIG5', 'SHIFT_JIS',
            'EUC-KR', 'IBM937', 'UTF-7', 'CP1255']


def utf16_rows(cache, u8c, log, ir, runs=21):
    """UTF-16LE to legacy code pages and back, on what 512 KiB of random
    bytes decode to in each: CPU time and instructions against
    iconv(1)."""
    lines = []
    for names, head, into in ((FROM_UTF16, 'UTF-16LE →', True),
                              (TO_UTF16, '→ UTF-16LE', False)):
        lines += ['', '| %s | iconv CPU ms | utf8conv CPU ms | ratio '
                  '| instructions, ratio | output = iconv |' % head,
                  '|---|---|---|---|---|---|']
        for name in names:
            form = 'UTF-16LE' if into else name
            path = os.path.join(cache, 'legacy-noise-%s.%s' % (
                name, 'utf16le' if into else 'legacy'))
            if not os.path.exists(path):
                with open(path, 'wb') as f:
                    subprocess.run(['iconv', '-f', 'UTF-8', '-t', form,
                                    noise_text(cache, name)], stdout=f,
                                   check=True)
            frm, to = ('UTF-16LE', name) if into else (name, 'UTF-16LE')
            lines.append(cpu_row('%s (%.0f KiB)' % (
                name, os.path.getsize(path) / 1024), u8c, frm, to, path,
                runs, ir))
            log('   ' + lines[-1])
    return lines


def all_rows(cache, u8c, log, runs=5, close=0.97, again=21):
    """Every name of iconv -l, both ways, on a file of its own characters
    (what 512 KiB of random bytes decode to): CPU times, the 10 worst
    ratios.  A run takes 2-6 ms, where the machine's noise is 5-10%:
    the rows at CLOSE or above are timed AGAIN times more, and those
    times are the ones kept."""
    names = subprocess.run(['iconv', '-l'], capture_output=True,
                           text=True).stdout.split()
    names = [n.rstrip('/,') for n in names if n.rstrip('/,')]
    rng = random.Random(7)
    noise = bytes(rng.randrange(256) for _ in range(1 << 19))
    src = os.path.join(cache, 'legacy-all.noise')
    with open(src, 'wb') as f:
        f.write(noise)
    res = []
    for name in names:
        u8 = os.path.join(cache, 'legacy-all.utf8')
        lg = os.path.join(cache, 'legacy-all.legacy')
        # The charset's own characters: what random bytes decode to.
        with open(u8, 'wb') as f:
            subprocess.run(['iconv', '-c', '-f', name, '-t', 'UTF-8', src],
                           stdout=f, stderr=DEVNULL_W)
        with open(lg, 'wb') as f:
            if subprocess.run(['iconv', '-f', 'UTF-8', '-t', name, u8],
                              stdout=f, stderr=DEVNULL_W).returncode != 0:
                continue
        for direction, path, frm, to in (('decode', lg, name, 'UTF-8'),
                                         ('encode', u8, 'UTF-8', name)):
            cmds = {'iconv': ['iconv', '-f', frm, '-t', to, path],
                    'utf8conv': [u8c, '-f', frm, '-t', to, path]}
            med, ratio = paired(cmds, runs, cpu_timed)
            if ratio['utf8conv'] >= close:
                med, ratio = paired(cmds, again, cpu_timed)
            res.append((ratio['utf8conv'], direction, name, med))
    res = [r for r in res if r[0] == r[0]]
    res.sort(reverse=True)
    slower = sum(1 for r in res if r[0] > 1.0)
    lines = ['', '%d conversions (%d names, both ways) on what 512 KiB of '
             'random bytes decode to with -c (CPU time, median of %d, of '
             '%d for those at %.2f or above); %d slower than iconv(1). '
             'The 10 worst:'
             % (len(res), len(names), runs, again, close, slower), '',
             '| direction | charset | iconv CPU ms | utf8conv CPU ms | ratio |',
             '|---|---|---|---|---|']
    for r, direction, name, med in res[:10]:
        lines.append('| %s | %s | %.1f | %.1f | %.2f |' % (
            direction, name, 1000 * med['iconv'], 1000 * med['utf8conv'], r))
    log('\n'.join(lines))
    # Every slower case, on the log only (the report keeps the 10 worst).
    log('Slower than iconv(1), all: ' + ', '.join(
        '%s %s %.2f' % (direction, name, r)
        for r, direction, name, _ in res if r > 1.0))
    return lines


def run(cache, u8c, runs, size, log, which, ir, every=False):
    """Time the cases; return the markdown lines."""
    os.makedirs(cache, exist_ok=True)
    lines = goal_rows(cache, u8c, runs, size, log, which, ir)
    lines += startup_rows(cache, u8c, log, ir)
    lines += marks_rows(cache, u8c, log, ir)
    lines += utf16_rows(cache, u8c, log, ir)
    if every:
        lines += all_rows(cache, u8c, log)
    return lines
