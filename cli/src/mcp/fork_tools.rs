//! The tools of a session's life beyond the seeds: `fork`, `history_tree` and `prune` (a dry
//! run unless `apply` is given).

use session_state::orchestrator::ForkOptions;
use session_state::requests::NoArguments;

use super::Roots;
use super::tools::{Effect, Reply, Tools};
use crate::commands::fork::forked_line;
use crate::commands::orchestrator::sessions;
use crate::commands::prune::{Request, lines, prune};

pub fn add(tools: &mut Tools) {
    tools.add(
        "fork",
        "Copy a session (the current one without session_id, or an archived one) into a new \
         current session with status created and forked_from {session_id, at}. The current \
         session is archived first as it is; forking an archived one while another is current \
         is already_exists unless archive_current.",
        Effect::Writes,
        |roots: &Roots, options: ForkOptions| {
            let doc = sessions(&roots.project)?.fork(&options)?;
            let text = forked_line(&doc);
            Ok(Reply::new(&doc, text))
        },
    );
    tools.add(
        "history_tree",
        "Every session (archived, and the current one) under the one it was forked from: \
         entries {depth, id, goal, status, created, forked_from, current} in tree order, and \
         the history files skipped as unreadable.",
        Effect::Reads,
        |roots: &Roots, NoArguments {}| {
            let tree = sessions(&roots.project)?.history_tree()?;
            let mut text = tree
                .entries
                .iter()
                .map(|e| format!("{}{} {} {}", "  ".repeat(e.depth), e.id, e.status, e.goal))
                .collect::<Vec<_>>()
                .join("\n");
            if text.is_empty() {
                "No sessions".clone_into(&mut text);
            }
            Ok(Reply::new(&tree, text))
        },
    );
    tools.add(
        "prune",
        "What a prune removes: archived sessions (keep, older_than_days by updated, status), or \
         with registry the registry's agents last active more than older_than_days ago (the \
         current session's agents stay), or with team that team's members created more than \
         older_than_days ago. A dry run that changes nothing unless apply is true. Structured \
         content {applied, removed: [{kind, id, removes, reason}], kept}.",
        Effect::Removes,
        |roots: &Roots, request: Request| {
            let plan = prune(&roots.project, &roots.teams, &request)?;
            let text = lines(&plan).join("\n");
            Ok(Reply::new(&plan, text))
        },
    );
}
