#!/usr/bin/env python3
"""Generate the golden test cases of utf8conv's CLI suite.

Run from anywhere (python3, standard library only):

    python3 tests/golden/gen.py

It rewrites, byte-identically on every run,

    tests/golden/cases/NAME.in       input files (raw bytes)
    tests/golden/expected/CASE.out   expected output of each case
    tests/golden/manifest.tsv        one line per case, tab-separated:
        case  input  from  to  policy  flags  expected  status
    (flags: extra options separated by spaces, '-' for none; input and
    expected are paths relative to tests/golden/)

and tests/cli/golden.bats runs utf8conv on every row.

The expected results come from an oracle that is independent of the C
program: Python's codecs, adjusted where SPEC.md differs from Python:

 (a) UTF-16 input without a BOM is read in the byte order of its NUL
     pattern (the first 256 bytes: more than half of the pairs with a NUL
     in one place, at most an eighth in the other), else big-endian;
     UTF-32 input without a BOM in the order of its first unit that is at
     most 10FFFF one way only, else big-endian.  UTF-16/UTF-32 output is a
     BOM (FF FE, FF FE 00 00) then little-endian, or big-endian without BOM
     under --bom=strip.
 (b) A leading U+FEFF of any input is a signature: --bom=auto carries it to
     the output as a BOM, except a UTF-16/UTF-32 one to UTF-8 (as iconv),
     strip removes it, add writes one BOM anyway.  A BOM is only written
     together with the first output character.
 (c) strict: the output is the conversion of everything before the first
     error, exit status 1.
 (d) surrogateescape on UTF-16/UTF-32 input passes lone surrogate units
     through; an error holding a byte below 0x80 is handled as strict.
 (f) surrogateescape on output: U+DC80..U+DCFF become the raw byte in UTF-8
     and a lone code unit in UTF-16/UTF-32; other lone surrogates to UTF-8
     are encoding errors handled as strict.
 (g) ignore drops errors; exit status 1 when anything was dropped.
 (h) escape is Python's backslashreplace (or the --byte-subst format).
"""

import codecs
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

UNICODE = ['UTF-8', 'UTF-16LE', 'UTF-16BE', 'UTF-16', 'UTF-32LE', 'UTF-32BE', 'UTF-32']
POLICIES = ['strict', 'replace', 'escape', 'surrogateescape', 'ignore']
PYCODEC = {'UTF-8': 'utf-8', 'UTF-16LE': 'utf-16-le', 'UTF-16BE': 'utf-16-be',
           'UTF-32LE': 'utf-32-le', 'UTF-32BE': 'utf-32-be'}
BOM = {'UTF-8': b'\xef\xbb\xbf', 'UTF-16LE': b'\xff\xfe', 'UTF-16BE': b'\xfe\xff',
       'UTF-32LE': b'\xff\xfe\x00\x00', 'UTF-32BE': b'\x00\x00\xfe\xff'}


def unmarked_order(data, n):
    """The byte order of BOM-less UTF-16 (N = 2) or UTF-32 (N = 4) input,
    'LE' or 'BE', by SPEC §6's NUL pattern (see (a) above)."""
    w = data[:256]
    if n == 2:
        pairs = len(w) // 2
        z_even = sum(1 for i in range(0, 2 * pairs, 2) if w[i] == 0)
        z_odd = sum(1 for i in range(1, 2 * pairs, 2) if w[i] == 0)
        if 2 * z_odd > pairs and 8 * z_even <= pairs:
            return 'LE'
        return 'BE'
    for i in range(0, len(w) - 3, 4):
        le = w[i + 3] == 0 and w[i + 2] <= 0x10
        be = w[i] == 0 and w[i + 1] <= 0x10
        if le != be:
            return 'LE' if le else 'BE'
    return 'BE'


class Ambiguous(Exception):
    """A case whose result SPEC.md does not pin down; never generated."""


