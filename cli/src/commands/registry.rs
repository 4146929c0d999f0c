//! Registry commands (SPEC section 2): `register`, `agents`, `chains`, `chain`, `should-resume`.
//! All act on `--root DIR` (default: the current folder).

pub mod doctor;
pub mod output;

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;
use session_state::registry::{AgentRegistry, PolicyName, PolicyOptions, SESSIONS_KEY};
use session_state::{Error, ErrorKind, Hint, Result};
use session_state_fs::SystemClock;

use crate::context::Context;
use crate::input;

use crate::terminal::out;

/// Which resume rule `should-resume` applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    /// The seed's keyword rule, exactly (the default).
    Compat,
    /// Whole words, stems and stop words, with a score and a reason.
    Explained,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Register a sub-agent result (for shell hooks).
    Register {
        /// The agent name, e.g. `tdd-implementer`.
        agent_name: String,
        /// The agent id returned by the Task tool.
        agent_id: String,
        /// The workflow chain to append the id to.
        #[arg(long = "chain", value_name = "ID")]
        chain: Option<String>,
        /// The result, as JSON (default: null).
        #[arg(long, value_name = "JSON", conflicts_with = "result_file")]
        result: Option<String>,
        /// A file holding the result as JSON (`-` for stdin).
        #[arg(long, value_name = "PATH")]
        result_file: Option<PathBuf>,
    },
    /// List registered agents: name, id, chain, resume count, whether a result is stored.
    ///
    /// RESULT (`has_result` in JSON) is `yes` only when a non-null result is stored:
    /// `register` without `--result` stores JSON `null`, listed as `no`.
    Agents {
        /// Only the agents whose id was registered in this chain.
        #[arg(long = "chain", value_name = "ID")]
        chain: Option<String>,
        /// Print a JSON array of `{agent_name, agent_id, chain_id, resume_count, has_result}`.
        #[arg(long)]
        json: bool,
    },
    /// List workflow chains with their summary and expected-vs-done status.
    Chains {
        /// Print a JSON array of `{summary, status}`.
        #[arg(long)]
        json: bool,
    },
    /// Show one chain: summary, expected agents done, missing and out of order.
    Chain {
        /// The chain id.
        chain_id: String,
        /// Print `{summary, status}` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Decide whether to resume an agent's last session (exit 0 either way).
    ShouldResume {
        /// The agent name.
        agent_name: String,
        /// The task about to run.
        #[arg(long, value_name = "TEXT")]
        task: String,
        /// The task the agent ran last.
        #[arg(long, value_name = "TEXT")]
        previous: Option<String>,
        /// The rule to apply.
        #[arg(long, value_enum, default_value_t = PolicyArg::Compat)]
        policy: PolicyArg,
        /// Start new once an id was resumed this many times (default 5).
        #[arg(long, value_name = "N", value_parser = crate::numbers::whole::<u64>, allow_negative_numbers = true)]
        cap: Option<u64>,
        /// Minimum score to resume, in [0, 1], with `--policy explained` only (default 0.3).
        #[arg(long, value_name = "SCORE")]
        threshold: Option<f64>,
        /// Print `{"resume": bool}` (plus `score`, `matched`, `reason` for `explained`).
        #[arg(long)]
        json: bool,
    },
}

pub type Registry = AgentRegistry<crate::store_choice::CliStore, SystemClock>;

/// The registry of the project folder, as it is (for `doctor`).
fn open(ctx: &Context) -> Result<Registry> {
    Ok(
        AgentRegistry::new(Context::store(ctx.project_root()?)?, ctx.clock)
            .with_max_document_bytes(input::max_bytes(ctx)),
    )
}

