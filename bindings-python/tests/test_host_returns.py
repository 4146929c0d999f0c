"""What a host store's methods return: a wrong type is a ``StorageError`` (a
``SessionStateError``) naming the method, the key and the type, as in the Node package; ``read``
may return ``str`` (taken as UTF-8), as in the Node package."""

from typing import Any, Dict, Optional

import pytest

from session_state import SessionStateError, StorageError
from session_state.orchestrator import OrchestratorStore
from session_state.teams import BackendType, SpawnConfig, TeamStore

KEY = ".claude/orchestrator-session.json"


class DictStore:
    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}

    def read(self, key: str) -> Any:
        return self.data.get(key)

    def write(self, key: str, data: bytes) -> Any:
        self.data[key] = bytes(data)

    def delete(self, key: str) -> Any:
        return self.data.pop(key, None) is not None

    def list(self, prefix: str) -> Any:
        return sorted(k for k in self.data if k.startswith(prefix + "/"))


def returning(method: str, value: Any) -> DictStore:
    store = DictStore()
    setattr(store, method, lambda *args: value)
    return store


@pytest.mark.parametrize("value, type_name", [(123, "int"), ([b"x"], "list"), ({}, "dict")])
def test_read_of_a_wrong_type_is_storage_error(value, type_name):
    with pytest.raises(StorageError) as info:
        OrchestratorStore(store=returning("read", value)).load()
    assert isinstance(info.value, SessionStateError)
    assert str(info.value) == (
        f"host store `read` of `{KEY}` returned {type_name}, expected bytes, str or None"
    )
    assert info.value.context == {"key": KEY, "method": "read"}


def test_read_of_a_str_with_a_lone_surrogate_is_storage_error():
    with pytest.raises(StorageError, match="returned str, expected bytes, str \\(valid Unicode\\)"):
        OrchestratorStore(store=returning("read", "\udc00")).load()


def test_read_may_return_str_bytearray_or_memoryview():
    saved = DictStore()
    doc = OrchestratorStore(store=saved).record_new(
        "g\u00e9", project={"name": "p", "path": "/p"}, suffix="abc123"
    )
    text = saved.data[KEY].decode("utf-8")
    for value in [text, bytearray(saved.data[KEY]), memoryview(saved.data[KEY])]:
        assert OrchestratorStore(store=returning("read", value)).load() == doc


@pytest.mark.parametrize("value, type_name", [(None, "NoneType"), (1, "int"), ("yes", "str")])
def test_delete_of_a_wrong_type_is_storage_error(value, type_name):
    store = returning("delete", value)
    teams = TeamStore(store=store)
    with pytest.raises(StorageError) as info:
        teams.delete("t", "coder")
    assert str(info.value) == (
        f"host store `delete` of `teams/t/sessions/coder.json` returned {type_name}, expected bool"
    )
    assert info.value.context["method"] == "delete"


@pytest.mark.parametrize("value", [None, "teams/t/sessions/a.json", {"k": 1}])
def test_list_of_a_wrong_type_is_storage_error(value):
    with pytest.raises(StorageError, match="host store `list` of `teams/t/sessions` returned"):
        TeamStore(store=returning("list", value)).list("t")


def test_list_holding_a_non_str_is_storage_error():
    with pytest.raises(StorageError, match="returned a list holding int, expected a list of str"):
        TeamStore(store=returning("list", [1])).list("t")


def test_list_is_refused_at_its_first_non_str_item():
    read_on: list[str] = []

    class Lazy(list):  # type: ignore[type-arg]
        """A listing whose items after the first non-str one must never be asked for."""

        def __iter__(self):  # type: ignore[no-untyped-def]
            yield "teams/t/sessions/a.json"
            yield 1
            read_on.append("item after the int")
            raise RuntimeError("read past the first non-str item")

    with pytest.raises(StorageError, match="returned a list holding int, expected a list of str"):
        TeamStore(store=returning("list", Lazy())).list("t")
    assert read_on == []


def test_list_may_be_a_tuple_and_write_returns_are_ignored():
    store = DictStore()
    store.write = lambda key, data: store.data.__setitem__(key, bytes(data)) or 42  # type: ignore[method-assign]
    teams = TeamStore(store=store)
    teams.record_spawn("t", SpawnConfig(name="coder", prompt="p"), BackendType.CODEX)
    listed = store.list
    store.list = lambda prefix: tuple(listed(prefix))  # type: ignore[method-assign]
    assert [m.name for m in teams.list("t").members] == ["coder"]


def test_an_exception_raised_by_the_host_is_still_unchanged():
    class Boom(Exception):
        pass

    def read(key: str) -> Optional[bytes]:
        raise Boom(key)

    store = DictStore()
    store.read = read  # type: ignore[method-assign]
    with pytest.raises(Boom):
        OrchestratorStore(store=store).load()
