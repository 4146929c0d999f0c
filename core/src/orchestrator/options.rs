//! The options of the orchestrator operations as the bindings take them, parsed and checked
//! here once: [`StoreOptions`] (a handle), [`ArchiveOptions`] (`archive`, `complete`,
//! `abort`), [`DoctorOptions`] and [`HistoryOptions`]. Members are spelt
//! as JavaScript spells them (`maxDocumentBytes`); each struct refuses a member it does not
//! know. Python builds the same structs from keyword arguments.

use chrono::FixedOffset;
use serde::Deserialize;

use super::history_page::HistoryQuery;
use super::status::SessionStatus;
use super::store::OrchestratorStore;
use crate::error::{Error, Result};
use crate::store::Store;
use crate::time::Clock;

/// The options of an orchestrator handle: `{ naiveOffsetMinutes, maxDocumentBytes }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StoreOptions {
    /// Offset east of UTC, in minutes, of timestamps written without `Z` or offset (default:
    /// read as UTC).
    #[serde(default)]
    pub naive_offset_minutes: Option<i32>,
    /// Largest document read or written, in bytes (default 16 MiB); a value beyond the
    /// address space means no limit.
    #[serde(default)]
    pub max_document_bytes: Option<u64>,
}

impl StoreOptions {
    /// `store` with these options set; `name` is the options argument, named in errors.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming
    /// `{name}.naiveOffsetMinutes` for an offset of a day or more.
    pub fn apply<S: Store, C: Clock>(
        &self,
        mut store: OrchestratorStore<S, C>,
        name: &str,
    ) -> Result<OrchestratorStore<S, C>> {
        if let Some(minutes) = self.naive_offset_minutes {
            let offset = minutes
                .checked_mul(60)
                .and_then(FixedOffset::east_opt)
                .ok_or_else(|| {
                    Error::invalid_field(
                        format!("{name}.naiveOffsetMinutes"),
                        format!("{minutes} minutes is not an offset within a day"),
                    )
                })?;
            store = store.with_naive_offset(offset);
        }
        if let Some(bytes) = self.max_document_bytes {
            store = store.with_max_document_bytes(usize::try_from(bytes).unwrap_or(usize::MAX));
        }
        Ok(store)
    }
}

/// The options of `archive`, `complete` and `abort`: `{ replace }` (default `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveOptions {
    /// Overwrite an archive that exists.
    #[serde(default)]
    pub replace: bool,
}

/// The options of `doctor`: `{ fix }` (default `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoctorOptions {
    /// Repair what can be repaired (keeping copies) and rebuild the index.
    #[serde(default)]
    pub fix: bool,
}

/// The query of a history listing: `{ limit, offset, status }`, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryOptions {
    /// Most entries returned (default 10); beyond the address space, no bound.
    #[serde(default)]
    pub limit: Option<u64>,
    /// Entries skipped first (default 0).
    #[serde(default)]
    pub offset: Option<u64>,
    /// Only sessions with this status.
    #[serde(default)]
    pub status: Option<SessionStatus>,
}

impl HistoryOptions {
    /// The query these options ask for.
    pub fn query(&self) -> HistoryQuery {
        let defaults = HistoryQuery::default();
        let size = |n: Option<u64>, default: usize| {
            n.map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        HistoryQuery {
            limit: size(self.limit, defaults.limit),
            offset: size(self.offset, defaults.offset),
            status: self.status,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::from_value;
    use crate::orchestrator::{NewSession, Project};
    use crate::{FixedClock, MemoryStore};
    use serde_json::json;

    fn sessions() -> OrchestratorStore<MemoryStore, FixedClock> {
        OrchestratorStore::new(
            MemoryStore::new(),
            FixedClock::at("2026-01-02T03:04:05Z").unwrap(),
        )
    }

    #[test]
    fn store_options_set_the_offset_and_the_limit() {
        let options: StoreOptions = from_value(
            json!({ "naiveOffsetMinutes": 60, "maxDocumentBytes": 10 }),
            "options",
        )
        .unwrap();
        let store = options.apply(sessions(), "options").unwrap();
        assert_eq!(store.options().max_document_bytes, 10);
        assert_eq!(store.options().naive_offset, FixedOffset::east_opt(3600));
        let far = StoreOptions {
            naive_offset_minutes: Some(100_000),
            ..StoreOptions::default()
        };
        let err = far.apply(sessions(), "options").unwrap_err();
        assert_eq!(err.field(), Some("options.naiveOffsetMinutes"));
        let err = from_value::<StoreOptions>(json!({ "naiveOffset": 1 }), "options").unwrap_err();
        assert!(
            err.message().contains("unknown field `naiveOffset`"),
            "{err}"
        );
    }

    #[test]
    fn flags_history_and_new_session_read_their_members() {
        let archive: ArchiveOptions = from_value(json!({ "replace": true }), "options").unwrap();
        assert!(archive.replace);
        assert!(!ArchiveOptions::default().replace);
        assert!(from_value::<ArchiveOptions>(json!({ "fix": true }), "options").is_err());
        let doctor: DoctorOptions = from_value(json!({}), "options").unwrap();
        assert!(!doctor.fix);
        let query = from_value::<HistoryOptions>(json!({ "limit": 3 }), "query")
            .unwrap()
            .query();
        assert_eq!((query.limit, query.offset, query.status), (3, 0, None));
        assert_eq!(HistoryOptions::default().query(), HistoryQuery::default());
        let session: NewSession = from_value(json!({ "goal": "g" }), "session").unwrap();
        let project = Project::new("p", "/p", None);
        let doc = sessions()
            .record_new(&session, project, Some("abc123"))
            .unwrap();
        assert_eq!(doc.session_id, "2026-01-02-abc123");
        assert_eq!(doc.mode.as_deref(), Some("default"));
        assert!(from_value::<NewSession>(json!({ "goal": "g", "moed": 1 }), "s").is_err());
        let camel: NewSession = from_value(json!({ "goal": "g", "archiveCurrent": true }), "s")
            .expect("the JS spelling");
        assert!(camel.archive_current);
    }
}