def decode(data, frm, policy, byte_fmt):
    """Return (chars, had_signature, n_errors, stopped)."""
    sig = False
    if frm in ('UTF-16', 'UTF-32'):
        n = 2 if frm == 'UTF-16' else 4
        le, be = BOM[frm + 'LE'], BOM[frm + 'BE']
        if data[:n] == le:
            codec, data, sig = PYCODEC[frm + 'LE'], data[n:], True
        elif data[:n] == be:
            codec, data, sig = PYCODEC[frm + 'BE'], data[n:], True
        else:
            codec = PYCODEC[frm + unmarked_order(data, n)]
    else:
        codec = PYCODEC[frm]
    unitlen = {'utf-8': None, 'utf-16-le': 2, 'utf-16-be': 2,
               'utf-32-le': 4, 'utf-32-be': 4}[codec]
    order = 'little' if codec.endswith('le') else 'big'
    errors = []

    def handler(e):
        if not isinstance(e, UnicodeDecodeError):
            raise e
        bad = e.object[e.start:e.end]
        if policy == 'strict':
            raise e
        if policy == 'surrogateescape':
            if unitlen and len(bad) == unitlen:
                unit = int.from_bytes(bad, order)
                if 0xD800 <= unit <= 0xDFFF:
                    errors.append(e.start)
                    return (chr(unit), e.end)
            if unitlen == 2 and len(bad) == 3:
                raise Ambiguous('high surrogate + odd byte under surrogateescape')
            if any(b < 0x80 for b in bad):
                raise e
            errors.append(e.start)
            return (''.join(chr(0xDC00 + b) for b in bad), e.end)
        errors.append(e.start)
        if policy == 'replace':
            return ('\ufffd', e.end)
        if policy == 'ignore':
            return ('', e.end)
        if policy == 'escape':
            return (''.join(byte_fmt % b for b in bad), e.end)
        raise AssertionError(policy)

    codecs.register_error('utf8conv-golden', handler)
    stopped = False
    try:
        chars = data.decode(codec, 'utf8conv-golden')
    except UnicodeDecodeError as e:
        stopped = True
        del errors[:]
        chars = data[:e.start].decode(codec, 'utf8conv-golden')
    if not sig and chars.startswith('\ufeff'):
        sig = True
        chars = chars[1:]
    return chars, sig, len(errors), stopped


def encode(chars, to, policy, bom):
    """Return (bytes, stopped)."""
    if to in ('UTF-16', 'UTF-32'):
        to = to + ('BE' if bom == 'strip' else 'LE')
    codec = PYCODEC[to]
    if policy != 'surrogateescape':
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in chars), 'oracle bug'
    stopped = False
    if to == 'UTF-8':
        try:
            out = chars.encode(codec, 'surrogateescape')
        except UnicodeEncodeError as e:
            stopped = True
            chars = chars[:e.start]
            out = chars.encode(codec, 'surrogateescape')
    else:
        out = chars.encode(codec, 'surrogatepass')
    return out, to, len(chars) > 0, stopped


def convert(data, frm, to, policy='strict', bom='auto', byte_fmt='\\x%02x'):
    chars, sig, nerr, dstop = decode(data, frm, policy, byte_fmt)
    out, actual_to, nonempty, estop = encode(chars, to, policy, bom)
    # A UTF-16/UTF-32 signature is not carried into UTF-8.
    carried = sig and (to != 'UTF-8' or frm == 'UTF-8')
    write_bom = nonempty and (
        (to in ('UTF-16', 'UTF-32') and bom != 'strip')
        or bom == 'add' or (bom == 'auto' and carried))
    if write_bom:
        out = BOM[actual_to] + out
    status = 1 if (dstop or estop or (policy == 'ignore' and nerr)) else 0
    return out, status


