//! Changes made to the registry state outside its operations: the seed's callers read and
//! change its four maps in place (`_sessions`, `_chains`, `_metadata`, `_results` of the Python
//! drop-in) and write them with `_save_sessions()`.
//!
//! The caller gives the maps as it read them (`before`) and as they are now (`after`). Only the
//! entries that differ are applied, under the registry's lock, to the file as it is then: an
//! entry another process changed meanwhile, and that the caller did not touch, is kept. Each
//! changed entry must have the shape the file's readers accept (a string id, a list of string
//! ids, a metadata or result object); otherwise nothing is written.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::store::Store;
use crate::time::Clock;

use super::agent_registry::AgentRegistry;
use super::document::{AgentMetadata, AgentResult, SessionsDocument};

/// The entries to set (`Some`) or remove (`None`) in one map.
type Changes<T> = Vec<(String, Option<T>)>;

/// The changes from `before` to `after`, per map, checked against the file's types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateEdits {
    sessions: Changes<String>,
    chains: Changes<Vec<String>>,
    metadata: Changes<AgentMetadata>,
    results: Changes<AgentResult>,
}

impl StateEdits {
    /// The changes from `before` to `after`, two objects holding (some of) the maps that may be
    /// edited, `sessions`, `chains`, `metadata` and `results`: a map absent from `before` is
    /// empty; one absent from `after` is left as it is.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when a map of `after` is not
    /// an object or a changed entry has the wrong shape (naming the map and the entry).
    pub fn between(before: &Value, after: &Value) -> Result<StateEdits> {
        Ok(StateEdits {
            sessions: changes(before, after, "sessions")?,
            chains: changes(before, after, "chains")?,
            metadata: changes(before, after, "metadata")?,
            results: changes(before, after, "results")?,
        })
    }

    /// Whether there is nothing to change.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
            && self.chains.is_empty()
            && self.metadata.is_empty()
            && self.results.is_empty()
    }

    /// Applies the changes to `doc`: an entry set keeps its place (a new one goes last), an
    /// entry removed is dropped. Whether `doc` changed.
    pub fn apply(&self, doc: &mut SessionsDocument) -> bool {
        let mut changed = set(&mut doc.sessions, &self.sessions);
        changed |= set(&mut doc.chains, &self.chains);
        changed |= set(&mut doc.metadata, &self.metadata);
        changed |= set(&mut doc.results, &self.results);
        changed
    }
}

fn set<T: Clone + PartialEq>(
    map: &mut indexmap::IndexMap<String, T>,
    changes: &Changes<T>,
) -> bool {
    let mut changed = false;
    for (key, value) in changes {
        changed |= match value {
            Some(value) if map.get(key) != Some(value) => {
                map.insert(key.clone(), value.clone());
                true
            }
            Some(_) => false,
            None => map.shift_remove(key).is_some(),
        };
    }
    changed
}

fn changes<T: DeserializeOwned>(before: &Value, after: &Value, name: &str) -> Result<Changes<T>> {
    let Some(now) = after.get(name) else {
        return Ok(Vec::new());
    };
    let Value::Object(now) = now else {
        return Err(Error::invalid_input(format!(
            "`{name}` must be an object, not {}",
            crate::json::kind_of(now)
        ))
        .with_context("map", name));
    };
    let empty = Map::new();
    let was = before
        .get(name)
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out = Vec::new();
    for (key, value) in now {
        if was.get(key) == Some(value) {
            continue;
        }
        crate::json::check_nesting(&format!("`{name}` entry `{key}`"), value)?;
        let typed = serde_json::from_value(value.clone()).map_err(|e| {
            Error::invalid_input(format!("`{name}` entry `{key}` is not valid: {e}"))
                .with_context("map", name)
                .with_context("entry", key.as_str())
        })?;
        out.push((key.clone(), Some(typed)));
    }
    out.extend(
        was.keys()
            .filter(|key| !now.contains_key(*key))
            .map(|key| (key.clone(), None)),
    );
    Ok(out)
}

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// Writes the caller's changes to the state ([`StateEdits::between`] `before` and `after`)
    /// in one exclusive read-modify-write of the file as it is now. Returns whether the file
    /// changed (nothing is written, nor locked, when there is no change).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) for a change of the wrong
    /// shape (nothing written), then as [`register`](Self::register).
    pub fn save_edits(&self, before: &Value, after: &Value) -> Result<bool> {
        let edits = StateEdits::between(before, after)?;
        if edits.is_empty() {
            return Ok(false);
        }
        self.mutate(None, |doc, _| {
            let changed = edits.apply(doc);
            (changed, changed)
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_the_changed_entries_are_applied() {
        let mut doc: SessionsDocument = serde_json::from_value(json!({
            "sessions": {"a": "1", "b": "2", "other": "9"},
            "metadata": {"1": {"agent_name": "a", "resume_count": 0}},
        }))
        .unwrap();
        let before = json!({"sessions": {"a": "1", "b": "2"}, "metadata": {"1": {"agent_name": "a", "resume_count": 0}}});
        let after = json!({"sessions": {"a": "1", "c": "3"}, "metadata": {"1": {"agent_name": "a", "resume_count": 5}}});
        let edits = StateEdits::between(&before, &after).unwrap();
        assert!(edits.apply(&mut doc));
        assert_eq!(
            doc.sessions.keys().collect::<Vec<_>>(),
            ["a", "other", "c"],
            "b removed, c added, other (not in before) kept"
        );
        assert_eq!(doc.metadata["1"].resume_count, Some(5u64.into()));
        assert!(!edits.apply(&mut doc), "applied once already");
    }

    #[test]
    fn a_change_of_the_wrong_shape_is_invalid_input() {
        for after in [
            json!({"sessions": {"a": 5}}),
            json!({"chains": {"c": "x"}}),
            json!({"metadata": {"1": {"resume_count": "x"}}}),
            json!({"metadata": {"1": []}}),
            json!({"sessions": []}),
        ] {
            let err = StateEdits::between(&json!({}), &after).unwrap_err();
            assert_eq!(err.code(), "invalid_input", "{after}");
        }
    }

    #[test]
    fn an_entry_left_as_read_is_not_checked() {
        let same = json!({"metadata": {"1": {"note": "x"}}, "results": {}});
        assert!(StateEdits::between(&same, &same).unwrap().is_empty());
    }
}
