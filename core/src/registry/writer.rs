//! Writing `agent-sessions.json` after a registration without serialising every entry again.
//!
//! A registration changes one entry of each top-level map (`sessions`, `chains`, `metadata`
//! and `results`, which together make up nearly all of the file) and `last_updated`.
//! [`write_sessions`] writes the file exactly as
//! [`to_python_json`](super::document::to_python_json) does, byte for byte, and records where
//! each entry of the four maps sits ([`Layout`]); given the previous file and its layout, it
//! copies the unchanged entries before and after the changed one from the previous file, each
//! run in one piece, instead of serialising them.
//!
//! A registration only updates or appends entries, so every entry the previous file holds
//! keeps its position. A run is copied only when its first and last keys read the same in the
//! previous file at their positions (an entry removed or moved meanwhile fails that check, and
//! the run is serialised afresh). Debug builds check every output against `to_python_json`.

use std::ops::Range;

use indexmap::IndexMap;
use serde::Serialize;

use super::document::SessionsDocument;
use crate::error::{Error, Result};

/// Byte ranges of the entries of the four maps in a written file, in map order. Each range runs
/// from the entry's indentation to the end of its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Layout {
    sessions: Vec<Range<usize>>,
    chains: Vec<Range<usize>>,
    metadata: Vec<Range<usize>>,
    results: Vec<Range<usize>>,
}

/// The keys one registration changed: the agent name in `sessions`, the chain in `chains`
/// (when it has one) and the id in `metadata` and `results`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Registered<'a> {
    pub(super) name: &'a str,
    pub(super) id: &'a str,
    pub(super) chain: Option<&'a str>,
}

/// The previous version of the file, its layout, and what changed since.
#[derive(Clone, Copy, Debug)]
pub(super) struct Previous<'a> {
    /// The previous file's bytes.
    pub(super) bytes: &'a [u8],
    /// Where its entries sit.
    pub(super) layout: &'a Layout,
    /// The only entries that may differ from the previous file.
    pub(super) changed: Registered<'a>,
}

impl<'a> Previous<'a> {
    fn of(&self, ranges: &'a [Range<usize>], changed: Option<&'a str>) -> PreviousEntries<'a> {
        PreviousEntries {
            bytes: self.bytes,
            ranges,
            changed,
        }
    }
}

/// The previous file, the ranges of one map's entries in it, and that map's changed key.
#[derive(Clone, Copy, Debug)]
struct PreviousEntries<'a> {
    bytes: &'a [u8],
    ranges: &'a [Range<usize>],
    changed: Option<&'a str>,
}

/// Indentation of the entries of a top-level map.
const ENTRY_INDENT: &[u8] = b"    ";

/// Writes `doc` as `to_python_json` does into `out` (cleared first; pass the buffer of an
/// earlier version to reuse its memory), copying unchanged entries from `previous` when given.
/// Returns the bytes and their layout.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) if a value cannot be serialised
/// (never for these types).
pub(super) fn write_sessions(
    doc: &SessionsDocument,
    previous: Option<Previous<'_>>,
    mut out: Vec<u8>,
) -> Result<(Vec<u8>, Layout)> {
    out.clear();
    out.push(b'{');
    let mut w = Writer {
        out,
        scratch: Vec::new(),
        first: true,
    };
    let p = previous.as_ref();
    let mut layout = Layout::default();
    w.key("sessions")?;
    layout.sessions = w.entries(
        &doc.sessions,
        p.map(|p| p.of(&p.layout.sessions, Some(p.changed.name))),
    )?;
    w.key("chains")?;
    layout.chains = w.entries(
        &doc.chains,
        p.map(|p| p.of(&p.layout.chains, p.changed.chain)),
    )?;
    w.key("metadata")?;
    layout.metadata = w.entries(
        &doc.metadata,
        p.map(|p| p.of(&p.layout.metadata, Some(p.changed.id))),
    )?;
    if let Some(last_updated) = &doc.last_updated {
        w.field("last_updated", last_updated)?;
    }
    if !doc.results.is_empty() {
        w.key("results")?;
        layout.results = w.entries(
            &doc.results,
            p.map(|p| p.of(&p.layout.results, Some(p.changed.id))),
        )?;
    }
    if let Some(mark) = &doc.journal_folded {
        w.field("journal_folded", mark)?;
    }
    for (name, value) in &doc.extra {
        w.field(name, value)?;
    }
    w.out.extend_from_slice(b"\n}");
    debug_assert_eq!(
        String::from_utf8_lossy(&w.out),
        String::from_utf8_lossy(&super::document::to_python_json(doc)?),
        "the registration writer must write what to_python_json writes"
    );
    Ok((w.out, layout))
}