def selftest():
    """The examples of SPEC.md, so that a broken oracle cannot go unseen."""
    t38 = bytes.fromhex('61 F1 80 80 E1 80 C2 62 80 63 80 BF 64')
    assert convert(t38, 'UTF-8', 'UTF-8', 'replace') == (
        'a\ufffd\ufffd\ufffdb\ufffdc\ufffd\ufffdd'.encode(), 0)
    assert convert(t38, 'UTF-8', 'UTF-8') == (b'a', 1)
    assert convert(t38, 'UTF-8', 'UTF-8', 'ignore') == (b'abcd', 1)
    assert convert(b'\xff\xfea\x00', 'UTF-16LE', 'UTF-8') == (b'a', 0)
    assert convert(b'\xef\xbb\xbfa', 'UTF-8', 'UTF-16LE') == (b'\xff\xfea\x00', 0)
    assert convert(b'h\x00i\x00', 'UTF-16', 'UTF-8') == (b'hi', 0)
    assert convert(b'\x00h\x00i', 'UTF-16', 'UTF-8') == (b'hi', 0)
    assert convert(b'h\x00\x00\x00', 'UTF-32', 'UTF-8') == (b'h', 0)
    assert convert(b'a', 'UTF-8', 'UTF-16') == (b'\xff\xfea\x00', 0)
    assert convert(b'a', 'UTF-8', 'UTF-16', bom='strip') == (b'\x00a', 0)
    assert convert(b'', 'UTF-8', 'UTF-16', bom='add') == (b'', 0)
    assert convert(b'\xef\xbb\xbf', 'UTF-8', 'UTF-8') == (b'', 0)
    assert convert(b'\xff', 'UTF-8', 'UTF-16LE') == (b'', 1)
    assert convert(b'\x80\xff', 'UTF-8', 'UTF-8', 'escape') == (b'\\x80\\xff', 0)
    allb = bytes(range(256))
    assert convert(allb, 'UTF-8', 'UTF-8', 'surrogateescape') == (allb, 0)
    u16, st = convert(allb, 'UTF-8', 'UTF-16LE', 'surrogateescape')
    assert st == 0 and convert(u16, 'UTF-16LE', 'UTF-8', 'surrogateescape') == (allb, 0)
    odd = b'\x00\xd8a\x00\x00\xdc\xff\xdf'
    assert convert(odd, 'UTF-16LE', 'UTF-16LE', 'surrogateescape') == (odd, 0)


# ---------------------------------------------------------------- inputs

def h(s):
    return bytes.fromhex(s)


def u16(units, order):
    return b''.join(u.to_bytes(2, order) for u in units)


def u32(units, order):
    return b''.join(u.to_bytes(4, order) for u in units)


def text16(s):
    """Code units of a str (supplementary characters as pairs)."""
    b = s.encode('utf-16-be')
    return [int.from_bytes(b[i:i + 2], 'big') for i in range(0, len(b), 2)]


A = [ord('a')]
B = [ord('b')]
NL = [0x0A]

# (name, from-encoding, bytes, extra policies excluded)
INPUTS = []


def add(name, frm, data, skip=()):
    INPUTS.append((name, frm, data, tuple(skip)))


# UTF-8: every category of Markus Kuhn's UTF-8 decoder capability test,
# in our own bytes.
add('u8_ascii', 'UTF-8', b'Hello, world!\nsecond line\n')
add('u8_empty', 'UTF-8', b'')
add('u8_text', 'UTF-8', 'κόσμε — 日本語 😀 𝄞 ©\n\ttab\r\n'.encode())
add('u8_nul', 'UTF-8', b'a\x00b\x00\n')
add('u8_first_each_length', 'UTF-8', h('00 20 C2 80 20 E0 A0 80 20 F0 90 80 80 0A'))
add('u8_last_each_length', 'UTF-8', h('7F 20 DF BF 20 EF BF BF 20 F4 8F BF BF 0A'))
add('u8_boundary_7f_80', 'UTF-8', h('7F C2 80 0A'))
add('u8_boundary_7ff_800', 'UTF-8', h('DF BF E0 A0 80 0A'))
add('u8_boundary_ffff_10000', 'UTF-8', h('EF BF BF F0 90 80 80 0A'))
add('u8_boundary_10ffff_110000', 'UTF-8', h('F4 8F BF BF 20 F4 90 80 80 0A'))
add('u8_boundary_d7ff_e000', 'UTF-8', h('ED 9F BF EE 80 80 EF BF BD 0A'))
add('u8_beyond_10ffff', 'UTF-8',
    h('F4 90 80 80 20 F5 80 80 80 20 F7 BF BF BF 20 F8 88 80 80 80 20 FC 84 80 80 80 80 0A'))
