//! The recording API (`record_*` over the argument types of the record module): each verb's
//! rules through an `OrchestratorStore`, and `record_new`'s handling of a current session.

use session_state::orchestrator::{
    AgentDone, AgentStart, ContextInput, DecisionInput, HistoryQuery, NewSession,
    OrchestratorStore, Project, SessionStatus, TaskAdd, TaskDone, TaskRef, current_key,
    history_key,
};
use session_state::{ErrorKind, FixedClock, MemoryStore, Store};

fn sessions() -> OrchestratorStore<MemoryStore, FixedClock> {
    OrchestratorStore::new(
        MemoryStore::new(),
        FixedClock::at("2025-12-27T10:30:00Z").unwrap(),
    )
}

fn new(goal: &str) -> NewSession {
    NewSession {
        goal: goal.into(),
        mode: None,
        id: None,
        archive_current: false,
    }
}

fn project() -> Project {
    Project::new("p", "/p", Some("dev"))
}

fn start(id: &str) -> AgentStart {
    AgentStart {
        id: id.into(),
        agent_type: "code".into(),
        task: format!("task {id}"),
    }
}

#[test]
fn new_makes_a_created_session_with_the_skill_id_shape() {
    let s = sessions();
    let doc = s
        .record_new(&new("goal"), project(), Some("abc123"))
        .unwrap();
    assert_eq!(doc.session_id, "2025-12-27-abc123");
    assert_eq!(doc.status, SessionStatus::Created);
    assert_eq!(doc.mode.as_deref(), Some("default"));
    assert_eq!(s.load().unwrap().unwrap(), doc);

    let err = s
        .record_new(&new("other"), project(), Some("def456"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    assert!(
        err.message()
            .contains("`2025-12-27-abc123` is unfinished (created)"),
        "{err}"
    );
    assert_eq!(s.load().unwrap().unwrap().goal, "goal");

    let again = NewSession {
        archive_current: true,
        mode: Some("debug".into()),
        ..new("other")
    };
    let doc = s.record_new(&again, project(), Some("def456")).unwrap();
    assert_eq!(
        (doc.goal.as_str(), doc.mode.as_deref()),
        ("other", Some("debug"))
    );
    let archived = s
        .store()
        .read(&history_key("2025-12-27-abc123").unwrap())
        .unwrap();
    assert!(archived.is_some());
    let listed = s.list_history(&HistoryQuery::default()).unwrap();
    assert_eq!(listed.entries.len(), 1);
}

#[test]
fn new_refuses_unsafe_or_taken_ids_and_an_empty_goal() {
    let s = sessions();
    let bad = NewSession {
        id: Some("../x".into()),
        ..new("goal")
    };
    assert_eq!(
        s.record_new(&bad, project(), Some("a")).unwrap_err().kind(),
        ErrorKind::InvalidKey
    );
    assert_eq!(
        s.record_new(&new(" "), project(), Some("a"))
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidInput
    );
    let mine = NewSession {
        id: Some("mine".into()),
        ..new("goal")
    };
    s.record_new(&mine, project(), Some("a")).unwrap();
    s.record_agent_start(&start("a")).unwrap();
    s.complete().unwrap();
    // The id is archived: a new session under it could never be archived.
    let err = s.record_new(&mine, project(), Some("a")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists, "{err}");
    assert!(s.load().unwrap().is_none());
    // The current session's own id, archived on the way, is refused too; nothing changes.
    let cur = NewSession {
        id: Some("cur".into()),
        ..new("goal")
    };
    s.record_new(&cur, project(), Some("a")).unwrap();
    let same = NewSession {
        archive_current: true,
        ..cur.clone()
    };
    assert_eq!(
        s.record_new(&same, project(), Some("a"))
            .unwrap_err()
            .kind(),
        ErrorKind::AlreadyExists
    );
    assert!(
        s.store()
            .read(&history_key("cur").unwrap())
            .unwrap()
            .is_none()
    );
    assert_eq!(s.load().unwrap().unwrap().session_id, "cur");
}

#[test]
fn a_finished_current_session_is_archived_by_new() {
    let s = sessions();
    s.record_new(&new("goal"), project(), Some("aaa111"))
        .unwrap();
    let mut doc = s.load().unwrap().unwrap();
    doc.status = SessionStatus::Complete;
    s.save(&mut doc).unwrap();
    let next = s
        .record_new(&new("next"), project(), Some("bbb222"))
        .unwrap();
    assert_eq!(next.session_id, "2025-12-27-bbb222");
    assert!(
        s.store()
            .read(&history_key("2025-12-27-aaa111").unwrap())
            .unwrap()
            .is_some()
    );
}

#[test]
fn the_skill_flow_through_the_record_api() {
    let s = sessions();
    let err = s.record_agent_start(&start("a")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert!(s.store().read(&current_key()).unwrap().is_none());

    s.record_new(&new("goal"), project(), Some("abc123"))
        .unwrap();
    assert_eq!(
        s.record_agent_start(&start("arch-1")).unwrap().status,
        SessionStatus::InProgress
    );
    s.record_agent_done(&AgentDone {
        id: "arch-1".into(),
        summary: Some("3 methods".into()),
        ..AgentDone::default()
    })
    .unwrap();
    s.record_decision(&DecisionInput {
        decision: "bootstrap".into(),
        why: Some("speed".into()),
    })
    .unwrap();
    s.record_task_add(&TaskAdd {
        task: "tests".into(),
    })
    .unwrap();
    let (_, text) = s
        .record_task_done(&TaskDone {
            task: TaskRef::Number(1),
            outcome: "pass".into(),
            files: vec!["t.R".into()],
        })
        .unwrap();
    assert_eq!(text, "tests");
    s.record_context(&ContextInput {
        tokens: 25_000,
        percent: Some(20.into()),
        compressed: true,
    })
    .unwrap();
    s.pause().unwrap();
    // Paused stays paused, and a late agent is still recorded.
    let doc = s.record_agent_start(&start("late")).unwrap();
    assert_eq!(doc.status, SessionStatus::Paused);
    let doc = s.record_disconnect().unwrap();
    assert_eq!(doc.status, SessionStatus::Paused);
    let doc = s.record_save().unwrap();
    assert_eq!(doc.completed_work.len(), 2);
    assert_eq!(doc.decisions_made[0].rationale, "speed");
    assert!(doc.context_usage.last_compression.is_some());
    s.resume().unwrap();
    assert_eq!(s.record_disconnect().unwrap().status, SessionStatus::Paused);
}
