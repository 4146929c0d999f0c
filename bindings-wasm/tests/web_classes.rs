//! The orchestrator, registry and team classes through the wasm API in real headless Chromium
//! (wasm-bindgen-test), over the browser's own `window.localStorage` via `LocalStorageStore`.
#![cfg(target_arch = "wasm32")]

use js_sys::{JSON, Reflect};
use session_state_wasm::orchestrator::{OrchestratorStore, render_resume, resume_summary, salvage};
use session_state_wasm::registry::AgentRegistry;
use session_state_wasm::team::TeamStore;
use session_state_wasm::{LocalStorageStore, MemoryStore};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const SEED: &str = include_str!("../../tests/vectors/orchestrator/seed-example.json");
const SEED_RESUME: &str = include_str!("../../tests/vectors/orchestrator/seed-example.resume.json");
const SEED_MD: &str = include_str!("../../tests/vectors/orchestrator/seed-example.resume.md");
const TORN: &str = include_str!("../../tests/vectors/orchestrator/seed-example.torn.json");
const TORN_SALVAGED: &str =
    include_str!("../../tests/vectors/orchestrator/seed-example.torn.salvaged.json");
const CURRENT: &str = ".claude/orchestrator-session.json";

#[wasm_bindgen(inline_js = r#"
export function storage_item(name) { return window.localStorage.getItem(name); }
export function clear_prefix(prefix) {
  for (const k of Object.keys(window.localStorage)) if (k.startsWith(prefix)) window.localStorage.removeItem(k);
}
export function same_json(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
"#)]
extern "C" {
    fn storage_item(name: &str) -> JsValue;
    fn clear_prefix(prefix: &str);
    fn same_json(a: &JsValue, b: &JsValue) -> bool;
}

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

/// A `string` argument of a class method.
fn t(text: &str) -> JsValue {
    s(text)
}

fn get(value: &JsValue, name: &str) -> JsValue {
    Reflect::get(value, &s(name)).unwrap()
}

fn text(value: &JsValue, name: &str) -> String {
    get(value, name).as_string().unwrap_or_default()
}

fn parse(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn code(err: &JsValue) -> String {
    text(err, "code")
}

fn local(prefix: &str) -> JsValue {
    clear_prefix(prefix);
    local_keep(prefix)
}

#[wasm_bindgen_test]
fn seed_example_summary_in_local_storage_equals_the_goldens() {
    let store = local("web-classes-seed:");
    let class_store = LocalStorageStore::new(&s("web-classes-seed:"), None).unwrap();
    class_store.write(&t(CURRENT), &s(SEED)).unwrap();
    let sessions = OrchestratorStore::new(&store, &JsValue::UNDEFINED).unwrap();
    let doc = sessions.load().unwrap();
    assert!(same_json(&doc, &parse(SEED)));
    let summary = resume_summary(&doc, &s("2025-12-27T12:30:00Z"), &JsValue::UNDEFINED).unwrap();
    assert!(same_json(&summary, &parse(SEED_RESUME)));
    assert_eq!(
        render_resume(&summary).unwrap().as_string().unwrap(),
        SEED_MD
    );
}

#[wasm_bindgen_test]
fn lifecycle_moves_are_saved_in_local_storage() {
    let prefix = "web-classes-life:";
    let store = local(prefix);
    let sessions = OrchestratorStore::new(&store, &JsValue::UNDEFINED).unwrap();
    let doc = sessions
        .record_new(
            &parse(r#"{"goal":"goal","mode":"default"}"#),
            &parse(r#"{"name":"p","path":"/p"}"#),
            &t("web1"),
        )
        .unwrap();
    assert_eq!(text(&doc, "status"), "created");
    sessions.start().unwrap();
    assert_eq!(text(&sessions.pause().unwrap(), "status"), "paused");
    let stored = storage_item(&format!("{prefix}{CURRENT}"))
        .as_string()
        .unwrap();
    assert!(stored.contains("\"status\": \"paused\""), "{stored}");
    // A move to the status it has changes nothing; a move the lifecycle lacks is refused.
    assert_eq!(text(&sessions.pause().unwrap(), "status"), "paused");
    assert_eq!(
        code(&sessions.complete(&JsValue::UNDEFINED).unwrap_err()),
        "invalid_transition"
    );
    assert_eq!(text(&sessions.resume().unwrap(), "status"), "in_progress");
    // A second handle over the same prefix sees the saved state (a reload).
    let again = OrchestratorStore::new(&local_keep(prefix), &JsValue::UNDEFINED).unwrap();
    assert_eq!(text(&again.load().unwrap(), "status"), "in_progress");
    let done = again.abort(&JsValue::UNDEFINED).unwrap();
    assert_eq!(text(&done, "status"), "aborted");
    assert!(again.load().unwrap().is_null());
    let page = again.list_history(&JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&page, "total").as_f64(), Some(1.0));
    clear_prefix(prefix);
}

fn local_keep(prefix: &str) -> JsValue {
    JsValue::from(LocalStorageStore::new(&s(prefix), None).unwrap())
}

#[wasm_bindgen_test]
fn torn_file_is_corrupt_with_the_salvage_and_recover_keeps_a_copy() {
    let prefix = "web-classes-torn:";
    let store = local(prefix);
    LocalStorageStore::new(&s(prefix), None)
        .unwrap()
        .write(&t(CURRENT), &s(TORN))
        .unwrap();
    let sessions = OrchestratorStore::new(&store, &JsValue::UNDEFINED).unwrap();
    let err = sessions.load().unwrap_err();
    let golden = parse(TORN_SALVAGED);
    assert_eq!(text(&err, "code"), "corrupt_state");
    assert!(same_json(&get(&err, "salvaged"), &get(&golden, "document")));
    assert!(same_json(&salvage(&s(TORN)).unwrap(), &golden));
    let repair = sessions.recover(&JsValue::UNDEFINED).unwrap();
    let kept = text(&repair, "kept_copy");
    assert!(
        kept.starts_with(".claude/orchestrator-session.json.corrupt-"),
        "{kept}"
    );
    assert_eq!(
        storage_item(&format!("{prefix}{kept}"))
            .as_string()
            .unwrap(),
        TORN
    );
    assert_eq!(
        text(&sessions.load().unwrap(), "session_id"),
        "2025-12-27-abc123"
    );
    clear_prefix(prefix);
}

#[wasm_bindgen_test]
fn registry_and_team_classes_work_over_local_storage() {
    let prefix = "web-classes-reg:";
    let store = local(prefix);
    let reg = AgentRegistry::new(&store, &JsValue::UNDEFINED).unwrap();
    reg.create_chain(
        &t("SPEC-1"),
        &parse(r#"["spec-builder","planner"]"#),
        &JsValue::UNDEFINED,
    )
    .unwrap();
    reg.register(
        &t("spec-builder"),
        &t("spec-abc123"),
        &parse(r#"{"status":"success"}"#),
        &t("SPEC-1"),
    )
    .unwrap();
    assert_eq!(
        reg.resume_id(&t("spec-builder"), &JsValue::UNDEFINED)
            .unwrap()
            .as_string()
            .as_deref(),
        Some("spec-abc123")
    );
    assert!(
        reg.should_resume(
            &t("spec-builder"),
            &t("update profiles"),
            &t("rename files")
        )
        .unwrap()
    );
    assert!(
        storage_item(&format!("{prefix}.moai/memory/agent-sessions.json"))
            .as_string()
            .unwrap()
            .contains("spec-abc123")
    );
    let status = reg.chain_status(&t("SPEC-1")).unwrap();
    assert!(same_json(
        &get(&status, "missing"),
        &parse(r#"["planner"]"#)
    ));

    let teams = TeamStore::new(&store, &JsValue::UNDEFINED).unwrap();
    let state = teams
        .record_spawn(
            &t("my-team"),
            parse(r#"{"name":"coder","prompt":"You write Rust."}"#).unchecked_ref(),
            &s("codex"),
        )
        .unwrap();
    assert_eq!(text(&state, "backendType"), "codex");
    assert!(same_json(
        &teams.load(&t("my-team"), &t("coder")).unwrap(),
        &state
    ));
    assert_eq!(
        code(&teams.load(&t("../x"), &t("coder")).unwrap_err()),
        "invalid_key"
    );
    clear_prefix(prefix);
}

#[wasm_bindgen_test]
fn memory_store_shares_data_with_the_classes() {
    let mem = MemoryStore::new();
    let sessions =
        OrchestratorStore::new(&JsValue::from(mem.clone()), &JsValue::UNDEFINED).unwrap();
    sessions
        .record_new(
            &parse(r#"{"goal":"g"}"#),
            &parse(r#"{"name":"p","path":"/p"}"#),
            &t("m1"),
        )
        .unwrap();
    assert!(
        mem.read_text(&t(CURRENT))
            .unwrap()
            .as_string()
            .unwrap()
            .contains("\"goal\": \"g\"")
    );
}
