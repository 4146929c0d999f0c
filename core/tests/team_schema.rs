//! The JSON Schemas of the team types name exactly the document's keys (bindings derive their
//! types from them).

use session_state::team::{
    DOCUMENT_KEYS, MEMORY_CONFIG_KEYS, MemoryConfig, ResumePlan, SessionState,
};

#[test]
fn session_state_schema_lists_the_document_keys() {
    let schema = serde_json::to_value(schemars::schema_for!(SessionState)).unwrap();
    let properties: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(properties, DOCUMENT_KEYS);
    assert_eq!(
        schema["required"],
        serde_json::json!(["name", "backendType", "prompt", "createdAt"])
    );
    assert_eq!(schema["properties"]["createdAt"]["format"], "date-time");
    assert_ne!(schema["additionalProperties"], serde_json::json!(false));

    let memory = serde_json::to_value(schemars::schema_for!(MemoryConfig)).unwrap();
    let keys: Vec<&str> = memory["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, MEMORY_CONFIG_KEYS);
}

#[test]
fn resume_plan_schema_names_its_actions_and_backends() {
    let text = serde_json::to_string(&schemars::schema_for!(ResumePlan)).unwrap();
    for word in [
        "respawn",
        "skip",
        "unknown_backend",
        "unparsable",
        "gemini-cli",
    ] {
        assert!(
            text.contains(&format!("\"{word}\"")),
            "{word} missing from {text}"
        );
    }
}
