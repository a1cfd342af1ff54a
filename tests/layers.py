#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""layers.py - libdevpm's layering rule (docs/architecture.md), checked.

    python3 tests/layers.py [--root DIR] [--objs DIR] [--nm FILE]

Each folder of lib/ is a layer, listed below from the bottom up.  A file may
include, and its object may call, only its own folder and the layers below;
the folders of one rank (bus/pci, bus/usb, ..., sleep, qos) do not use each
other.  No loop anywhere: not between the modules of one folder, not among
lib/runner's modules, not among qemu/'s.

Two sources of truth, both checked:
  includes  every #include "x/y.h" of lib/'s and lib/runner's sources;
  calls     the objects' symbols (nm): who defines what, who uses it.  --objs
            is the build directory (build/ by default); --nm FILE reads
            "module: nm-output" blocks instead (the unit test's plants).

Exit 0 clean, 1 with one line per violation, 2 on bad usage.
"""
import os
import re
import subprocess
import sys

# Bottom up; a name in a tuple shares its rank with the others.
LAYERS = [
    ('core',),
    ('state',),
    ('trace',),
    ('rpm',),
    ('judge',),
    ('bus/pci', 'bus/usb', 'bus/scsi', 'bus/i2c', 'bus/input', 'sleep', 'qos'),
    ('mock',),
    ('harness',),
    ('runner',),
]
RANK = {f: i for i, fs in enumerate(LAYERS) for f in fs}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(rel):
    """'bus/pci/pci.c' -> 'bus/pci', 'core/sysfs.h' -> 'core'; None: not lib."""
    parts = rel.split('/')
    if len(parts) >= 3 and parts[0] == 'bus':
        f = '/'.join(parts[:2])
    elif len(parts) >= 2:
        f = parts[0]
    else:
        return None
    return f if f in RANK else None


def allowed(src, dst):
    """May folder src use folder dst?"""
    return src == dst or RANK[dst] < RANK[src]


def why(src, dst):
    if RANK[dst] > RANK[src]:
        return 'goes up from %s to %s' % (src, dst)
    return 'crosses from %s to %s, a layer of the same rank' % (src, dst)


def lib_sources(root):
    for dirpath, _, names in os.walk(os.path.join(root, 'lib')):
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(dirpath, n),
                                      os.path.join(root, 'lib'))


def check_includes(root):
    bad = []
    for rel in sorted(lib_sources(root)):
        src = folder_of(rel)
        if src is None:
            continue
        with open(os.path.join(root, 'lib', rel), errors='replace') as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            # devpm.h is the suites' face; test.h, the suites' header, is
            # the one file of lib/ that includes it.
            if inc == 'devpm.h' and rel != 'harness/test.h':
                bad.append('lib/%s: includes devpm.h, the suites\' header: include what it uses' % rel)
                continue
            dst = folder_of(inc)
            if dst is None:
                continue
            if not allowed(src, dst):
                bad.append('lib/%s: #include "%s" %s' % (rel, inc, why(src, dst)))
    return bad


def nm_blocks(objs):
    """{module: nm text} for every object below objs/lib and objs/qemu."""
    out = {}
    for top in ('lib', 'qemu'):
        base = os.path.join(objs, top)
        for dirpath, dirs, names in os.walk(base):
            # devpm's own objects: not the fixtures' kernel build.
            dirs[:] = [d for d in dirs if d not in ('selftest', 'planted')
                       and not d.startswith('fixtures')]
            for n in sorted(names):
                if not n.endswith('.o'):
                    continue
                path = os.path.join(dirpath, n)
                mod = os.path.relpath(path, objs)[:-2]
                out[mod] = subprocess.run(['nm', path], capture_output=True,
                                          text=True, check=True).stdout
    return out


def read_nm_file(path):
    out, mod = {}, None
    with open(path) as f:
        for line in f:
            if line.endswith(':\n') and ' ' not in line.strip():
                mod = line.strip()[:-1]
                out[mod] = ''
            elif mod:
                out[mod] += line
    return out


def call_graph(blocks):
    defs, uses = {}, {}
    for mod, text in blocks.items():
        uses[mod] = set()
        for line in text.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBRC':
                defs.setdefault(p[2], mod)
            elif len(p) == 2 and p[0] == 'U':
                uses[mod].add(p[1])
    edges = {m: set() for m in blocks}
    for mod, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != mod:
                edges[mod].add(d)
    return edges


def module_folder(mod):
    """'lib/bus/pci/pci' -> 'bus/pci', 'lib/runner/run' -> 'runner'."""
    if not mod.startswith('lib/'):
        return None
    return folder_of(mod[4:] + '.c')


def loops(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check_calls(blocks):
    edges = call_graph(blocks)
    bad = []
    for mod in sorted(edges):
        src = module_folder(mod)
        for dst_mod in sorted(edges[mod]):
            dst = module_folder(dst_mod)
            if src is None or dst is None:
                if mod.startswith('lib/') and dst_mod.startswith('qemu/'):
                    bad.append('%s calls %s: lib/ never uses qemu/' % (mod, dst_mod))
                continue
            if not allowed(src, dst):
                bad.append('%s calls %s: %s' % (mod, dst_mod, why(src, dst)))
    for comp in loops(edges):
        bad.append('a loop of calls: %s' % ' -> '.join(comp + comp[:1]))
    return bad


def main(argv):
    root, objs, nmfile = '.', 'build', None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ('--root', '--objs', '--nm') and args:
            v = args.pop(0)
            if a == '--root':
                root = v
            elif a == '--objs':
                objs = v
            else:
                nmfile = v
        else:
            print('usage: layers.py [--root DIR] [--objs DIR] [--nm FILE]',
                  file=sys.stderr)
            return 2
    if not os.path.isdir(os.path.join(root, 'lib')):
        print('layers.py: %s/lib: no such directory (run from the top of the tree or pass --root)' % root,
              file=sys.stderr)
        return 2
    bad = check_includes(root)
    if nmfile:
        blocks = read_nm_file(nmfile)
    elif os.path.isdir(os.path.join(objs, 'lib')):
        blocks = nm_blocks(objs)
    else:
        print('layers.py: %s/lib: no objects: build first (make) or pass --objs' % objs,
              file=sys.stderr)
        return 2
    bad += check_calls(blocks)
    for b in bad:
        print(b)
    nmods = len(blocks)
    print('layers: %d modules, %d violations' % (nmods, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
