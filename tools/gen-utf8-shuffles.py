#!/usr/bin/env python3
"""Generate src/simd/utf8_shuffles.h: the tables of the vector UTF-8 ->
UTF-16/UTF-32 converter in src/simd/avx2.c.

The converter looks at 16 bytes of well-formed UTF-8 that start on a
character boundary.  Bit i of a 12-bit mask says that byte i ends a
character.  For each mask, the table says how to gather the first few
characters into lanes with one byte shuffle:

  - up to 8 characters of 1 or 2 bytes into 16-bit lanes, the last byte
    of the character in the low byte and the lead byte (if any) in the
    high byte;
  - otherwise up to 4 characters of 1 to 3 bytes into 32-bit lanes, the
    last byte lowest, then the middle, then the lead (kind 1);
  - or, when one of the first 4 characters has 4 bytes, up to 4
    characters of 1 to 4 bytes into 32-bit lanes in the same way (kind 2).

Characters must end in the first 12 bytes, so a plan always takes at
least one character of well-formed UTF-8.

Usage: tools/gen-utf8-shuffles.py > src/simd/utf8_shuffles.h
"""

import sys


def plan(mask):
    chars = []
    start = 0
    for i in range(12):
        if mask >> i & 1:
            chars.append((start, i - start + 1))
            start = i + 1
    # Keep the leading characters the lanes can hold.
    taken = []
    for (s, n) in chars:
        if n > 3:
            break
        taken.append((s, n))
    # A 4-byte character among the first four makes a plan of kind 2.
    first4 = []
    for (s, n) in chars[:4]:
        if n > 4:
            break
        first4.append((s, n))
    has4 = any(n == 4 for (_, n) in first4)
    short = []
    for (s, n) in taken[:8]:
        if n > 2:
            break
        short.append((s, n))
    if short and (len(short) >= 4
                  or (not has4 and len(short) == len(taken[:8]))):
        shuffle = [0x80] * 16
        for k, (s, n) in enumerate(short):
            shuffle[2 * k] = s + n - 1
            if n == 2:
                shuffle[2 * k + 1] = s
        return 0, short, shuffle
    kind = 1
    taken = taken[:4]
    if has4:
        kind = 2
        taken = first4
    shuffle = [0x80] * 16
    for k, (s, n) in enumerate(taken):
        for j in range(n):
            shuffle[4 * k + j] = s + n - 1 - j
    return kind, taken, shuffle


def main():
    shuffles = {}
    order = []
    entries = []
    for mask in range(4096):
        kind, taken, shuffle = plan(mask)
        key = (kind, tuple(shuffle))
        if key not in shuffles:
            shuffles[key] = len(order)
            order.append(key)
        consumed = sum(n for (_, n) in taken)
        entries.append((shuffles[key], consumed, len(taken), kind))
    out = sys.stdout
    out.write("/* GENERATED FILE, DO NOT EDIT: made by "
              "tools/gen-utf8-shuffles.py.  */\n\n")
    out.write("/* Byte shuffles that gather characters into 16-bit lanes "
              "(kind 0)\n   or 32-bit lanes (kinds 1 and 2).  */\n")
    out.write("static uint8_t const utf8_shuffles[%d][16] "
              "__attribute__ ((aligned (16))) = {\n" % len(order))
    for (kind, shuffle) in order:
        out.write("  {" + ", ".join("0x%02x" % b for b in shuffle) + "},\n")
    out.write("};\n\n")
    out.write("/* For each 12-bit mask of character ends: the shuffle, the "
              "bytes\n   consumed, the characters produced and the kind.  */\n")
    out.write("static struct utf8_plan const utf8_plans[4096] = {\n")
    for i, (idx, consumed, count, kind) in enumerate(entries):
        out.write("  {%d, %d, %d, %d}," % (idx, consumed, count, kind))
        out.write("\n" if i % 4 == 3 else "")
    out.write("};\n")


main()