struct Writer {
    out: Vec<u8>,
    scratch: Vec<u8>,
    first: bool,
}

fn serialise_error(e: &serde_json::Error) -> Error {
    Error::invalid_input(format!("cannot serialise the registry: {e}"))
}

impl Writer {
    /// `\n  "name": ` (after `,` when not the first field).
    fn key(&mut self, name: &str) -> Result<()> {
        self.out
            .extend_from_slice(if self.first { b"\n  " } else { b",\n  " });
        self.first = false;
        serde_json::to_writer(&mut self.out, name).map_err(|e| serialise_error(&e))?;
        self.out.extend_from_slice(b": ");
        Ok(())
    }

    /// A top-level field: its key, then its value pretty-printed at depth 1.
    fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result<()> {
        self.key(name)?;
        self.value(value, b"  ")
    }

    /// `value` pretty-printed as if it started at an indentation of `indent`: serde_json's
    /// pretty output with `indent` after every line break (JSON strings never hold a raw line
    /// break, so every `\n` in the output is between tokens).
    fn value<T: Serialize + ?Sized>(&mut self, value: &T, indent: &[u8]) -> Result<()> {
        self.scratch.clear();
        serde_json::to_writer_pretty(&mut self.scratch, value).map_err(|e| serialise_error(&e))?;
        for (i, line) in self.scratch.split(|b| *b == b'\n').enumerate() {
            if i > 0 {
                self.out.push(b'\n');
                self.out.extend_from_slice(indent);
            }
            self.out.extend_from_slice(line);
        }
        Ok(())
    }

    /// A top-level map of keys to entries (as serde_json's pretty output at depth 1), copying
    /// the runs of entries [`copyable_runs`] finds in `previous`.
    fn entries<T: Serialize>(
        &mut self,
        map: &IndexMap<String, T>,
        previous: Option<PreviousEntries<'_>>,
    ) -> Result<Vec<Range<usize>>> {
        if map.is_empty() {
            self.out.extend_from_slice(b"{}");
            return Ok(Vec::new());
        }
        let runs = previous.map(|p| (p, copyable_runs(map, p)));
        let mut ranges = Vec::with_capacity(map.len());
        self.out.push(b'{');
        let mut i = 0;
        while let Some((id, entry)) = map.get_index(i) {
            self.out
                .extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
            let run = runs.as_ref().and_then(|(p, runs)| {
                let run = runs.iter().find(|r| r.start == i && !r.is_empty())?;
                Some((p, run.clone()))
            });
            if let Some((p, run)) = run {
                // The entries and the separators between them, in one piece.
                let (first, last) = (p.ranges[run.start].start, p.ranges[run.end - 1].end);
                let base = self.out.len();
                self.out.extend_from_slice(&p.bytes[first..last]);
                let moved = |r: &Range<usize>| (r.start - first + base)..(r.end - first + base);
                ranges.extend(p.ranges[run.clone()].iter().map(moved));
                i = run.end;
                continue;
            }
            let start = self.out.len();
            self.out.extend_from_slice(ENTRY_INDENT);
            serde_json::to_writer(&mut self.out, id).map_err(|e| serialise_error(&e))?;
            self.out.extend_from_slice(b": ");
            self.value(entry, ENTRY_INDENT)?;
            ranges.push(start..self.out.len());
            i += 1;
        }
        self.out.extend_from_slice(b"\n  }");
        Ok(ranges)
    }
}

