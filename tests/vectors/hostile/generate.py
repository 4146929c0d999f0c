#!/usr/bin/env python3
"""Writes tests/vectors/hostile/cases.json and the binary inputs under files/.

Run from anywhere: python3 tests/vectors/hostile/generate.py
Big and deep inputs are not committed: their case holds a generator spec that the tests
expand at run time (see the `inputs` description in cases.json).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")

ORCH_DOC = json.load(open(os.path.join(HERE, "..", "orchestrator", "seed-example.json")))


def write(name, data):
    with open(os.path.join(FILES, name), "wb") as f:
        f.write(data)
    return {"file": "files/" + name}


cases = []


def case(name, target, input_, expected, why, **extra):
    c = {"name": name, "target": target, "input": input_, "expected": expected, "why": why}
    c.update(extra)
    cases.append(c)


# ---------------------------------------------------------------- ids through every API
IDS = [
    ("dot_dot", "..", "parent folder"),
    ("parent_path", "../x", "climbs out of the root"),
    ("slash", "a/b", "an id is one path segment"),
    ("backslash", "a\\b", "Windows separator"),
    ("backslash_parent", "..\\x", "Windows parent folder"),
    ("nul", "a\u0000b", "NUL ends C strings"),
    ("escape", "a\u001b[31mb", "terminal escape sequence"),
    ("newline", "a\nb", "control character"),
    ("bytes_256", "x" * 256, "longer than a file name may be"),
    ("absolute_unix", "/etc/passwd", "absolute path"),
    ("absolute_windows", "C:\\Windows", "absolute Windows path"),
    ("empty", "", "empty segment"),
]
for name, value, why in IDS:
    case("id_" + name, "id", {"id": value}, "invalid_key", why)

# ---------------------------------------------------------------- orchestrator documents
seed = json.dumps(ORCH_DOC, indent=2, ensure_ascii=False).encode()
O = "orchestrator"
case("orch_empty", O, {"text": ""}, "corrupt_state", "empty file")
case("orch_blank", O, {"text": " \n\t "}, "corrupt_state", "only whitespace")
case("orch_bom_only", O, write("bom-only.json", b"\xef\xbb\xbf"), "corrupt_state", "only a UTF-8 BOM")
case("orch_bom_valid", O, write("orchestrator-bom.json", b"\xef\xbb\xbf" + seed), "ok",
     "control: a UTF-8 BOM before a valid document is skipped (Windows editors add it)")
case("orch_utf16le", O, write("orchestrator-utf16le.json", seed.decode().encode("utf-16")),
     "corrupt_state", "UTF-16 with its BOM")
case("orch_utf16be_no_bom", O, write("orchestrator-utf16be.json", seed.decode().encode("utf-16-be")),
     "corrupt_state", "UTF-16 big-endian, no BOM")
case("orch_invalid_utf8", O,
     write("orchestrator-invalid-utf8.json", seed.replace(b"Add sensitivity", b"Add \xff\xfe sensitivity")),
     "corrupt_state", "invalid UTF-8 inside a string")
case("orch_top_array", O, {"text": "[" + seed.decode() + "]"}, "corrupt_state", "top-level array")
case("orch_top_string", O, {"text": "\"{}\""}, "corrupt_state", "top-level string")
case("orch_top_null", O, {"text": "null"}, "corrupt_state", "top-level null")
case("orch_top_number", O, {"text": "1e400"}, "corrupt_state", "top-level number out of range")
case("orch_truncated", O, {"text": seed.decode()[: len(seed) // 2]}, "corrupt_state", "cut in the middle")
case("orch_trailing_garbage", O, {"text": seed.decode() + "\n}"}, "corrupt_state", "a second value after the document")
case("orch_nan", O, {"base": O, "set_raw": {"/context_usage/percentage": "NaN"}}, "corrupt_state", "NaN is not JSON")
case("orch_infinity", O, {"base": O, "set_raw": {"/context_usage/percentage": "Infinity"}}, "corrupt_state", "Infinity is not JSON")
case("orch_huge_float", O, {"base": O, "set_raw": {"/context_usage/percentage": "1e400"}}, "corrupt_state", "number out of f64 range")
case("orch_u64_overflow", O, {"base": O, "set_raw": {"/context_usage/estimated_tokens": "18446744073709551616"}},
     "ok", "2^64 tokens: any number is a count, as the seed reads it; read as the nearest float, a change refuses to rewrite it")
case("orch_negative_tokens", O, {"base": O, "set": {"/context_usage/estimated_tokens": -1}}, "ok",
     "a negative count: any number is a count, as the seed reads it, kept as written")
case("orch_fraction_counts", O, {"base": O, "set": {"/context_usage/estimated_tokens": 6250.25, "/agents/1/progress": 75.0,
                                                     "/agents/1/context_tokens": 3200.5}},
     "ok", "Python writes `len(text) / 4` and `3 / 4 * 100` as floats; the seed reads them")
case("orch_progress_101", O, {"base": O, "set": {"/agents/0/progress": 101}}, "corrupt_state", "progress above 100")
case("orch_duplicate_status", O, {"base": O, "set_raw": {"/status": "\"paused\", \"status\": \"complete\""}},
     "ok", "duplicate keys: the last one wins, as Python's json (the seed's reader) does")
case("orch_deep_arrays", O, {"generate": {"prefix": "{\"schema_version\": \"1.0\", \"deep\": ", "unit": "[", "times": 100000,
                                          "middle": "0", "close": "]", "suffix": "}"}},
     "corrupt_state", "arrays nested 100,000 deep (closed)")
case("orch_deep_objects_unclosed", O, {"generate": {"prefix": "", "unit": "{\"a\":", "times": 100000,
                                                    "middle": "", "close": "", "suffix": ""}},
     "corrupt_state", "objects nested 100,000 deep, never closed")
case("orch_over_configured_limit", O, {"generate": {"prefix": "{\"schema_version\": \"1.0\", \"pad\": \"", "unit": "x",
                                                    "times": 4096, "middle": "", "close": "", "suffix": "\"}"}},
     "invalid_input", "4 KiB document, store configured for 1 KiB", max_document_bytes=1024)
case("orch_over_default_limit", O, {"generate": {"prefix": "{\"schema_version\": \"1.0\", \"pad\": \"", "unit": "x",
                                                 "times": 17 * 1024 * 1024, "middle": "", "close": "", "suffix": "\"}"}},
     "invalid_input", "17 MiB document, default limit 16 MiB")
case("orch_schema_2", O, {"base": O, "set": {"/schema_version": "2.0"}}, "incompatible_schema", "schema 2.0")
case("orch_schema_number", O, {"base": O, "set": {"/schema_version": 1.0}}, "corrupt_state", "schema_version as a number")
case("orch_schema_missing", O, {"base": O, "remove": ["/schema_version"]}, "corrupt_state", "no schema_version")
case("orch_session_id_parent", O, {"base": O, "set": {"/session_id": "../../etc"}}, "invalid_key", "session id that climbs out")
case("orch_session_id_slash", O, {"base": O, "set": {"/session_id": "a/b"}}, "invalid_key", "session id with a separator")
WRONG = [
    ("session_id", 5), ("created", 5), ("created", "yesterday"), ("updated", True), ("project", "p"),
    ("project/name", 5), ("project/path", None), ("project/git_branch", 5), ("goal", ["g"]), ("mode", 5),
    ("status", 5), ("status", "flying"), ("agents", {}), ("agents/0", "a"), ("agents/0/id", 5),
    ("agents/0/status", 5), ("agents/0/progress", "50%"), ("agents/0/started", 5), ("completed_work", "w"),
    ("completed_work/0/task", 5), ("pending_tasks", 5), ("pending_tasks/0", 5), ("decisions_made", {}),
    ("decisions_made/0/timestamp", "noon"), ("context_usage", []), ("context_usage/estimated_tokens", "1"),
    ("context_usage/percentage", "50"), ("context_usage/last_compression", 5), ("errors", "e"),
]
for path, value in WRONG:
    name = "orch_wrong_" + path.replace("/", "_") + "_" + type(value).__name__
    if path in ("created", "status") and isinstance(value, str):
        name = "orch_bad_" + path + "_" + value
    case(name, O, {"base": O, "set": {"/" + path: value}}, "corrupt_state", "`%s` of the wrong type or value" % path)
case("orch_symlink_file_out", O, {"symlink": "file"}, "storage", "the session file is a link to a file outside the root")
case("orch_symlink_folder_out", O, {"symlink": "folder"}, "ok", "`.claude` is a link the user made to a folder elsewhere (dotfiles): followed")

# ---------------------------------------------------------------- registry files
R = "registry"
case("reg_empty", R, {"text": ""}, "corrupt_state", "empty file")
case("reg_bom_valid", R, write("registry-bom.json", b"\xef\xbb\xbf" + open(os.path.join(FILES, "base-agent-sessions.json"), "rb").read()),
     "ok", "a BOM is skipped, as in orchestrator files (the seed's json.load refuses it and starts empty, losing every entry)")
case("reg_utf16", R, write("registry-utf16.json", open(os.path.join(FILES, "base-agent-sessions.json")).read().encode("utf-16")),
     "corrupt_state", "UTF-16")
case("reg_invalid_utf8", R, write("registry-invalid-utf8.json", open(os.path.join(FILES, "base-agent-sessions.json"), "rb").read().replace(b"spec-builder", b"spec-\xff-builder", 1)),
     "corrupt_state", "invalid UTF-8 in a string")
case("reg_top_array", R, {"text": "[]"}, "corrupt_state", "top-level array")
case("reg_top_string", R, {"text": "\"sessions\""}, "corrupt_state", "top-level string")
case("reg_truncated", R, {"base": R, "cut": 0.5}, "corrupt_state", "cut in the middle")
case("reg_nan", R, {"base": R, "set_raw": {"/last_updated": "NaN"}}, "corrupt_state", "NaN is not JSON")
case("reg_huge_number", R, {"base": R, "set_raw": {"/extra_count": "1e400"}}, "corrupt_state", "number out of f64 range")
case("reg_deep", R, {"generate": {"prefix": "{\"x\": ", "unit": "[", "times": 100000, "middle": "", "close": "]", "suffix": "}"}},
     "corrupt_state", "arrays nested 100,000 deep")
case("reg_duplicate_sessions", R, {"text": "{\"sessions\": {}, \"sessions\": {}}"}, "corrupt_state", "duplicate top-level key")
for path, value in [("sessions", []), ("sessions/spec-builder", 5), ("chains", "c"),
                    ("chains/SPEC-AUTH-001-planning", "spec-abc123"), ("chains/SPEC-AUTH-001-planning/0", 5),
                    ("metadata", []), ("metadata/spec-abc123", "m"), ("metadata/spec-abc123/resume_count", "1"),
                    ("results", [])]:
    case("reg_wrong_" + path.split("/")[0] + "_" + str(path.count("/")) + "_" + type(value).__name__, R,
         {"base": R, "set": {"/" + path: value}}, "corrupt_state", "`%s` of the wrong type" % path)
case("reg_last_updated_int", R, {"base": R, "set": {"/last_updated": 5}}, "ok",
     "`last_updated` of another type: the seed only ever overwrites it, so it reads as absent")
case("reg_symlink_folder_out", R, {"symlink": "folder"}, "ok", "`.moai` is a link the user made to a folder elsewhere (dotfiles): followed")
C = "chains"
case("chains_top_array", C, {"text": "[]"}, "corrupt_state", "top-level array")
case("chains_sequence_string", C, {"base": C, "set": {"/SPEC-AUTH-001-planning/expected_sequence": "spec-builder"}},
     "ok", "`expected_sequence` not a list: the seed's `create_chain` reads any entry, kept as it is")
case("chains_chain_number", C, {"base": C, "set": {"/SPEC-AUTH-001-planning": 5}}, "ok",
     "a chain that is a number: the seed's `create_chain` reads any entry, kept as it is")
case("chains_deep", C, {"generate": {"prefix": "{\"c\": {\"metadata\": ", "unit": "{\"a\":", "times": 100000, "middle": "0",
                                     "close": "}", "suffix": "}}"}}, "corrupt_state", "metadata nested 100,000 deep")

# ---------------------------------------------------------------- team member files
T = "team"
case("team_empty", T, {"text": ""}, "corrupt_state", "empty file")
case("team_bom_valid", T, write("team-bom.json", b"\xef\xbb\xbf" + open(os.path.join(HERE, "..", "teams", "fixtures", "coder.json"), "rb").read()),
     "corrupt_state", "a BOM: the agent-teams crate (serde_json) refuses it too")
case("team_utf16", T, write("team-utf16.json", open(os.path.join(HERE, "..", "teams", "fixtures", "coder.json")).read().encode("utf-16")),
     "corrupt_state", "UTF-16")
case("team_top_array", T, {"text": "[]"}, "corrupt_state", "top-level array")
case("team_top_string", T, {"text": "\"coder\""}, "corrupt_state", "top-level string")
case("team_truncated", T, {"base": T, "cut": 0.5}, "corrupt_state", "cut in the middle")
case("team_nan", T, {"base": T, "set_raw": {"/maxTurns": "NaN"}}, "corrupt_state", "NaN is not JSON")
case("team_max_turns_overflow", T, {"base": T, "set_raw": {"/maxTurns": "2147483648"}}, "corrupt_state", "above i32")
case("team_duplicate_name", T, {"base": T, "set_raw": {"/name": "\"coder\", \"name\": \"other\""}}, "corrupt_state",
     "duplicate key (the crate refuses it)")
case("team_deep", T, {"generate": {"prefix": "{\"metadata\": {\"x\": ", "unit": "[", "times": 100000, "middle": "", "close": "]",
                                   "suffix": "}}"}}, "corrupt_state", "arrays nested 100,000 deep")
for path, value in [("name", 5), ("backendType", 5), ("prompt", None), ("model", 5), ("cwd", 5), ("maxTurns", 1.5),
                    ("allowedTools", None), ("allowedTools/0", 5), ("permissionMode", 5), ("reasoningEffort", 5),
                    ("env", None), ("env/RUST_LOG", 5), ("memoryConfig", "m"), ("memoryConfig/budget_chars", -1),
                    ("metadata", None), ("createdAt", "2026-03-01"), ("createdAt", 5)]:
    case("team_wrong_" + path.replace("/", "_") + "_" + type(value).__name__ + ("_date_only" if value == "2026-03-01" else ""), T,
         {"base": T, "set": {"/" + path: value}}, "corrupt_state", "`%s` of the wrong type or value" % path)
case("team_symlink_file_out", T, {"symlink": "file"}, "storage", "the member file is a link to a file outside the root")

names = [c["name"] for c in cases]
assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]

doc = {
    "description": (
        "Hostile stored documents and ids (issue 8, harness 3). Each case is loaded through the "
        "load API of its `target` over a filesystem store in a temporary folder, and must give "
        "`expected` (an error code, or \"ok\" for a control) with no panic, nothing written outside "
        "the root, and the original bytes kept (in place, or copied aside as `<key>.corrupt-<stamp>` "
        "when a later save replaces them). Run by core/tests/hostile_documents.rs; every package's load is that core parse."
    ),
    "targets": {
        "orchestrator": "`.claude/orchestrator-session.json`, read by the orchestrator store's `load` (salvage included)",
        "registry": "`.moai/memory/agent-sessions.json`, read by the registry's `load`",
        "chains": "`.moai/memory/workflow-chains.json`, read by the registry's `load_chains`",
        "team": "`teams/t/sessions/a.json`, read by the team store's `load(\"t\", \"a\")`",
        "id": "an id given to every API that makes a path of it: registry register (agent id), "
              "transcript key, team load (team name and agent name), orchestrator archive/history key "
              "(session id) and save (session id)",
    },
    "inputs": {
        "text": "the UTF-8 bytes of this string",
        "file": "the bytes of this file, relative to this folder",
        "base": "the target's base document (files/base-*.json, ../orchestrator/seed-example.json, "
                "../teams/fixtures/coder.json) parsed, then `set` (JSON pointer -> value; a missing last "
                "member is added), `remove` (pointers), and serialised pretty; `set_raw` (pointer -> raw "
                "text) then replaces that member's serialised value by the raw text; `cut` keeps that "
                "fraction of the bytes",
        "generate": "prefix + unit x times + middle + close x times + suffix (big and deep inputs, made at test time)",
        "symlink": "`file`: the target's file is a symbolic link to a valid document outside the root; "
                   "`folder`: the target's first folder is a link to a folder outside the root holding a valid document",
        "id": "the id",
    },
    "cases": cases,
}
with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(cases), "cases")
