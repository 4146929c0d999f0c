//! Listing archived sessions (SPEC section 1, "list_history"), with a rebuildable index.
//!
//! The index (`.claude/orchestrator-history.index.json`, outside the history folder) maps each
//! history file name to its `{id, goal, status, created}` (or to the error that made it
//! unreadable). Each listing compares the index with the file names the store lists: new files
//! are parsed and added, vanished ones dropped, and the index is rewritten only when it
//! changed. A missing or unreadable index is rebuilt from the files (it is derived data, so it
//! is replaced without keeping a copy). A file edited in place under the same name is seen
//! after [`OrchestratorStore::rebuild_index`] (`doctor` does it); `archive` keeps the index up
//! to date itself.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::document::OrchestratorSession;
use super::keys::{history_dir, history_id, index_key};
use super::parse::{ParseOptions, parse_document};
use super::status::SessionStatus;
use super::store::OrchestratorStore;
use crate::error::{ErrorKind, Result};
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::{Clock, Timestamp};

/// What to list: `limit` entries (default 10) after skipping `offset`, optionally only one
/// status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryQuery {
    /// Most entries returned (default 10).
    pub limit: usize,
    /// Entries skipped first, for paging (default 0).
    pub offset: usize,
    /// Only sessions with this status (default: all).
    pub status: Option<SessionStatus>,
}

impl Default for HistoryQuery {
    fn default() -> Self {
        HistoryQuery {
            limit: 10,
            offset: 0,
            status: None,
        }
    }
}

/// One archived session in a listing: the seed's `{id, goal, status, created}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// The session id.
    pub id: String,
    /// The session goal.
    pub goal: String,
    /// The status it was archived in.
    pub status: SessionStatus,
    /// When it was created (written RFC 3339 UTC).
    pub created: Timestamp,
}

/// A history file that was skipped, with the error that made it unreadable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    /// Its key.
    pub key: String,
    /// The error kind code, e.g. `corrupt_state`.
    pub code: String,
    /// The error message.
    pub message: String,
}

/// One page of history: newest first by the instant of `created`, ties by id descending.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryPage {
    /// The entries of the page.
    pub entries: Vec<HistoryEntry>,
    /// Every unreadable history file (whatever the page).
    pub skipped: Vec<SkippedFile>,
    /// How many readable sessions match the status filter (all pages).
    pub total: usize,
}

/// One index record: an entry as read from its file, or why it could not be read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    goal: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    status: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<(String, String)>,
}

const INDEX_VERSION: u32 = 1;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Index {
    version: u32,
    files: BTreeMap<String, Record>,
}

/// `created` as the index keeps it: RFC 3339 UTC, or naive ISO 8601 while still naive.
fn created_text(created: Timestamp) -> String {
    if created.is_naive() {
        created
            .utc()
            .naive_utc()
            .format("%Y-%m-%dT%H:%M:%S%.f")
            .to_string()
    } else {
        created.to_rfc3339()
    }
}

fn record_of(doc: &OrchestratorSession) -> Record {
    Record {
        id: doc.session_id.clone(),
        goal: doc.goal.clone(),
        status: doc.status.as_str().to_owned(),
        created: created_text(doc.created),
        error: None,
    }
}

/// Newest first by instant, ties by id descending.
fn sort_newest_first(entries: &mut [HistoryEntry]) {
    entries.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
}

