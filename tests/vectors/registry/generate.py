#!/usr/bin/env python3
"""Generates the registry goldens from the seed's oracle.

Run from anywhere:  python3 tests/vectors/registry/generate.py
It imports ../shared/reference/moai_session_manager.py (relative to the repository root),
runs every scenario in a temporary folder and writes the JSON data files next to this script:

- should_resume.json: >= 2,000 `should_resume` cases with the oracle's answers;
- demo.json: the seed's `__main__` demo scenario, its printed values and the two files;
- random_ops.json: random operation sequences, the answer of every query and the final state.

The generator only calls the oracle's public methods and reads its in-memory state at the end;
it never copies its logic. Output is deterministic apart from timestamps (fixed seed).
"""

import json
import logging
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO.parent / "shared" / "reference"))

from moai_session_manager import SessionManager  # noqa: E402

import seed_demo  # noqa: E402  (beside this script)

logging.disable(logging.CRITICAL)

def manager_in(tmp):
    tmp = Path(tmp)
    return SessionManager(
        session_file=tmp / ".moai" / "memory" / "agent-sessions.json",
        transcript_dir=tmp / ".moai" / "logs" / "agent-transcripts",
    )


def write(name, data):
    with open(HERE / name, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")


# ----------------------------------------------------------------------------- should_resume

WORDS = [
    "implement", "user", "registration", "endpoint", "login", "files", "profiles", "tests",
    "test", "fix", "it", "the", "a", "refactor", "database", "schema", "migration", "auth",
    "API", "Implement", "LOGIN", "Tests!", "(endpoint)", "user's", "re-run", "e-mail",
    "로그인", "기능을", "구현", "테스트", "데이터베이스", "認証", "実装", "テスト", "数据库",
    "ΣΊΣΥΦΟΣ", "ΟΔΟΣ", "σίσυφος", "İstanbul", "istanbul", "İİİİİ", "straße", "STRASSE",
    "ﬁle", "ﬁles", "Ǆemal", "ǅemal", "ǆemal", "ΑΣ", "ΑΣΑ", "aΣb", "Σ", "ΣΣΣΣΣ",
    "Ⅻabcd", "ⅻabcd", "Ａｐｐｌｅ", "ａｐｐｌｅ", "émigré", "ÉMIGRÉ", "naïve", "NAÏVE",
    "𐐀𐐁𐐂𐐃𐐄", "𐐨𐐩𐐪𐐫𐐬", "👍👍👍👍👍", "abcde", "ABCDE", "abcd", "12345", "1234",
    "-----", "?????", "hello,", "hello.", "hello", "world", "ȺȾȺȾȺ", "ⱥⱦⱥⱦⱥ", "K", "Å",
    "ſtring", "STRING", "ﬀﬃﬄ", "ᾈᾉᾊᾋᾌ", "ᾀᾁᾂᾃᾄ", "İi̇", "Ωmega", "Ωmega", "\u1c89abcde", "ꟋꟌꟋꟌ", "abc\U00010d50d",
]
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
          "\x1f", "\x85", "\xa0", "\u1680", "\u2000", "\u2007", "\u200a", "\u2028", "\u2029",
          "\u202f", "\u205f", "\u3000", "\u200b", "\u180e", "\ufeff", "\x00", "_", "-", ","]


def random_text(rng):
    kind = rng.random()
    if kind < 0.05:
        return ""
    if kind < 0.15:
        # random code points, whole Unicode range (no surrogates)
        out = []
        for _ in range(rng.randint(1, 12)):
            while True:
                cp = rng.choice([rng.randint(0x20, 0x2FF), rng.randint(0x370, 0x52F),
                                 rng.randint(0x1E00, 0x1FFF), rng.randint(0x2000, 0x2BFF),
                                 rng.randint(0x10400, 0x1044F), rng.randint(0, 0x10FFFF),
                                 rng.randint(0xAC00, 0xD7A3), rng.randint(0xFB00, 0xFB4F)])
                if not 0xD800 <= cp <= 0xDFFF:
                    break
            out.append(chr(cp))
            if rng.random() < 0.3:
                out.append(rng.choice(SPACES))
        return "".join(out)
    n = rng.randint(1, 6)
    parts = []
    for i in range(n):
        w = rng.choice(WORDS)
        if rng.random() < 0.2:
            w = w[: rng.randint(0, len(w))]
        parts.append(w)
        if i < n - 1:
            parts.append(rng.choice(SPACES))
    if rng.random() < 0.2:
        parts.insert(0, rng.choice(SPACES))
    return "".join(parts)


