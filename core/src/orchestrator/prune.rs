//! Retention of archived sessions: which history files a prune removes, by count, age and
//! status, and the removal itself with the history index changed in the same step (see
//! [`crate::retention`]).

use indexmap::IndexSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::forked_from::ForkedFrom;
use super::history_index::{Index, Record};
use super::keys::{history_dir, index_journal_key, index_key};
use super::status::SessionStatus;
use super::store::OrchestratorStore;
use crate::error::{Error, Result};
use crate::key::Key;
use crate::ownership::claimed_by_live_sessions;
use crate::retention::{Kept, PruneKind, PrunePlan, Removal, cutoff, days_ago};
use crate::store::{Store, update_with};
use crate::time::Clock;

/// The criteria of a history prune: `{keep, older_than_days, status, apply}`. An archived
/// session goes when it matches every criterion given: it has `status`, it is not among the
/// newest `keep` of those with that status (by `created`), and it was last updated more than
/// `older_than_days` days ago (by `updated`, or `created` when the document has none). At
/// least one of `keep`, `older_than_days`, `status` must be given.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(default, deny_unknown_fields)]
pub struct PruneHistoryOptions {
    /// Keep the newest N (of the sessions with `status`, when given).
    pub keep: Option<u64>,
    /// Only sessions last updated more than this many days ago.
    #[serde(alias = "olderThanDays")]
    pub older_than_days: Option<u64>,
    /// Only sessions with this status.
    pub status: Option<SessionStatus>,
    /// Remove them (default false: a dry run that changes nothing).
    pub apply: bool,
}

impl PruneHistoryOptions {
    /// At least one criterion.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when none is given.
    pub fn validate(&self) -> Result<()> {
        if self.keep.is_none() && self.older_than_days.is_none() && self.status.is_none() {
            return Err(Error::invalid_input(
                "a history prune needs a criterion: `keep`, `older_than_days` or `status`",
            )
            .with_context("field", "keep"));
        }
        Ok(())
    }
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// Prunes archived sessions by `options` (see [`PruneHistoryOptions`]): a dry run unless
    /// `options.apply`, then under the index journal's lock each history file is removed and its
    /// record dropped from the index, written once at the end. Unreadable history files are
    /// never removed (`doctor` reports them); the session the current one was forked from
    /// stays (listed in [`PrunePlan::kept`]).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) without a criterion; the
    /// parse errors of [`load`](Self::load) for the current session (what it points at must be
    /// known); [`ErrorKind::Storage`](crate::ErrorKind::Storage).
    pub fn prune_history(&self, options: &PruneHistoryOptions) -> Result<PrunePlan> {
        options.validate()?;
        let origin = self
            .load()?
            .and_then(|doc| ForkedFrom::of(&doc))
            .map(|f| f.session_id);
        let claimed = claimed_by_live_sessions(&self.store, self.now())?;
        let now = self.clock.now();
        if !options.apply {
            let files = self.history_files()?;
            let bytes = self.store.read(&index_key())?;
            let journal = self.store.read(&index_journal_key())?;
            let (index, _) = self.reconcile(bytes.as_deref(), journal.as_deref(), &files)?;
            return Ok(self.plan(&index, options, (origin.as_deref(), &claimed), now));
        }
        if self.history_files()?.is_empty() {
            return Ok(PrunePlan {
                applied: true,
                ..PrunePlan::default()
            });
        }
        update_with(&self.store, &index_journal_key(), |journal| {
            let files = self.history_files()?;
            let old = self.store.read(&index_key())?;
            let (mut index, changed) = self.reconcile(old.as_deref(), journal, &files)?;
            let mut plan = self.plan(&index, options, (origin.as_deref(), &claimed), now);
            plan.applied = true;
            if plan.removed.is_empty() {
                self.write_index(&index, changed, journal.is_some())?;
                return Ok((None, plan));
            }
            for removal in &plan.removed {
                for key in &removal.removes {
                    self.store.delete(&Key::new(key.as_str())?)?;
                }
            }
            let gone: IndexSet<&str> = plan.removed.iter().map(|r| r.id.as_str()).collect();
            index
                .files
                .retain(|r| r.error.is_some() || !gone.contains(r.id.as_ref()));
            self.write_index(&index, true, journal.is_some())?;
            Ok((None, plan))
        })
    }

    /// The plan of `options` over the records of `index`, at `now`, keeping `origin` (what
    /// the current session was forked from) and what live sessions claim.
    fn plan(
        &self,
        index: &Index<'_>,
        options: &PruneHistoryOptions,
        (origin, claimed): (Option<&str>, &IndexSet<String>),
        now: DateTime<Utc>,
    ) -> PrunePlan {
        let offset = self
            .options
            .naive_offset
            .map_or(0, |o| i64::from(o.local_minus_utc()));
        let instant = |secs: i64, nanos: u32, naive: bool| {
            let secs = if naive { secs - offset } else { secs };
            DateTime::<Utc>::from_timestamp(secs, nanos).unwrap_or_default()
        };
        let mut matching: Vec<(&Record<'_>, DateTime<Utc>, DateTime<Utc>)> = index
            .files
            .iter()
            .filter(|r| r.error.is_none())
            .filter(|r| {
                SessionStatus::parse(&r.status)
                    .is_ok_and(|s| options.status.is_none_or(|want| want == s))
            })
            .map(|r| {
                let created = instant(r.secs, r.nanos, r.naive);
                let updated = r
                    .updated
                    .map_or(created, |(secs, nanos, naive)| instant(secs, nanos, naive));
                (r, created, updated)
            })
            .collect();
        // Newest first by `created`, ties by id descending (the listing's order).
        matching.sort_by(|a, b| (b.1, &b.0.id).cmp(&(a.1, &a.0.id)));
        let keep = options
            .keep
            .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let before = options.older_than_days.map(|days| cutoff(now, days));
        let mut plan = PrunePlan::default();
        for (i, (record, _, updated)) in matching.into_iter().enumerate() {
            if i < keep || before.is_some_and(|before| updated >= before) {
                continue;
            }
            let id = record.id.to_string();
            if origin == Some(id.as_str()) {
                plan.kept.push(Kept {
                    kind: PruneKind::Session,
                    id,
                    reason: "the current session was forked from it".to_owned(),
                });
                continue;
            }
            if claimed.contains(&id) {
                plan.kept.push(Kept {
                    kind: PruneKind::Session,
                    id,
                    reason: "a live session claims it".to_owned(),
                });
                continue;
            }
            let mut reasons = Vec::new();
            if let Some(status) = options.status {
                reasons.push(format!("status {status}"));
            }
            if options.keep.is_some() {
                reasons.push(format!("not among the newest {keep}"));
            }
            if before.is_some() {
                reasons.push(format!("updated {}", days_ago(updated, now)));
            }
            plan.removed.push(Removal {
                kind: PruneKind::Session,
                removes: vec![format!("{}/{}", history_dir().as_str(), record.file)],
                id,
                reason: reasons.join(", "),
            });
        }
        plan
    }
}