add('u8_lead_c0_df', 'UTF-8', b''.join(bytes([b, 0x20]) for b in range(0xC0, 0xE0)))
add('u8_lead_e0_ef', 'UTF-8', b''.join(bytes([b, 0x20]) for b in range(0xE0, 0xF0)))
add('u8_lead_f0_ff', 'UTF-8', b''.join(bytes([b, 0x20]) for b in range(0xF0, 0x100)))
add('u8_lone_continuation', 'UTF-8', bytes(range(0x80, 0xC0)) + b'\n')
add('u8_continuation_groups', 'UTF-8', h('80 20 BF 20 80 BF 20 80 BF 80 20 80 BF 80 BF 0A'))
add('u8_overlong_slash', 'UTF-8',
    h('C0 AF 20 E0 80 AF 20 F0 80 80 AF 20 F8 80 80 80 AF 20 FC 80 80 80 80 AF 0A'))
add('u8_overlong_max', 'UTF-8', h('C1 BF 20 E0 9F BF 20 F0 8F BF BF 20 F8 87 BF BF BF 0A'))
add('u8_overlong_nul', 'UTF-8', h('C0 80 20 E0 80 80 20 F0 80 80 80 20 F8 80 80 80 80 0A'))
add('u8_surrogates_single', 'UTF-8',
    h('ED A0 80 20 ED AD BF 20 ED AE 80 20 ED AF BF 20 ED B0 80 20 ED BE 80 20 ED BF BF 0A'))
add('u8_surrogates_paired', 'UTF-8', h('ED A0 80 ED B0 80 20 ED AF BF ED BF BF 0A'))
add('u8_truncated_each', 'UTF-8',
    h('C2 20 E0 A0 20 F0 90 80 20 E1 80 20 F1 80 80 20 DF 20 EF BF 20 F4 8F BF 0A'))
add('u8_truncated_concatenated', 'UTF-8', h('C2 E0 A0 F0 90 80 E1 80 F1 80 80 DF EF BF F4 8F BF'))
add('u8_truncated_at_eof', 'UTF-8', b'abc' + h('F0 9F 98'))
add('u8_truncated_2_at_eof', 'UTF-8', b'abc\n' + h('E1 80'))
add('u8_impossible_bytes', 'UTF-8', h('FE 20 FF 20 FE FE FF FF 0A'))
add('u8_table_3_8', 'UTF-8', h('61 F1 80 80 E1 80 C2 62 80 63 80 BF 64'))
add('u8_noncharacters', 'UTF-8', h('EF BF BE 20 EF BF BF 20 EF B7 90 20 EF B7 AF 20 F0 9F BF BE 20 F4 8F BF BF 0A'))
add('u8_error_first', 'UTF-8', b'\xffabc\n')
add('u8_error_last', 'UTF-8', b'abc\n\x80')
add('u8_backslash_and_error', 'UTF-8', b'a\\x80\x80b\n')
add('u8_all_bytes', 'UTF-8', bytes(range(256)))
add('u8_bom', 'UTF-8', b'\xef\xbb\xbfhi \xc3\xa9\n')
add('u8_bom_only', 'UTF-8', b'\xef\xbb\xbf')
add('u8_bom_then_error', 'UTF-8', b'\xef\xbb\xbf\xffa\n')
add('u8_bom_truncated', 'UTF-8', b'\xef\xbb')
add('u8_feff_not_leading', 'UTF-8', b'a\xef\xbb\xbfb')

# The big-endian decoders get a subset of the little-endian inputs.
BE_SUBSET = ('_text', '_bom', '_lone_high', '_lone_low_dc80_dcff', '_high_at_end',
             '_odd_high_byte', '_above_10ffff', '_ffffffff', '_surrogate_units', '_tail_3_ascii')


def add_endian(name, frm, data, skip=()):
    if frm.endswith('LE') or name[name.index('_'):] in BE_SUBSET:
        add(name, frm, data, skip)


