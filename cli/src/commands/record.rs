//! The recording verbs, one per auto-save point of the skill: `new`, `agent start|progress|
//! done|fail`, `decision`, `task add|done`, `context`, `save`. Each is one exclusive
//! read-modify-write of the current session (the core's `record_*` methods, where the rules
//! live) and prints one line, or the saved document with `--json`.

use std::hash::{BuildHasher, Hasher};
use std::process::ExitCode;

use serde_json::Number;
use session_state::Result;
use session_state::orchestrator::{
    AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput, NewSession,
    OrchestratorSession, TaskAdd, TaskDone, TaskRef,
};

use super::orchestrator::{recovery_hint, sessions};
use crate::context::Context;
use crate::terminal::{cell, out};

/// Print the saved document as JSON instead of one line.
#[derive(Debug, clap::Args)]
pub struct Output {
    /// Print the saved session document as JSON.
    #[arg(long)]
    json: bool,
}

/// The recording verbs.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Start a new session for a goal (status `created`); `project` is read from the folder.
    New {
        /// What the session is for.
        #[arg(long, value_name = "TEXT")]
        goal: String,
        /// Orchestration mode (default, debug, optimize, release, ...).
        #[arg(long, value_name = "MODE")]
        mode: Option<String>,
        /// The whole session id (default: today's date and a random suffix).
        #[arg(long, value_name = "ID")]
        id: Option<String>,
        /// Archive an unfinished current session, as it is, first.
        #[arg(long)]
        archive_current: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Record that an agent started, progressed, completed or failed.
    Agent {
        #[command(subcommand)]
        verb: AgentVerb,
    },
    /// Log a decision.
    Decision {
        /// What was decided.
        decision: String,
        /// Why.
        #[arg(long, value_name = "TEXT")]
        why: Option<String>,
        #[command(flatten)]
        output: Output,
    },
    /// Add or finish a pending task.
    Task {
        #[command(subcommand)]
        verb: TaskVerb,
    },
    /// Record the context window figures (and a compression with --compressed).
    Context {
        /// Estimated tokens used so far.
        #[arg(long, value_name = "N", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        tokens: u64,
        /// Percentage of the context window used, 0 to 100.
        #[arg(long, value_name = "P", value_parser = parse_number, allow_negative_numbers = true)]
        percent: Option<Number>,
        /// The context is being compressed now (sets the last compression time).
        #[arg(long)]
        compressed: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Save the current session as it is (sets its updated time).
    Save {
        #[command(flatten)]
        output: Output,
    },
}

/// `agent ...`.
#[derive(Debug, clap::Subcommand)]
pub enum AgentVerb {
    /// An agent started (the first one moves a `created` session to `in_progress`).
    Start {
        /// Agent id, e.g. `code-1`.
        id: String,
        /// Agent type, e.g. `code`.
        #[arg(long = "type", value_name = "TYPE")]
        agent_type: String,
        /// What the agent was asked to do.
        #[arg(long, value_name = "TEXT")]
        task: String,
        #[command(flatten)]
        output: Output,
    },
    /// An agent's progress, in percent.
    Progress {
        /// Agent id.
        id: String,
        /// 0 to 100 (`62.5` kept as written).
        #[arg(value_parser = parse_number, allow_negative_numbers = true)]
        percent: Number,
        #[command(flatten)]
        output: Output,
    },
    /// An agent completed; its work is added to the completed work (once per agent).
    Done {
        /// Agent id.
        id: String,
        /// One-line result.
        #[arg(long, value_name = "TEXT")]
        summary: Option<String>,
        /// Tokens of context the agent used.
        #[arg(long, value_name = "N", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        tokens: Option<u64>,
        /// A file the agent touched (repeat for more).
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        #[command(flatten)]
        output: Output,
    },
    /// An agent failed; the error is logged in the session's errors.
    Fail {
        /// Agent id.
        id: String,
        /// What went wrong.
        #[arg(long, value_name = "TEXT")]
        error: String,
        #[command(flatten)]
        output: Output,
    },
}

/// `task ...`.
#[derive(Debug, clap::Subcommand)]
pub enum TaskVerb {
    /// Add a pending task.
    Add {
        /// The task.
        task: String,
        #[command(flatten)]
        output: Output,
    },
    /// Finish a pending task: it moves to the completed work.
    Done {
        /// Its number in the resume block's "Pending" list, or its exact text.
        task: String,
        /// Its outcome.
        #[arg(long, value_name = "TEXT")]
        outcome: String,
        /// A file touched (repeat for more).
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        #[command(flatten)]
        output: Output,
    },
}

fn parse_number(text: &str) -> std::result::Result<Number, String> {
    serde_json::from_str::<Number>(text.trim()).map_err(|_| format!("`{text}` is not a number"))
}

/// Six lowercase hex digits from std's randomly keyed hasher (a new key per process), mixed
/// with the time and the process id.
pub(crate) fn random_suffix() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    format!("{:06x}", hasher.finish() & 0xff_ffff)
}

