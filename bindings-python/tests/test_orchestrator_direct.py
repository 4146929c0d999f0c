"""save_session reads the dict straight into the typed document and load_session builds the
dict straight from the checked text: both must give what the JSON text path gives
(`json.dumps` of the argument, `json.loads` of the file), for every value either can hold."""

import enum
import json
import logging
from pathlib import Path

import pytest

from session_state import FileStore
from session_state.errors import CorruptStateError, InvalidInputError
from session_state.orchestrator import list_history, load_session, save_session

FILE = Path(".claude/orchestrator-session.json")

# Values the direct paths handle themselves, and ones they hand to the JSON text path.
EDGE_VALUES = {
    "ints": [0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 12345678901234567],
    "floats": [0.1, -2.5, 1e300, 5e-324, 1.0, 123456789.125],
    "text": ["é", "😀", "\u0000\t\n\"\\/", "\u2028", "", "x" * 200],
    "nested": {"a": [{"b": [None, True, False, {}]}], "": []},
    "keys": {"same": 1, "sáme": 2, "\u0000": 3},
}


def session(**extra):
    doc = {
        "schema_version": "1.0", "session_id": "2025-12-27-abc", "created": "2025-12-27T10:00:00Z",
        "project": {"name": "p", "path": "/p"}, "goal": "g", "mode": "default",
        "status": "in_progress",
        "agents": [{"id": "a", "type": "code", "task": "t", "status": "complete",
                    "started": "2025-12-27T10:00:00Z", "progress": 100}],
        "context_usage": {"estimated_tokens": 0, "percentage": 0.5, "last_compression": None},
    }
    doc.update(extra)
    return doc


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def saved_file():
    return json.loads(FILE.read_text(encoding="utf-8"))


def test_edge_values_round_trip_as_the_json_text_path_gives_them(here):
    state = session(x=EDGE_VALUES)
    save_session(state)
    assert saved_file()["x"] == EDGE_VALUES
    loaded = load_session()
    assert loaded == json.loads(FILE.read_bytes())
    assert loaded["x"] == EDGE_VALUES
    assert [type(v) for v in loaded["x"]["ints"]] == [int] * 6
    assert [type(v) for v in loaded["x"]["floats"]] == [float] * 6


class Level(enum.IntEnum):
    HIGH = 3


class Text(str):
    pass


def test_values_of_other_types_are_written_as_json_dumps_writes_them(here):
    odd = {"tuple": (1, 2), "int_enum": Level.HIGH, "str_subclass": Text("s"), 7: "int key",
           None: "none key", "dict": {1.5: True}}
    state = session(x=odd)
    save_session(state)
    assert saved_file()["x"] == json.loads(json.dumps(odd))
    state["pending_tasks"] = ("a", Text("b"))
    save_session(state)
    assert saved_file()["pending_tasks"] == ["a", "b"]


@pytest.mark.parametrize("bad, message", [
    (2**64, "outside the 64-bit range"),
    (-(2**63) - 1, "outside the 64-bit range"),
    (float("nan"), "not plain JSON data"),
    ("\ud800", "lone surrogate"),
    ({("t",): 1}, "not plain JSON data"),
    (object(), "not plain JSON data"),
])
def test_what_the_direct_path_declines_gets_the_named_error(here, bad, message):
    with pytest.raises(InvalidInputError, match=message):
        save_session(session(x={"k": [bad]}))
    assert not FILE.exists()


def test_a_dict_nested_far_beyond_the_limit_is_refused_without_a_crash(here):
    deep: dict = {}
    for _ in range(200_000):
        deep = {"d": deep}
    with pytest.raises(InvalidInputError, match="nested deeper than the limit of 100 levels"):
        save_session(session(x=deep))


def test_a_document_the_core_refuses_is_refused_with_its_field(here):
    with pytest.raises(InvalidInputError, match="agents\\[0\\].progress") as err:
        save_session(session(agents=[{"id": "a", "type": "code", "task": "t",
                                      "status": "complete", "started": "2025-12-27T10:00:00Z",
                                      "progress": 101}]))
    assert err.value.context["field"] == "agents[0].progress"


@pytest.mark.parametrize("text", ['{}', '{"schema_version": 1.0}', '{"schema_version": null}',
                                  '{"schema_version": "2.0", "goal": 5}'])
def test_load_session_is_none_for_a_version_the_seed_would_not_take(here, text):
    # The seed: `if state.get("schema_version") != "1.0": return None`.
    FILE.parent.mkdir()
    FILE.write_text(text, encoding="utf-8")
    assert load_session() is None
    assert FILE.read_text(encoding="utf-8") == text


def test_load_session_still_raises_for_a_file_that_does_not_parse(here):
    FILE.parent.mkdir()
    for text in ['[1, 2]', '{"schema_version": "1.0"', '{"schema_version": "1.0", "goal": 5}']:
        FILE.write_text(text, encoding="utf-8")
        with pytest.raises(CorruptStateError):
            load_session()


def test_counts_python_computes_as_floats_are_saved_and_loaded_as_written(here):
    # `3 / 4 * 100` is 75.0 and `len(text) / 4` a float in Python; the seed keeps them.
    agent = {"id": "a", "type": "code", "task": "t", "status": "in_progress",
             "started": "2025-12-27T10:00:00Z", "progress": 3 / 4 * 100, "context_tokens": 801 / 4}
    doc = session(agents=[agent], context_usage={"estimated_tokens": 25001 / 4, "percentage": 0.5,
                                                 "last_compression": None})
    save_session(doc)
    written = saved_file()
    assert written["agents"][0]["progress"] == 75.0 and isinstance(written["agents"][0]["progress"], float)
    assert (written["agents"][0]["context_tokens"], written["context_usage"]["estimated_tokens"]) == (200.25, 6250.25)
    loaded = load_session()
    assert loaded["agents"][0]["progress"] == 75.0
    assert loaded["context_usage"]["estimated_tokens"] == 6250.25


