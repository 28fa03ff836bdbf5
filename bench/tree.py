"""bench/tree.py: the in-place case of bench/run (issue 10, SPEC §12).

Many small files converted in place: a generated tree of 5,000 CP1252
text files of 0.2-4 KB with CRLF line ends (about 10 MB), converted by

  utf8conv -f CP1252 -r -i TREE
  find TREE -type f -exec dos2unix -q {} +
  find TREE -type f -exec sh -c 'iconv -f CP1252 -t UTF-8 "$1" >"$1.t"
      && mv "$1.t" "$1"' ... (one sh for many files)

each on a fresh copy of the tree, in turn, for several rounds; the median
wall time of each is compared.  utf8conv makes every file durable before
it replaces it (one syncfs per batch of files); dos2unix and iconv+mv do
not, so each is also timed followed by `sync -f` on the tree, which is
what the same guarantee costs them at least.
"""

import os
import random
import shutil
import statistics
import subprocess
import time

WORDS = ('le café était très chaud à Paris où l\'été dure longtemps; '
         'die Größe der Straße, für Übermut und Ärger; '
         'el niño comió piña en la montaña; naïve façade, garçon, œuvre, '
         '“quoted” – dash … ellipsis € 10').split()


def generate(root, nfiles=5000, per_dir=100, seed=10):
    """Write the tree under ROOT (once: an existing tree is kept)."""
    stamp = os.path.join(root, '.complete')
    if os.path.exists(stamp):
        return
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(seed)
    for i in range(nfiles):
        d = os.path.join(root, 'd%03d' % (i // per_dir))
        os.makedirs(d, exist_ok=True)
        size = rng.randint(200, 4000)
        words, n = [], 0
        while n < size:
            w = rng.choice(WORDS)
            words.append(w)
            n += len(w) + 1
        text = ' '.join(words)
        lines = [text[k:k + 72] for k in range(0, len(text), 72)]
        data = '\r\n'.join(lines).encode('cp1252')[:size] + b'\r\n'
        with open(os.path.join(d, 'f%04d.txt' % i), 'wb') as f:
            f.write(data)
    open(stamp, 'w').close()


def tree_bytes(root):
    total = files = 0
    for d, _, names in os.walk(root):
        for n in names:
            if n != '.complete':
                total += os.path.getsize(os.path.join(d, n))
                files += 1
    return files, total


def commands(u8c, tree, baseline=None):
    iconv_mv = ('find %s -type f -exec sh -c \'for f; do '
                'iconv -f CP1252 -t UTF-8 "$f" >"$f.t" && mv "$f.t" "$f"; '
                'done\' sh {} +' % tree)
    cmds = {
        'utf8conv -f CP1252 -r -i': '%s -f CP1252 -r -i %s' % (u8c, tree),
        'find -exec dos2unix': 'find %s -type f -exec dos2unix -q {} +' % tree,
        'find -exec dos2unix; sync -f':
            'find %s -type f -exec dos2unix -q {} + && sync -f %s' % (tree, tree),
        'find -exec iconv + mv': iconv_mv,
        'find -exec iconv + mv; sync -f': iconv_mv + ' && sync -f %s' % tree,
    }
    if baseline:
        cmds['baseline utf8conv -f CP1252 -r -i'] = '%s -f CP1252 -r -i %s' % (
            baseline, tree)
    return cmds


def run(cache, u8c, rounds, log, baseline=None):
    """Time the commands (and BASELINE, another utf8conv binary, when
    given); returns a dict for the report, or None when dos2unix or iconv
    is missing."""
    if not shutil.which('dos2unix') or not shutil.which('iconv'):
        log('tree case: dos2unix or iconv is not installed; skipped')
        return None
    src = os.path.join(cache, 'tree')
    generate(src)
    nfiles, nbytes = tree_bytes(src)
    work = os.path.join(cache, 'tree-work')
    cmds = commands(u8c, work, baseline)
    log('\n== in place: %d files, %.1f MB, %d rounds' % (nfiles, nbytes / 1e6, rounds))
    times = {k: [] for k in cmds}
    bad = {}
    order = list(cmds)
    for r in range(rounds):
        rot = order[r % len(order):] + order[:r % len(order)]
        for k in rot:
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(src, work)
            os.unlink(os.path.join(work, '.complete'))
            subprocess.run(['sync'])
            time.sleep(0.5)
            t0 = time.monotonic()
            p = subprocess.run(cmds[k], shell=True)
            times[k].append(time.monotonic() - t0)
            if p.returncode != 0:
                bad[k] = p.returncode
    shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in cmds:
        log('   %-32s median %.3f s  (%s)' % (k, med[k], ' '.join('%.2f' % t for t in times[k])))
    return dict(files=nfiles, bytes=nbytes, rounds=rounds, med=med, times=times,
                bad=bad, baseline=baseline)


def report(w, res):
    """Write the markdown section of RES with the function W."""
    med = res['med']
    u = med['utf8conv -f CP1252 -r -i']
    w('')
    w('In place, many small files: %d CP1252 files of 0.2–4 KB with CRLF (%.1f MB), '
      'each command on a fresh copy of the tree, %d rounds in turn, median wall time '
      '(all runs in brackets). utf8conv makes each file durable before renaming it; '
      'the `; sync -f` rows add what that costs the others at least.'
      % (res['files'], res['bytes'] / 1e6, res['rounds']))
    w('')
    if res.get('baseline'):
        w('The baseline row is another utf8conv binary: %s.' % res['baseline'])
        w('')
    w('| command | wall s | utf8conv ÷ it | runs |')
    w('|---|---|---|---|')
    for k, t in med.items():
        w('| `%s` | %.3f | %s | %s%s |' % (
            k, t, '—' if k.startswith('utf8conv') else '%.2f' % (u / t),
            ' '.join('%.2f' % x for x in res['times'][k]),
            ' (exit %d)' % res['bad'][k] if k in res['bad'] else ''))
    ratio = u / med['find -exec dos2unix']
    w('')
    w('Target (issue 10): utf8conv ≤ 1.5 × dos2unix\'s wall time: %.2f× %s'
      % (ratio, '✓' if ratio <= 1.5 else '✗'))
    return ratio <= 1.5
