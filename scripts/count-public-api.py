#!/usr/bin/env python3
"""Counts the public API of the core crate (`session-state`): what a user can name from the
crate root, as rustdoc (stable) documents it.

Runs `cargo doc -p session-state --no-deps` (unless `--no-build`), then reads
`target/doc/session_state/` (under `$CARGO_TARGET_DIR` when set):
- items: every entry of `all.html` (structs, enums, traits, functions, type aliases,
  constants, statics, macros), each at the one path rustdoc documents it under;
- modules: the public modules (a folder with an `index.html`);
- associated: the inherent methods and associated constants of public types (the
  `Implementations` section of each type page; trait impls are not counted), and the methods
  of public traits.

Prints one line per group and the total: `public API: N (items A, modules B, associated C)`.
`--list` prints every counted path as well."""

import os
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
if "--no-build" not in sys.argv:
    subprocess.run(
        ["cargo", "doc", "-p", "session-state", "--no-deps", "--quiet"], cwd=root, check=True
    )
target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
doc = target / "doc" / "session_state"

text = (doc / "all.html").read_text()
items = re.findall(r'<li><a href="([^"]+\.html)">([^<]+)</a></li>', text)
paths = [name for _, name in items]

modules = sorted(
    str(p.parent.relative_to(doc)).replace("/", "::")
    for p in doc.rglob("index.html")
    if p.parent != doc
)

associated = []
for href, name in items:
    page = (doc / href).read_text()
    kind = pathlib.Path(href).name.split(".")[0]
    if kind in ("struct", "enum", "union", "type"):
        start = page.find('id="implementations-list"')
        if start < 0:
            continue
        end = page.find("<h2 ", start)
        section = page[start : end if end >= 0 else len(page)]
        found = re.findall(r'<section id="((?:method|associatedconstant)\.[A-Za-z0-9_]+)"', section)
    elif kind == "trait":
        # The trait's own items: before its implementations on foreign types and implementors.
        own = re.split(r'id="(?:foreign-impls|implementors)"', page)[0]
        found = re.findall(
            r'<section id="((?:tymethod|method|associatedconstant|associatedtype)\.[A-Za-z0-9_]+)"',
            own,
        )
    else:
        continue
    associated += [f"{name}::{anchor.split('.', 1)[1]}" for anchor in dict.fromkeys(found)]

if "--list" in sys.argv:
    for path in paths + [m + " (module)" for m in modules] + associated:
        print(path)
print(f"items: {len(paths)}")
print(f"modules: {len(modules)}")
print(f"associated (inherent methods, trait methods, associated consts): {len(associated)}")
print(
    f"public API: {len(paths) + len(modules) + len(associated)} "
    f"(items {len(paths)}, modules {len(modules)}, associated {len(associated)})"
)
