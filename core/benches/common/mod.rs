//! The documents the orchestrator benches time, shared with the Redis store's benches
//! (`stores/redis/benches/redis.rs` includes this file).

use session_state::orchestrator::{Agent, OrchestratorSession, Project};
use session_state::{FixedClock, Timestamp};

/// The clock of every save.
pub fn clock() -> FixedClock {
    FixedClock::at("2025-12-27T12:30:00Z").unwrap()
}

/// A session with `agents` agents and 50 pending tasks (the benches use 200).
pub fn session(agents: usize) -> OrchestratorSession {
    let now = Timestamp::parse("2025-12-27T10:30:00Z").unwrap();
    let project = Project::new("bench", "/path/to/bench", Some("main"));
    let mut doc = OrchestratorSession::new(
        "2025-12-27-bench0",
        "Benchmark goal",
        "default",
        project,
        now,
    );
    for i in 0..agents {
        let mut agent = Agent::new(
            format!("agent-{i}"),
            "code",
            format!("Task number {i} of the benchmark"),
            now,
        );
        agent.progress = u8::try_from(i % 101).ok().map(Into::into);
        agent.context_tokens = Some((1000 + i as u64).into());
        doc.agents.push(agent);
    }
    doc.pending_tasks = (0..50).map(|i| format!("pending task {i}")).collect();
    doc
}

/// `count` archived sessions of 2 agents each, created at scattered times: (file name, bytes).
pub fn archived(count: u32) -> impl Iterator<Item = (String, Vec<u8>)> {
    let base = Timestamp::parse("2020-01-01T00:00:00Z").unwrap().utc();
    let mut doc = session(2);
    (0..count).map(move |i| {
        doc.session_id = format!("2020-01-01-{i:06x}");
        doc.created =
            Timestamp::from_utc(base + chrono::Duration::minutes(i64::from(i) * 37 % 500_000));
        doc.goal = format!("Goal of archived session {i}");
        (format!("{}.json", doc.session_id), doc.to_pretty_json())
    })
}