/// Prints `doc` as JSON, or `session `ID` (STATUS): WHAT`.
fn report(doc: &OrchestratorSession, output: &Output, what: &str) {
    if output.json {
        print!("{}", String::from_utf8_lossy(&doc.to_pretty_json()));
    } else {
        out!(
            "session `{}` ({}): {what}",
            cell(&doc.session_id),
            doc.status
        );
    }
}

/// `new`: the session created for `input`, its `project` read from the project folder.
pub fn new_session(ctx: &Context, input: &NewSession) -> Result<OrchestratorSession> {
    input.validate()?;
    let facts = session_state_fs::project_facts(ctx.project_root()?)?;
    sessions(ctx)?.record_new(input, facts.project, Some(&random_suffix()))
}

/// Runs one recording verb.
pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    let sessions = sessions(ctx)?;
    let result = match cmd {
        Command::New {
            goal,
            mode,
            id,
            archive_current,
            output,
        } => {
            let input = NewSession {
                goal,
                mode,
                id,
                archive_current,
            };
            new_session(ctx, &input).map(|doc| report(&doc, &output, "created"))
        }
        Command::Agent { verb } => agent(&sessions, verb),
        Command::Decision {
            decision,
            why,
            output,
        } => sessions
            .record_decision(&DecisionInput { decision, why })
            .map(|doc| {
                let n = doc.decisions_made.len();
                report(&doc, &output, &format!("decision {n} logged"));
            }),
        Command::Task { verb } => task(&sessions, verb),
        Command::Context {
            tokens,
            percent,
            compressed,
            output,
        } => {
            let input = ContextInput {
                tokens,
                percent,
                compressed,
            };
            sessions.record_context(&input).map(|doc| {
                let compression = if compressed {
                    ", compression recorded"
                } else {
                    ""
                };
                let what = format!("context {}{compression}", doc.context_usage);
                report(&doc, &output, &what);
            })
        }
        Command::Save { output } => sessions
            .record_save()
            .map(|doc| report(&doc, &output, "saved")),
    };
    result.inspect_err(recovery_hint)?;
    Ok(ExitCode::SUCCESS)
}

fn agent(sessions: &super::orchestrator::Sessions, verb: AgentVerb) -> Result<()> {
    match verb {
        AgentVerb::Start {
            id,
            agent_type,
            task,
            output,
        } => {
            let input = AgentStart {
                id,
                agent_type,
                task,
            };
            let doc = sessions.record_agent_start(&input)?;
            report(
                &doc,
                &output,
                &format!("agent `{}` started", cell(&input.id)),
            );
        }
        AgentVerb::Progress {
            id,
            percent,
            output,
        } => {
            let doc = sessions.record_agent_progress(&AgentProgress {
                id: id.clone(),
                percent,
            })?;
            // As stored (`-0` is kept as `0.0`).
            let stored = doc.agent(&id).and_then(|a| a.progress.clone());
            let shown = stored.map_or_else(String::new, |p| p.to_string());
            report(&doc, &output, &format!("agent `{}` at {shown}%", cell(&id)));
        }
        AgentVerb::Done {
            id,
            summary,
            tokens,
            files,
            output,
        } => {
            let doc = sessions.record_agent_done(&AgentDone {
                id: id.clone(),
                summary,
                tokens,
                files,
            })?;
            report(&doc, &output, &format!("agent `{}` complete", cell(&id)));
        }
        AgentVerb::Fail { id, error, output } => {
            let doc = sessions.record_agent_fail(&AgentFail {
                id: id.clone(),
                error,
            })?;
            report(
                &doc,
                &output,
                &format!("agent `{}` failed (error logged)", cell(&id)),
            );
        }
    }
    Ok(())
}

fn task(sessions: &super::orchestrator::Sessions, verb: TaskVerb) -> Result<()> {
    match verb {
        TaskVerb::Add { task, output } => {
            let doc = sessions.record_task_add(&TaskAdd { task: task.clone() })?;
            // Its number (another process may have added one after it).
            let n = doc
                .pending_tasks
                .iter()
                .rposition(|t| *t == task)
                .unwrap_or(0)
                + 1;
            report(&doc, &output, &format!("task {n} added: {}", cell(&task)));
        }
        TaskVerb::Done {
            task,
            outcome,
            files,
            output,
        } => {
            let (doc, text) = sessions.record_task_done(&TaskDone {
                task: TaskRef::from_arg(&task),
                outcome,
                files,
            })?;
            report(&doc, &output, &format!("task done: {}", cell(&text)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::random_suffix;

    #[test]
    fn suffixes_are_six_hex_digits_and_differ() {
        let a = random_suffix();
        assert_eq!(a.len(), 6);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        let distinct: std::collections::HashSet<String> =
            (0..50).map(|_| random_suffix()).collect();
        assert!(distinct.len() > 40, "{distinct:?}");
    }
}
