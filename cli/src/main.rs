//! `session-state`: resume, inspect, archive and repair the session state of an AI-agent
//! orchestrator project from the shell.

mod commands;
mod context;
mod exit;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::context::Context;

/// Resume, inspect, archive and repair orchestrator, sub-agent and team session state.
#[derive(Debug, Parser)]
#[command(name = "session-state", version, after_long_help = exit::HELP)]
struct Cli {
    /// The project folder (for `teams`/`team`: the folder holding `teams/`, default `~/.claude`).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<std::path::PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Orchestrator(commands::orchestrator::Command),
    #[command(flatten)]
    Registry(commands::registry::Command),
    #[command(flatten)]
    Team(commands::team::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ctx = Context::new(cli.root);
    let outcome = match cli.command {
        Command::Orchestrator(cmd) => commands::orchestrator::run(cmd, &ctx),
        Command::Registry(cmd) => commands::registry::run(cmd, &ctx),
        Command::Team(cmd) => commands::team::run(cmd, &ctx),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => exit::report(&err),
    }
}
