//! Retention of a team's spawn state: member files whose `createdAt` is older than a cutoff
//! (see [`crate::retention`]). Files that do not parse are never removed.

use serde::{Deserialize, Serialize};

use super::store::TeamStore;
use crate::error::Result;
use crate::key::Key;
use crate::retention::{PruneKind, PrunePlan, Removal, cutoff, days_ago};
use crate::store::Store;
use crate::time::Clock;

/// The criteria of a team prune: `{older_than_days, apply}`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct PruneTeamOptions {
    /// Members created more than this many days ago go.
    #[serde(alias = "olderThanDays")]
    pub older_than_days: u64,
    /// Remove them (default false: a dry run that changes nothing).
    #[serde(default)]
    pub apply: bool,
}

impl<S: Store, C: Clock> TeamStore<S, C> {
    /// Prunes the members of `team` created more than `options.older_than_days` days ago: a
    /// dry run unless `options.apply`, then each member file is removed under its lock if its
    /// `createdAt` is still that old (one saved since the listing with a later `createdAt`
    /// stays, and is not reported).
    ///
    /// # Errors
    /// As [`list`](Self::list) and [`delete`](Self::delete).
    pub fn prune(&self, team: &str, options: &PruneTeamOptions) -> Result<PrunePlan> {
        let now = self.clock.now();
        let before = cutoff(now, options.older_than_days);
        let listing = self.list(team)?;
        let mut plan = PrunePlan {
            applied: options.apply,
            ..PrunePlan::default()
        };
        for member in listing.members {
            if member.state.created_at >= before {
                continue;
            }
            if options.apply && !self.delete_if_created_before(&Key::new(&*member.key)?, before)? {
                continue;
            }
            plan.removed.push(Removal {
                kind: PruneKind::TeamMember,
                id: member.agent,
                removes: vec![member.key],
                reason: format!("created {}", days_ago(member.state.created_at, now)),
            });
        }
        Ok(plan)
    }
}