/// The runs of entries (index ranges of `map`) to copy from the previous file: the entries it
/// holds before and after the changed key. A run whose first or last key does not read the
/// same at its position in the previous file ([`reads_as`]) is left empty.
fn copyable_runs<T>(map: &IndexMap<String, T>, p: PreviousEntries<'_>) -> [Range<usize>; 2] {
    let held = p.ranges.len().min(map.len());
    let changed = p.changed.and_then(|key| map.get_index_of(key));
    let at = changed.unwrap_or(held).min(held);
    [0..at, (at + 1).min(held)..held].map(|run| {
        let ends = [run.start, run.end.saturating_sub(1)];
        let same = |i: usize| {
            map.get_index(i)
                .is_some_and(|(key, _)| reads_as(&p, i, key))
        };
        if run.is_empty() || ends.into_iter().all(same) {
            run
        } else {
            run.start..run.start
        }
    })
}

/// Whether the entry at position `i` of the previous file starts with `    "key": ` (a key
/// needing escapes never does, so its entry is serialised afresh).
fn reads_as(p: &PreviousEntries<'_>, i: usize, key: &str) -> bool {
    let Some(text) = p.ranges.get(i).and_then(|r| p.bytes.get(r.clone())) else {
        return false;
    };
    text.strip_prefix(ENTRY_INDENT)
        .and_then(|t| t.strip_prefix(b"\""))
        .and_then(|t| t.strip_prefix(key.as_bytes()))
        .is_some_and(|rest| rest.starts_with(b"\": "))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::registry::document::JournalMark;
    use crate::registry::document::to_python_json;
    use crate::registry::document_changes;

    const NOW: &str = "2026-11-29T17:46:13.206964";

    fn filled(n: usize) -> SessionsDocument {
        let mut doc = SessionsDocument::default();
        for i in 0..n {
            let chain = format!("chain-{}", i % 3);
            let result = json!({"n": i, "files": [format!("a{i}.py")], "nested": {"deep": [[], {}]}, "text": "line\nbreak \"quoted\" é"});
            document_changes::register(
                &mut doc,
                &format!("agent-{}", i % 4),
                &format!("id-{i}"),
                result,
                Some(&chain),
                NOW,
            );
        }
        doc.last_updated = Some(NOW.into());
        doc
    }

    fn registered<'a>(name: &'a str, id: &'a str, chain: Option<&'a str>) -> Registered<'a> {
        Registered { name, id, chain }
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let mut cases = vec![SessionsDocument::default(), filled(1), filled(7)];
        let mut odd = filled(3);
        odd.extra
            .insert("zz".into(), json!({"k": [1, 2.5, null, "x"]}));
        odd.journal_folded = Some(JournalMark {
            generation: 3,
            bytes: 10,
        });
        odd.metadata["id-1"]
            .extra
            .insert("unknown".into(), json!([{"a": {}}]));
        odd.sessions
            .insert("needs \"escape\"\u{1}".into(), "id-\u{7f}é".into());
        odd.chains.insert("empty".into(), Vec::new());
        cases.push(odd);
        let mut no_results = filled(2);
        no_results.results.clear();
        no_results.last_updated = None;
        cases.push(no_results);
        for doc in cases {
            let (bytes, layout) = write_sessions(&doc, None, b"old".to_vec()).unwrap();
            assert_eq!(
                String::from_utf8(bytes.clone()).unwrap(),
                String::from_utf8(to_python_json(&doc).unwrap()).unwrap()
            );
            let maps = [
                (&layout.sessions, doc.sessions.keys().collect::<Vec<_>>()),
                (&layout.chains, doc.chains.keys().collect()),
                (&layout.metadata, doc.metadata.keys().collect()),
                (&layout.results, doc.results.keys().collect()),
            ];
            for (ranges, keys) in maps {
                assert_eq!(ranges.len(), keys.len());
                for (range, key) in ranges.iter().zip(keys) {
                    let text = std::str::from_utf8(&bytes[range.clone()]).unwrap();
                    let key = serde_json::to_string(key).unwrap();
                    assert!(text.starts_with(&format!("    {key}: ")), "{text}");
                    assert!(!text.ends_with(','), "{text}");
                }
            }
        }
    }

    #[test]
    fn copies_unchanged_entries_and_rewrites_the_changed_one() {
        let mut doc = filled(6);
        let (before, layout) = write_sessions(&doc, None, Vec::new()).unwrap();
        // Re-register a known id (changed in place) and a new one (appended).
        let again = registered("agent-9", "id-2", None);
        document_changes::register(&mut doc, "agent-9", "id-2", json!("again"), None, NOW);
        let previous = Previous {
            bytes: &before,
            layout: &layout,
            changed: again,
        };
        let metadata = previous.of(&layout.metadata, Some("id-2"));
        assert_eq!(copyable_runs(&doc.metadata, metadata), [0..2, 3..6]);
        let chains = previous.of(&layout.chains, None);
        assert_eq!(copyable_runs(&doc.chains, chains), [0..3, 3..3]);
        // `agent-9` is new: every name the previous file holds is copied.
        let sessions = previous.of(&layout.sessions, Some("agent-9"));
        assert_eq!(copyable_runs(&doc.sessions, sessions), [0..4, 4..4]);
        let (middle, middle_layout) =
            write_sessions(&doc, Some(previous), b"reused".to_vec()).unwrap();
        assert_eq!(middle, to_python_json(&doc).unwrap());

        let new = registered("agent-9", "id-new", Some("chain-0"));
        document_changes::register(
            &mut doc,
            "agent-9",
            "id-new",
            json!(1),
            Some("chain-0"),
            NOW,
        );
        let previous = Previous {
            bytes: &middle,
            layout: &middle_layout,
            changed: new,
        };
        let chains = previous.of(&middle_layout.chains, Some("chain-0"));
        assert_eq!(copyable_runs(&doc.chains, chains), [0..0, 1..3]);
        let (after, layout) = write_sessions(&doc, Some(previous), Vec::new()).unwrap();
        assert_eq!(after, to_python_json(&doc).unwrap());
        // Every entry but the new one is the same text as before (moved by the longer chain).
        let texts = |bytes: &[u8], ranges: &[Range<usize>]| -> Vec<String> {
            ranges
                .iter()
                .map(|r| String::from_utf8(bytes[r.clone()].to_vec()).unwrap())
                .collect()
        };
        assert_eq!(
            texts(&after, &layout.results[..6]),
            texts(&middle, &middle_layout.results)
        );
        assert_eq!(layout.results.len(), 7);
    }

    #[test]
    fn a_run_whose_keys_moved_is_serialised_afresh() {
        let doc = filled(4);
        let (before, layout) = write_sessions(&doc, None, Vec::new()).unwrap();
        let mut shifted = doc.clone();
        shifted.metadata.shift_remove("id-0");
        shifted.results.shift_remove("id-0");
        // `id-0` is gone, so every other entry sits one place earlier than in `before`.
        let previous = Previous {
            bytes: &before,
            layout: &layout,
            changed: registered("agent-0", "none", None),
        };
        let metadata = previous.of(&layout.metadata, Some("none"));
        assert_eq!(copyable_runs(&shifted.metadata, metadata), [0..0, 3..3]);
        let (after, _) = write_sessions(&shifted, Some(previous), Vec::new()).unwrap();
        assert_eq!(after, to_python_json(&shifted).unwrap());
        assert!(!reads_as(&metadata, 1, "id-2"));
        assert!(reads_as(&metadata, 1, "id-1"));
        assert!(!reads_as(&metadata, 9, "id-1"));
    }
}