def gen_should_resume(rng):
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        m = manager_in(tmp)
        for count in range(7):
            m.register_agent_result(f"agent-{count}", f"id-{count}", {"n": count})
            for _ in range(count):
                m.increment_resume_count(f"id-{count}")
        agents = [f"agent-{c}" for c in range(7)] + ["unknown"]
        fixed = [
            ("agent-0", "update profiles page", "rename files"),
            ("agent-0", "fix it", "fix it"),
            ("agent-0", "Implement user login endpoint", "Implement user registration endpoint"),
            ("agent-0", "anything", ""),
            ("agent-0", "anything", None),
            ("agent-5", "Implement user login endpoint", "Implement user registration endpoint"),
            ("agent-4", "Implement user login endpoint", "Implement user registration endpoint"),
            ("unknown", "Implement user login endpoint", "Implement user registration endpoint"),
            ("agent-0", "", "hello world"),
            ("agent-0", "ΟΔΟΣ", "ΟΔΟΣ"),
            ("agent-0", "i̇stanbul", "İstanbul"),
            ("agent-0", "a\x1ctests", "tests\x1fx"),
        ]
        for agent, cur, prev in fixed:
            cases.append((agent, cur, prev))
        while len(cases) < 2600:
            agent = rng.choice(agents) if rng.random() < 0.2 else "agent-0"
            prev = None if rng.random() < 0.03 else random_text(rng)
            if prev and rng.random() < 0.4:
                # make the current task share material with the previous one
                cur = random_text(rng) + rng.choice(SPACES) + prev[rng.randint(0, len(prev)):]
            else:
                cur = random_text(rng)
            cases.append((agent, cur, prev))
        out = []
        for agent, cur, prev in cases:
            known = agent in m._sessions
            count = m._metadata[m._sessions[agent]]["resume_count"] if known else 0
            out.append({
                "agent_name": agent,
                "known": known,
                "resume_count": count,
                "current_task": cur,
                "previous_task": prev,
                "resume": m.should_resume(agent, cur, prev),
            })
    return out


# ------------------------------------------------------------------------------------ demo

def gen_demo():
    """The seed's `if __name__ == "__main__"` example (`seed_demo.run`), its values and files."""
    with tempfile.TemporaryDirectory() as tmp:
        m = manager_in(tmp)
        outputs = seed_demo.run(m)
        outputs["results"] = m._results
        mem = Path(tmp) / ".moai" / "memory"
        sessions_text = (mem / "agent-sessions.json").read_text(encoding="utf-8")
        chains_text = (mem / "workflow-chains.json").read_text(encoding="utf-8")
    return {"outputs": outputs, "sessions_text": sessions_text, "chains_text": chains_text}


# ------------------------------------------------------------------------------ random ops

NAMES = ["spec-builder", "tdd-implementer", "backend-expert", "리뷰어", "planner"]
IDS = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "ünï", "id-10"]
CHAINS = ["SPEC-1", "SPEC-2", "체인-3", ""]
TASKS = ["Implement user login endpoint", "Implement user registration endpoint",
         "update profiles", "rename files", "fix it", "데이터베이스 마이그레이션", ""]


