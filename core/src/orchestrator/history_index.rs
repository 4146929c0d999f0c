//! The history listing index: one small record per history file, kept sorted by file name in
//! `.claude/orchestrator-history.index.json`, and its journal
//! (`.claude/orchestrator-history.index.journal`): the records of later archives, one JSON
//! line each, so that an archive appends one line instead of rewriting the index. Derived
//! data: it can always be rebuilt from the files. Strings borrow from the index bytes when
//! they can, so reading a large index does few allocations.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::document::OrchestratorSession;
use crate::key::Key;

/// Version of the index format; an index of another version is rebuilt.
pub(crate) const INDEX_VERSION: u32 = 4;

/// What the index knows about one history file. Written as a compact JSON array
/// `[file, id, goal, status, secs, nanos, naive, error, updated, forked_from]` where `id` is
/// `""` when it is the file name without `.json`, `error` is `null` or `[code, message]`,
/// `updated` is `null` or `[secs, nanos, naive]`, and `forked_from` the id of the session it
/// was forked from, or `null`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Record<'a> {
    /// File name in the history folder.
    pub file: Cow<'a, str>,
    pub id: Cow<'a, str>,
    pub goal: Cow<'a, str>,
    pub status: Cow<'a, str>,
    /// `created` as Unix seconds and nanoseconds (a naive value counted as UTC).
    pub secs: i64,
    pub nanos: u32,
    /// Whether `created` had no offset (the listing applies the configured one).
    pub naive: bool,
    /// Why the file could not be read: `(code, message)`.
    pub error: Option<(String, String)>,
    /// `updated` as `(secs, nanos, naive)`, like `created`.
    pub updated: Option<(i64, u32, bool)>,
    /// The id of the session it was forked from (`forked_from.session_id`).
    pub forked_from: Option<String>,
}

/// The wire form of a [`Record`].
#[derive(Serialize, Deserialize)]
struct Wire<'a>(
    #[serde(borrow)] Cow<'a, str>,
    #[serde(borrow)] Cow<'a, str>,
    #[serde(borrow)] Cow<'a, str>,
    #[serde(borrow)] Cow<'a, str>,
    i64,
    u32,
    bool,
    Option<(String, String)>,
    Option<(i64, u32, bool)>,
    Option<String>,
);

impl Serialize for Record<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stem = self.file.strip_suffix(".json");
        let id = if stem == Some(self.id.as_ref()) {
            ""
        } else {
            self.id.as_ref()
        };
        Wire(
            Cow::Borrowed(self.file.as_ref()),
            Cow::Borrowed(id),
            Cow::Borrowed(self.goal.as_ref()),
            Cow::Borrowed(self.status.as_ref()),
            self.secs,
            self.nanos,
            self.naive,
            self.error.clone(),
            self.updated,
            self.forked_from.clone(),
        )
        .serialize(serializer)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Record<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Wire(file, id, goal, status, secs, nanos, naive, error, updated, forked_from) =
            Wire::deserialize(deserializer)?;
        let id = if id.is_empty() && error.is_none() {
            match &file {
                Cow::Borrowed(f) => Cow::Borrowed(f.strip_suffix(".json").unwrap_or(f)),
                Cow::Owned(f) => Cow::Owned(f.strip_suffix(".json").unwrap_or(f).to_owned()),
            }
        } else {
            id
        };
        Ok(Record {
            file,
            id,
            goal,
            status,
            secs,
            nanos,
            naive,
            error,
            updated,
            forked_from,
        })
    }
}

