//! (being written)
use std::process::ExitCode;

use crate::context::Context;

#[derive(Debug, clap::Subcommand)]
pub enum Command {}

pub fn run(cmd: Command, _ctx: &Context) -> session_state::Result<ExitCode> {
    match cmd {}
}