def random_sequence(rng, m, length):
    """Random operations that avoid the documented differences (SPEC section 2, 3 to 5)."""
    ops = []
    for _ in range(length):
        kind = rng.choice(["register"] * 5 + ["increment", "clear_agent", "clear_chain",
                                              "create_chain", "resume_id", "should_resume",
                                              "summary", "results", "all", "agent_result"])
        if kind == "register":
            agent_id = rng.choice(IDS)
            meta = m._metadata.get(agent_id)
            if meta is not None and meta["resume_count"] != 0:
                continue  # difference 3: we keep the count
            chain = None if rng.random() < 0.3 else rng.choice(CHAINS)
            op = {"op": "register", "agent_name": rng.choice(NAMES), "agent_id": agent_id,
                  "result": rng.choice([{"n": rng.randint(0, 9)}, [1, "x"], "text", None, 3,
                                        {"nested": {"é": [True, None]}}]),
                  "chain_id": chain}
            m.register_agent_result(op["agent_name"], agent_id, op["result"], chain)
        elif kind == "increment":
            op = {"op": "increment", "agent_id": rng.choice(IDS)}
            m.increment_resume_count(op["agent_id"])
        elif kind == "clear_agent":
            op = {"op": "clear_agent", "agent_name": rng.choice(NAMES)}
            m.clear_agent_session(op["agent_name"])
        elif kind == "clear_chain":
            chain = rng.choice(CHAINS)
            ids = m._chains.get(chain, [])
            if any(v in ids for v in m._sessions.values()):
                continue  # difference 5: we also drop the names
            op = {"op": "clear_chain", "chain_id": chain}
            m.clear_chain(chain)
        elif kind == "create_chain":
            chain = rng.choice(CHAINS[:3])
            if chain in m._chains:
                continue  # difference 4: we keep members
            op = {"op": "create_chain", "chain_id": chain,
                  "agent_sequence": rng.sample(NAMES, rng.randint(0, 3)),
                  "metadata": rng.choice([None, {}, {"k": "v"}])}
            m.create_chain(chain, op["agent_sequence"], op["metadata"])
        elif kind == "resume_id":
            op = {"op": "resume_id", "agent_name": rng.choice(NAMES),
                  "chain_id": rng.choice([None] + CHAINS)}
            op["answer"] = m.get_resume_id(op["agent_name"], op["chain_id"])
        elif kind == "should_resume":
            op = {"op": "should_resume", "agent_name": rng.choice(NAMES),
                  "current_task": rng.choice(TASKS), "previous_task": rng.choice([None] + TASKS)}
            op["answer"] = m.should_resume(op["agent_name"], op["current_task"], op["previous_task"])
        elif kind == "summary":
            op = {"op": "summary", "chain_id": rng.choice(CHAINS)}
            op["answer"] = m.get_chain_summary(op["chain_id"])
        elif kind == "results":
            op = {"op": "results", "chain_id": rng.choice(CHAINS)}
            op["answer"] = m.get_chain_results(op["chain_id"])
        elif kind == "all":
            op = {"op": "all"}
            op["answer"] = m.get_all_sessions()
        else:
            op = {"op": "agent_result", "agent_id": rng.choice(IDS)}
            op["answer"] = m.get_agent_result(op["agent_id"])
        ops.append(json.loads(json.dumps(op)))
    return ops


def gen_random_ops(rng, count):
    sequences = []
    for _ in range(count):
        with tempfile.TemporaryDirectory() as tmp:
            m = manager_in(tmp)
            ops = random_sequence(rng, m, rng.randint(5, 40))
            chains_file = Path(tmp) / ".moai" / "memory" / "workflow-chains.json"
            state = {
                "sessions": m._sessions,
                "chains": m._chains,
                "metadata": m._metadata,
                "results": m._results,
                "workflow_chains": json.loads(chains_file.read_text("utf-8"))
                if chains_file.exists() else {},
            }
            sequences.append({"ops": ops, "state": json.loads(json.dumps(state))})
    return sequences


def gen_lower():
    """Python's str.lower() for every code point it changes, and final-sigma contexts."""
    changed = {}
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        if c.lower() != c:
            changed[str(cp)] = c.lower()
    contexts = ["Σ", "ΑΣ", "ΑΣ Β", "ΑΣΑ", "Α.Σ", "ΑΣ.", "Α'Σ", "ΑΣ'", "ΑΣ́", "Σ́Α",
                "1Σ", "ΑΣ1", "ΑΣ­", "ΟΔΟΣ ΟΔΟΣ", "İΣ", "ΑΣ𝚨", "ΑΣ "]
    spaces = [cp for cp in range(0x110000) if chr(cp).isspace()]
    return {"python": sys.version.split()[0], "changed": changed, "spaces": spaces,
            "contexts": {t: t.lower() for t in contexts}}


def main():
    rng = random.Random(20261129)
    write("should_resume.json", gen_should_resume(rng))
    write("lower.json", gen_lower())
    write("demo.json", gen_demo())
    write("random_ops.json", gen_random_ops(rng, 150))
    print("wrote", ", ".join(sorted(p.name for p in HERE.glob("*.json"))))


if __name__ == "__main__":
    main()
