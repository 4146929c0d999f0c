#!/usr/bin/env python3
"""Checks that the core crate's modules (one per file under core/src) import each other
without a cycle.

Every `use crate::...`, `use super::...` and inline `crate::...` / `super::...` path outside
`#[cfg(test)]` modules is an edge from its file's module to the module that defines what it
names: a name a module re-exports (`pub use x::Name`) is followed to `x`; a name that stays
unresolved in an ancestor module (the crate root or a `mod.rs` re-export hub) is no edge.
Prints each cycle (a strongly connected group of two or more modules) and exits 1 if any;
otherwise prints `core imports: N modules, M edges, no cycle`. `--edges` prints every edge."""

import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "core" / "src"


def module_of(path):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("lib", "mod"):
        parts = parts[:-1]
    return tuple(parts)


def strip(text):
    # Comments, strings and char literals in one pass, so that neither hides the other.
    token = re.compile(
        r"//[^\n]*|/\*.*?\*/"  # comments
        r'|\br(#*)".*?"\1'  # raw strings
        r'|b?"(?:[^"\\]|\\.)*"'  # strings
        r"|b?'(?:[^'\\\n]|\\[^']{1,10})'",  # char literals (`b'"'`), not lifetimes
        re.S,
    )
    text = token.sub(lambda m: "" if m[0].startswith("/") else '""', text)
    # The test module: from `#[cfg(test)] mod ... {` to its closing brace.
    while (m := re.search(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]
    return text


def expand(tree):
    """`a::{b, c::{d, e as f}}` -> [[a, b], [a, c, d], [a, c, e]] (renames dropped)."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:i])
                start = i + 1
        parts.append(s[start:])
        for part in filter(None, parts):
            brace = part.find("{")
            if brace >= 0:
                head = [p for p in part[:brace].split("::") if p]
                walk(prefix + head, part[brace + 1 : part.rindex("}")])
            else:
                out.append(prefix + [p.split("as")[0] if "as" in p else p for p in part.split("::")])

    walk([], tree)
    return out


modules = {}
for path in sorted(root.rglob("*.rs")):
    modules[module_of(path)] = strip(path.read_text())


def absolute(module, segments):
    segments = list(segments)
    if segments[0] == "crate":
        base, segments = [], segments[1:]
    elif segments[0] in ("super", "self"):
        base = list(module)
        while segments and segments[0] in ("super", "self"):
            if segments.pop(0) == "super":
                base = base[:-1]
    else:
        return None
    return base + segments


# Re-exports of each module: name -> absolute path of what it names.
reexports = {}
for module, text in modules.items():
    table = {}
    for tree in re.findall(r"\buse\s+([^;]+);", text):
        for segments in expand(tree):
            first = segments[0]
            if first not in ("crate", "super", "self") and (module + (first,)) in modules:
                segments = ["self"] + segments
            target = absolute(module, segments)
            if target and segments[-1] != "*":
                table[target[-1]] = target
    reexports[module] = table


def resolve(module, target, seen=()):
    """The module that defines what `target` (absolute segments) names."""
    for cut in range(len(target), -1, -1):
        if tuple(target[:cut]) in modules:
            owner, rest = tuple(target[:cut]), target[cut:]
            break
    if rest and owner not in seen and rest[0] in reexports[owner]:
        via = reexports[owner][rest[0]]
        if list(owner) + [rest[0]] != via:
            return resolve(module, via + rest[1:], seen + (owner,))
    return owner


edges = set()
for module, text in modules.items():
    paths = [s for tree in re.findall(r"\buse\s+([^;]+);", text) for s in expand(tree)]
    paths += [p.split("::") for p in re.findall(r"(?<![\w:])(?:crate|super)(?:::\w+)+", text)]
    for segments in paths:
        if segments[0] not in ("crate", "super", "self"):
            if (module + (segments[0],)) not in modules:
                continue
            segments = ["self"] + segments
        target = absolute(module, [s for s in segments if s != "*"])
        if target is None:
            continue
        owner = resolve(module, target)
        if owner == module or module[: len(owner)] == owner:
            continue  # itself, or an ancestor's own item (a re-export hub)
        edges.add((module, owner))

name = lambda m: "::".join(("crate",) + m)
if "--edges" in sys.argv:
    for a, b in sorted(edges):
        print(f"{name(a)} -> {name(b)}")

# Tarjan's strongly connected components.
graph = {m: sorted(b for a, b in edges if a == m) for m in modules}
index, low, stack, on, groups = {}, {}, [], set(), []


def connect(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in graph[v]:
        if w not in index:
            connect(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        group = []
        while True:
            w = stack.pop()
            on.discard(w)
            group.append(w)
            if w == v:
                break
        if len(group) > 1:
            groups.append(sorted(group))


sys.setrecursionlimit(10000)
for m in modules:
    if m not in index:
        connect(m)
for group in groups:
    print("import cycle: " + ", ".join(name(m) for m in group))
    for a, b in sorted(edges):
        if a in group and b in group:
            print(f"  {name(a)} -> {name(b)}")
if groups:
    sys.exit(1)
print(f"core imports: {len(modules)} modules, {len(edges)} edges, no cycle")
