"""The seed's `if __name__ == "__main__"` example (seeds/moai-session-manager.txt), step by step,
on any object with the seed's `SessionManager` methods: `generate.py` runs it on the oracle to
make `demo.json`, and the Python package's tests run it on `session_state.moai.SessionManager`
and compare with that file. Returns the printed values, by name."""


def run(m):
    outputs = {}
    m.create_chain(
        chain_id="SPEC-AUTH-001-planning",
        agent_sequence=["spec-builder", "implementation-planner"],
        metadata={"spec_id": "SPEC-AUTH-001", "feature": "User Authentication"},
    )
    m.register_agent_result("spec-builder", "spec-abc123", {
        "spec_id": "SPEC-AUTH-001",
        "files_created": [".moai/specs/SPEC-AUTH-001/spec.md"],
        "status": "success",
    }, "SPEC-AUTH-001-planning")
    m.register_agent_result("implementation-planner", "plan-def456", {
        "dependencies": {"fastapi": ">=0.118.3"},
        "status": "success",
    }, "SPEC-AUTH-001-planning")
    outputs["planning_summary"] = m.get_chain_summary("SPEC-AUTH-001-planning")
    m.create_chain(chain_id="SPEC-AUTH-001-implementation", agent_sequence=["tdd-implementer"])
    m.register_agent_result("tdd-implementer", "tdd-ghi789", {
        "phase": "phase_1",
        "tests_created": ["tests/test_registration.py"],
        "code_created": ["src/auth/registration.py"],
        "status": "success",
    }, "SPEC-AUTH-001-implementation")
    resume_id = m.get_resume_id("tdd-implementer", "SPEC-AUTH-001-implementation")
    outputs["resume_id"] = resume_id
    decision = m.should_resume("tdd-implementer", "Implement user login endpoint",
                               "Implement user registration endpoint")
    outputs["should_resume"] = decision
    if decision and resume_id:
        m.increment_resume_count(resume_id)
    m.create_chain(
        chain_id="SPEC-AUTH-001-review",
        agent_sequence=["backend-expert", "security-expert", "frontend-expert"],
        metadata={"review_type": "expert_consultation"},
    )
    for name, agent_id, result in [
        ("backend-expert", "backend-jkl012", {"recommendations": ["Use JWT for auth"]}),
        ("security-expert", "security-mno345", {"vulnerabilities": ["Rate limiting needed"]}),
        ("frontend-expert", "frontend-pqr678", {"ui_concerns": ["Token refresh flow"]}),
    ]:
        m.register_agent_result(name, agent_id, result, "SPEC-AUTH-001-review")
    outputs["review_results"] = m.get_chain_results("SPEC-AUTH-001-review")
    outputs["all_sessions"] = m.get_all_sessions()
    return outputs
