#!/usr/bin/env python3
"""Generate the byte-packing tables of the x86 kernels in src/simd/.

Each table is the shuffle (or permutation) that packs the lanes of a
vector that hold something to the front, indexed by a bit mask that a
compare instruction gives; an index byte of 0x80 makes a zero byte.

  avx2    src/simd/avx2_tables.h, for src/simd/avx2.c:
            utf16_pairs_pack  (UTF-8 to UTF-16, kind 2 plans)
            utf8_two_pack, utf8_two_kept  (UTF-8 to UTF-16 and UTF-32,
                                           blocks of 2-byte characters)
            utf16_pack, utf16_pack_len  (UTF-16 to UTF-8)
  avx512  src/simd/avx512_tables.h, for src/simd/avx512.c:
            utf16_pairs_perm  (UTF-8 to UTF-16 with 4-byte characters)

Usage: tools/gen-pack-tables.py avx2 > src/simd/avx2_tables.h
       tools/gen-pack-tables.py avx512 > src/simd/avx512_tables.h
"""

import sys


def utf16_pairs_pack():
    """For 4 code points in 32-bit lanes, each a UTF-16 unit in its low
    half or a pair of units, by the 4-bit mask of the lanes with a pair:
    the bytes of the units, packed."""
    rows = []
    for mask in range(16):
        row = []
        for k in range(4):
            for b in range(4 if mask >> k & 1 else 2):
                row.append(4 * k + b)
        rows.append(row + [0x80] * (16 - len(row)))
    return rows


def utf8_two_pack():
    """For 8 units in 16-bit lanes, by the 8-bit mask of the lanes to
    drop: the bytes of the other lanes, packed; and their number."""
    rows, kept = [], []
    for mask in range(256):
        row = []
        for k in range(8):
            if not mask >> k & 1:
                row += [2 * k, 2 * k + 1]
        rows.append(row + [0x80] * (16 - len(row)))
        kept.append(len(row) // 2)
    return rows, kept


def utf16_pack():
    """For 4 UTF-16 units in 32-bit lanes, each holding its UTF-8 bytes
    from the lowest up, by the index with bit K set when unit K is at
    least 0x80 and bit 4 + K when it is at least 0x800: the bytes that
    count, packed; and their number."""
    rows, lens = [], []
    for idx in range(256):
        row = []
        for k in range(4):
            length = 1 + (idx >> k & 1) + (idx >> (4 + k) & 1)
            row += [4 * k + b for b in range(length)]
        rows.append(row + [0x80] * (16 - len(row)))
        lens.append(len(row))
    return rows, lens


def utf16_pairs_perm():
    """For 8 code points in 32-bit lanes, each a UTF-16 unit in its low
    half or a pair of units, by the 8-bit mask of the lanes with a pair:
    the 16-bit words of the units, packed."""
    rows = []
    for mask in range(256):
        row = []
        for k in range(8):
            row.append(2 * k)
            if mask >> k & 1:
                row.append(2 * k + 1)
        rows.append(row + [0] * (16 - len(row)))
    return rows


def table(out, comment, ctype, name, rows, align, fmt):
    """Write ROWS as the static const array NAME."""
    dims = "[%d]" % len(rows)
    if isinstance(rows[0], list):
        dims += "[%d]" % len(rows[0])
    out.write("\n")
    attr = " __attribute__ ((aligned (%d)))" % align if align else ""
    out.write("/* %s  */\n" % comment)
    out.write("static %s const %s%s%s = {\n" % (ctype, name, dims, attr))
    if isinstance(rows[0], list):
        for row in rows:
            out.write("  {" + ", ".join(fmt % b for b in row) + "},\n")
    else:
        for i in range(0, len(rows), 16):
            out.write("  " + ", ".join(fmt % b for b in rows[i:i + 16])
                      + ",\n")
    out.write("};\n")


def main():
    which = sys.argv[1] if len(sys.argv) == 2 else ""
    if which not in ("avx2", "avx512"):
        sys.exit("usage: gen-pack-tables.py avx2|avx512")
    out = sys.stdout
    out.write("/* GENERATED FILE, DO NOT EDIT: made by "
              "tools/gen-pack-tables.py %s.  */\n" % which)
    if which == "avx2":
        table(out, "For 4 code points in 32-bit lanes, each made a UTF-16 "
              "unit in its low\n   half, or a pair of units: the byte "
              "shuffle that packs the units, by\n   the 4-bit mask of the "
              "lanes that hold a pair.",
              "uint8_t", "utf16_pairs_pack", utf16_pairs_pack(), 16,
              "0x%02x")
        rows, kept = utf8_two_pack()
        table(out, "For 8 units in 16-bit lanes: the byte shuffle that "
              "packs the lanes\n   that are not marked in the 8-bit mask "
              "(continuation bytes) to the\n   front.",
              "uint8_t", "utf8_two_pack", rows, 16, "0x%02x")
        table(out, "And the number of lanes kept: a load costs less than "
              "a popcount.",
              "uint8_t", "utf8_two_kept", kept, 0, "%d")
        rows, lens = utf16_pack()
        table(out, "For 4 UTF-16 units in 32-bit lanes, each holding the "
              "unit's UTF-8\n   bytes from the lowest up: the byte shuffle "
              "that packs them, and the\n   bytes it keeps.  The index has "
              "bit K set when unit K is at least 0x80\n   and bit 4 + K "
              "when it is at least 0x800.",
              "uint8_t", "utf16_pack", rows, 16, "0x%02x")
        table(out, "The number of bytes each shuffle of utf16_pack keeps.",
              "uint8_t", "utf16_pack_len", lens, 0, "%d")
    else:
        table(out, "For 8 code points in 32-bit lanes, each made a UTF-16 "
              "unit in its low\n   half or a pair of units: the word "
              "permutation that packs the units, by\n   the 8-bit mask of "
              "the lanes that hold a pair.",
              "uint16_t", "utf16_pairs_perm", utf16_pairs_perm(), 32, "%d")


main()
