#!/usr/bin/env python3
"""Check the shape of the source tree that doc/DESIGN.md describes.

    tools/check-structure.py [--graph] [SRCDIR]

SRCDIR is the top of the source tree (default: the parent of tools/).
Drawn from the #include lines of src/, the checks are:

  - layers: every file belongs to a layer, and includes only files of
    its own layer or of the layers below it (the arrows point down):

        cli      src/cli/        the command line
        core     src/core/       codecs, registry, policy, pipeline
        simd     src/simd/       the fast kernels
        unicode  src/unicode/    Unicode's rules (Table 3-7), once

  - no circle: with a module's .c and .h taken as one node, the include
    graph of src/ has no cycle;
  - size: no hand-written source file is longer than 1,000 lines, and no
    function longer than 100 lines (a generated file, one whose first
    line says GENERATED FILE, is exempt).

Prints one line per problem and exits 1 if there is any; with --graph,
prints the module graph, one "module -> module" line per edge, first.
"""

import os
import re
import sys

LAYERS = ['unicode', 'simd', 'core', 'cli']
MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 100

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """The layer of a path relative to src/, or None."""
    top = rel.split('/', 1)[0]
    return top if top in LAYERS else None


def sources(srcdir):
    """Paths (relative to src/) of every .c and .h file under src/."""
    out = []
    src = os.path.join(srcdir, 'src')
    for dirpath, _dirs, files in os.walk(src):
        for name in files:
            if name.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(dirpath, name), src))
    return sorted(out)


def resolve(rel, target, known):
    """The file (relative to src/) that `#include "TARGET"` in REL names,
    searched as the compiler does: next to REL, then in src/core and src
    (the -I options of Makefile.am); None for a header outside src/
    (gnulib's, config.h)."""
    here = os.path.dirname(rel)
    for base in (here, 'core', ''):
        cand = os.path.normpath(os.path.join(base, target))
        if cand in known:
            return cand
    return None


def module(rel):
    """A module: a .c file and the .h of the same name are one node."""
    return re.sub(r'\.[ch]$', '', rel)


def find_cycle(graph):
    """One cycle of GRAPH (a dict of sets), as a list of nodes, or None."""
    white, grey, black = 0, 1, 2
    colour = {n: white for n in graph}
    stack = []

    def visit(n):
        colour[n] = grey
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if colour.get(m, white) == grey:
                return stack[stack.index(m):] + [m]
            if colour.get(m, white) == white:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        colour[n] = black
        return None

    for n in sorted(graph):
        if colour[n] == white:
            c = visit(n)
            if c:
                return c
    return None


def long_functions(text):
    """(name, first line, length) of each function body longer than the
    limit, in GNU style: the name at the start of a line, the body's
    braces in column 0."""
    name, start = None, None
    out = []
    for i, line in enumerate(text.split('\n'), 1):
        m = re.match(r'^([A-Za-z_]\w*)\s*\(', line)
        if m:
            name = m.group(1)
        if line.startswith('{'):
            start = i
        elif line.startswith('}') and start is not None:
            if i - start + 1 > MAX_FUNCTION_LINES:
                out.append((name, start, i - start + 1))
            start = None
    return out


def main(argv):
    graph_wanted = '--graph' in argv
    args = [a for a in argv if a != '--graph']
    srcdir = args[0] if args else os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..')
    files = sources(srcdir)
    known = set(files)
    problems = []
    graph = {}

    for rel in files:
        path = os.path.join(srcdir, 'src', rel)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        mine = layer_of(rel)
        if mine is None:
            problems.append('%s: in no layer (%s)' % (rel, ', '.join(LAYERS)))
            continue
        graph.setdefault(module(rel), set())
        for target in INCLUDE.findall(text):
            dep = resolve(rel, target, known)
            if dep is None:
                continue
            theirs = layer_of(dep)
            if theirs and LAYERS.index(theirs) > LAYERS.index(mine):
                problems.append('%s: includes %s, a layer above (%s -> %s)'
                                % (rel, dep, mine, theirs))
            if module(dep) != module(rel):
                graph[module(rel)].add(module(dep))
        if 'GENERATED FILE' in text.split('\n', 1)[0]:
            continue
        lines = text.count('\n')
        if lines > MAX_FILE_LINES:
            problems.append('%s: %d lines (at most %d)'
                            % (rel, lines, MAX_FILE_LINES))
        for name, start, n in long_functions(text):
            problems.append('%s:%d: function %s has %d lines (at most %d)'
                            % (rel, start, name, n, MAX_FUNCTION_LINES))

    cycle = find_cycle(graph)
    if cycle:
        problems.append('a circle of includes: ' + ' -> '.join(cycle))
    if graph_wanted:
        for n in sorted(graph):
            for m in sorted(graph[n]):
                print('%s -> %s' % (n, m))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
