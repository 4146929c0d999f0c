//! The recording tools, one per auto-save point of the skill: new, agent_start, agent_progress,
//! agent_done, agent_fail, decision, task_add, task_done, context, save. Each is one exclusive
//! read-modify-write of the current session (the core's `record_*` methods) and answers the
//! saved document.

use session_state::Result;
use session_state::orchestrator::{
    AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput, NewSession,
    OrchestratorSession, TaskAdd, TaskDone,
};
use session_state::requests::NoArguments;

use super::Roots;
use super::tools::{Effect, Reply, Tools};
use crate::commands::orchestrator::sessions;
use crate::commands::record::new_session;

/// The saved document, and `` session `ID` (STATUS): WHAT ``.
#[allow(clippy::unnecessary_wraps)] // the shape of every tool's function
fn saved(doc: &OrchestratorSession, what: &str) -> Result<Reply> {
    let text = format!("session `{}` ({}): {what}", doc.session_id, doc.status);
    Ok(Reply::new(doc, text))
}

pub fn add(tools: &mut Tools) {
    tools.add(
        "new",
        "Start a new session for a goal (status created); project is read from the project \
         folder (name, path, git branch). already_exists names an unfinished current session \
         unless archive_current.",
        Effect::Writes,
        |roots: &Roots, input: NewSession| saved(&new_session(&roots.project, &input)?, "created"),
    );
    agents(tools);
    tools.add(
        "decision",
        "Log a decision (and why) in decisions_made.",
        Effect::Writes,
        |roots: &Roots, input: DecisionInput| {
            let doc = sessions(&roots.project)?.record_decision(&input)?;
            saved(
                &doc,
                &format!("decision {} logged", doc.decisions_made.len()),
            )
        },
    );
    tools.add(
        "task_add",
        "Add a pending task.",
        Effect::Writes,
        |roots: &Roots, input: TaskAdd| {
            let doc = sessions(&roots.project)?.record_task_add(&input)?;
            saved(&doc, &format!("task added: {}", input.task))
        },
    );
    tools.add(
        "task_done",
        "Finish a pending task, by its 1-based number in the resume summary's pending list or \
         its exact text: it moves to completed_work with its outcome and files.",
        Effect::Writes,
        |roots: &Roots, input: TaskDone| {
            let (doc, task) = sessions(&roots.project)?.record_task_done(&input)?;
            saved(&doc, &format!("task done: {task}"))
        },
    );
    tools.add(
        "context",
        "Record the context window figures (estimated tokens, percentage); with compressed, \
         the context is being compressed now (sets context_usage.last_compression).",
        Effect::Writes,
        |roots: &Roots, input: ContextInput| {
            let doc = sessions(&roots.project)?.record_context(&input)?;
            let what = if input.compressed {
                "context recorded, compression recorded"
            } else {
                "context recorded"
            };
            saved(&doc, what)
        },
    );
    tools.add(
        "save",
        "Save the current session as it is (sets its updated time).",
        Effect::Writes,
        |roots: &Roots, NoArguments {}| saved(&sessions(&roots.project)?.record_save()?, "saved"),
    );
}

fn agents(tools: &mut Tools) {
    tools.add(
        "agent_start",
        "An agent started (an agent with the same id is replaced: a restart). The first agent \
         started on a created session moves it to in_progress.",
        Effect::Writes,
        |roots: &Roots, input: AgentStart| {
            let doc = sessions(&roots.project)?.record_agent_start(&input)?;
            saved(&doc, &format!("agent `{}` started", input.id))
        },
    );
    tools.add(
        "agent_progress",
        "An agent's progress, in percent (0 to 100).",
        Effect::Writes,
        |roots: &Roots, input: AgentProgress| {
            let doc = sessions(&roots.project)?.record_agent_progress(&input)?;
            saved(&doc, &format!("agent `{}` at {}%", input.id, input.percent))
        },
    );
    tools.add(
        "agent_done",
        "An agent completed: its summary, tokens and files kept, and its work appended to \
         completed_work once per agent id.",
        Effect::Writes,
        |roots: &Roots, input: AgentDone| {
            let doc = sessions(&roots.project)?.record_agent_done(&input)?;
            saved(&doc, &format!("agent `{}` complete", input.id))
        },
    );
    tools.add(
        "agent_fail",
        "An agent failed: its error is logged in the session's errors.",
        Effect::Writes,
        |roots: &Roots, input: AgentFail| {
            let doc = sessions(&roots.project)?.record_agent_fail(&input)?;
            saved(&doc, &format!("agent `{}` failed (error logged)", input.id))
        },
    );
}
