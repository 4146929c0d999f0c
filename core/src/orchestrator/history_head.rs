//! The listing's head (`.claude/orchestrator-history.head.json`): the newest entries of the
//! history, the counts per status and the unreadable files, with the change marks (see
//! [`Store::mark`](crate::Store::mark)) of the history folder, the index and its journal read
//! before they were. While the store reports the same three marks, a listing whose page lies
//! in the head is answered from it alone: no folder listing, no index read. Derived data,
//! written by a listing that found the index in step with the files.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::history_page::{HistoryEntry, HistoryPage, HistoryQuery, SkippedFile};
use super::status::SessionStatus;
use crate::time::Timestamp;

/// Version of the head format; a head of another version is not used.
const HEAD_VERSION: u32 = 1;

/// How many of the newest entries the head holds.
pub(crate) const HEAD_LEN: usize = 100;

/// The head, as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Head {
    version: u32,
    /// Marks of the history folder, the index and the journal.
    marks: [String; 3],
    /// The naive offset (seconds east of UTC) the order was taken with.
    offset: i32,
    /// Readable sessions per status.
    counts: BTreeMap<String, usize>,
    skipped: Vec<SkippedFile>,
    /// The newest entries, in listing order: `[id, goal, status, secs, nanos]`.
    entries: Vec<(String, String, String, i64, u32)>,
}

impl Head {
    /// The head of `page` (the first [`HEAD_LEN`] entries of every status) and `counts`.
    pub fn new(
        marks: [String; 3],
        offset: i32,
        counts: BTreeMap<String, usize>,
        page: HistoryPage,
    ) -> Head {
        let entries = page
            .entries
            .into_iter()
            .map(|e| {
                let utc = e.created.utc();
                let status = e.status.as_str().to_owned();
                let (secs, nanos) = (utc.timestamp(), utc.timestamp_subsec_nanos());
                (e.id, e.goal, status, secs, nanos)
            })
            .collect();
        Head {
            version: HEAD_VERSION,
            marks,
            offset,
            counts,
            skipped: page.skipped,
            entries,
        }
    }

    /// The head in `bytes` when it is usable for `marks` and `offset`.
    pub fn parse(bytes: &[u8], marks: &[String; 3], offset: i32) -> Option<Head> {
        let head: Head = serde_json::from_slice(bytes).ok()?;
        (head.version == HEAD_VERSION && &head.marks == marks && head.offset == offset)
            .then_some(head)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The page of `q`, when the head holds it: the head holds every entry of the status
    /// asked, or at least `offset + limit` of them (the newest, since the head holds the
    /// newest of all).
    pub fn page(&self, q: &HistoryQuery) -> Option<HistoryPage> {
        let total = match q.status {
            Some(status) => self.counts.get(status.as_str()).copied().unwrap_or(0),
            None => self.counts.values().sum(),
        };
        let mut matching = Vec::new();
        for (id, goal, status, secs, nanos) in &self.entries {
            let status = SessionStatus::parse(status).ok()?;
            if q.status.is_none_or(|want| want == status) {
                matching.push((id, goal, status, *secs, *nanos));
            }
        }
        let wanted = q.offset.saturating_add(q.limit);
        if matching.len() < wanted.min(total) {
            return None;
        }
        let entries = matching
            .into_iter()
            .skip(q.offset)
            .take(q.limit)
            .map(|(id, goal, status, secs, nanos)| HistoryEntry {
                id: id.clone(),
                goal: goal.clone(),
                status,
                created: Timestamp::from_utc(
                    DateTime::<Utc>::from_timestamp(secs, nanos).unwrap_or_default(),
                ),
            })
            .collect();
        Some(HistoryPage {
            entries,
            skipped: self.skipped.clone(),
            total,
        })
    }
}
