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
//! The state is the project folder's, or the store `--store` / `SESSION_STATE_STORE` names
//! (a Redis server), as for every other command; `.moai/` in the project folder says whether a
//! sub-agent is registered.
//!
//! Ownership: `SessionStart` claims the current session (an unfinished one) with the payload's
//! `session_id` as owner (taking over a lease that expired) and exports that owner as
//! `SESSION_STATE_OWNER` to the session's shell commands (through the file `CLAUDE_ENV_FILE`
//! names); an event that writes takes over a lease another owner let expire (a Claude Code
//! session restarted within the old lease); `Stop` renews the lease, `SessionEnd` releases it, and
//! every event writes as that owner. An event refused because another owner holds the
//! session says so on stderr (`conflict` naming the owner) and exits 0.
//!
//! Events on a project with no current session change nothing; other events are ignored. A
//! hook never blocks or breaks its host: whatever goes wrong (a payload that is too large,
//! not JSON or of the wrong shape, a corrupt file, a storage failure, a bug) it exits 0 with
//! one line on stderr, and each event is one exclusive update, so nothing is half written.

mod events;
mod owner;
mod payload;

use std::io::Write;
use std::process::ExitCode;

use session_state::{Error, Result};

use crate::context::Context;
use crate::terminal::cell;

/// The hook's waits on a Redis server: the host ends a hook after 10 s (`hooks.json`), and an
/// event may make two calls; a wait that ends says why in one line on stderr instead.
const REDIS_WAITS: crate::store_choice::Waits = crate::store_choice::Waits {
    io: std::time::Duration::from_millis(1500),
    update: events::LOCK_WAIT,
};

/// How long the hook may run before it gives up with its one stderr line: under the 10 s
/// `hooks.json` gives it, so that the line shows instead of the host killing the hook.
const DEADLINE: std::time::Duration = std::time::Duration::from_secs(9);

/// The environment variable setting another deadline in milliseconds (a host with another
/// timeout for its hooks).
pub const DEADLINE_ENV: &str = "SESSION_STATE_HOOK_TIMEOUT_MS";

/// Ends the process with exit 0 and one stderr line once the deadline passes (a payload that
/// never ends, a store that answers too slowly in total). What a store writes is atomic or a
/// journal line a reader skips when torn, so stopping mid-way loses nothing written before.
fn start_deadline() {
    let deadline = std::env::var(DEADLINE_ENV)
        .ok()
        .and_then(|ms| ms.trim().parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map_or(DEADLINE, std::time::Duration::from_millis);
    std::thread::spawn(move || {
        std::thread::sleep(deadline);
        crate::terminal::err!(
            "session-state hook: gave up after {} ms, before the host's own timeout (the payload \
             or the store was too slow; {DEADLINE_ENV} sets the limit)",
            deadline.as_millis()
        );
        std::process::exit(0);
    });
}

/// `session-state hook` takes no arguments: the event comes on stdin.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the hook over `root` (`--root`), recording into the store `--store` (`store`) or
/// `SESSION_STATE_STORE` names, else the project folder; always exits 0. The payload limit is
/// [`payload::MAX_PAYLOAD_BYTES`] unless `--max-bytes` or `SESSION_STATE_MAX_BYTES` set one
/// (`limit`, already resolved; a bad value is reported like any other failure).
pub fn main(
    root: Option<std::path::PathBuf>,
    store: Option<&str>,
    flag_given: bool,
    limit: Result<usize>,
) -> ExitCode {
    start_deadline();
    if let Err(err) = crate::store_choice::choose(store, Some(REDIS_WAITS)) {
        fail(&err);
        return ExitCode::SUCCESS;
    }
    let explicit = flag_given
        || std::env::var_os(crate::input::ENV)
            .is_some_and(|v| !v.to_string_lossy().trim().is_empty());
    let (payload_limit, documents) = match limit {
        Ok(limit) if explicit => (limit, limit),
        Ok(limit) => (payload::MAX_PAYLOAD_BYTES, limit),
        Err(err) => {
            fail(&err);
            return ExitCode::SUCCESS;
        }
    };
    run(&Context::new(root, documents), payload_limit)
}

/// Prints the one stderr line of a failure.
fn fail(err: &Error) {
    crate::terminal::err!(
        "session-state hook: error[{}]: {}",
        err.code(),
        cell(&err.to_string())
    );
}

/// Runs the hook, reading at most `payload_limit` bytes of payload; always exits 0.
fn run(ctx: &Context, payload_limit: usize) -> ExitCode {
    // A bug must not print a multi-line report: one line, below.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(ctx, payload_limit)));
    match outcome {
        Ok(Ok(Some(text))) => {
            // A host that closed stdout does not want the context: nothing to report.
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush());
        }
        Ok(Ok(None)) => {}
        Ok(Err(err)) => fail(&err),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown");
            crate::terminal::err!("session-state hook: internal error: {}", cell(what));
        }
    }
    ExitCode::SUCCESS
}

fn handle(ctx: &Context, payload_limit: usize) -> Result<Option<String>> {
    let stdin = std::io::stdin().lock();
    let bytes = crate::input::read_limited(stdin, "the hook payload", payload_limit)?;
    let payload = payload::parse(&bytes)?;
    let root = payload::project_dir(ctx.root(), &payload.cwd);
    if !root.is_dir() {
        return Err(Error::new(
            session_state::ErrorKind::NotFound,
            format!("project folder `{}` does not exist", root.display()),
        ));
    }
    events::run(&payload, &root, ctx).map_err(|e| {
        let message = format!("{}: {}", payload.hook_event_name, e.message());
        Error::new(e.kind(), message)
    })
}