/// The registry of the project folder, its files repaired first ([`AgentRegistry::repair`])
/// when one does not parse, as Python's `SessionManager` does on construction: a
/// `workflow-chains.json` that does not parse is kept aside and starts empty; an
/// `agent-sessions.json` that does not parse is kept aside and its entries still whole written
/// back. A warning on stderr names each copy. So a torn file does not make every `register` of
/// a hook fail until someone runs `doctor`. A file over the read limit is left as it is, for
/// the command to refuse naming the limit.
pub fn registry(ctx: &Context) -> Result<Registry> {
    let reg = open(ctx)?;
    let loads = [reg.load().map(drop), reg.load_chains().map(drop)];
    let corrupt = |r: &Result<()>| {
        r.as_ref()
            .is_err_and(|e| e.kind() == ErrorKind::CorruptState)
    };
    let over_limit = |r: &Result<()>| {
        r.as_ref()
            .is_err_and(|e| matches!(e.hint(), Some(Hint::RaiseLimit { .. })))
    };
    if loads.iter().any(corrupt) && !loads.iter().any(over_limit) {
        for repair in reg.repair()? {
            let what = if repair.key == SESSIONS_KEY {
                "sessions"
            } else {
                "chains"
            };
            crate::terminal::err!(
                "warning: `{}` is not a valid {what} file: kept aside as `{}`, {}",
                repair.key,
                repair.kept_copy,
                repair.action
            );
        }
    }
    Ok(reg)
}

pub fn run(cmd: Command, ctx: &Context) -> Result<ExitCode> {
    let reg = registry(ctx)?;
    match cmd {
        Command::Register {
            agent_name,
            agent_id,
            chain,
            result,
            result_file,
        } => {
            let result = read_result(
                result.as_deref(),
                result_file.as_deref(),
                input::max_bytes(ctx),
            )?;
            reg.register(&agent_name, &agent_id, result, chain.as_deref())?;
            out!("registered `{agent_name}` as `{agent_id}`");
        }
        Command::Agents { chain, json } => {
            output::agents(&reg.agents(chain.as_deref())?, chain.as_deref(), json)?;
        }
        Command::Chains { json } => {
            let mut views = Vec::new();
            for id in reg.chain_ids()? {
                views.push((reg.chain_summary(&id)?, reg.chain_status(&id)?));
            }
            output::chains(&views, json)?;
        }
        Command::Chain { chain_id, json } => {
            output::chain(&reg.chain_view(&chain_id)?, json)?;
        }
        Command::ShouldResume {
            agent_name,
            task,
            previous,
            policy,
            cap,
            threshold,
            json,
        } => {
            let name = match policy {
                PolicyArg::Compat => PolicyName::Compat,
                PolicyArg::Explained => PolicyName::Explained,
            };
            let options = PolicyOptions {
                policy: Some(name),
                cap,
                threshold,
            };
            let rule = options.policy()?;
            let decision = reg.decide_resume(&agent_name, &task, previous.as_deref(), &rule)?;
            output::decision(&decision, policy == PolicyArg::Explained, json)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn read_result(
    inline: Option<&str>,
    file: Option<&std::path::Path>,
    limit: usize,
) -> Result<Value> {
    let (bytes, origin) = match (inline, file) {
        (Some(text), _) => {
            if text.len() > limit {
                return Err(input::too_large("`--result`", limit));
            }
            (text.as_bytes().to_vec(), "--result".to_owned())
        }
        (None, Some(path)) => {
            let source = input::Source::from_arg(path);
            (input::read_bounded(source, limit)?, source.name())
        }
        (None, None) => return Ok(Value::Null),
    };
    let text = String::from_utf8(bytes)
        .map_err(|e| Error::invalid_input(format!("the result in {origin} is not UTF-8: {e}")))?;
    // A file saved by some Windows editors starts with a BOM: not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let value = serde_json::from_str(text)
        .map_err(|e| Error::invalid_input(format!("the result in {origin} is not JSON: {e}")))?;
    // Valid JSON now: refuse what serde_json would have changed (integers beyond 64 bits
    // become floats) or what would not read back (nesting).
    session_state::json::check_input(&format!("the result in {origin}"), text.as_bytes())?;
    Ok(value)
}
