//! Listing archived sessions (SPEC section 1, "list_history"), with a rebuildable index.
//!
//! The index (`.claude/orchestrator-history.index.json`, outside the history folder) maps each
//! history file name to its `{id, goal, status, created}` (or to the error that made it
//! unreadable); an archive appends its record to the index's journal (see `history_index`).
//! A listing whose head (see `history_head`) is in step with the store's marks of the folder,
//! the index and the journal reads the head alone. Otherwise it compares the index and
//! journal with the file names the store lists: new files are parsed and added, vanished ones
//! dropped, the journal folded in, and the index is rewritten only when it changed. A missing
//! or unreadable index is rebuilt from the files (it is derived data, so it is replaced
//! without keeping a copy). A file edited in place under the same name is seen after
//! [`OrchestratorStore::rebuild_index`] (`doctor` does it). The index, the journal and the
//! head are written under the journal's lock (the head also by a listing that only read).

use chrono::{DateTime, Utc};

use super::document::OrchestratorSession;
use super::history_head::{HEAD_LEN, Head};
use super::history_index::{Index, Record, journal_line, parse_owned};
use super::history_page::{HistoryEntry, HistoryPage, HistoryQuery, SkippedFile};
use super::keys::{history_dir, index_head_key, index_journal_key, index_key, is_history_file};
use super::parse::{ParseOptions, parse_document};
use super::status::SessionStatus;
use super::store::OrchestratorStore;
use crate::error::{ErrorKind, Result};
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::{Clock, Timestamp};

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// The history files: `(file name, key)` of each `*.json` directly in the history folder,
    /// sorted by file name.
    pub(super) fn history_files(&self) -> Result<Vec<(String, Key)>> {
        Ok(self
            .store
            .list(&history_dir())?
            .into_iter()
            .filter(is_history_file)
            .map(|k| (k.file_name().to_owned(), k))
            .collect())
    }

    /// The index record of one history file (parsing it in full; naive timestamps left
    /// naive: the offset is applied when listing).
    fn read_record(&self, name: &str, key: &Key) -> Result<Record<'static>> {
        let Some(bytes) = self.store.read(key)? else {
            return Ok(Record::failed(
                name,
                "not_found",
                &format!("`{key}` vanished while listing"),
            ));
        };
        let raw = ParseOptions {
            naive_offset: None,
            ..self.options
        };
        Ok(match parse_document(key, &bytes, &raw) {
            Ok(doc) => Record::of(name, &doc),
            Err(e) => Record::failed(name, e.code(), e.message()),
        })
    }

    /// One page from records aligned with `files` (`records[i]` is the file `files[i]`).
    pub(super) fn page_of(
        &self,
        files: &[(String, Key)],
        records: &[Record<'_>],
        q: &HistoryQuery,
    ) -> HistoryPage {
        let offset = self
            .options
            .naive_offset
            .map_or(0, |o| i64::from(o.local_minus_utc()));
        let mut skipped = Vec::new();
        let mut keys: Vec<(i64, u32, usize, SessionStatus)> = Vec::with_capacity(records.len());
        for (i, (record, (_, key))) in records.iter().zip(files).enumerate() {
            let status = match (&record.error, SessionStatus::parse(&record.status)) {
                (Some((code, message)), _) => Err((code.clone(), message.clone())),
                (None, Err(e)) => Err((e.code().to_owned(), e.message().to_owned())),
                (None, Ok(status)) => Ok(status),
            };
            match status {
                Err((code, message)) => skipped.push(SkippedFile {
                    key: key.to_string(),
                    code,
                    message,
                }),
                Ok(status) if q.status.is_none_or(|want| want == status) => {
                    let secs = if record.naive {
                        record.secs - offset
                    } else {
                        record.secs
                    };
                    keys.push((secs, record.nanos, i, status));
                }
                Ok(_) => {}
            }
        }
        let total = keys.len();
        // Newest first by instant, ties by session id descending.
        let order = |a: &(i64, u32, usize, SessionStatus), b: &(i64, u32, usize, SessionStatus)| {
            (b.0, b.1)
                .cmp(&(a.0, a.1))
                .then_with(|| records[b.2].id.cmp(&records[a.2].id))
        };
        let wanted = q.offset.saturating_add(q.limit);
        if wanted < keys.len() {
            // Only the page is sorted in full (the rest is just partitioned off).
            keys.select_nth_unstable_by(wanted, order);
            keys.truncate(wanted);
        }
        keys.sort_unstable_by(order);
        let entries = keys
            .iter()
            .skip(q.offset)
            .map(|&(secs, nanos, i, status)| HistoryEntry {
                id: records[i].id.clone().into_owned(),
                goal: records[i].goal.clone().into_owned(),
                status,
                created: Timestamp::from_utc(
                    DateTime::<Utc>::from_timestamp(secs, nanos).unwrap_or_default(),
                ),
            })
            .collect();
        HistoryPage {
            entries,
            skipped,
            total,
        }
    }

    /// Lists archived sessions through the index (see the module docs): newest first by the
    /// instant of `created`, ties by session id descending; status filter, then offset and
    /// limit. Unreadable files are skipped and reported in [`HistoryPage::skipped`].
    ///
    /// When the store's marks of the history folder, the index and its journal are those the
    /// head recorded, and the head holds the page, only the head is read. Otherwise, when
    /// the index agrees with the listed file names it is only read (no lock), and the head
    /// is written for the next listing. On a store that refuses the index write (read-only),
    /// the index is brought up to date in memory only.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when listing or reading fails; bad files never fail it.
    pub fn list_history(&self, query: &HistoryQuery) -> Result<HistoryPage> {
        let mut marks = self.index_marks()?;
        if let Some(now) = &marks
            && let Some(bytes) = self.store.read(&index_head_key())?
            && let Some(head) = Head::parse(&bytes, now, self.offset_secs())
        {
            if let Some(page) = head.page(query) {
                return Ok(page);
            }
            // In step, but the page lies beyond it: the head needs no rewrite.
            marks = None;
        }
        let files = self.history_files()?;
        let bytes = self.store.read(&index_key())?;
        let journal = self.store.read(&index_journal_key())?;
        if journal.is_none()
            && let Some(index) = bytes.as_deref().and_then(Index::parse)
            && index.matches(&files)
        {
            if let Some(marks) = marks {
                self.write_head(marks, &files, &index)?;
            }
            return Ok(self.page_of(&files, &index.files, query));
        }
        if files.is_empty() && bytes.is_none() && journal.is_none() {
            // Nothing archived and no index: a listing writes nothing (no index, no lock file,
            // no `.claude/` folder in a project that has none).
            return Ok(self.page_of(&files, &[], query));
        }
        let updated = update_with(&self.store, &index_journal_key(), |journal| {
            let base = self.store.read(&index_key())?;
            let (index, changed) = self.reconcile(base.as_deref(), journal, &files)?;
            self.write_index(&index, changed, journal.is_some())?;
            Ok((None, index))
        });
        let index = match updated {
            Ok(index) => index,
            Err(e) if e.kind() == ErrorKind::Storage => {
                self.reconcile(bytes.as_deref(), journal.as_deref(), &files)?
                    .0
            }
            Err(e) => return Err(e),
        };
        Ok(self.page_of(&files, &index.files, query))
    }

    /// The marks of the history folder, the index and its journal, read before them; `None`
    /// when the store cannot give one of them.
    fn index_marks(&self) -> Result<Option<[String; 3]>> {
        let mut marks = Vec::with_capacity(3);
        for key in [history_dir(), index_key(), index_journal_key()] {
            let Some(mark) = self.store.mark(&key)? else {
                return Ok(None);
            };
            marks.push(mark);
        }
        Ok(marks.try_into().ok())
    }

    /// The naive offset in seconds east of UTC (0 when naive times read as UTC).
    fn offset_secs(&self) -> i32 {
        self.options.naive_offset.map_or(0, |o| o.local_minus_utc())
    }

    /// Writes the head of `index` (in step with `files`) taken at `marks`. A store that
    /// refuses the write (read-only) is left without one.
    fn write_head(
        &self,
        marks: [String; 3],
        files: &[(String, Key)],
        index: &Index<'_>,
    ) -> Result<()> {
        let mut counts = std::collections::BTreeMap::new();
        for record in index.files.iter().filter(|r| r.error.is_none()) {
            if let Ok(status) = SessionStatus::parse(&record.status) {
                *counts.entry(status.as_str().to_owned()).or_insert(0) += 1;
            }
        }
        let first = HistoryQuery {
            limit: HEAD_LEN,
            offset: 0,
            status: None,
        };
        let page = self.page_of(files, &index.files, &first);
        let head = Head::new(marks, self.offset_secs(), counts, page);
        match self.store.write(&index_head_key(), &head.to_bytes()) {
            Err(e) if e.kind() == ErrorKind::Storage => Ok(()),
            done => done,
        }
    }

    /// Under the journal's lock: writes `index` when it `changed`, and empties the journal
    /// when it `had_journal` (its lines are in `index`).
    pub(super) fn write_index(
        &self,
        index: &Index<'_>,
        changed: bool,
        had_journal: bool,
    ) -> Result<()> {
        if changed {
            self.store.write(&index_key(), &index.to_bytes())?;
        }
        if had_journal {
            self.store.delete(&index_journal_key())?;
        }
        Ok(())
    }

    /// The index `old` with `journal` folded in, brought in line with `files` (sorted):
    /// records of vanished files dropped, new files parsed and added; an unusable index
    /// starts empty. Also says whether it differs from `old` (a journal line counts).
    pub(super) fn reconcile(
        &self,
        old: Option<&[u8]>,
        journal: Option<&[u8]>,
        files: &[(String, Key)],
    ) -> Result<(Index<'static>, bool)> {
        let parsed = old.and_then(|old| Index::with_journal(old, journal));
        let mut changed = parsed.is_none() || journal.is_some_and(|j| !j.is_empty());
        let mut old_records = parsed
            .map(|i| i.files)
            .unwrap_or_default()
            .into_iter()
            .peekable();
        let mut records = Vec::with_capacity(files.len());
        for (name, key) in files {
            while old_records
                .peek()
                .is_some_and(|r| r.file.as_ref() < name.as_str())
            {
                old_records.next();
                changed = true;
            }
            if let Some(record) = old_records.next_if(|r| r.file == name.as_str()) {
                records.push(record.into_owned());
            } else {
                records.push(self.read_record(name, key)?);
                changed = true;
            }
        }
        changed |= old_records.next().is_some();
        Ok((Index::new(records), changed))
    }

    /// Lists archived sessions by reading and parsing every history file, without the index
    /// (what the seed does). Same result as [`list_history`](Self::list_history); for checks
    /// and benchmarks.
    pub fn list_history_full_scan(&self, query: &HistoryQuery) -> Result<HistoryPage> {
        let files = self.history_files()?;
        let records = files
            .iter()
            .map(|(name, key)| self.read_record(name, key))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.page_of(&files, &records, query))
    }

    /// Rebuilds the history index from every history file (the journal folded away). Writes
    /// nothing (and takes no lock) when the index already holds exactly that and there is no
    /// journal, or when there is neither a history file nor an index: a healthy project stays
    /// untouched, even when it is read-only.
    pub fn rebuild_index(&self) -> Result<()> {
        let files = self.history_files()?;
        let records = files
            .iter()
            .map(|(name, key)| self.read_record(name, key))
            .collect::<Result<Vec<_>>>()?;
        let index = Index::new(records);
        let bytes = index.to_bytes();
        let old = self.store.read(&index_key())?;
        let journal = self.store.read(&index_journal_key())?;
        if journal.is_none()
            && (old.as_deref() == Some(&bytes[..]) || (old.is_none() && files.is_empty()))
        {
            return Ok(());
        }
        self.store.update(&index_journal_key(), &mut |journal| {
            self.write_index(&index, true, journal.is_some())?;
            Ok(None)
        })
    }

    /// Records a just-archived document in the index: one line appended to the journal when
    /// the head is there (a listing keeps the index), else the index rewritten under the
    /// journal's lock (a missing or unusable index is left for the next listing to rebuild).
    pub(crate) fn index_archived(&self, key: &Key, doc: &OrchestratorSession) -> Result<()> {
        let record = Record::of(key.file_name(), doc);
        if self.store.read(&index_head_key())?.is_some() {
            return self
                .store
                .append(&index_journal_key(), &journal_line(&record));
        }
        self.store.update(&index_journal_key(), &mut |journal| {
            let Some(base) = self.store.read(&index_key())? else {
                return Ok(None);
            };
            let Some(mut index) = parse_owned(&base, journal) else {
                return Ok(None);
            };
            index.upsert(record.clone());
            self.write_index(&index, true, journal.is_some())?;
            Ok(None)
        })
    }
}
