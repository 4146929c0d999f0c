//! The two shortcuts a binding takes for the orchestrator document: `valid_argument` (a
//! document the binding read with serde straight from its host's data) accepts exactly what
//! `parse_argument` of the same data's JSON text accepts, and gives the same document;
//! `OrchestratorStore::check` refuses what `parse` refuses, skipping only the bytes the
//! handle saved last itself; `OrchestratorStore::load_json` is the JSON of what `load` gives,
//! the file itself only when it is the text a save writes for that document
//! (`OrchestratorStore::document_text`); a save prepared, committed and handed back
//! (`prepare_save`, `PendingSave::commit`, `saved`) writes what `save` writes.

use serde::Deserialize;
use serde_json::{Value, json};
use session_state::orchestrator::{
    NewSession, OrchestratorSession, OrchestratorStore, ParseOptions, Project, current_key,
    parse_argument, valid_argument,
};
use session_state::{ErrorKind, FixedClock, MemoryStore, Store};

fn clock() -> FixedClock {
    FixedClock(chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap())
}

fn valid() -> Value {
    json!({
        "schema_version": "1.0", "session_id": "2025-12-27-abc",
        "created": "2025-12-27T10:00:00", "goal": "g", "status": "in_progress",
        "agents": [{"id": "a", "type": "code", "task": "t", "status": "complete",
                    "started": "2025-12-27T10:00:00Z", "progress": 100}],
        "x": {"unknown": [1, -2, 0.5, null]}
    })
}

/// A new session recorded through `s` (its file saved by `s`).
fn record_new(s: &OrchestratorStore<MemoryStore, FixedClock>) {
    let new = NewSession {
        goal: "goal".into(),
        ..NewSession::default()
    };
    s.record_new(&new, Project::new("p", "/p", None), Some("abc"))
        .unwrap();
}

#[test]
fn valid_argument_agrees_with_parse_argument() {
    let options = ParseOptions {
        naive_offset: chrono::FixedOffset::east_opt(3600),
        ..ParseOptions::default()
    };
    let cases: [fn(&mut Value); 7] = [
        |_| {},
        |d| d["schema_version"] = json!("2.0"),
        |d| d["agents"][0]["progress"] = json!(101),
        |d| d["session_id"] = json!("../escape"),
        |d| d["session_id"] = json!("x".repeat(300)),
        |d| d["status"] = json!("sleeping"),
        |d| d["created"] = json!("yesterday"),
    ];
    for (i, spoil) in cases.iter().enumerate() {
        let mut doc = valid();
        spoil(&mut doc);
        let text = serde_json::to_vec(&doc).unwrap();
        let parsed = parse_argument("state", &text, &options);
        let typed = OrchestratorSession::deserialize(&doc).ok();
        let direct = typed.and_then(|typed| valid_argument(typed, &options));
        assert_eq!(direct.is_some(), parsed.is_ok(), "case {i}: {parsed:?}");
        if let (Some(direct), Ok(parsed)) = (direct, parsed) {
            assert_eq!(direct, parsed, "case {i}");
        }
    }
}

#[test]
fn check_skips_only_the_bytes_this_handle_saved_last() {
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    let key = current_key();
    assert_eq!(
        s.check(&key, b"{").unwrap_err().kind(),
        ErrorKind::CorruptState
    );
    record_new(&s);
    let saved = s.store().read(&key).unwrap().unwrap();
    s.check(&key, &saved).unwrap();
    // What `save` wrote last has nothing to parse.
    let mut doc = s.load().unwrap().unwrap();
    s.save(&mut doc).unwrap();
    let written = s.store().read(&key).unwrap().unwrap();
    assert!(!s.needs_check(&key, &written).unwrap());
    let mut changed: Value = serde_json::from_slice(&saved).unwrap();
    changed["status"] = json!("sleeping");
    let changed = serde_json::to_vec(&changed).unwrap();
    assert!(s.needs_check(&key, &changed).unwrap());
    assert_eq!(
        s.check(&key, &changed).unwrap_err().kind(),
        ErrorKind::CorruptState
    );
    let other = OrchestratorStore::new(MemoryStore::new(), clock());
    assert!(other.needs_check(&key, &saved).unwrap());
    other.check(&key, &saved).unwrap();
    // Over the size limit: the error `check` gives, before anything is parsed.
    let small = OrchestratorStore::new(MemoryStore::new(), clock()).with_max_document_bytes(10);
    let too_big = small.needs_check(&key, &saved).unwrap_err();
    assert_eq!(too_big.kind(), ErrorKind::InvalidInput);
    assert_eq!(
        too_big.to_string(),
        small.check(&key, &saved).unwrap_err().to_string()
    );
    assert_eq!(
        other.check(&key, &saved[..10]).unwrap_err().kind(),
        ErrorKind::CorruptState
    );
}

