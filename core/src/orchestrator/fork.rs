//! Fork: a copy of a session (the current one, or an archived one) as a new current session
//! that records where it came from (`forked_from: {session_id, at}`, an added top-level field
//! that schema "1.0" readers keep as an unknown one), and the tree of every session under the
//! one it was forked from (`history --tree`).
//!
//! The original is never modified: forking the current session archives it first, as it is
//! (status kept); forking an archived one while another session is current is refused unless
//! the caller asks to archive that one as it is.

use indexmap::IndexMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::autosave::{clock_suffix, session_id_for};
use super::document::OrchestratorSession;
use super::forked_from::{FORKED_FROM, ForkedFrom};
use super::history_index::Index;
use super::history_page::{HistoryQuery, SkippedFile};
use super::keys::{current_key, history_key, index_journal_key, index_key};
use super::status::SessionStatus;
use super::store::{OrchestratorStore, no_session};
use crate::error::{Error, ErrorKind, Hint, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::store::{Store, update_with};
use crate::time::{Clock, Timestamp};

/// The arguments of `fork`: `{session_id, new_id, suffix, archive_current}`, each optional
/// (JavaScript's `sessionId`, `newId`, `archiveCurrent` are read too).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ForkOptions {
    /// The session to fork: an archived session's id, or the current session's (default: the
    /// current session).
    #[serde(alias = "sessionId")]
    pub session_id: Option<String>,
    /// The new session's id (default `YYYY-MM-DD-{suffix}`).
    #[serde(alias = "newId")]
    pub new_id: Option<String>,
    /// The suffix of the default id (default: derived from the clock).
    pub suffix: Option<String>,
    /// When forking an archived session while another one is current: archive the current
    /// one as it is first (default false: `already_exists`).
    #[serde(alias = "archiveCurrent")]
    pub archive_current: bool,
}

/// The copy of `source` forked as `new_id` at `now`: same goal, mode, project, agents, work,
/// decisions, tasks, context and unknown fields; status `created`, `created` and `updated`
/// now, `forked_from` naming `source`.
pub fn forked_copy(
    source: &OrchestratorSession,
    new_id: &str,
    now: Timestamp,
) -> OrchestratorSession {
    let mut doc = source.clone();
    new_id.clone_into(&mut doc.session_id);
    doc.status = SessionStatus::Created;
    doc.created = now;
    doc.updated = Some(now);
    doc.extra.insert(
        FORKED_FROM.to_owned(),
        json!({"session_id": source.session_id, "at": now.to_rfc3339()}),
    );
    doc
}

/// [`ErrorKind::AlreadyExists`] for a current session in the way of forking another one.
fn current_in_the_way(current: &OrchestratorSession, source: &str) -> Error {
    Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "session `{}` is current: forking `{}` would replace it",
            current.session_id.escape_debug(),
            source.escape_debug()
        ),
    )
    .with_context("key", current_key().as_str())
    .with_context("session_id", current.session_id.as_str())
    .with_hint(Hint::ArchiveCurrent)
}

fn id_taken(id: &str, key: &Key) -> Error {
    Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "session id `{}` is taken (`{key}` or the session forked); choose another id",
            id.escape_debug()
        ),
    )
    .with_context("key", key.as_str())
}

fn no_archive(id: &str, key: &Key) -> Error {
    Error::new(
        ErrorKind::NotFound,
        format!(
            "there is no session `{}`: neither current nor archived",
            id.escape_debug()
        ),
    )
    .with_context("key", key.as_str())
    .with_context("session_id", id)
}

/// One session of `history --tree`, in tree order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryTreeEntry {
    /// How many forks below a root it is (0: not forked, or forked from a session that is
    /// gone).
    pub depth: usize,
    /// Session id.
    pub id: String,
    /// Goal.
    pub goal: String,
    /// Status.
    pub status: SessionStatus,
    /// When it was created.
    pub created: Timestamp,
    /// The id it was forked from, also when that session is gone.
    pub forked_from: Option<String>,
    /// Whether it is the current session (the others are archived).
    pub current: bool,
}