impl Record<'_> {
    pub fn into_owned(self) -> Record<'static> {
        Record {
            file: Cow::Owned(self.file.into_owned()),
            id: Cow::Owned(self.id.into_owned()),
            goal: Cow::Owned(self.goal.into_owned()),
            status: Cow::Owned(self.status.into_owned()),
            secs: self.secs,
            nanos: self.nanos,
            naive: self.naive,
            error: self.error,
            updated: self.updated,
            forked_from: self.forked_from,
        }
    }

    /// The record of a readable document stored as `file`.
    pub fn of(file: &str, doc: &OrchestratorSession) -> Record<'static> {
        let utc = doc.created.utc();
        Record {
            file: Cow::Owned(file.to_owned()),
            id: Cow::Owned(doc.session_id.clone()),
            goal: Cow::Owned(doc.goal.clone()),
            status: Cow::Borrowed(doc.status.as_str()),
            secs: utc.timestamp(),
            nanos: utc.timestamp_subsec_nanos(),
            naive: doc.created.is_naive(),
            error: None,
            updated: doc.updated.map(|t| {
                let utc = t.utc();
                (utc.timestamp(), utc.timestamp_subsec_nanos(), t.is_naive())
            }),
            forked_from: super::forked_from::ForkedFrom::of(doc).map(|f| f.session_id),
        }
    }

    /// The record of an unreadable file.
    pub fn failed(file: &str, code: &str, message: &str) -> Record<'static> {
        Record {
            file: Cow::Owned(file.to_owned()),
            id: Cow::Borrowed(""),
            goal: Cow::Borrowed(""),
            status: Cow::Borrowed(""),
            secs: 0,
            nanos: 0,
            naive: false,
            error: Some((code.to_owned(), message.to_owned())),
            updated: None,
            forked_from: None,
        }
    }
}

/// The whole index.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Index<'a> {
    pub version: u32,
    /// Sorted by file name, one per history file.
    #[serde(borrow)]
    pub files: Vec<Record<'a>>,
}

impl<'a> Index<'a> {
    /// The index in `bytes`, when it parses, has the current version and is sorted.
    pub fn parse(bytes: &'a [u8]) -> Option<Index<'a>> {
        let index: Index<'a> = serde_json::from_slice(bytes).ok()?;
        let sorted = index.files.windows(2).all(|w| w[0].file < w[1].file);
        (index.version == INDEX_VERSION && sorted).then_some(index)
    }

    /// Whether the index has exactly one record per listed file, in the same order.
    pub fn matches(&self, files: &[(String, Key)]) -> bool {
        self.files.len() == files.len()
            && self
                .files
                .iter()
                .zip(files)
                .all(|(r, (name, _))| r.file == name.as_str())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The index in `base` with the records of `journal` folded in (a later line about a file
    /// replaces its record; a line that does not parse, as a torn last line, is skipped).
    pub fn with_journal(base: &'a [u8], journal: Option<&'a [u8]>) -> Option<Index<'a>> {
        let mut index = Index::parse(base)?;
        let Some(journal) = journal else {
            return Some(index);
        };
        let mut lines: Vec<Record<'a>> = journal
            .split(|&b| b == b'\n')
            .filter_map(|line| serde_json::from_slice(line).ok())
            .collect();
        if lines.is_empty() {
            return Some(index);
        }
        // Stable: of the lines about one file, the last comes last.
        lines.sort_by(|a, b| a.file.cmp(&b.file));
        let mut merged = Vec::with_capacity(index.files.len() + lines.len());
        let mut base = std::mem::take(&mut index.files).into_iter().peekable();
        let mut lines = lines.into_iter().peekable();
        while let Some(line) = lines.next() {
            if lines.peek().is_some_and(|next| next.file == line.file) {
                continue;
            }
            while let Some(record) = base.next_if(|r| r.file < line.file) {
                merged.push(record);
            }
            base.next_if(|r| r.file == line.file);
            merged.push(line);
        }
        merged.extend(base);
        index.files = merged;
        Some(index)
    }
}

/// One journal line: the record and a newline.
pub(crate) fn journal_line(record: &Record<'_>) -> Vec<u8> {
    let mut line = serde_json::to_vec(record).unwrap_or_default();
    line.push(b'\n');
    line
}

impl Index<'static> {
    pub fn new(files: Vec<Record<'static>>) -> Self {
        Index {
            version: INDEX_VERSION,
            files,
        }
    }

    /// Puts `record` in its sorted place, replacing a record of the same file.
    pub fn upsert(&mut self, record: Record<'static>) {
        match self
            .files
            .binary_search_by(|r| r.file.as_ref().cmp(record.file.as_ref()))
        {
            Ok(i) => self.files[i] = record,
            Err(i) => self.files.insert(i, record),
        }
    }
}

/// An owned copy of the index in `bytes` with `journal` folded in, if it is usable.
pub(crate) fn parse_owned(bytes: &[u8], journal: Option<&[u8]>) -> Option<Index<'static>> {
    let index = Index::with_journal(bytes, journal)?;
    Some(Index::new(
        index.files.into_iter().map(Record::into_owned).collect(),
    ))
}