#[test]
fn load_json_is_the_json_of_load() {
    let key = current_key();
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    assert_eq!(s.load_json().unwrap(), None);
    record_new(&s);
    let mut doc = s.load().unwrap().unwrap();
    s.save(&mut doc).unwrap();
    let saved = s.store().read(&key).unwrap().unwrap();
    assert_eq!(s.load_json().unwrap().unwrap().as_bytes(), saved.as_slice());

    // A file this handle did not write: the parsed document (defaults filled in, naive
    // times read), not the file's text.
    let mut written = valid();
    written["agents"][0]
        .as_object_mut()
        .unwrap()
        .remove("progress");
    s.store()
        .write(&key, &serde_json::to_vec(&written).unwrap())
        .unwrap();
    let text = s.load_json().unwrap().unwrap();
    let loaded = serde_json::to_value(s.load().unwrap().unwrap()).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), loaded);
    assert_ne!(serde_json::from_str::<Value>(&text).unwrap(), written);

    s.store().write(&key, b"{").unwrap();
    assert_eq!(s.load_json().unwrap_err().kind(), ErrorKind::CorruptState);
}

#[test]
fn document_text_is_none_only_for_the_text_a_save_writes() {
    let key = current_key();
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    record_new(&s);
    let saved = s.store().read(&key).unwrap().unwrap();
    assert_eq!(s.document_text(&key, &saved).unwrap(), None);

    // Another handle's file, as a save wrote it: checked, and its own text.
    let other = OrchestratorStore::new(MemoryStore::new(), clock());
    other.store().write(&key, &saved).unwrap();
    assert!(other.needs_check(&key, &saved).unwrap());
    assert_eq!(other.document_text(&key, &saved).unwrap(), None);
    assert_eq!(
        other.load_json().unwrap().unwrap().as_bytes(),
        saved.as_slice()
    );

    // The same values written otherwise (compact, no final newline, a space more, fields in
    // another order): the document's text instead, whose values are the file's.
    let value: Value = serde_json::from_slice(&saved).unwrap();
    let mut reordered = value.as_object().unwrap().clone();
    let goal = reordered.remove("goal").unwrap();
    reordered.insert("goal".into(), goal);
    let variants = [
        serde_json::to_vec(&value).unwrap(),
        saved[..saved.len() - 1].to_vec(),
        [saved.as_slice(), b" "].concat(),
        serde_json::to_vec_pretty(&reordered).unwrap(),
    ];
    for (i, bytes) in variants.iter().enumerate() {
        let text = other.document_text(&key, bytes).unwrap().expect("a text");
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            value,
            "variant {i}"
        );
    }

    // Errors as `parse`, for bytes that do not hold a document.
    assert_eq!(
        other.document_text(&key, b"{").unwrap_err().kind(),
        ErrorKind::CorruptState
    );
    assert_eq!(
        other
            .document_text(&key, &saved[..saved.len() / 2])
            .unwrap_err()
            .kind(),
        ErrorKind::CorruptState
    );
}

