"""bench/icudetect.py: ICU's charset detector (ucsdet, through PyICU, Debian
package python3-icu) on many files in one process.  Reads file names from
stdin, one a line; writes "NAME<TAB>ENCODING<TAB>CONFIDENCE" for each, with
an empty ENCODING when ICU finds no match.  With --list, prints the names
ICU can detect instead.  bench/detect runs it with a Python that has PyICU
(its own, or /usr/bin/python3)."""

import sys

import icu


def main():
    det = icu.CharsetDetector()
    if sys.argv[1:] == ['--list']:
        print('\n'.join(sorted(det.getAllDetectableCharsets())))
        return 0
    out = sys.stdout
    for line in sys.stdin:
        path = line.rstrip('\n')
        with open(path, 'rb') as f:
            det.setText(f.read())
        try:
            m = det.detect()
            name, conf = m.getName(), m.getConfidence()
        except icu.ICUError:
            name, conf = '', 0
        out.write('%s\t%s\t%d\n' % (path, name, conf))
    return 0


if __name__ == '__main__':
    sys.exit(main())
