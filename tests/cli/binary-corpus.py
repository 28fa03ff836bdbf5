#!/usr/bin/env python3
"""Write a corpus of real binary files and of text files for the binary
test (SPEC §12): binary.bats uses a few of each, bench/binary hundreds.

    binary-corpus.py DIR [COUNT]

DIR/bin/ gets binaries made by the tools that make them: Python's
gzip, bz2, lzma, zipfile, tarfile, sqlite3, wave and py_compile; a
minimal PDF written here with a Flate-compressed stream; ImageMagick's
convert (JPEG, PNG, GIF, TIFF, BMP), msgfmt (.mo in both byte orders)
and javac (.class) when they are installed; copies of ELF files from
/usr/bin and /usr/lib.  COUNT (default 1) files of each kind, of sizes
from about 1 KiB to over 1 MiB.  Some files have their first byte above
0x7F before their first control byte, and the first control byte of
some lies after 32 KiB and after 1 MiB.

DIR/bin.list has one line per binary, NAME TAB WHAT, WHAT being what the
warning of utf8conv names in parentheses: the format of the file's
magic number (none for a format without one), and the first control
character that text does not hold with its offset, computed here.
DIR/missing lists the tools that were not found, one a line.

DIR/text/ gets text files that are never binary, and DIR/text.list one
line per text file, NAME TAB ENCODING (the -f that reads it) TAB the
name in DIR/want/ of its UTF-8 conversion under that -f and
--bom=strip."""

import bz2
import gzip
import io
import lzma
import os
import py_compile
import random
import shutil
import sqlite3
import array
import subprocess
import sys
import tarfile
import wave
import zipfile
import zlib

KIB = 1024
MIB = 1024 * KIB
TEXT_CONTROLS = {0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1A, 0x1B}

WORDS = ('the archive holds notes letters and reports from many years '
         'café naïve Größe über élève façade déjà vu Ærø smörgåsbord '
         'данные проверка текст Ελληνικά κείμενο 日本語 中文').split()


def first_control(data):
    """The offset and value of the first control byte text does not
    hold, or None."""
    for i, b in enumerate(data):
        if b < 0x20 and b not in TEXT_CONTROLS:
            return i, b
    return None


def prose(rng, size):
    """Text of about SIZE characters, in lines."""
    out, n = [], 0
    while n < size:
        line = ' '.join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        out.append(line)
        n += len(line) + 1
    return '\n'.join(out) + '\n'


def sizes(count):
    """COUNT target sizes from 1 KiB to 1.5 MiB, spread evenly on a log
    scale, the last over 1 MiB."""
    if count == 1:
        return [1200 * KIB]
    lo, hi = 1 * KIB, 1536 * KIB
    return [int(lo * (hi / lo) ** (i / (count - 1))) for i in range(count)]