for order, suf in (('little', 'LE'), ('big', 'BE')):
    e = 'UTF-16' + suf
    p = 'u16' + suf.lower()
    add_endian(p + '_text', e, u16(text16('κόσμε 日本 😀 𝄞\n'), order))
    add_endian(p + '_empty', e, b'')
    add_endian(p + '_bom', e, u16([0xFEFF] + text16('hi 😀\n'), order))
    add_endian(p + '_bom_only', e, u16([0xFEFF], order))
    add_endian(p + '_lone_high', e, u16(A + [0xD800] + B, order))
    add_endian(p + '_lone_low', e, u16(A + [0xDC00] + B, order))
    add_endian(p + '_lone_low_dc80_dcff', e, u16(A + [0xDC80, 0xDCFF] + B, order))
    add_endian(p + '_high_high_low', e, u16([0xD800, 0xD800, 0xDC00] + NL, order))
    add_endian(p + '_low_high', e, u16([0xDFFF, 0xDBFF] + B, order))
    add_endian(p + '_high_at_end', e, u16(A + [0xDBFF], order))
    add_endian(p + '_odd_ascii_byte', e, u16(A + B, order) + b'\x41')
    add_endian(p + '_odd_high_byte', e, u16(A + B, order) + b'\x80')
    add_endian(p + '_high_then_odd_byte', e, u16(A + [0xD800], order) + b'\x41',
        skip=('surrogateescape',))
    add_endian(p + '_noncharacters', e, u16([0xFFFE, 0x20, 0xFFFF, 0x20, 0xDBFF, 0xDFFE] + NL, order))
    add_endian(p + '_error_first', e, u16([0xDC00] + A, order))

for order, suf in (('little', 'LE'), ('big', 'BE')):
    e = 'UTF-32' + suf
    p = 'u32' + suf.lower()
    add_endian(p + '_text', e, u32([ord(c) for c in 'κόσμε 日本 😀\n'] + [0x10FFFF, 0x0A], order))
    add_endian(p + '_bom', e, u32([0xFEFF] + A + B, order))
    add_endian(p + '_bom_only', e, u32([0xFEFF], order))
    add_endian(p + '_above_10ffff', e, u32(A + [0x110000] + B, order))
    add_endian(p + '_ffffffff', e, u32(A + [0xFFFFFFFF] + B, order))
    add_endian(p + '_surrogate_units', e, u32(A + [0xD800, 0xDC00] + B, order))
    add_endian(p + '_surrogate_dc80', e, u32(A + [0xDC80, 0xDCFF] + B, order))
    add_endian(p + '_tail_1', e, u32(A, order) + b'\x80')
    add_endian(p + '_tail_2', e, u32(A, order) + b'\x80\x81')
    add_endian(p + '_tail_3_ascii', e, u32(A, order) + b'\x80\x41\x80')

add('u16_bom_fffe', 'UTF-16', u16([0xFEFF] + text16('hi 😀\n'), 'little'))
add('u16_bom_feff', 'UTF-16', u16([0xFEFF] + text16('hi 😀\n'), 'big'))
add('u16_no_bom', 'UTF-16', u16(text16('hi 😀\n'), 'big'))
add('u16_bom_only', 'UTF-16', b'\xff\xfe')
add('u16_bom_lone_surrogate', 'UTF-16', u16([0xFEFF, 0xD800] + A, 'little'))
add('u16_no_bom_lone_surrogate', 'UTF-16', u16(A + [0xDC00] + B, 'big'))
add('u16_le_bytes_no_bom', 'UTF-16', u16(text16('ab'), 'little'))
add('u32_bom_fffe', 'UTF-32', u32([0xFEFF] + A + [0x1F600] + NL, 'little'))
add('u32_bom_feff', 'UTF-32', u32([0xFEFF] + A + [0x1F600] + NL, 'big'))
add('u32_no_bom', 'UTF-32', u32(A + [0x1F600] + NL, 'big'))
add('u32_bom_only', 'UTF-32', b'\xff\xfe\x00\x00')
add('u32_no_bom_above_10ffff', 'UTF-32', u32(A + [0x110000] + B, 'big'))


