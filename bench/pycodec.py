"""Python 3's incremental codecs as a streaming transcoder (a bench/run peer).

usage: python3 pycodec.py FROM TO ERRORS FILE

Reads FILE in 64 KiB blocks, decodes each with an incremental decoder and
encodes the text with an incremental encoder (both with the error handler
ERRORS: strict, replace, backslashreplace, surrogateescape, ...), and writes
each block's output to stdout before reading the next, as utf8conv does.
"""

import codecs
import os
import sys

BLOCK = 64 * 1024


def write_all(fd, b):
    view = memoryview(b)
    while view:
        view = view[os.write(fd, view):]


def main():
    frm, to, errors, path = sys.argv[1:5]
    dec = codecs.getincrementaldecoder(frm)(errors)
    enc = codecs.getincrementalencoder(to)(errors)
    out = sys.stdout.fileno()
    with open(path, 'rb', buffering=0) as f:
        while True:
            b = f.read(BLOCK)
            if not b:
                break
            s = dec.decode(b)
            if s:
                write_all(out, enc.encode(s))
    write_all(out, enc.encode(dec.decode(b'', True), True))


if __name__ == '__main__':
    main()
