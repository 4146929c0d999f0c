//! Property tests: any session document we write reads back equal and re-writes to the same
//! bytes (SPEC section 3, "Our files must be readable ... and its files by us").

use chrono::{DateTime, Utc};
use proptest::prelude::*;
use serde_json::{Map, Value};
use session_state::team::{DOCUMENT_KEYS, MemoryConfig, SessionState, StringMap};

fn string_map() -> impl Strategy<Value = StringMap> {
    proptest::collection::vec((".{0,8}", ".{0,8}"), 0..4)
        .prop_map(|pairs| pairs.into_iter().collect())
}

fn extra() -> impl Strategy<Value = Map<String, Value>> {
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    proptest::collection::vec(("[a-zA-Z_]{1,10}", value), 0..3).prop_map(|pairs| {
        pairs
            .into_iter()
            .filter(|(k, _)| !DOCUMENT_KEYS.contains(&k.as_str()))
            .collect()
    })
}

fn created_at() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..253_402_300_799, 0u32..1_000_000_000)
        .prop_map(|(secs, nanos)| DateTime::from_timestamp(secs, nanos).unwrap())
}

fn memory() -> impl Strategy<Value = Option<MemoryConfig>> {
    proptest::option::of(
        (any::<u64>(), any::<u64>()).prop_map(|(max_turns, budget_chars)| MemoryConfig {
            max_turns,
            budget_chars,
            ..MemoryConfig::default()
        }),
    )
}

prop_compose! {
    fn session_state()(
        name in ".{0,12}",
        backend_type in prop_oneof![Just("codex".to_owned()), Just("claude-code".to_owned()), ".{0,10}"],
        prompt in ".{0,40}",
        model in proptest::option::of(".{0,10}"),
        cwd in proptest::option::of(".{0,10}"),
        max_turns in proptest::option::of(any::<i32>()),
        allowed_tools in proptest::collection::vec(".{0,6}", 0..3),
        permission_mode in proptest::option::of(".{0,6}"),
        reasoning_effort in proptest::option::of(".{0,6}"),
        env in string_map(),
        memory_config in memory(),
        metadata in string_map(),
        created_at in created_at(),
        extra in extra(),
    ) -> SessionState {
        SessionState {
            name, backend_type, prompt, model, cwd, max_turns, allowed_tools, permission_mode,
            reasoning_effort, env, memory_config, metadata, created_at, extra,
        }
    }
}

proptest! {
    #[test]
    fn written_documents_read_back_and_rewrite_identically(state in session_state()) {
        let bytes = state.to_json().unwrap();
        prop_assert!(!bytes.ends_with(b"\n"));
        let back = SessionState::from_json(&bytes).unwrap();
        prop_assert_eq!(&back, &state);
        prop_assert_eq!(back.to_json().unwrap(), bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = SessionState::from_json(&bytes);
    }
}