# ---------------------------------------------------------------- cases

def cases():
    """Yield (input name, from or None, to, policy, bom mode, byte-subst or None)."""
    targets = [t for t in UNICODE if t != 'UTF-8']
    for i, (name, frm, data, skip) in enumerate(INPUTS):
        pols = [p for p in POLICIES if p not in skip]
        other = targets[i % len(targets)]
        other2 = targets[(i + 3) % len(targets)]
        if frm == 'UTF-8':
            plan = [('UTF-8', p) for p in pols]
            plan += [(other, POLICIES[i % len(POLICIES)])]
        else:
            plan = [('UTF-8', p) for p in ('replace', 'escape', 'surrogateescape')]
            plan += [(other, 'strict'), (other2, 'ignore'), (frm, 'surrogateescape')]
            plan = [(t, p) for t, p in plan if p in pols]
        valid = convert(data, frm, 'UTF-8')[1] == 0
        for to, pol in plan:
            # Valid input: every policy gives the same result; keep two.
            if valid and pol not in ('strict', 'surrogateescape') and (to, 'strict') in plan:
                continue
            yield name, frm, to, pol, 'auto', None
    # BOM modes
    for name in ('u8_ascii', 'u8_bom', 'u8_bom_only', 'u8_empty', 'u8_bom_then_error',
                 'u16le_bom', 'u16be_text', 'u16_bom_feff', 'u32le_bom', 'u32_no_bom'):
        for to in ('UTF-8', 'UTF-16', 'UTF-32LE'):
            for bom in ('strip', 'add'):
                for pol in ('strict', 'replace'):
                    if pol == 'replace' and name != 'u8_bom_then_error':
                        continue
                    yield name, None, to, pol, bom, None
    # --byte-subst formats under escape
    for name in ('u8_table_3_8', 'u8_all_bytes', 'u16le_lone_high', 'u32be_above_10ffff'):
        for fmt in ('<%02X>', '%u;', '[%x]'):
            yield name, None, 'UTF-8', 'escape', 'auto', fmt
        yield name, None, 'UTF-16LE', 'escape', 'auto', '<%02X>'


def main():
    selftest()
    byname = {n: (f, d, s) for n, f, d, s in INPUTS}
    cdir = os.path.join(HERE, 'cases')
    edir = os.path.join(HERE, 'expected')
    for d, ext in ((cdir, '.in'), (edir, '.out')):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.endswith(ext):
                os.unlink(os.path.join(d, f))
    for name, frm, data, _ in INPUTS:
        with open(os.path.join(cdir, name + '.in'), 'wb') as fp:
            fp.write(data)
    rows = []
    seen = set()
    for name, frm, to, pol, bom, fmt in cases():
        frm2, data, skip = byname[name]
        frm = frm or frm2
        flags = []
        if bom != 'auto':
            flags.append('--bom=' + bom)
        if fmt is not None:
            flags.append('--byte-subst=' + fmt)
        case = '%s.%s.%s' % (name, to, pol)
        if bom != 'auto':
            case += '.bom-' + bom
        if fmt is not None:
            case += '.fmt%d' % (['<%02X>', '%u;', '[%x]'].index(fmt) + 1)
        if case in seen:
            continue
        seen.add(case)
        out, status = convert(data, frm, to, pol, bom, fmt or '\\x%02x')
        with open(os.path.join(edir, case + '.out'), 'wb') as fp:
            fp.write(out)
        rows.append('\t'.join([case, 'cases/%s.in' % name, frm, to, pol,
                               ' '.join(flags) or '-', 'expected/%s.out' % case,
                               str(status)]))
    with open(os.path.join(HERE, 'manifest.tsv'), 'w', newline='\n') as fp:
        fp.write('# generated by gen.py; do not edit\n')
        fp.write('# case\tinput\tfrom\tto\tpolicy\tflags\texpected\tstatus\n')
        for r in rows:
            fp.write(r + '\n')
    print('%d inputs, %d cases' % (len(INPUTS), len(rows)), file=sys.stderr)


if __name__ == '__main__':
    main()
