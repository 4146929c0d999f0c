//! Torn at every byte (RELIABILITY.md, harness 4) for the registry and team files; the orchestrator
//! documents have theirs, with salvage, in `orchestrator_salvage.rs`.
//!
//! Every prefix (each byte offset) of each fixture that is not itself valid JSON is stored and
//! loaded: the registry's `load` / `load_chains` give `corrupt_state` and write nothing (the
//! registry has no salvage: a later change copies the torn file aside and refuses, tested
//! below); the team store's `load` gives `corrupt_state`, its `list` skips the file with
//! `corrupt_state` instead of failing. No prefix panics.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use session_state::registry::{AgentRegistry, CHAINS_KEY, SESSIONS_KEY};
use session_state::team::{TeamStore, session_key};
use session_state::{ErrorKind, FixedClock, Key, MemoryStore, Store};

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn clock() -> FixedClock {
    FixedClock::at("2026-11-29T18:00:00Z").unwrap()
}

/// The prefixes of `bytes` that are not valid JSON.
fn torn_prefixes(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    (0..bytes.len())
        .map(move |cut| (cut, &bytes[..cut]))
        .filter(|(_, p)| serde_json::from_slice::<Value>(p).is_err())
}

fn files(folder: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(vectors().join(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    out
}

#[test]
fn registry_files_cut_at_every_byte_are_corrupt_and_untouched_by_load() {
    let fixtures = [
        (
            SESSIONS_KEY,
            vectors().join("hostile/files/base-agent-sessions.json"),
        ),
        (
            CHAINS_KEY,
            vectors().join("hostile/files/base-workflow-chains.json"),
        ),
    ];
    let mut checked = 0;
    for (key_text, path) in fixtures {
        let key = Key::new(key_text).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // The whole file loads.
        let store = MemoryStore::new();
        store.write(&key, &bytes).unwrap();
        let reg = AgentRegistry::new(store, clock());
        reg.load().unwrap();
        reg.load_chains().unwrap();
        for (cut, prefix) in torn_prefixes(&bytes) {
            let ctx = format!("{} cut at {cut}", path.display());
            let store = MemoryStore::new();
            store.write(&key, prefix).unwrap();
            let reg = AgentRegistry::new(store, clock());
            let err = if key_text == SESSIONS_KEY {
                reg.load().unwrap_err()
            } else {
                reg.load_chains().unwrap_err()
            };
            assert_eq!(err.kind(), ErrorKind::CorruptState, "{ctx}: {err}");
            assert!(err.to_string().contains(key_text), "{ctx}: {err}");
            assert_eq!(
                reg.store().list(&Key::new(".moai").unwrap()).unwrap(),
                std::slice::from_ref(&key),
                "{ctx}"
            );
            assert_eq!(
                reg.store().read(&key).unwrap().as_deref(),
                Some(prefix),
                "{ctx}"
            );
            checked += 1;
        }
    }
    println!("torn registry: {checked} prefixes, all corrupt_state");
    assert!(checked > 2000, "{checked}");
}

#[test]
fn a_change_over_a_torn_registry_copies_it_aside_and_refuses() {
    let bytes = std::fs::read(vectors().join("hostile/files/base-agent-sessions.json")).unwrap();
    let key = Key::new(SESSIONS_KEY).unwrap();
    // Every 7th offset: each one is a full register attempt.
    for (cut, prefix) in torn_prefixes(&bytes).step_by(7) {
        let store = MemoryStore::new();
        store.write(&key, prefix).unwrap();
        let reg = AgentRegistry::new(store, clock());
        let err = reg.register("a", "agent-1", json!({}), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CorruptState, "cut at {cut}");
        assert_eq!(reg.store().read(&key).unwrap().as_deref(), Some(prefix));
        let keys = reg
            .store()
            .list(&Key::new(".moai/memory").unwrap())
            .unwrap();
        let aside: Vec<_> = keys
            .iter()
            .filter(|k| k.as_str().contains(".corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1, "cut at {cut}: {keys:?}");
        assert_eq!(reg.store().read(aside[0]).unwrap().as_deref(), Some(prefix));
    }
}

#[test]
fn team_files_cut_at_every_byte_are_corrupt_and_skipped_by_list() {
    let mut paths = files("teams/fixtures");
    paths.extend(files("teams/crate-written"));
    paths.extend(files("teams/ours"));
    let key = session_key("t", "a").unwrap();
    let mut checked = 0;
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        for (cut, prefix) in torn_prefixes(&bytes) {
            let ctx = format!("{} cut at {cut}", path.display());
            let store = MemoryStore::new();
            store.write(&key, prefix).unwrap();
            let teams = TeamStore::new(store, clock());
            let err = teams.load("t", "a").unwrap_err();
            assert_eq!(err.kind(), ErrorKind::CorruptState, "{ctx}: {err}");
            let listing = teams.list("t").unwrap();
            assert!(listing.members.is_empty(), "{ctx}");
            assert_eq!(listing.skipped.len(), 1, "{ctx}");
            assert_eq!(listing.skipped[0].code, "corrupt_state", "{ctx}");
            assert_eq!(
                teams.store().read(&key).unwrap().as_deref(),
                Some(prefix),
                "{ctx}"
            );
            checked += 1;
        }
    }
    println!("torn team: {checked} prefixes, all corrupt_state");
    assert!(checked > 3000, "{checked}");
}
