"""The `.pyi` stub of the native module names every class, method and function it exports."""

import ast
import inspect

import session_state
from session_state import _native


def stub_names():
    path = inspect.getfile(session_state).replace("__init__.py", "_native.pyi")
    tree = ast.parse(open(path, encoding="utf-8").read())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, members


def test_every_native_export_is_in_the_stub():
    top, members = stub_names()
    exported = {n for n in dir(_native) if not n.startswith("_")} | {"__version__"}
    assert exported - top == set()
    for name, cls in vars(_native).items():
        if isinstance(cls, type):
            public = {m for m in vars(cls) if not m.startswith("_")}
            assert public - members[name] == set(), name
