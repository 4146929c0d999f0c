//! The orchestrator session's tools: the resume summary, the document, history, the lifecycle
//! moves and doctor (a report only).

use serde_json::json;
use session_state::Clock;
use session_state::orchestrator::{
    HistoryPage, HistoryQuery, OrchestratorSession, ResumeOptions, SessionStatus, render_resume,
    resume_summary_with,
};
use session_state::requests::{ArchiveOptions, NoArguments};

use super::Roots;
use super::tools::{Effect, Reply, Tools};
use crate::commands::orchestrator::{self as cli, moved_line, no_current, sessions};

pub fn add(tools: &mut Tools) {
    tools.add(
        "resume",
        "The RESUMING SESSION summary of the current session: markdown as text, and as \
         structured content the same fields (session_id, goal, progress_percent, completed_work, \
         in_progress, pending_tasks, context, resume_from, and stale when it was last saved \
         more than 24 hours ago or the git HEAD moved since). not_found when there is none.",
        Effect::Reads,
        |roots: &Roots, NoArguments {}| {
            let sessions = sessions(&roots.project)?;
            let doc = sessions.load()?.ok_or_else(no_current)?;
            let options = ResumeOptions {
                stale_after_hours: None,
                git_head: sessions.git_head().cloned(),
            };
            let summary = resume_summary_with(&doc, roots.project.clock.now(), &options);
            Ok(Reply::new(&summary, render_resume(&summary)))
        },
    );
    tools.add(
        "show",
        "The current session document, as saved (unknown fields kept). not_found when there is \
         none.",
        Effect::Reads,
        |roots: &Roots, NoArguments {}| {
            let doc = current(roots)?;
            let text = format!(
                "session `{}` ({}): {}",
                doc.session_id, doc.status, doc.goal
            );
            Ok(Reply::new(&doc, text))
        },
    );
    tools.add(
        "history",
        "One page of archived sessions, newest first: entries {id, goal, status, created}, the \
         files skipped as unreadable, and the total matching the status filter.",
        Effect::Reads,
        |roots: &Roots, query: HistoryQuery| {
            let page = sessions(&roots.project)?.list_history(&query)?;
            let text = history_text(&page, &query);
            Ok(Reply::new(&page, text))
        },
    );
    tools.add(
        "archive",
        "Move the current session to the history folder as it is (already_exists when an \
         archive of its id exists, unless replace).",
        Effect::Writes,
        |roots: &Roots, ArchiveOptions { replace }| {
            let sessions = sessions(&roots.project)?;
            let doc = sessions.load_to_rewrite()?.ok_or_else(no_current)?;
            let key = sessions.archive(&doc, replace)?;
            let text = format!("archived session `{}` to {key}", doc.session_id);
            Ok(Reply::new(
                &json!({"session": doc, "archived_to": key.as_str()}),
                text,
            ))
        },
    );
    moves(tools);
    tools.add(
        "doctor",
        "Check the current and archived session files and the registry's files. A report only: \
         nothing is repaired (run `session-state doctor --fix` for that).",
        Effect::Reads,
        |roots: &Roots, NoArguments {}| {
            let checked = cli::check(&roots.project, false)?;
            let mut value = checked.to_json();
            value["problem_count"] = checked.problems().into();
            Ok(Reply::new(&value, checked.lines().join("\n")))
        },
    );
}

fn moves(tools: &mut Tools) {
    tools.add(
        "start",
        "Move the current session to in_progress (from created, or from paused as continue).",
        Effect::Writes,
        |roots: &Roots, NoArguments {}| moved(&sessions(&roots.project)?.start()?),
    );
    tools.add(
        "pause",
        "Move the current session from in_progress to paused (it stays current).",
        Effect::Writes,
        |roots: &Roots, NoArguments {}| moved(&sessions(&roots.project)?.pause()?),
    );
    tools.add(
        "continue",
        "Move the current session to in_progress (from paused, or from created as start).",
        Effect::Writes,
        |roots: &Roots, NoArguments {}| moved(&sessions(&roots.project)?.resume()?),
    );
    tools.add(
        "complete",
        "Move the current session to complete and archive it, all or nothing (already_exists \
         when an archive of its id exists, unless replace).",
        Effect::Writes,
        |roots: &Roots, ArchiveOptions { replace }| {
            moved(&sessions(&roots.project)?.move_to_with(SessionStatus::Complete, replace)?)
        },
    );
    tools.add(
        "abort",
        "Move the current session to aborted and archive it, all or nothing (already_exists \
         when an archive of its id exists, unless replace).",
        Effect::Writes,
        |roots: &Roots, ArchiveOptions { replace }| {
            moved(&sessions(&roots.project)?.move_to_with(SessionStatus::Aborted, replace)?)
        },
    );
}

fn current(roots: &Roots) -> session_state::Result<OrchestratorSession> {
    sessions(&roots.project)?.load()?.ok_or_else(no_current)
}

#[allow(clippy::unnecessary_wraps)] // the shape of every tool's function
fn moved(doc: &OrchestratorSession) -> session_state::Result<Reply> {
    Ok(Reply::new(doc, moved_line(doc)))
}

fn history_text(page: &HistoryPage, query: &HistoryQuery) -> String {
    if page.total == 0 {
        return "No archived sessions".to_owned();
    }
    let mut lines = vec![format!(
        "{} of {} archived session(s) from {}{}:",
        page.entries.len(),
        page.total,
        query.offset,
        query
            .status
            .map_or(String::new(), |s| format!(" with status {s}"))
    )];
    for e in &page.entries {
        lines.push(format!(
            "{}  {}  {}  {}",
            e.created,
            e.status.as_str(),
            e.id,
            e.goal
        ));
    }
    lines.join("\n")
}