class Corpus:
    def __init__(self, top, count):
        self.top = top
        self.count = count
        self.bin = os.path.join(top, 'bin')
        self.rng = random.Random(17)
        self.entries = []
        self.missing = []
        os.makedirs(self.bin, exist_ok=True)

    def path(self, name):
        return os.path.join(self.bin, name)

    def add(self, name, fmt):
        with open(self.path(name), 'rb') as f:
            data = f.read()
        parts = [fmt] if fmt else []
        fc = first_control(data)
        if fc:
            parts.append('U+%04X at byte %d' % (fc[1], fc[0]))
        assert parts, name
        self.entries.append((name, ', '.join(parts)))

    def write(self, name, fmt, data):
        with open(self.path(name), 'wb') as f:
            f.write(data)
        self.add(name, fmt)

    def noise(self, n):
        return self.rng.randbytes(n)

    # Python's modules.

    def compressed(self):
        for i, size in enumerate(sizes(self.count)):
            text = prose(self.rng, size // 2).encode()
            raw = text + self.noise(size // 2)
            self.write('c%d.gz' % i, 'gzip', gzip.compress(raw, mtime=0))
            self.write('c%d.bz2' % i, 'bzip2', bz2.compress(raw, 1))
            self.write('c%d.xz' % i, 'xz', lzma.compress(raw, preset=0))

    def archives(self):
        for i, size in enumerate(sizes(self.count)):
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('notes.txt', prose(self.rng, size // 2))
                z.writestr('data.bin', self.noise(size // 2))
            self.write('a%d.zip' % i, 'ZIP', buf.getvalue())
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode='w',
                              format=tarfile.USTAR_FORMAT) as t:
                data = prose(self.rng, size).encode()
                info = tarfile.TarInfo('notes.txt')
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            self.write('a%d.tar' % i, 'tar', buf.getvalue())

    def databases(self):
        for i, size in enumerate(sizes(self.count)):
            name = 'd%d.sqlite' % i
            if os.path.exists(self.path(name)):
                os.remove(self.path(name))
            con = sqlite3.connect(self.path(name))
            con.execute('create table notes (id integer, body text)')
            n = 0
            while n < size:
                body = prose(self.rng, 300)
                con.execute('insert into notes values (?, ?)', (n, body))
                n += len(body.encode())
            con.commit()
            con.close()
            self.add(name, 'SQLite')

    def sounds(self):
        for i, size in enumerate(sizes(self.count)):
            name = 's%d.wav' % i
            frames = max(size // 2, 512)
            with wave.open(self.path(name), 'wb') as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(8000)
                samples = array.array('h', (120 * ((k * 7) % 50 - 25)
                                            for k in range(frames)))
                if sys.byteorder == 'big':
                    samples.byteswap()
                w.writeframes(samples.tobytes())
            self.add(name, 'WAV')

    def pdfs(self):
        """Text objects before the compressed stream put the first
        control byte late: after 32 KiB, after 1 MiB."""
        for i, size in enumerate(sizes(self.count) + [40 * KIB, 1100 * KIB]):
            body = prose(self.rng, size).encode('latin-1', 'replace')
            text = b'(' + body.replace(b'\n', b') Tj T* (') + b') Tj'
            stream = zlib.compress(text + self.noise(64))
            objs = [b'<< /Type /Catalog /Pages 2 0 R >>',
                    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
                    b'<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>',
                    b'<< /Title (' + body[:size] + b') >>',
                    b'<< /Length %d /Filter /FlateDecode >>\nstream\n'
                    % len(stream) + stream + b'\nendstream']
            out = bytearray(b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')
            offsets = []
            for k, obj in enumerate(objs, 1):
                offsets.append(len(out))
                out += b'%d 0 obj\n' % k + obj + b'\nendobj\n'
            xref = len(out)
            out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1)
            out += b''.join(b'%010d 00000 n \n' % o for o in offsets)
            out += (b'trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n'
                    b'%%%%EOF\n' % (len(objs) + 1, xref))
            self.write('p%d.pdf' % i, 'PDF', bytes(out))

    def bytecode(self):
        src = os.path.join(self.top, 'm.py')
        for i, size in enumerate(sizes(self.count)):
            with open(src, 'w') as f:
                f.write('NOTES = %r\n' % prose(self.rng, size // 4))
            py_compile.compile(src, cfile=self.path('m%d.pyc' % i))
            self.add('m%d.pyc' % i, None)
        os.remove(src)

    def data(self):
        """No magic number, high bytes first, a NUL after 1 MiB."""
        text = prose(self.rng, MIB + 100).encode('cp1252', 'replace')
        self.write('late.dat', None,
                   b'\xe9t\xe9 ' + text + b'\0\1' + self.noise(300))

    # Outside tools.

    def tool(self, name):
        if shutil.which(name):
            return True
        self.missing.append(name)
        return False

    def images(self):
        if not self.tool('convert'):
            return
        fmts = [('jpg', 'JPEG'), ('png', 'PNG'), ('gif', 'GIF'),
                ('tif', 'TIFF'), ('bmp', 'BMP')]
        raw = os.path.join(self.top, 'raw.rgb')
        for i, size in enumerate(sizes(self.count)):
            side = max(16, int((size / 3) ** 0.5))
            # Noise over a gradient: the compressed formats stay near
            # SIZE too.
            with open(raw, 'wb') as f:
                f.write(bytes((x + y + self.rng.randrange(64)) & 0xFF
                              for y in range(side) for x in range(side * 3)))
            names = ['i%d.%s' % (i, ext) for ext, _ in fmts]
            cmd = ['convert', '-size', '%dx%d' % (side, side), '-depth', '8',
                   'rgb:' + raw, '-quality', '95']
            for n in names[1:]:
                cmd += ['-write', self.path(n)]
            subprocess.run(cmd + [self.path(names[0])], check=True)
            for n, (_, fmt) in zip(names, fmts):
                self.add(n, fmt)
        os.remove(raw)

    def catalogues(self):
        if not self.tool('msgfmt'):
            return
        po = os.path.join(self.top, 'm.po')
        for i, size in enumerate(sizes(self.count)):
            with open(po, 'w', encoding='utf-8') as f:
                f.write('msgid ""\nmsgstr "Content-Type: text/plain; '
                        'charset=UTF-8\\n"\n\n')
                n = k = 0
                while n < size // 2:
                    line = prose(self.rng, 60).strip().replace('\n', ' ')
                    f.write('msgid "m%d %s"\nmsgstr "%s"\n\n'
                            % (k, line, line[::-1]))
                    n += 2 * len(line.encode())
                    k += 1
            for order in ('little', 'big'):
                name = 'l%d-%s.mo' % (i, order)
                subprocess.run(['msgfmt', '--endianness=' + order, '-o',
                                self.path(name), po], check=True)
                self.add(name, 'gettext catalogue')
        os.remove(po)

    def classes(self):
        if not self.tool('javac'):
            return
        src = os.path.join(self.top, 'java')
        os.makedirs(src, exist_ok=True)
        names = []
        for i, size in enumerate(sizes(self.count)):
            cls = 'Note%d' % i
            # A class file holds at most 65535 bytes of one string.
            chunks = [prose(self.rng, 1000).replace('\n', ' ')
                      for _ in range(max(1, size // 2000))][:60]
            with open(os.path.join(src, cls + '.java'), 'w') as f:
                f.write('class %s {\n' % cls)
                for k, c in enumerate(chunks):
                    f.write('  static String s%d = "%s";\n' % (k, c))
                f.write('}\n')
            names.append(cls)
        subprocess.run(['javac', '-encoding', 'UTF-8', '-d', src]
                       + [os.path.join(src, n + '.java') for n in names],
                       check=True)
        for n in names:
            shutil.copy(os.path.join(src, n + '.class'),
                        self.path(n + '.class'))
            self.add(n + '.class', 'Java class')
        shutil.rmtree(src)

    def executables(self):
        """Copies of ELF files found on the system, smallest first."""
        found = []
        for d in ('/usr/bin', '/usr/lib/x86_64-linux-gnu', '/usr/lib'):
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            for n in names:
                p = os.path.join(d, n)
                try:
                    if not os.path.isfile(p) or os.path.islink(p):
                        continue
                    with open(p, 'rb') as f:
                        if f.read(4) != b'\x7fELF':
                            continue
                    found.append((os.path.getsize(p), p))
                except OSError:
                    continue
        found.sort()
        want = sizes(self.count)
        for i, size in enumerate(want):
            pick = min(found, key=lambda e: abs(e[0] - size))
            shutil.copyfile(pick[1], self.path('e%d.elf' % i))
            self.add('e%d.elf' % i, 'ELF')

    def binaries(self):
        for part in (self.compressed, self.archives, self.databases,
                     self.sounds, self.pdfs, self.bytecode, self.data,
                     self.images, self.catalogues, self.classes,
                     self.executables):
            part()
        with open(os.path.join(self.top, 'bin.list'), 'w') as f:
            f.writelines('%s\t%s\n' % e for e in self.entries)
        with open(os.path.join(self.top, 'missing'), 'w') as f:
            f.writelines(m + '\n' for m in self.missing)


TEXTS = [
    # name, encoding for Python, -f, the text, with a BOM
    ('u16le-bom.txt', 'utf-16-le', 'auto', 'Grüße, мир\r\nzweite Zeile\r\n', True),
    ('u16be-bom.txt', 'utf-16-be', 'auto', 'Grüße, мир\nzweite Zeile\n', True),
    ('u16le.txt', 'utf-16-le', 'auto', 'Plain old notes, ça va.\n' * 20, False),
    ('u16be.txt', 'utf-16-be', 'auto', 'Plain old notes, ça va.\n' * 20, False),
    ('u32le-bom.txt', 'utf-32-le', 'auto', 'Grüße 😀\n', True),
    ('u32be-bom.txt', 'utf-32-be', 'auto', 'Grüße 😀\n', True),
    ('u32le.txt', 'utf-32-le', 'auto', 'Grüße 😀, 中文\n' * 3, False),
    ('u32be.txt', 'utf-32-be', 'auto', 'Grüße 😀, 中文\n' * 3, False),
    ('ctl.txt', 'utf-8', 'UTF-8',
     'é \x1b[1mbold\x1b[0m\ttab\x0cpage\x0bvt\bbs\r\nend\x1a', False),
    ('cp1252.txt', 'cp1252', 'CP1252', 'café “quoted” naïve – €5\n' * 2000,
     False),
    ('sjis.txt', 'shift_jis', 'SHIFT_JIS',
     '日本語のテキストです。ファイル\r\n' * 3000, False),
    ('kr.txt', 'iso2022_kr', 'ISO-2022-KR', '한국어 텍스트\n' * 50, False),
    ('ebcdic.txt', 'cp037', 'IBM037', 'Hello, EBCDIC world\x85' * 50, False),
]


def texts(top):
    os.makedirs(os.path.join(top, 'text'), exist_ok=True)
    os.makedirs(os.path.join(top, 'want'), exist_ok=True)
    with open(os.path.join(top, 'text.list'), 'w') as lst:
        for name, enc, frm, text, bom in TEXTS:
            data = text.encode(enc)
            if bom:
                data = '\ufeff'.encode(enc) + data
            with open(os.path.join(top, 'text', name), 'wb') as f:
                f.write(data)
            # The UTF-8 conversion under --bom=strip, so that it does not
            # depend on what --bom=auto carries.
            with open(os.path.join(top, 'want', name), 'wb') as f:
                f.write(text.encode('utf-8'))
            lst.write('%s\t%s\t%s\n' % (name, frm, name))


def main():
    top = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    os.makedirs(top, exist_ok=True)
    Corpus(top, count).binaries()
    texts(top)


if __name__ == '__main__':
    main()
