//! Shared pieces of the reliability harnesses (`crash-harness`, `concurrency-harness`): a
//! seeded random source, a walk of every file under a folder, and the checks of what a folder
//! may hold after a crash.

// File names are the store's, exact and lowercase.
#![allow(clippy::case_sensitive_file_extension_comparisons)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use session_state::orchestrator::{ParseOptions, parse_document};
use session_state::registry::{parse_chains, parse_sessions};
use session_state::{Key, Result};

/// SplitMix64: a small seeded generator, so that a run is reproduced by its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low + 1)
    }
}

/// Every regular file below `root` (symlinks not followed), sorted.
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_file() => out.push(path),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// What kind of file the filesystem store left: data, its lock, or a temporary file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A stored value.
    Data,
    /// `.NAME.lock` or `.NAME.lock-queue`, the cross-process lock and the queue of its fair
    /// wait (empty; they stay by design).
    Lock,
    /// `.NAME.tmp-PID-N`, a write interrupted before its rename.
    Temp,
}

/// The kind of the file at `path`, from its name.
pub fn file_kind(path: &Path) -> FileKind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.starts_with('.') && name.contains(".tmp-") {
        FileKind::Temp
    } else if name.starts_with('.') && (name.ends_with(".lock") || name.ends_with(".lock-queue")) {
        FileKind::Lock
    } else {
        FileKind::Data
    }
}

/// The key of `path` below `root` (`/`-joined).
pub fn key_of(root: &Path, path: &Path) -> Result<Key> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let text: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Key::new(text.join("/"))
}

/// Parses the data file `key` with the parser its name calls for: orchestrator documents
/// (`.claude/*.json`), the registry's two files, any other `.json` as plain JSON, a `.jsonl`
/// journal line by line (a last line without its newline is an append cut short, which the
/// registry skips by design: it is reported as `Ok(true)`). `Ok(false)`: parsed whole.
pub fn parse_file(key: &Key, bytes: &[u8]) -> std::result::Result<bool, String> {
    let name = key.file_name();
    let text = key.as_str();
    if text.starts_with(".claude/") && name.ends_with(".json") && !text.contains("index") {
        parse_document(key, bytes, &ParseOptions::default()).map_err(|e| e.to_string())?;
    } else if name == "agent-sessions.json" {
        parse_sessions(key, bytes).map_err(|e| e.to_string())?;
    } else if name == "workflow-chains.json" {
        parse_chains(key, bytes).map_err(|e| e.to_string())?;
    } else if name.ends_with(".jsonl") {
        let complete = bytes.rsplit_once_newline();
        for line in complete.0.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            serde_json::from_slice::<Value>(line).map_err(|e| format!("journal line: {e}"))?;
        }
        return Ok(!complete.1.is_empty());
    } else if name.ends_with(".json") {
        serde_json::from_slice::<Value>(bytes).map_err(|e| e.to_string())?;
    } else {
        return Err(format!("unexpected file `{key}`"));
    }
    Ok(false)
}

trait SplitLastLine {
    fn rsplit_once_newline(&self) -> (&[u8], &[u8]);
}

impl SplitLastLine for [u8] {
    /// (everything up to and including the last newline, the rest).
    fn rsplit_once_newline(&self) -> (&[u8], &[u8]) {
        match self.iter().rposition(|b| *b == b'\n') {
            Some(i) => self.split_at(i + 1),
            None => (&[], self),
        }
    }
}

/// Counts printed by a harness, one `name: value` pair each.
pub fn counts_line(name: &str, pairs: &[(u64, &str)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    format!("{name}: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_store_names() {
        assert_eq!(file_kind(Path::new("a/.x.json.tmp-1-2")), FileKind::Temp);
        assert_eq!(file_kind(Path::new("a/.x.json.lock")), FileKind::Lock);
        assert_eq!(file_kind(Path::new("a/.x.json.lock-queue")), FileKind::Lock);
        assert_eq!(file_kind(Path::new("a/x.json")), FileKind::Data);
    }

    #[test]
    fn torn_documents_are_refused() {
        let key = Key::new(".moai/memory/agent-sessions.json").unwrap();
        assert!(parse_file(&key, b"{\"agent_sessions\": {").is_err());
        let key = Key::new(".claude/orchestrator-session.json").unwrap();
        assert!(parse_file(&key, b"{\"schema_version\": \"1.0\"").is_err());
        let key = Key::new("x/progress.json").unwrap();
        assert!(parse_file(&key, b"{\"last\": 1").is_err());
        let key = Key::new("x/j.jsonl").unwrap();
        assert!(parse_file(&key, b"{}\n{\"a\"").unwrap());
        assert!(parse_file(&key, b"{\n{}\n").is_err());
    }

    #[test]
    fn rng_is_seeded() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = Rng::new(7);
                move |_| r.between(1, 30)
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = Rng::new(7);
                move |_| r.between(1, 30)
            })
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|d| (1..=30).contains(d)));
    }
}