/// Every session, each under the one it was forked from: roots newest first, and under each
/// session the sessions forked from it, newest first (a pre-order walk).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryTree {
    /// The sessions in tree order.
    pub entries: Vec<HistoryTreeEntry>,
    /// The history files that could not be read.
    pub skipped: Vec<SkippedFile>,
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Forks a session into a new current session (see the module docs and
    /// [`forked_copy`]), in one exclusive update of the current file: the current session is
    /// archived as it is when it is the one forked, or when `archive_current` and another is
    /// forked; then the copy becomes current. Returns the new session.
    ///
    /// # Errors
    /// [`ErrorKind::NotFound`] when there is no current session (no `session_id`) or no
    /// session `session_id`; [`ErrorKind::AlreadyExists`] when another session is current and
    /// `archive_current` is false (hint [`Hint::ArchiveCurrent`]), when an archive of the
    /// current session's id exists already, or when the new id is taken;
    /// [`ErrorKind::InvalidKey`] for an unsafe id or suffix; the parse errors of
    /// [`load`](Self::load). Nothing is written then.
    pub fn fork(&self, options: &ForkOptions) -> Result<OrchestratorSession> {
        let now = self.now();
        let new_id = match (&options.new_id, &options.suffix) {
            (Some(id), _) => {
                history_key(id)?;
                id.clone()
            }
            (None, Some(suffix)) => session_id_for(now, suffix)?,
            (None, None) => session_id_for(now, &clock_suffix(now))?,
        };
        let new_slot = history_key(&new_id)?;
        let source_key = options.session_id.as_deref().map(history_key).transpose()?;
        let key = current_key();
        let mut written: Option<(Key, String)> = None;
        let outcome = update_with(&self.store, &key, |old| {
            self.fence()?;
            written = None;
            if self.store.read(&new_slot)?.is_some() {
                return Err(id_taken(&new_id, &new_slot));
            }
            let current = match old {
                Some(bytes) => {
                    let doc = self.parse(&key, bytes)?;
                    check_rewrite(&key, bytes)?;
                    Some(doc)
                }
                None => None,
            };
            let source = match (&options.session_id, &source_key, &current) {
                (None, _, None) => return Err(no_session()),
                (None, _, Some(current)) => current.clone(),
                (Some(id), _, Some(current)) if current.session_id == *id => current.clone(),
                (Some(id), Some(source_key), _) => {
                    let bytes = self
                        .store
                        .read(source_key)?
                        .ok_or_else(|| no_archive(id, source_key))?;
                    let source = self.parse(source_key, &bytes)?;
                    if let Some(current) = &current
                        && !options.archive_current
                    {
                        return Err(current_in_the_way(current, id));
                    }
                    source
                }
                (Some(_), None, _) => unreachable!("a key is made for every session id given"),
            };
            let current_id = current.as_ref().map(|c| c.session_id.as_str());
            if source.session_id == new_id || current_id == Some(new_id.as_str()) {
                return Err(id_taken(&new_id, &new_slot));
            }
            let mut archived = None;
            if let Some(current) = current {
                let archive = history_key(&current.session_id)?;
                let previous = self.store.read(&archive)?;
                self.check_move_slot(&archive, &current, previous.as_deref(), false)?;
                self.store
                    .write(&archive, &self.encode(&archive, &current)?)?;
                written = Some((archive.clone(), current.session_id.clone()));
                archived = Some((archive, current));
            }
            // Stamped under the lock, so that forks serialised by it are in the order they ran.
            let mut doc = forked_copy(&source, &new_id, self.now());
            self.record_head(&mut doc);
            let bytes = self.encode(&key, &doc)?;
            Ok((Some(bytes), (doc, archived)))
        });
        match outcome {
            Ok((doc, archived)) => {
                if let Some((archive, current)) = archived {
                    self.index_archived(&archive, &current)?;
                }
                Ok(doc)
            }
            Err(err) => {
                // The new current file was not written: take the archive back out, unless
                // the old session is gone from the current file all the same.
                if let Some((archive, old_id)) = written {
                    let still_there = self
                        .store
                        .read(&key)
                        .ok()
                        .flatten()
                        .and_then(|b| self.parse(&key, &b).ok())
                        .is_some_and(|d| d.session_id == old_id);
                    if still_there {
                        let _ = self.store.delete(&archive);
                    }
                }
                Err(err)
            }
        }
    }

    /// Every session (archived, and the current one when it is readable) with the one it was
    /// forked from, in tree order (see [`HistoryTree`]). The origins come from the history index
    /// (rebuilt when it disagrees with the files, as [`list_history`](Self::list_history)
    /// does); sessions in a cycle of origins (edited by hand) are listed as roots.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`]; unreadable history files are skipped and reported.
    pub fn history_tree(&self) -> Result<HistoryTree> {
        let page = self.list_history(&HistoryQuery {
            limit: usize::MAX,
            offset: 0,
            status: None,
        })?;
        let origins = self.origins()?;
        let mut nodes: Vec<HistoryTreeEntry> = Vec::with_capacity(page.entries.len() + 1);
        if let Ok(Some(doc)) = self.load() {
            nodes.push(HistoryTreeEntry {
                depth: 0,
                forked_from: ForkedFrom::of(&doc).map(|f| f.session_id),
                id: doc.session_id,
                goal: doc.goal,
                status: doc.status,
                created: doc.created,
                current: true,
            });
        }
        for e in page.entries {
            if nodes.iter().any(|n| n.current && n.id == e.id) {
                continue;
            }
            nodes.push(HistoryTreeEntry {
                depth: 0,
                forked_from: origins.get(&e.id).cloned(),
                id: e.id,
                goal: e.goal,
                status: e.status,
                created: e.created,
                current: false,
            });
        }
        // Newest first, ties by id descending, as the listing orders them.
        nodes.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
        Ok(HistoryTree {
            entries: tree_order(nodes),
            skipped: page.skipped,
        })
    }

    /// Session id to the id it was forked from, for every archived session that records one:
    /// from the index when it matches the files, else from the files.
    fn origins(&self) -> Result<IndexMap<String, String>> {
        let files = self.history_files()?;
        let bytes = self.store.read(&index_key())?;
        let journal = self.store.read(&index_journal_key())?;
        if let Some(index) = bytes
            .as_deref()
            .and_then(|b| Index::with_journal(b, journal.as_deref()))
            && index.matches(&files)
        {
            return Ok(index
                .files
                .iter()
                .filter_map(|r| Some((r.id.to_string(), r.forked_from.clone()?)))
                .collect());
        }
        let mut origins = IndexMap::new();
        for (_, key) in files {
            let Some(bytes) = self.store.read(&key)? else {
                continue;
            };
            if let Ok(doc) = self.parse(&key, &bytes)
                && let Some(from) = ForkedFrom::of(&doc)
            {
                origins.insert(doc.session_id, from.session_id);
            }
        }
        Ok(origins)
    }
}