@pytest.mark.parametrize("number, value", [
    ("123456789012345678901234567890", 123456789012345678901234567890),
    ("-0", 0),
    ("-0.0", -0.0),
])
def test_load_gives_numbers_as_json_loads_reads_them(here, number, value):
    save_session(session())
    text = FILE.read_text(encoding="utf-8")
    # Written by another writer: an unknown field the core keeps as it is.
    FILE.write_text(text.replace('"goal"', f'"n": {number}, "goal"', 1), encoding="utf-8")
    loaded = load_session()
    assert loaded == json.loads(FILE.read_bytes())
    assert type(loaded["n"]) is type(value) and str(loaded["n"]) == str(value)


def test_load_skips_a_bom_and_reads_escapes(here):
    save_session(session())
    text = FILE.read_text(encoding="utf-8")
    text = text.replace('"goal": "g"', '"goal": "\\u00e9\\ud83d\\ude00\\n"', 1)
    FILE.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_session()["goal"] == "é😀\n"


def test_a_file_changed_after_this_handle_saved_it_is_checked_again(here):
    store = FileStore(here, durable=False)
    save_session(session(), store=store)
    assert load_session(store=store)["goal"] == "g"
    FILE.write_text(FILE.read_text(encoding="utf-8")[:-20], encoding="utf-8")
    with pytest.raises(CorruptStateError):
        load_session(store=store)
    save_session(session(goal="h"), store=store)
    data = saved_file()
    data["status"] = "sleeping"
    FILE.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CorruptStateError, match="status"):
        load_session(store=store)


JSON_TEXTS = [
    "1E5", "1e-7", "-1.5e+10", "0.30000000000000004", "2.2250738585072014e-308",
    "4.9e-324", "1.7976931348623157e308", "-1e-400", "18446744073709551615",
    "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "0", "-0", "1.0",
    '"\\u0000\\u001f\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\ud83d\\ude00 \\u00e9 é 😀"', '"a\\u2028b"',
    '{"k": 1, "k": 2}', '{"\\u006b": [], "k\\u00e9y": {}}', "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
    '{"": [true, false, null, 0.5, -0.0, "", {}]}', '"' + "x" * 5000 + '"',
]


@pytest.mark.parametrize("text", JSON_TEXTS)
def test_load_gives_every_value_as_json_loads_reads_it(here, text):
    store = FileStore(here, durable=False)
    save_session(session(), store=store)
    written = FILE.read_text(encoding="utf-8").replace('"goal"', f'"n": {text}, "goal"', 1)
    FILE.write_text(written, encoding="utf-8")
    expected = json.loads(FILE.read_bytes())["n"]
    # Another writer's file (checked, then built), then this handle's own file (built only).
    loaded = load_session(store=store)
    assert repr(loaded["n"]) == repr(expected)
    if text in ("18446744073709551616", "-9223372036854775809"):
        return  # outside 64 bits: save refuses it (test_values.py)
    save_session(loaded, store=store)
    assert repr(load_session(store=store)["n"]) == repr(json.loads(FILE.read_bytes())["n"])


def test_another_writers_file_raises_the_checks_error_before_any_dict_is_built(here):
    store = FileStore(here, durable=False)
    save_session(session(), store=store)
    data = saved_file()
    # Valid JSON, a wrong document: the check's error, though json.loads reads it.
    FILE.write_text(json.dumps(dict(data, status="sleeping")), encoding="utf-8")
    with pytest.raises(CorruptStateError, match="status"):
        load_session(store=store)
    # Over the size limit (16 MiB): refused by size, the text never built.
    FILE.write_text(json.dumps(dict(data, big="x" * (17 << 20))), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="more than the limit of 16777216 bytes"):
        load_session(store=store)
    FILE.write_text(json.dumps(dict(data, goal="back")), encoding="utf-8")
    assert load_session(store=store)["goal"] == "back"


@pytest.mark.parametrize("text", ['"\\ud800"', "1e400", "1" + "0" * 400, "[" * 130 + "]" * 130])
def test_what_only_pythons_json_reads_is_corrupt_state(here, text):
    # docs/DIFFERENCES.md: a lone surrogate escape, a number beyond the float range, nesting
    # over 128 levels.
    save_session(session())
    FILE.write_text(FILE.read_text(encoding="utf-8").replace('"goal"', f'"n": {text}, "goal"', 1),
                    encoding="utf-8")
    json.loads(FILE.read_bytes())
    with pytest.raises(CorruptStateError):
        load_session()


def test_list_history_logs_each_file_it_leaves_out(here, caplog):
    history = Path(".claude/orchestrator-history")
    history.mkdir(parents=True)
    (history / "good.json").write_text(json.dumps(session(session_id="good")), encoding="utf-8")
    (history / "odd.json").write_text(json.dumps(session(session_id="odd", status="blocked")),
                                      encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.orchestrator"):
        assert [e["id"] for e in list_history()] == ["good"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "odd.json" in warnings[0] and "status" in warnings[0], warnings
