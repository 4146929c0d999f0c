//! What each Claude Code hook event does to the project's session state.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};
use session_state::orchestrator::{
    AgentDone, AgentStart, OrchestratorStore, SessionStatus, current_key, render_resume,
    resume_summary,
};
use session_state::ownership::Writer;
use session_state::registry::AgentRegistry;
use session_state::{Clock, ErrorKind, Result, Store};
use session_state_fs::SystemClock;

use super::payload::{Payload, first_line};
use crate::commands::orchestrator::RECOVERY;
use crate::context::Context;
use crate::store_choice::CliStore;

/// The longest sub-agent summary or task taken from a payload, in characters.
const LINE_CHARS: usize = 200;

/// How long an event waits for another process's lock.
pub(super) const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

pub(super) type Sessions = OrchestratorStore<CliStore, SystemClock>;

/// Runs the event of `payload` on the project at `root`; returns what goes to stdout.
pub fn run(payload: &Payload, root: &Path, ctx: &Context) -> Result<Option<String>> {
    let clock = ctx.clock;
    let sessions = OrchestratorStore::new(store(root)?, clock)
        .with_max_document_bytes(crate::input::max_bytes(ctx))
        .with_git_head(session_state_fs::git_head(root));
    // Events are recorded on an unfinished current session only: none, or one that is
    // complete or aborted, takes no events.
    let open = || -> Result<bool> {
        if sessions.store().read(&current_key())?.is_none() {
            return Ok(false);
        }
        Ok(sessions.load()?.is_some_and(|doc| !doc.status.is_final()))
    };
    let owner = super::owner::owner(payload);
    sessions.set_writer(owner.clone().map(Writer::owner));
    // An event that writes takes over a lease another owner let expire.
    let take_over = || super::owner::take_over(&sessions, owner.as_deref());
    match payload.hook_event_name.as_str() {
        "SessionStart" => {
            // Claimed only for an unfinished session: other projects are left untouched.
            let mut refused = None;
            if let Some(owner) = &owner {
                if open().unwrap_or(false) {
                    refused = super::owner::claim(&sessions, owner);
                }
                super::owner::export_owner(owner);
            }
            let start = session_start(&sessions, clock)?;
            return Ok(start.map(|text| context(&not_yours(text, refused.as_ref()))));
        }
        "PreCompact" if open()? => {
            take_over();
            drop(sessions.before_compression()?);
        }
        "SubagentStart" if open()? => {
            take_over();
            drop(sessions.record_agent_start(&agent(payload)?)?);
        }
        "SubagentStop" => {
            let moai = root.join(".moai").is_dir();
            let open = open()?;
            if moai || open {
                // A payload that neither file can take writes neither.
                agent(payload)?.validate()?;
            }
            if open {
                take_over();
                subagent_stop(&sessions, payload)?;
            }
            if moai {
                register(root, payload, ctx)?;
            }
        }
        "Stop" if open()? => {
            take_over();
            sessions.record_save()?;
            super::owner::renew(&sessions, owner.as_deref());
        }
        "SessionEnd" => {
            if open()? {
                sessions.record_disconnect()?;
            }
            super::owner::release(&sessions, owner.as_deref());
        }
        _ => {}
    }
    Ok(None)
}

/// The store `--store` names, else the one over `root`, waiting at most [`LOCK_WAIT`] for a
/// lock (the host's own timeout for the hook is longer: the wait ends in one line on stderr,
/// not in a killed process).
fn store(root: &Path) -> Result<CliStore> {
    Ok(crate::store_choice::store(
        Context::folder_store(root)?.with_lock_timeout(LOCK_WAIT),
    ))
}

/// `text`, the session's resume block, with a warning when another owner holds the session,
/// so that the model does not set out to record work its writes cannot.
fn not_yours(mut text: String, refused: Option<&session_state::Error>) -> String {
    if let Some(error) = refused {
        let until = if error.kind() == ErrorKind::Conflict {
            "until that owner releases it or its lease expires"
        } else {
            "until `session-state doctor --fix` sets the lease file aside"
        };
        let _ = writeln!(
            text,
            "\n⚠️ **Not yours to write**: {error}. Every record this Claude Code session makes is \
             refused (`{}`) {until}.",
            error.code()
        );
    }
    text
}

/// The SessionStart output that hands `text` to the model as added context.
fn context(text: &str) -> String {
    let out = json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": text,
        }
    });
    format!("{out}\n")
}

/// The resume block of an `in_progress` or `paused` session, the recovery block of a corrupt
/// file, or nothing.
fn session_start(sessions: &Sessions, clock: SystemClock) -> Result<Option<String>> {
    let doc = match sessions.load() {
        Ok(Some(doc)) => doc,
        Ok(None) => return Ok(None),
        Err(e) if e.kind() == ErrorKind::CorruptState => {
            return Ok(Some(format!("{RECOVERY}\nWhich would you prefer?\n")));
        }
        Err(e) => return Err(e),
    };
    let mut text = match doc.status {
        SessionStatus::InProgress | SessionStatus::Paused => {
            render_resume(&resume_summary(&doc, clock.now()))
        }
        _ => return Ok(None),
    };
    if doc.status == SessionStatus::Paused {
        let _ = write!(
            text,
            "\n(Session `{}` is paused: `session-state continue` resumes it.)\n",
            doc.session_id
        );
    }
    Ok(Some(text))
}

/// The agent a `SubagentStart` or `SubagentStop` payload names.
fn agent(payload: &Payload) -> Result<AgentStart> {
    let id = payload
        .agent_id
        .clone()
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| {
            session_state::Error::invalid_input(format!(
                "the {} payload has no `agent_id`",
                payload.hook_event_name
            ))
        })?;
    let agent_type = payload
        .agent_type
        .as_deref()
        .and_then(|t| first_line(t, LINE_CHARS))
        .unwrap_or_else(|| "agent".to_owned());
    let task = [&payload.description, &payload.prompt]
        .into_iter()
        .flatten()
        .find_map(|text| first_line(text, LINE_CHARS))
        .unwrap_or_else(|| format!("{agent_type} sub-agent"));
    Ok(AgentStart {
        id,
        agent_type,
        task,
    })
}

/// The agent completed, in one update: started first when the session has no such agent (its
/// start was not seen), then done with the first line of its last message as the summary.
fn subagent_stop(sessions: &Sessions, payload: &Payload) -> Result<()> {
    let start = agent(payload)?;
    let done = AgentDone {
        id: start.id.clone(),
        summary: payload
            .last_assistant_message
            .as_deref()
            .and_then(|m| first_line(m, LINE_CHARS)),
        tokens: None,
        files: Vec::new(),
    };
    let now = sessions.now();
    sessions.modify(|doc| {
        if doc.agent(&start.id).is_none() {
            start.apply(doc, now)?;
        }
        done.apply(doc, now)
    })?;
    Ok(())
}

/// Registers the sub-agent in the project's `.moai/` registry: its type as the agent name,
/// its last message as the result.
fn register(root: &Path, payload: &Payload, ctx: &Context) -> Result<()> {
    let start = agent(payload)?;
    let result = payload
        .last_assistant_message
        .clone()
        .map_or(Value::Null, Value::String);
    AgentRegistry::new(store(root)?, ctx.clock)
        .with_max_document_bytes(crate::input::max_bytes(ctx))
        .register(&start.agent_type, &start.id, result, None)
}
