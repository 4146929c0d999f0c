"""`load_session` gives exactly what `json.loads` gives for the file (values, their types, key
order), whichever builder makes the dict: orjson when installed, jiter for text with a run of
19 digits (an integer orjson would read as a float) or without orjson."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from session_state.orchestrator import load_session, save_session
from session_state.stores import FileStore

HEAD = {
    "schema_version": "1.0",
    "session_id": "2026-12-03-abc123",
    "created": "2026-12-03T10:30:00Z",
    "updated": "2026-12-03T12:30:00Z",
    "goal": "Zoë's \"goal\"\n\t\\ 中文 😀 \u2028 \u0000 \u001f",
    "status": "in_progress",
}

EXTRAS = {
    "plain": {"x_numbers": [0, -0.0, 1.5, 1e300, 2.5e-308, 4.9e-324, -(10**17), 10**18 - 1]},
    "64-bit edges, long runs": {"x_numbers": [2**64 - 1, -(2**63), 2**63 - 1, 10**18]},
    "past 64 bits": {"x_numbers": [2**64, -(2**63) - 1, 10**30, -(10**40)]},
    "digits in a string": {"x_id": "1234567890123456789012"},
    "duplicate keys": None,  # written by hand below
}


def same(a, b, where="$"):
    """`a` and `b` equal with the same types at every level and keys in the same order."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} against {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b), f"{where}: key order"
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float):
        assert repr(a) == repr(b), where  # -0.0 against 0.0
    else:
        assert a == b, where


def file_text(case):
    if EXTRAS[case] is None:
        body = json.dumps(HEAD)[:-1]
        return body + ', "x_dup": 1, "goal": "second", "x_dup": [2]}'
    return json.dumps({**HEAD, **EXTRAS[case]}, ensure_ascii=False, indent=1)


def write(root: Path, text: str, bom: bool = False) -> None:
    (root / ".claude").mkdir(exist_ok=True)
    data = text.encode("utf-8")
    (root / ".claude" / "orchestrator-session.json").write_bytes(b"\xef\xbb\xbf" * bom + data)


@pytest.mark.parametrize("case", list(EXTRAS))
@pytest.mark.parametrize("bom", [False, True], ids=["", "bom"])
def test_another_writers_file_loads_as_json_loads_reads_it(tmp_path, case, bom):
    text = file_text(case)
    write(tmp_path, text, bom)
    same(load_session(store=FileStore(tmp_path)), json.loads(text))


def test_the_file_this_handle_saved_loads_as_json_loads_reads_it(tmp_path):
    for case in EXTRAS:
        if case in ("past 64 bits", "duplicate keys"):
            continue  # refused by a save / not a dict a save can write
        # A folder each: every case is another document of one session, read at one time.
        folder = tmp_path / case.replace(" ", "-")
        store = FileStore(folder)
        save_session({**HEAD, **EXTRAS[case]}, store=store)
        written = (folder / ".claude" / "orchestrator-session.json").read_bytes()
        same(load_session(store=store), json.loads(written))


#: The cases built by orjson (no run of 19 digits); the others go to jiter.
BY_ORJSON = {"plain", "duplicate keys"}

HERE = Path(__file__).resolve()


def run_python(script, cwd):
    """`script` in a new interpreter (in `cwd`) that imports from the tests' folder."""
    prelude = f"import sys; sys.path.insert(0, {str(HERE.parent)!r})\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def with_orjson_loads(loads, body, cwd):
    """`body` run where `orjson` is a module whose `loads` is the function `loads` defines
    (looked up by the package at its first build), `t` is this module, `load_session` and
    `FileStore` are imported, and the current folder is `cwd`."""
    stand_in = """
        import types
        sys.modules["orjson"] = types.SimpleNamespace(loads=loads)
        import test_load_builders as t
        from pathlib import Path
        from session_state.orchestrator import load_session
        from session_state.stores import FileStore
    """
    return run_python("\n".join(textwrap.dedent(x) for x in (loads, stand_in, body)), cwd)


def test_orjson_builds_the_text_without_a_long_digit_run_and_jiter_the_rest(tmp_path):
    counting = """
        import orjson
        calls = []
        def loads(data):
            calls.append(len(data))
            return orjson.loads(data)
    """
    each_case = """
        for case in t.EXTRAS:
            root = Path(case.replace(" ", "_"))
            root.mkdir()
            t.write(root, t.file_text(case))
            before = len(calls)
            load_session(store=FileStore(root))
            print(case, "orjson" if len(calls) > before else "jiter")
    """
    run = with_orjson_loads(counting, each_case, tmp_path)
    assert run.returncode == 0, run.stderr
    built = dict(line.rsplit(" ", 1) for line in run.stdout.splitlines())
    assert built == {case: "orjson" if case in BY_ORJSON else "jiter" for case in EXTRAS}


def test_an_orjson_error_that_is_not_about_the_text_is_raised(tmp_path):
    failing = """
        def loads(data):
            raise MemoryError("no room")
    """
    load = """
        t.write(Path("."), t.file_text("plain"))
        try:
            load_session(store=FileStore("."))
        except MemoryError as e:
            print("raised:", e)
    """
    run = with_orjson_loads(failing, load, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "raised: no room"


def test_without_orjson_every_case_loads_the_same(tmp_path):
    others = "not without_orjson and not installed and not builds and not raised"
    run = run_python(
        f"""
        sys.modules["orjson"] = None  # `import orjson` fails: the jiter builder alone
        import pytest
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", {str(HERE)!r}, "-k", {others!r}]))
        """,
        tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout and "failed" not in run.stdout, run.stdout


def test_orjson_is_installed_with_the_package():
    import importlib.metadata

    requires = importlib.metadata.requires("session-state") or []
    assert any(r.startswith("orjson") for r in requires), requires
    import orjson  # noqa: F401  (the builder the package's load uses)
