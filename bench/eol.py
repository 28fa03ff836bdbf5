"""The line-ending case of bench/run (issue 12): what --eol costs.

Two targets, each a ratio of medians taken in the same run:
  - on text without CR, --eol=lf costs at most 1.15 times --eol=keep;
  - DOS text (CR LF) to LF costs at most 1.5 times a plain UTF-8
    validation of the same file (utf8conv -f UTF-8 -t UTF-8, which
    validates and copies; --check, which only validates, is shown too).
dos2unix, unix2dos and tr -d '\\r' run on the same files for comparison,
reading standard input as a filter.  Each utf8conv row is timed with the
default kernel set and, where the machine has more than one, with AVX2
(UTF8CONV_IMPL=avx2), since the DOS-to-LF kernel differs between them."""

import os
import statistics
import subprocess
import time

DEVNULL_W = os.open(os.devnull, os.O_WRONLY)


def make_files(cache, log):
    """gf.txt (LF breaks, from the corpus) and gf.crlf, its CR LF twin."""
    lf = os.path.join(cache, 'gf.txt')
    crlf = os.path.join(cache, 'gf.crlf')
    if not os.path.exists(crlf) or os.path.getmtime(crlf) < os.path.getmtime(lf):
        log('writing %s' % crlf)
        with open(lf, 'rb') as f, open(crlf + '.tmp', 'wb') as g:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                g.write(block.replace(b'\n', b'\r\n'))
        os.rename(crlf + '.tmp', crlf)
    return lf, crlf


def timed(argv, stdin_path=None, env=None):
    fd = os.open(stdin_path or os.devnull, os.O_RDONLY)
    try:
        t0 = time.perf_counter()
        code = subprocess.call(argv, stdin=fd, stdout=DEVNULL_W,
                               stderr=DEVNULL_W, env=env)
        return time.perf_counter() - t0, code
    finally:
        os.close(fd)


def output_of(argv, stdin_path=None, env=None):
    fd = os.open(stdin_path or os.devnull, os.O_RDONLY)
    try:
        return subprocess.run(argv, stdin=fd, capture_output=True,
                              env=env).stdout
    finally:
        os.close(fd)


def impl_env(impl):
    env = dict(os.environ)
    if impl:
        env['UTF8CONV_IMPL'] = impl
    else:
        env.pop('UTF8CONV_IMPL', None)
    return env


def instructions(u8c, cache, ipb, log):
    """Instructions per input byte (callgrind, AVX2 kernels: valgrind has
    no AVX-512) of the main rows on 4 MiB slices: the same on every run,
    where the timings of a busy machine are not.  IPB(argv, path) is
    bench/run's case_ir."""
    sl = os.path.join(cache, 'gf.txt.slice')
    slcr = os.path.join(cache, 'gf.crlf.slice')
    with open(sl, 'rb') as f, open(slcr, 'wb') as g:
        g.write(f.read().replace(b'\n', b'\r\n'))
    rows = [('keep, LF text', [u8c], sl), ('--eol=lf, LF text', [u8c, '--eol=lf'], sl),
            ('validate, CRLF text', [u8c], slcr),
            ('--eol=lf, CRLF text', [u8c, '--eol=lf'], slcr),
            ('--eol=crlf, LF text', [u8c, '--eol=crlf'], sl)]
    old = os.environ.get('UTF8CONV_IMPL')
    os.environ['UTF8CONV_IMPL'] = 'avx2'
    try:
        res = {}
        for name, argv, path in rows:
            # case_ir reads PATH's 4 MiB slice, PATH + '.slice'.
            res[name] = ipb(argv, path[:-len('.slice')], cache)[0]
            log('   callgrind: %-22s %.3f instructions per byte' % (name, res[name]))
        return res
    finally:
        if old is None:
            del os.environ['UTF8CONV_IMPL']
        else:
            os.environ['UTF8CONV_IMPL'] = old


