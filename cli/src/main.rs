//! `session-state`: resume, inspect, archive and repair the session state of an AI-agent
//! orchestrator project from the shell.

mod commands;
mod context;
mod exit;
mod input;
mod mcp;
mod numbers;
mod store_choice;
mod terminal;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::context::Context;

/// Resume, inspect, archive and repair orchestrator, sub-agent and team session state.
#[derive(Debug, Parser)]
#[command(name = "session-state", version, after_long_help = exit::HELP)]
struct Cli {
    /// The project folder (for the `teams`/`team` commands: the folder holding `teams/`, default
    /// `~/.claude`; `mcp` takes that folder as `--teams-root`).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<std::path::PathBuf>,

    /// The most bytes read from any one input: a result file, stdin, a session document
    /// (default 16MiB, or `SESSION_STATE_MAX_BYTES`; suffixes K, M, G: `64MiB`).
    #[arg(long, global = true, value_name = "SIZE")]
    max_bytes: Option<String>,

    /// The store for every command: a `redis://` or `rediss://` URL (or `SESSION_STATE_STORE`);
    /// the project folder when neither is given.
    #[arg(long, global = true, value_name = "URL")]
    store: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Orchestrator(commands::orchestrator::Command),
    #[command(flatten)]
    Record(commands::record::Command),
    #[command(flatten)]
    Ownership(commands::ownership::Command),
    /// Copy a session (the current one, or an archived one) into a new current session that
    /// records where it came from; the original is archived as it is.
    Fork(commands::fork::Args),
    /// Remove archived sessions, old registry agents or old team members: a dry run that
    /// prints what would go, unless `--apply`.
    Prune(commands::prune::Args),
    /// Record a Claude Code hook event read as JSON on stdin (for the hooks settings; always
    /// exits 0).
    Hook(commands::hook::Args),
    #[command(flatten)]
    Registry(commands::registry::Command),
    #[command(flatten)]
    Team(commands::team::Command),
    /// Serve these commands as the tools of an MCP server over stdio (for agent hosts).
    Mcp(mcp::Args),
}

/// Whether the command named on the command line is `hook`: the first argument that is not
/// an option or the value of a global option (`--root DIR`, `--max-bytes SIZE`).
fn names_hook(args: impl Iterator<Item = String>) -> bool {
    let mut args = args;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" | "--max-bytes" | "--store" => drop(args.next()),
            "--" => return args.next().is_some_and(|a| a == "hook"),
            a if a.starts_with('-') => {}
            a => return a == "hook",
        }
    }
    false
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // A hook must never exit 2 (Claude Code reads it as "block"), even when misused.
            let help = matches!(
                err.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            );
            if !help && names_hook(std::env::args().skip(1)) {
                let text = err.render().to_string();
                let first = text.lines().next().unwrap_or_default();
                crate::terminal::err!("session-state hook: {}", terminal::cell(first));
                return ExitCode::SUCCESS;
            }
            return exit::usage(&err);
        }
    };
    let max_bytes = input::resolve(cli.max_bytes.as_deref());
    if let Command::Hook(_) = cli.command {
        return commands::hook::main(
            cli.root,
            cli.store.as_deref(),
            cli.max_bytes.is_some(),
            max_bytes,
        );
    }
    exit::quiet_stdout_failures();
    if let Err(err) = store_choice::choose(cli.store.as_deref(), None) {
        return exit::report(&err);
    }
    let max_bytes = match max_bytes {
        Ok(limit) => limit,
        Err(err) => return exit::report(&err),
    };
    if let Command::Mcp(args) = cli.command {
        return mcp::run(cli.root.as_deref(), max_bytes, args)
            .unwrap_or_else(|err| exit::report(&err));
    }
    let ctx = Context::new(cli.root, max_bytes);
    let owner_named = matches!(cli.command, Command::Ownership(_))
        || commands::ownership::owner_from_env().is_some();
    // Output goes through `println!`, which panics when stdout fails (a closed pipe, a full
    // disk): that one panic is turned into a clean exit here, any other is re-raised.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match cli.command {
        Command::Orchestrator(cmd) => commands::orchestrator::run(cmd, &ctx),
        Command::Registry(cmd) => commands::registry::run(cmd, &ctx),
        Command::Record(cmd) => commands::record::run(cmd, &ctx),
        Command::Ownership(cmd) => commands::ownership::run(cmd, &ctx),
        Command::Fork(args) => commands::fork::run(&args, &ctx),
        Command::Prune(args) => commands::prune::run(&args, &ctx),
        Command::Team(cmd) => commands::team::run(cmd, &ctx),
        Command::Mcp(_) | Command::Hook(_) => unreachable!("served above"),
    }));
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => exit::report_as(&err, owner_named),
        Err(payload) => exit::stdout_failure(payload),
    }
}

#[cfg(test)]
mod tests {
    use super::names_hook;

    fn names(args: &[&str]) -> bool {
        names_hook(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn only_the_command_position_names_the_hook() {
        assert!(names(&["hook", "--bogus"]));
        assert!(names(&["--root", "/p", "hook"]));
        assert!(names(&["--max-bytes=1M", "hook", "x"]));
        assert!(!names(&["agent", "start", "hook", "--type", "t"]));
        assert!(!names(&["--root", "hook", "decision"]));
        assert!(!names(&[]));
    }
}
