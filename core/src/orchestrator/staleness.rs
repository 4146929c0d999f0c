//! How stale a resumed session is: the notes the resume summary adds when the session was last
//! saved long ago or the branch or HEAD moved since the HEAD recorded at the last save
//! ([`GitHead`], given to [`OrchestratorStore::with_git_head`]; the CLI reads it from
//! `.git`).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::document::OrchestratorSession;
use super::git_head::GitHead;
use super::relative_time::relative_time;
use super::store::OrchestratorStore;
use crate::store::Store;
use crate::time::{Clock, Timestamp};

/// Hours after the last save past which a resume says the session is stale (24).
pub const DEFAULT_STALE_AFTER_HOURS: u64 = 24;

/// The options of a resume summary: `{stale_after_hours, git_head}`, each optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ResumeOptions {
    /// Hours after the last save past which the summary says so (default 24).
    #[serde(alias = "staleAfterHours")]
    pub stale_after_hours: Option<u64>,
    /// The project's HEAD now, compared with the one recorded at the last save (default: not
    /// compared).
    #[serde(alias = "gitHead")]
    pub git_head: Option<GitHead>,
}

/// What moved since the last save, and how long ago it was.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Staleness {
    /// The session was last saved longer ago than the limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle: Option<Idle>,
    /// The HEAD recorded at the last save differs from the HEAD now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_moved: Option<HeadMove>,
}

impl Staleness {
    /// Whether there is nothing to say.
    pub fn is_empty(&self) -> bool {
        self.idle.is_none() && self.head_moved.is_none()
    }
}

/// A session last saved more than `limit_hours` ago.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Idle {
    /// When it was last saved (`updated`).
    pub updated: Timestamp,
    /// `updated` relative to now ("3 days ago").
    pub updated_relative: String,
    /// The limit in hours.
    pub limit_hours: u64,
}

/// The HEAD at the last save and now; `branch_changed` and `commit_changed` say which moved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HeadMove {
    /// The HEAD recorded at the last save.
    pub saved: GitHead,
    /// The HEAD now.
    pub now: GitHead,
    /// The branch differs.
    pub branch_changed: bool,
    /// The commit differs.
    pub commit_changed: bool,
}

/// What moved since `doc` was last saved, at `now`: the age past `options.stale_after_hours`
/// (by `updated`; nothing when `updated` is absent) and a HEAD that differs from the one
/// recorded (nothing when either is unknown).
pub fn staleness(
    doc: &OrchestratorSession,
    now: DateTime<Utc>,
    options: &ResumeOptions,
) -> Staleness {
    let limit_hours = options
        .stale_after_hours
        .unwrap_or(DEFAULT_STALE_AFTER_HOURS);
    let limit = i64::try_from(limit_hours)
        .ok()
        .and_then(Duration::try_hours)
        .unwrap_or(Duration::MAX);
    let idle = doc
        .updated
        .filter(|updated| now.signed_duration_since(updated.utc()) > limit)
        .map(|updated| Idle {
            updated,
            updated_relative: relative_time(updated.utc(), now),
            limit_hours,
        });
    let head_moved = options.git_head.as_ref().and_then(|head_now| {
        let saved = GitHead::of(doc)?;
        let moved = |a: &Option<String>, b: &Option<String>| a.is_some() && b.is_some() && a != b;
        let branch_changed = moved(&saved.branch, &head_now.branch);
        let commit_changed = moved(&saved.commit, &head_now.commit);
        (branch_changed || commit_changed).then(|| HeadMove {
            saved,
            now: head_now.clone(),
            branch_changed,
            commit_changed,
        })
    });
    Staleness { idle, head_moved }
}

/// The first 7 characters of a commit id, as `git` abbreviates it.
pub fn short_commit(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// The lines the markdown shows for `stale`, without the bullet.
pub fn stale_lines(stale: &Staleness) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(idle) = &stale.idle {
        lines.push(format!(
            "Last saved {} (more than {} hours ago)",
            idle.updated_relative, idle.limit_hours
        ));
    }
    if let Some(head) = &stale.head_moved {
        if head.branch_changed {
            let (from, to) = (
                head.saved.branch.as_deref().unwrap_or_default(),
                head.now.branch.as_deref().unwrap_or_default(),
            );
            lines.push(format!(
                "Branch changed from `{from}` to `{to}` since the last save"
            ));
        }
        if head.commit_changed {
            let (from, to) = (
                head.saved.commit.as_deref().unwrap_or_default(),
                head.now.commit.as_deref().unwrap_or_default(),
            );
            lines.push(format!(
                "HEAD moved from `{}` to `{}` since the last save",
                short_commit(from),
                short_commit(to)
            ));
        }
    }
    lines
}

