//! Writing `agent-sessions.json` after a registration without serialising every entry again.
//!
//! A registration changes one entry of `metadata` and of `results` (the two maps that grow
//! with every registered id and make up nearly all of the file), plus the small `sessions`,
//! `chains` and `last_updated`. [`write_sessions`] writes the file exactly as
//! [`to_python_json`](super::document::to_python_json) does, byte for byte, and records where
//! each entry of the two large maps sits ([`Layout`]); given the previous file and its layout,
//! it copies every entry the registration did not change from the previous file instead of
//! serialising it.
//!
//! An entry is copied only when it sits at the same position in both versions, its key reads
//! the same in the previous file, and it is not the registered id: anything else is serialised
//! afresh. Debug builds check every output against `to_python_json`.

use std::ops::Range;

use indexmap::IndexMap;
use serde::Serialize;

use super::document::SessionsDocument;
use crate::error::{Error, Result};

/// Byte ranges of the entries of `metadata` and `results` in a written file, in map order.
/// Each range runs from the entry's indentation to the end of its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Layout {
    metadata: Vec<Range<usize>>,
    results: Vec<Range<usize>>,
}

/// The previous version of the file, its layout, and the id whose entries changed since.
#[derive(Clone, Copy, Debug)]
pub(super) struct Previous<'a> {
    /// The previous file's bytes.
    pub(super) bytes: &'a [u8],
    /// Where its entries sit.
    pub(super) layout: &'a Layout,
    /// The only id whose `metadata` and `results` entries may differ from the previous file.
    pub(super) changed_id: &'a str,
}

/// The previous file, the ranges of one map's entries in it, and the changed id.
type PreviousEntries<'a> = (&'a [u8], &'a [Range<usize>], &'a str);

/// Indentation of the entries of a top-level map.
const ENTRY_INDENT: &[u8] = b"    ";

/// Writes `doc` as `to_python_json` does into a buffer of `capacity` bytes, copying unchanged
/// entries from `previous` when given. Returns the bytes and their layout.
///
/// # Errors
/// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) if a value cannot be serialised
/// (never for these types).
pub(super) fn write_sessions(
    doc: &SessionsDocument,
    previous: Option<Previous<'_>>,
    capacity: usize,
) -> Result<(Vec<u8>, Layout)> {
    let mut w = Writer {
        out: Vec::with_capacity(capacity),
        scratch: Vec::new(),
        first: true,
    };
    let mut layout = Layout::default();
    w.out.push(b'{');
    w.field("sessions", &doc.sessions)?;
    w.field("chains", &doc.chains)?;
    w.key("metadata")?;
    layout.metadata = w.entries(
        &doc.metadata,
        previous.map(|p| (p.bytes, p.layout.metadata.as_slice(), p.changed_id)),
    )?;
    if let Some(last_updated) = &doc.last_updated {
        w.field("last_updated", last_updated)?;
    }
    if !doc.results.is_empty() {
        w.key("results")?;
        layout.results = w.entries(
            &doc.results,
            previous.map(|p| (p.bytes, p.layout.results.as_slice(), p.changed_id)),
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

    /// A top-level map of ids to entries, copying each entry `previous` holds unchanged.
    fn entries<T: Serialize>(
        &mut self,
        map: &IndexMap<String, T>,
        previous: Option<PreviousEntries<'_>>,
    ) -> Result<Vec<Range<usize>>> {
        if map.is_empty() {
            self.out.extend_from_slice(b"{}");
            return Ok(Vec::new());
        }
        let mut ranges = Vec::with_capacity(map.len());
        self.out.push(b'{');
        for (i, (id, entry)) in map.iter().enumerate() {
            self.out
                .extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
            let start = self.out.len();
            let copied = previous
                .and_then(|(bytes, ranges, changed)| reusable(bytes, ranges.get(i)?, id, changed));
            if let Some(text) = copied {
                self.out.extend_from_slice(text);
            } else {
                self.out.extend_from_slice(ENTRY_INDENT);
                serde_json::to_writer(&mut self.out, id).map_err(|e| serialise_error(&e))?;
                self.out.extend_from_slice(b": ");
                self.value(entry, ENTRY_INDENT)?;
            }
            ranges.push(start..self.out.len());
        }
        self.out.extend_from_slice(b"\n  }");
        Ok(ranges)
    }
}

/// The previous text of the entry `id` at `range`, if it can be copied: `id` is not the
/// changed id and the text starts with `    "id": ` (an id needing escapes is never copied).
fn reusable<'a>(
    bytes: &'a [u8],
    range: &Range<usize>,
    id: &str,
    changed: &str,
) -> Option<&'a [u8]> {
    if id == changed {
        return None;
    }
    let text = bytes.get(range.clone())?;
    let key = text.strip_prefix(ENTRY_INDENT)?.strip_prefix(b"\"")?;
    let rest = key.strip_prefix(id.as_bytes())?;
    rest.starts_with(b"\": ").then_some(text)
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
        cases.push(odd);
        let mut no_results = filled(2);
        no_results.results.clear();
        no_results.last_updated = None;
        cases.push(no_results);
        for doc in cases {
            let (bytes, layout) = write_sessions(&doc, None, 0).unwrap();
            assert_eq!(
                String::from_utf8(bytes.clone()).unwrap(),
                String::from_utf8(to_python_json(&doc).unwrap()).unwrap()
            );
            assert_eq!(layout.metadata.len(), doc.metadata.len());
            for (range, id) in layout.metadata.iter().zip(doc.metadata.keys()) {
                let text = std::str::from_utf8(&bytes[range.clone()]).unwrap();
                assert!(text.starts_with(&format!("    \"{id}\": {{")), "{text}");
                assert!(text.ends_with('}'), "{text}");
            }
        }
    }

    #[test]
    fn copies_unchanged_entries_and_rewrites_the_changed_one() {
        let mut doc = filled(6);
        let (before, layout) = write_sessions(&doc, None, 0).unwrap();
        // Re-register a known id (changed in place) and a new one (appended).
        document_changes::register(
            &mut doc,
            "agent-9",
            "id-2",
            json!("again"),
            None,
            "2026-11-30T00:00:00",
        );
        let previous = Previous {
            bytes: &before,
            layout: &layout,
            changed_id: "id-2",
        };
        let (middle, middle_layout) = write_sessions(&doc, Some(previous), 0).unwrap();
        assert_eq!(middle, to_python_json(&doc).unwrap());
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
            changed_id: "id-new",
        };
        let (after, layout) = write_sessions(&doc, Some(previous), 0).unwrap();
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
    fn an_entry_whose_key_moved_is_serialised_afresh() {
        let doc = filled(4);
        let (before, layout) = write_sessions(&doc, None, 0).unwrap();
        let mut shifted = doc.clone();
        shifted.metadata.shift_remove("id-0");
        shifted.results.shift_remove("id-0");
        // `id-0` is gone, so every other entry sits one place earlier than in `before`.
        let previous = Previous {
            bytes: &before,
            layout: &layout,
            changed_id: "none",
        };
        let (after, _) = write_sessions(&shifted, Some(previous), 0).unwrap();
        assert_eq!(after, to_python_json(&shifted).unwrap());
        assert_eq!(reusable(&before, &layout.metadata[1], "id-2", "none"), None);
        assert!(reusable(&before, &layout.metadata[1], "id-1", "none").is_some());
        assert_eq!(reusable(&before, &layout.metadata[1], "id-1", "id-1"), None);
    }
}