#[test]
fn is_written_as_holds_for_the_pretty_text_only() {
    let doc = parse_argument(
        "doc",
        &serde_json::to_vec(&valid()).unwrap(),
        &ParseOptions::default(),
    )
    .unwrap();
    let text = doc.to_pretty_json();
    assert!(doc.is_written_as(&text));
    let last = text.len() - 1;
    for bytes in [
        &text[..last],
        &text[..text.len() / 2],
        &[text.as_slice(), b"\n"].concat()[..],
        &[b" ", text.as_slice()].concat()[..],
        b"",
    ] {
        assert!(
            !doc.is_written_as(bytes),
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let mut changed = text.clone();
    changed[last / 2] ^= 1;
    assert!(!doc.is_written_as(&changed));
}

#[test]
fn a_prepared_save_writes_its_text_once_committed_as_save_does() {
    let key = current_key();
    let s = OrchestratorStore::new(MemoryStore::new(), clock());
    let bytes = serde_json::to_vec(&valid()).unwrap();
    let mut doc = parse_argument("doc", &bytes, &ParseOptions::default()).unwrap();
    let mut same = doc.clone();
    let pending = s.prepare_save(&mut doc).unwrap();
    let text = pending.text().into_owned();
    assert_eq!(
        s.store().read(&key).unwrap(),
        None,
        "nothing stored before the commit"
    );
    pending.commit(s.store()).unwrap();
    assert_eq!(
        text.as_bytes(),
        s.store().read(&key).unwrap().unwrap().as_slice()
    );
    // `doc` keeps the `updated` it was read with; the text holds the stamp.
    assert_eq!(doc.updated, same.updated);
    doc.updated = pending.updated();
    assert_eq!(text.as_bytes(), doc.to_pretty_json().as_slice());
    // Stamped as `save` stamps (`updated` is the clock's now), the unknown member kept.
    let written: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(written["updated"], "2026-01-01T00:00:00Z");
    assert_eq!(written["x"], valid()["x"]);
    // The same document through `save` on another store writes the same bytes.
    let other = OrchestratorStore::new(MemoryStore::new(), clock());
    other.save(&mut same).unwrap();
    assert_eq!(other.store().read(&key).unwrap().unwrap(), text.as_bytes());
    // Handed back, the file is the handle's own: no check of it on load.
    assert!(s.needs_check(&key, text.as_bytes()).unwrap());
    s.saved(pending);
    assert!(!s.needs_check(&key, text.as_bytes()).unwrap());
    // An invalid session id is refused before anything is written.
    let mut bad = doc.clone();
    bad.session_id = "../x".into();
    assert_eq!(
        s.prepare_save(&mut bad).unwrap_err().kind(),
        ErrorKind::InvalidKey
    );
    assert_eq!(s.store().read(&key).unwrap().unwrap(), text.as_bytes());
}

#[test]
fn a_prepared_save_refuses_a_later_save_and_keeps_a_torn_file_aside() {
    let key = current_key();
    let store = MemoryStore::new();
    let s = OrchestratorStore::new(store.clone(), clock());
    record_new(&s);
    let mut snapshot = s.load().unwrap().unwrap();
    // Another handle saves later (its clock a minute on) with other content.
    let later = FixedClock(clock().0 + chrono::Duration::minutes(1));
    let other = OrchestratorStore::new(store.clone(), later);
    let mut changed = snapshot.clone();
    changed.goal = "other".into();
    other.save(&mut changed).unwrap();
    let before = store.read(&key).unwrap();
    let pending = s.prepare_save(&mut snapshot).unwrap();
    assert_eq!(
        pending.commit(&store).unwrap_err().kind(),
        ErrorKind::Conflict
    );
    assert_eq!(store.read(&key).unwrap(), before);
    // A torn current file is copied aside, then replaced.
    let torn = b"{\"schema_version\": \"1.0\", \"session_id\": \"x".to_vec();
    store.write(&key, &torn).unwrap();
    let pending = s.prepare_save(&mut snapshot).unwrap();
    pending.commit(&store).unwrap();
    assert_eq!(store.read(&key).unwrap().unwrap(), pending.bytes());
    let copies = store
        .list(&session_state::Key::new(".claude").unwrap())
        .unwrap();
    let kept: Vec<_> = copies
        .iter()
        .filter(|k| k.as_str().contains(".corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(store.read(kept[0]).unwrap().unwrap(), torn);
}