fn page(
    mut entries: Vec<HistoryEntry>,
    skipped: Vec<SkippedFile>,
    q: &HistoryQuery,
) -> HistoryPage {
    if let Some(status) = q.status {
        entries.retain(|e| e.status == status);
    }
    sort_newest_first(&mut entries);
    let total = entries.len();
    let entries = entries.into_iter().skip(q.offset).take(q.limit).collect();
    HistoryPage {
        entries,
        skipped,
        total,
    }
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// The history files: `(file name, key)` of each `*.json` directly in the history folder.
    fn history_files(&self) -> Result<Vec<(String, Key)>> {
        Ok(self
            .store
            .list(&history_dir())?
            .into_iter()
            .filter(|k| history_id(k).is_some())
            .map(|k| (k.file_name().to_owned(), k))
            .collect())
    }

    /// The index record of one history file (parsing it in full).
    fn read_record(&self, key: &Key) -> Result<Record> {
        let Some(bytes) = self.store.read(key)? else {
            return Ok(Record {
                id: String::new(),
                goal: String::new(),
                status: String::new(),
                created: String::new(),
                error: Some((
                    "not_found".into(),
                    format!("`{key}` vanished while listing"),
                )),
            });
        };
        // Parse with naive timestamps left naive: the index keeps them naive, and the offset
        // is applied when listing.
        let raw = ParseOptions {
            naive_offset: None,
            ..self.options
        };
        Ok(match parse_document(key, &bytes, &raw) {
            Ok(doc) => record_of(&doc),
            Err(e) => Record {
                id: String::new(),
                goal: String::new(),
                status: String::new(),
                created: String::new(),
                error: Some((e.code().to_owned(), e.message().to_owned())),
            },
        })
    }

    /// Turns index records into entries and skipped files.
    fn entries_of(
        &self,
        files: &[(String, Key)],
        index: &Index,
    ) -> (Vec<HistoryEntry>, Vec<SkippedFile>) {
        let mut entries = Vec::with_capacity(files.len());
        let mut skipped = Vec::new();
        for (name, key) in files {
            let Some(record) = index.files.get(name) else {
                continue;
            };
            let parsed = match &record.error {
                Some((code, message)) => Err((code.clone(), message.clone())),
                None => SessionStatus::parse(&record.status)
                    .and_then(|status| Ok((status, Timestamp::parse(&record.created)?)))
                    .map_err(|e| (e.code().to_owned(), e.message().to_owned())),
            };
            match parsed {
                Ok((status, created)) => {
                    let created = match self.options.naive_offset {
                        Some(offset) => created.assume_offset(offset),
                        None => created,
                    };
                    entries.push(HistoryEntry {
                        id: record.id.clone(),
                        goal: record.goal.clone(),
                        status,
                        created,
                    });
                }
                Err((code, message)) => skipped.push(SkippedFile {
                    key: key.to_string(),
                    code,
                    message,
                }),
            }
        }
        (entries, skipped)
    }

    /// Lists archived sessions through the index (see the module docs): newest first by the
    /// instant of `created`, ties by session id descending; status filter, then offset and
    /// limit. Unreadable files are skipped and reported in [`HistoryPage::skipped`].
    ///
    /// On a store that refuses the index write (read-only), the index is brought up to date in
    /// memory only.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when listing or reading fails; bad files never fail it.
    pub fn list_history(&self, query: &HistoryQuery) -> Result<HistoryPage> {
        let files = self.history_files()?;
        let updated = update_with(&self.store, &index_key(), |old| {
            let (index, changed) = self.reconcile(old, &files)?;
            let bytes = changed.then(|| serde_json::to_vec(&index).unwrap_or_default());
            Ok((bytes, index))
        });
        let index = match updated {
            Ok(index) => index,
            // A read-only store still lists: the index is then brought up to date in memory.
            Err(e) if e.kind() == ErrorKind::Storage => {
                let old = self.store.read(&index_key()).ok().flatten();
                self.reconcile(old.as_deref(), &files)?.0
            }
            Err(e) => return Err(e),
        };
        let (entries, skipped) = self.entries_of(&files, &index);
        Ok(page(entries, skipped, query))
    }

    /// The index `old` brought in line with `files`: vanished files dropped, new files parsed
    /// and added (an unreadable index starts empty). Also says whether it changed.
    fn reconcile(&self, old: Option<&[u8]>, files: &[(String, Key)]) -> Result<(Index, bool)> {
        let mut index = old
            .and_then(|b| serde_json::from_slice::<Index>(b).ok())
            .filter(|i| i.version == INDEX_VERSION)
            .unwrap_or_default();
        let mut changed = index.version != INDEX_VERSION;
        index.version = INDEX_VERSION;
        let listed: std::collections::HashSet<&str> =
            files.iter().map(|(n, _)| n.as_str()).collect();
        let before = index.files.len();
        index.files.retain(|name, _| listed.contains(name.as_str()));
        changed |= index.files.len() != before;
        for (name, key) in files {
            if !index.files.contains_key(name) {
                index.files.insert(name.clone(), self.read_record(key)?);
                changed = true;
            }
        }
        Ok((index, changed))
    }

    /// Lists archived sessions by reading and parsing every history file, without the index
    /// (what the seed does). Same order and result as [`list_history`](Self::list_history);
    /// for checks and benchmarks.
    pub fn list_history_full_scan(&self, query: &HistoryQuery) -> Result<HistoryPage> {
        let files = self.history_files()?;
        let mut index = Index::default();
        for (name, key) in &files {
            index.files.insert(name.clone(), self.read_record(key)?);
        }
        let (entries, skipped) = self.entries_of(&files, &index);
        Ok(page(entries, skipped, query))
    }

    /// Rebuilds the history index from every history file.
    pub fn rebuild_index(&self) -> Result<()> {
        let files = self.history_files()?;
        let mut index = Index {
            version: INDEX_VERSION,
            files: BTreeMap::new(),
        };
        for (name, key) in &files {
            index.files.insert(name.clone(), self.read_record(key)?);
        }
        let bytes = serde_json::to_vec(&index).unwrap_or_default();
        self.store
            .update(&index_key(), &mut |_| Ok(Some(bytes.clone())))
    }

    /// Records a just-archived document in the index (a missing or unreadable index is left
    /// for the next listing to rebuild).
    pub(crate) fn index_archived(&self, key: &Key, doc: &OrchestratorSession) -> Result<()> {
        let record = record_of(doc);
        self.store.update(&index_key(), &mut |old| {
            let Some(mut index) = old
                .and_then(|b| serde_json::from_slice::<Index>(b).ok())
                .filter(|i| i.version == INDEX_VERSION)
            else {
                return Ok(None);
            };
            index
                .files
                .insert(key.file_name().to_owned(), record.clone());
            Ok(Some(serde_json::to_vec(&index).unwrap_or_default()))
        })
    }
}
