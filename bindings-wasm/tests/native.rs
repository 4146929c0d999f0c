//! Checks that the package's embedded texts agree with the core, on the host:
//! `cargo test -p session-state-wasm`.
#![cfg(not(target_arch = "wasm32"))]

use session_state::ErrorKind;

#[test]
fn ts_union_names_exactly_the_codes() {
    let types = include_str!("../../bindings-shared/types.d.ts");
    let start = types
        .find("export type ErrorCode =")
        .expect("ErrorCode union");
    let union = &types[start + "export type ErrorCode =".len()..];
    let members: Vec<&str> = union[..union.find(';').expect("end of the union")]
        .split('|')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    let core: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
    assert_eq!(members, core);
}

#[test]
fn embedded_schema_is_the_core_schema() {
    let schema = session_state::orchestrator::json_schema();
    let generated = serde_json::to_string(&schema).expect("serialises");
    assert_eq!(session_state_wasm::schema::SCHEMA_JSON, generated);
}

#[test]
fn glue_holds_the_cores_strict_json_function() {
    let glue = include_str!("../src/glue.js");
    let copy = format!(
        "export const strictJson = {};\n",
        session_state::js_json::STRICT_JSON_JS
    );
    assert!(
        glue.contains(&copy),
        "src/glue.js: copy js_json::STRICT_JSON_JS into it"
    );
}
