//! `session-state hook`: the command to put in Claude Code's hooks settings. It reads the
//! hook's JSON payload on stdin and records the event in the project's session state:
//!
//! - `SessionStart`: hands the model the RESUMING SESSION block of an `in_progress` or
//!   `paused` session (the SESSION RECOVERY block for a corrupt file) as added context;
//! - `PreCompact`: records the compression; `Stop`: a save;
//! - `SubagentStart` / `SubagentStop`: the agent started / completed (and, on stop,
//!   registered in the sub-agent registry when the project has `.moai/`);
//! - `SessionEnd`: a disconnect, `in_progress` becomes `paused`.
//!
//! Events on a project with no current session change nothing; other events are ignored. A
//! hook never blocks or breaks its host: whatever goes wrong (a payload that is too large,
//! not JSON or of the wrong shape, a corrupt file, a storage failure, a bug) it exits 0 with
//! one line on stderr, and each event is one exclusive update, so nothing is half written.

mod events;
mod payload;

use std::io::{Read, Write};
use std::process::ExitCode;

use session_state::{Error, Result};

use crate::context::Context;
use crate::terminal::cell;

/// `session-state hook` takes no arguments: the event comes on stdin.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the hook; always exits 0.
pub fn run(ctx: &Context) -> ExitCode {
    // A bug must not print a multi-line report: one line, below.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(ctx)));
    match outcome {
        Ok(Ok(Some(text))) => {
            // A host that closed stdout does not want the context: nothing to report.
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush());
        }
        Ok(Ok(None)) => {}
        Ok(Err(err)) => eprintln!(
            "session-state hook: error[{}]: {}",
            err.code(),
            cell(&err.to_string())
        ),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown");
            eprintln!("session-state hook: internal error: {}", cell(what));
        }
    }
    ExitCode::SUCCESS
}

fn handle(ctx: &Context) -> Result<Option<String>> {
    let bytes = read_payload(&mut std::io::stdin().lock(), payload::MAX_PAYLOAD_BYTES)?;
    let payload = payload::parse(&bytes)?;
    let root = payload::project_dir(ctx.root(), &payload.cwd);
    if !root.is_dir() {
        return Err(Error::new(
            session_state::ErrorKind::NotFound,
            format!("project folder `{}` does not exist", root.display()),
        ));
    }
    events::run(&payload, &root, ctx.clock).map_err(|e| {
        let message = format!("{}: {}", payload.hook_event_name, e.message());
        Error::new(e.kind(), message)
    })
}

/// At most `limit` bytes of `input`.
///
/// # Errors
/// `invalid_input` when there are more (the rest is not read), or when reading fails.
fn read_payload(input: &mut impl Read, limit: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::invalid_input(format!("cannot read the hook payload: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Error::invalid_input(format!(
            "the hook payload is over the limit of {limit} bytes"
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::read_payload;

    #[test]
    fn payloads_over_the_limit_are_refused_unread() {
        let big = vec![b' '; 100];
        assert_eq!(read_payload(&mut &big[..], 100).unwrap().len(), 100);
        let err = read_payload(&mut &big[..], 99).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        assert!(
            err.message().contains("over the limit of 99 bytes"),
            "{err}"
        );
    }
}