impl<S: Store, C: Clock> OrchestratorStore<S, C> {
    /// The same operations recording `head` as `project.git_head` at every save of the current
    /// session (`save`, the recording verbs, the lifecycle moves, `new`, `fork`); an empty
    /// `head` (no repository) records nothing.
    #[must_use]
    pub fn with_git_head(mut self, head: GitHead) -> Self {
        self.git_head = (!head.is_empty()).then_some(head);
        self
    }

    /// The HEAD recorded at each save, if any.
    pub fn git_head(&self) -> Option<&GitHead> {
        self.git_head.as_ref()
    }

    /// Stamps `doc` as saved now: `updated` (never the one it had: [`Timestamp::saved_at`])
    /// and, when known, `project.git_head`.
    pub(crate) fn stamp(&self, doc: &mut OrchestratorSession) {
        doc.updated = Some(Timestamp::saved_at(doc.updated, self.clock.now()));
        self.record_head(doc);
    }

    /// Records the HEAD, when known, as `doc`'s `project.git_head`.
    pub(crate) fn record_head(&self, doc: &mut OrchestratorSession) {
        if let Some(head) = &self.git_head {
            head.record_in(doc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::{GIT_HEAD, Project, SessionStatus};

    fn doc(updated: &str) -> OrchestratorSession {
        let mut doc = OrchestratorSession::new(
            "2026-01-01-abc123",
            "goal",
            "default",
            Project::new("p", "/p", Some("main")),
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        );
        doc.updated = Some(Timestamp::parse(updated).unwrap());
        doc.status = SessionStatus::InProgress;
        doc
    }

    fn head(commit: &str, branch: &str) -> GitHead {
        GitHead {
            commit: Some(commit.to_owned()),
            branch: Some(branch.to_owned()),
        }
    }

    fn at(s: &str) -> DateTime<Utc> {
        Timestamp::parse(s).unwrap().utc()
    }

    #[test]
    fn idle_past_the_limit_only() {
        let d = doc("2026-01-01T00:00:00Z");
        let opts = ResumeOptions::default();
        assert!(staleness(&d, at("2026-01-02T00:00:00Z"), &opts).is_empty());
        let idle = staleness(&d, at("2026-01-03T00:00:00Z"), &opts)
            .idle
            .unwrap();
        assert_eq!(idle.updated_relative, "2 days ago");
        assert_eq!(idle.limit_hours, 24);
        let short = ResumeOptions {
            stale_after_hours: Some(1),
            ..ResumeOptions::default()
        };
        assert!(
            staleness(&d, at("2026-01-01T01:00:01Z"), &short)
                .idle
                .is_some()
        );
        let never = ResumeOptions {
            stale_after_hours: Some(u64::MAX),
            ..ResumeOptions::default()
        };
        assert!(staleness(&d, at("2090-01-01T00:00:00Z"), &never).is_empty());
    }

    #[test]
    fn head_recorded_then_compared() {
        let mut d = doc("2026-01-01T00:00:00Z");
        head("abc1234ffff", "main").record_in(&mut d);
        assert_eq!(GitHead::of(&d), Some(head("abc1234ffff", "main")));
        let now = at("2026-01-01T00:10:00Z");
        let same = ResumeOptions {
            git_head: Some(head("abc1234ffff", "main")),
            ..ResumeOptions::default()
        };
        assert!(staleness(&d, now, &same).is_empty());
        let moved = ResumeOptions {
            git_head: Some(head("def5678eeee", "main")),
            ..ResumeOptions::default()
        };
        let s = staleness(&d, now, &moved);
        let m = s.head_moved.clone().unwrap();
        assert!(m.commit_changed && !m.branch_changed);
        assert_eq!(
            stale_lines(&s),
            ["HEAD moved from `abc1234` to `def5678` since the last save"]
        );
        let branch = ResumeOptions {
            git_head: Some(head("abc1234ffff", "feature")),
            ..ResumeOptions::default()
        };
        assert_eq!(
            stale_lines(&staleness(&d, now, &branch)),
            ["Branch changed from `main` to `feature` since the last save"]
        );
    }

    #[test]
    fn a_foreign_git_head_is_absent_and_replaced_on_record() {
        let mut d = doc("2026-01-01T00:00:00Z");
        let project = d.project.as_mut().unwrap();
        project.extra.insert(GIT_HEAD.into(), "abc".into());
        assert_eq!(GitHead::of(&d), None);
        let opts = ResumeOptions {
            git_head: Some(head("x", "y")),
            ..ResumeOptions::default()
        };
        assert!(staleness(&d, at("2026-01-01T00:00:01Z"), &opts).is_empty());
        // Unknown members of an object are kept.
        let project = d.project.as_mut().unwrap();
        project
            .extra
            .insert(GIT_HEAD.into(), serde_json::json!({"dirty": true}));
        head("c", "b").record_in(&mut d);
        let value = &d.project.as_ref().unwrap().extra[GIT_HEAD];
        assert_eq!(
            value,
            &serde_json::json!({"dirty": true, "commit": "c", "branch": "b"})
        );
    }
}
