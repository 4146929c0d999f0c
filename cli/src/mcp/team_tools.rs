//! The team tools: the teams under the teams root, one team's members or resume plan.

use serde_json::json;
use session_state::requests::{NoArguments, TeamQuery};
use session_state::team::ResumeAction;

use super::Roots;
use super::tools::{Effect, Reply, Tools};
use crate::commands::team::{members, teams};

pub fn add(tools: &mut Tools) {
    tools.add(
        "teams",
        "The teams under the teams root's `teams/` folder, each with its number of session \
         files.",
        Effect::Reads,
        |roots: &Roots, NoArguments {}| {
            let list = teams(&roots.teams)?;
            let text = if list.is_empty() {
                "no teams".to_owned()
            } else {
                list.iter()
                    .map(|t| format!("{} ({} session file(s))", t.name, t.sessions))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            Ok(Reply::new(&json!({"teams": list}), text))
        },
    );
    tools.add(
        "team",
        "One team: its members' documents and the files skipped as unreadable, or with \
         resume_plan what re-spawning it would do, member by member. not_found for a team \
         without session files.",
        Effect::Reads,
        |roots: &Roots, q: TeamQuery| {
            let (store, listing) = members(&roots.teams, &q.team)?;
            if !q.resume_plan {
                let text = format!(
                    "team `{}`: {} member(s), {} file(s) skipped",
                    q.team,
                    listing.members.len(),
                    listing.skipped.len()
                );
                return Ok(Reply::new(&listing, text));
            }
            let plan = store.resume_plan(&q.team)?;
            let text = plan
                .members
                .iter()
                .map(|m| match &m.action {
                    ResumeAction::Respawn { backend, .. } => {
                        format!("{}: respawn with {backend}", m.agent)
                    }
                    ResumeAction::Skip { message, .. } => format!("{}: skip ({message})", m.agent),
                })
                .collect::<Vec<_>>()
                .join("\n");
            Ok(Reply::new(&plan, text))
        },
    );
}
