//! The error mapping of the Node binding (`src/errors.rs`), without Node (napi's
//! `dyn-symbols`): codes, the hint rendered in the Node API's terms, host exceptions.

use napi::Status;
use session_state::js_message::js_message;
use session_state::{Error, ErrorKind, Hint};
use session_state_node::errors::{ERROR_CODES, HostException};

#[test]
fn error_codes_are_the_core_kind_codes() {
    let core: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
    assert_eq!(ERROR_CODES.to_vec(), core);
}

#[test]
fn js_message_names_the_js_option() {
    use session_state::orchestrator::{NewSession, OrchestratorStore, Project};
    use session_state::{FixedClock, MemoryStore};
    let clock = FixedClock::at("2026-01-02T03:04:05Z").expect("instant");
    let sessions = OrchestratorStore::new(MemoryStore::new(), clock);
    let project = Project {
        name: Some("p".into()),
        path: Some("/p".into()),
        ..Project::default()
    };
    let doc = sessions
        .record_new(
            &NewSession {
                goal: "goal".into(),
                ..NewSession::default()
            },
            project,
            Some("abc123"),
        )
        .expect("created");
    sessions.archive(&doc, false).expect("archived");
    let err = sessions.archive(&doc, false).expect_err("archived twice");
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert!(!err.message().contains("--replace"), "core message: {err}");
    assert_eq!(err.hint(), Some(Hint::Replace));
    let node = js_message(&err);
    assert!(!node.contains("--replace"), "{node}");
    assert!(node.contains("`{ replace: true }`"), "{node}");
    assert!(
        node.starts_with("an archive of session `2026-01-02-abc123` already exists at"),
        "{node}"
    );
    assert_eq!(
        js_message(&Error::invalid_input("no hint")),
        "no hint",
        "no hint, nothing added"
    );
}

#[test]
fn host_exception_is_found_below_wrapping_errors() {
    let host = HostException(napi::Error::new(Status::GenericFailure, "boom"));
    let inner = Error::new(ErrorKind::Storage, "cannot read `a`").with_source(host);
    let mut outer = Error::new(ErrorKind::CorruptState, "`a` is corrupt").with_source(inner);
    let found = outer
        .take_source_of::<HostException>()
        .expect("host exception in the chain");
    assert_eq!(found.to_string(), "boom");
    let mut plain = Error::storage("a", "read", std::io::Error::other("disk"));
    assert!(plain.take_source_of::<HostException>().is_none());
}