/// `nodes` (sorted) in pre-order: each root, then the sessions forked from it. A session whose
/// origin is absent is a root; sessions left over (a cycle of origins) are roots too.
fn tree_order(nodes: Vec<HistoryTreeEntry>) -> Vec<HistoryTreeEntry> {
    let index: IndexMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut roots = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match n.forked_from.as_deref().and_then(|p| index.get(p)) {
            Some(&parent) if parent != i => children[parent].push(i),
            _ => roots.push(i),
        }
    }
    let mut order: Vec<(usize, usize)> = Vec::with_capacity(nodes.len());
    let mut seen = vec![false; nodes.len()];
    let walk = |start: usize, order: &mut Vec<(usize, usize)>, seen: &mut Vec<bool>| {
        let mut stack = vec![(start, 0)];
        while let Some((i, depth)) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            order.push((i, depth));
            stack.extend(children[i].iter().rev().map(|&c| (c, depth + 1)));
        }
    };
    for &r in &roots {
        walk(r, &mut order, &mut seen);
    }
    for i in 0..nodes.len() {
        if !seen[i] {
            walk(i, &mut order, &mut seen);
        }
    }
    let mut slots: Vec<Option<HistoryTreeEntry>> = nodes.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|(i, depth)| {
            let mut n = slots[i].take()?;
            n.depth = depth;
            Some(n)
        })
        .collect()
}