def run(cache, u8c, runs, log, which, ipb=None):
    """Time the commands; return the markdown table's lines."""
    lf, crlf = make_files(cache, log)
    avx2 = subprocess.call([u8c], stdin=open(os.devnull),
                           env=impl_env('avx2')) == 0
    impls = [None] + (['avx2'] if avx2 else [])
    # name -> (argv, stdin file, env)
    cmds = {}
    for impl in impls:
        tag = '' if impl is None else ' [avx2]'
        env = impl_env(impl)
        cmds['keep, LF text' + tag] = ([u8c, lf], None, env)
        cmds['--eol=lf, LF text' + tag] = ([u8c, '--eol=lf', lf], None, env)
        cmds['validate, CRLF text' + tag] = ([u8c, crlf], None, env)
        cmds['--check, CRLF text' + tag] = ([u8c, '--check', crlf], None, env)
        cmds['--eol=lf, CRLF text' + tag] = ([u8c, '--eol=lf', crlf], None, env)
        cmds['--eol=crlf, LF text' + tag] = ([u8c, '--eol=crlf', lf], None, env)
        cmds['-t UTF-16LE, CRLF text' + tag] = (
            [u8c, '-t', 'UTF-16LE', crlf], None, env)
        cmds['-t UTF-16LE --eol=lf, CRLF text' + tag] = (
            [u8c, '-t', 'UTF-16LE', '--eol=lf', crlf], None, env)
    if which('dos2unix'):
        cmds['dos2unix, CRLF text'] = (['dos2unix'], crlf, None)
    if which('unix2dos'):
        cmds['unix2dos, LF text'] = (['unix2dos'], lf, None)
    cmds["tr -d '\\r', CRLF text"] = (['tr', '-d', '\\r'], crlf, None)

    # The outputs agree with each other before anything is timed.
    want_lf = output_of([u8c, '--eol=lf', crlf])
    with open(lf, 'rb') as f:
        checks = {'CRLF to LF = the LF file': want_lf == f.read()}
    if which('dos2unix'):
        checks['= dos2unix'] = output_of(['dos2unix'], crlf) == want_lf
    if which('unix2dos'):
        checks['--eol=crlf = unix2dos'] = (
            output_of([u8c, '--eol=crlf', lf]) == output_of(['unix2dos'], lf))
    for k, v in checks.items():
        log('   eol check: %s: %s' % (k, 'ok' if v else 'MISMATCH'))

    times = {k: [] for k in cmds}
    names = list(cmds)
    for r in range(runs):
        for k in names[r % len(names):] + names[:r % len(names)]:
            argv, stdin_path, env = cmds[k]
            t, code = timed(argv, stdin_path, env)
            if code != 0:
                log('   %s: exit %d' % (k, code))
            times[k].append(t)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in names:
        log('   %-40s median %.4f s' % (k, med[k]))

    size = os.path.getsize(crlf) / (1 << 20)
    lines = ['', '## Line endings (--eol)', '',
             'Files: gf.txt (German/French prose, %.0f MiB, LF breaks) and '
             'gf.crlf (the same with CR LF, %.0f MiB); median of %d runs, '
             'output to /dev/null; the peers read standard input.'
             % (os.path.getsize(lf) / (1 << 20), size, runs), '',
             'Outputs checked first: ' + ', '.join(
                 '%s %s' % (k, 'ok' if v else '**MISMATCH**')
                 for k, v in checks.items()) + '.', '',
             '| command | median | ratio | target |', '|---|---:|---|---|']
    for impl in impls:
        tag = '' if impl is None else ' [avx2]'

        def row(name, base=None, target=''):
            ratio = ('%.2f× %s' % (med[name + tag] / med[base + tag], base)
                     if base else '')
            lines.append('| %s | %.1f ms | %s | %s |' % (
                name + tag, med[name + tag] * 1000, ratio, target))
        row('keep, LF text')
        row('--eol=lf, LF text', 'keep, LF text', '≤ 1.15×')
        row('validate, CRLF text')
        row('--check, CRLF text', 'validate, CRLF text')
        row('--eol=lf, CRLF text', 'validate, CRLF text', '≤ 1.5×')
        row('--eol=crlf, LF text', 'keep, LF text')
        row('-t UTF-16LE, CRLF text')
        row('-t UTF-16LE --eol=lf, CRLF text', '-t UTF-16LE, CRLF text')
    for name in ('dos2unix, CRLF text', 'unix2dos, LF text',
                 "tr -d '\\r', CRLF text"):
        if name in med:
            lines.append('| %s | %.1f ms | | |' % (name, med[name] * 1000))
    if ipb and which('valgrind'):
        ir = instructions(u8c, cache, ipb, log)
        lines += ['', 'Instructions per input byte (callgrind, AVX2 kernels, '
                  '4 MiB slices, start-up subtracted):', '',
                  '| command | instr/B | ratio |', '|---|---:|---|']
        for name, base in (('keep, LF text', None),
                           ('--eol=lf, LF text', 'keep, LF text'),
                           ('validate, CRLF text', None),
                           ('--eol=lf, CRLF text', 'validate, CRLF text'),
                           ('--eol=crlf, LF text', 'keep, LF text')):
            lines.append('| %s | %.3f | %s |' % (
                name, ir[name], '%.2f× %s' % (ir[name] / ir[base], base)
                if base else ''))
    return lines
