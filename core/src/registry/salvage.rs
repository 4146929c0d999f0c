//! What can still be read from a damaged `agent-sessions.json` (a torn write, a cut copy):
//! the entries that are complete, for `doctor --fix` to write back instead of an empty
//! registry. The damaged file itself is kept aside before anything replaces it.
//!
//! The bytes are read with the lenient reader of [`crate::json`] (complete values only; a
//! container cut short keeps its complete members). Then, per known key: `sessions` keeps
//! names mapped to a string id, `chains` keeps the string ids of each chain, `metadata` and
//! `results` keep each entry that is complete and has the seed's shape (an entry cut short is
//! dropped: it could have lost its `resume_count`), `last_updated` and `journal_folded` are
//! kept when well formed, and other top-level keys are kept when complete.

use serde_json::{Map, Value};

use super::document::SessionsDocument;

/// The salvaged document and how many entries of each map it kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SalvagedSessions {
    /// The document to write back.
    pub doc: SessionsDocument,
    /// `(name, kept)` for `sessions`, `chains`, `metadata` and `results`.
    pub kept: Vec<(&'static str, usize)>,
}

impl SalvagedSessions {
    /// "kept 5 sessions, 2 chains, 4 metadata entries, 3 results" (or "nothing readable").
    pub fn summary(&self) -> String {
        if self.kept.iter().all(|(_, n)| *n == 0) {
            return "nothing readable: started empty".to_owned();
        }
        let parts: Vec<String> = self
            .kept
            .iter()
            .map(|(name, n)| format!("{n} {name}"))
            .collect();
        format!("salvaged {}", parts.join(", "))
    }
}

/// The complete entries of damaged `bytes`; see the module docs.
pub fn salvage_sessions(bytes: &[u8]) -> SalvagedSessions {
    let read = crate::json::read_lenient(bytes);
    let cut = |path: String| read.partial.contains(&path);
    let mut doc = SessionsDocument::default();
    let mut object = read.object;
    if let Some(Value::Object(map)) = object.remove("sessions") {
        for (name, id) in map {
            if let Value::String(id) = id {
                doc.sessions.insert(name, id);
            }
        }
    }
    if let Some(Value::Object(map)) = object.remove("chains") {
        for (chain, ids) in map {
            if let Value::Array(ids) = ids {
                let ids = ids.into_iter().filter_map(|id| match id {
                    Value::String(id) => Some(id),
                    _ => None,
                });
                doc.chains.insert(chain, ids.collect());
            }
        }
    }
    doc.metadata = entries(object.remove("metadata"), |id| {
        cut(format!("metadata.{id}"))
    });
    doc.results = entries(object.remove("results"), |id| cut(format!("results.{id}")));
    if let Some(Value::String(text)) = object.remove("last_updated") {
        doc.last_updated = Some(text);
    }
    doc.journal_folded = object
        .remove("journal_folded")
        .filter(|_| !cut("journal_folded".to_owned()))
        .and_then(|v| serde_json::from_value(v).ok());
    doc.extra = object
        .into_iter()
        .filter(|(name, _)| {
            !read.partial.iter().any(|p| {
                p == name
                    || p.starts_with(&format!("{name}."))
                    || p.starts_with(&format!("{name}["))
            })
        })
        .collect::<Map<String, Value>>();
    let kept = vec![
        ("sessions", doc.sessions.len()),
        ("chains", doc.chains.len()),
        ("metadata entries", doc.metadata.len()),
        ("results", doc.results.len()),
    ];
    SalvagedSessions { doc, kept }
}

/// The entries of a map of `metadata` or `results` that are complete and fit `T`.
fn entries<T: serde::de::DeserializeOwned>(
    value: Option<Value>,
    cut: impl Fn(&str) -> bool,
) -> indexmap::IndexMap<String, T> {
    let Some(Value::Object(map)) = value else {
        return indexmap::IndexMap::new();
    };
    map.into_iter()
        .filter(|(id, _)| !cut(id))
        .filter_map(|(id, entry)| Some((id, serde_json::from_value(entry).ok()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::registry::document::to_python_json;
    use crate::registry::document_changes;

    fn file() -> Vec<u8> {
        let mut doc = SessionsDocument::default();
        for i in 0..4 {
            let (name, id) = (format!("agent-{i}"), format!("id-{i}"));
            document_changes::register(
                &mut doc,
                &name,
                &id,
                json!({"n": i}),
                Some("C"),
                "2026-11-29T17:46:13",
            );
        }
        doc.metadata["id-1"].resume_count = Some(3u64.into());
        doc.last_updated = Some("2026-11-29T17:46:13".into());
        to_python_json(&doc).unwrap()
    }

    #[test]
    fn a_whole_file_is_salvaged_whole() {
        let bytes = file();
        let whole =
            super::super::document::parse_sessions(&crate::Key::new("a.json").unwrap(), &bytes)
                .unwrap();
        assert_eq!(salvage_sessions(&bytes).doc, whole);
    }

    #[test]
    fn a_cut_file_keeps_its_complete_entries_only() {
        let bytes = file();
        let text = String::from_utf8(bytes.clone()).unwrap();
        // Cut inside the third metadata entry, after its `resume_count` key.
        let at = text.find("\"id-2\": {").unwrap() + 40;
        let s = salvage_sessions(&bytes[..at]);
        assert_eq!(s.doc.sessions.len(), 4);
        assert_eq!(s.doc.chains["C"].len(), 4);
        assert_eq!(s.doc.metadata.keys().collect::<Vec<_>>(), ["id-0", "id-1"]);
        assert_eq!(s.doc.metadata["id-1"].resume_count, Some(3u64.into()));
        assert!(s.doc.results.is_empty());
        assert_eq!(
            s.summary(),
            "salvaged 4 sessions, 1 chains, 2 metadata entries, 0 results"
        );
        assert_eq!(
            salvage_sessions(b"\x00\x01junk").summary(),
            "nothing readable: started empty"
        );
        assert_eq!(salvage_sessions(b"[1, 2]").doc, SessionsDocument::default());
    }
}
