//! The hook's part in session ownership: the payload's `session_id` is the owner; it claims
//! on `SessionStart` (and hands the owner to the session's shell commands), takes over a lease
//! another owner let expire on an event that writes, renews on `Stop`, releases on `SessionEnd`.
//! None of these stops the event: a claim refused by another owner is one line on stderr, and
//! the writes that follow are then refused by the session's fence (also one line, exit 0).

use std::io::Write as _;

use session_state::ErrorKind;
use session_state::ownership::{Claim, Heartbeat, Release, check_name, live_key};
use session_state_fs::process::owning_process;

use super::events::Sessions;
use super::payload::Payload;
use crate::commands::ownership::OWNER_ENV;
use crate::terminal::{cell, err};

/// The file Claude Code names to a `SessionStart` hook, whose `export` lines it runs before
/// each of the session's shell commands.
const ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// The owner id of the event: the payload's `session_id`, when it has one.
pub fn owner(payload: &Payload) -> Option<String> {
    payload
        .session_id
        .clone()
        .filter(|id| !id.trim().is_empty())
}

/// Claims the current session for `owner`, taking over a lease that expired; a refusal is
/// reported on stderr, and returned when it also refuses this owner's records (another owner
/// holds the session, or its lease does not read).
pub fn claim(sessions: &Sessions, owner: &str) -> Option<session_state::Error> {
    use session_state::ErrorKind::{Conflict, CorruptState};
    let error = try_claim(sessions, owner).err()?;
    report("SessionStart", &error);
    matches!(error.kind(), Conflict | CorruptState).then_some(error)
}

/// Who holds the current session's lease, when anyone does (and the lease reads).
fn lease_owner(sessions: &Sessions) -> Option<String> {
    sessions
        .lease()
        .ok()
        .flatten()
        .and_then(|lease| lease.owner)
}

/// The one stderr line of `event`'s failed ownership step.
fn report(event: &str, error: &session_state::Error) {
    err!(
        "session-state hook: {event}: error[{}]: {}",
        error.code(),
        cell(&error.to_string())
    );
}

fn try_claim(sessions: &Sessions, owner: &str) -> session_state::Result<()> {
    let claim = Claim {
        owner: owner.to_owned(),
        takeover: true,
        process: owning_process()?,
        ..Claim::default()
    };
    sessions.claim(&claim).map(drop)
}

/// Takes over, for `owner`, the lease of another owner that let it expire: a Claude Code
/// session restarted while its old lease still ran claimed nothing at its `SessionStart`, and
/// its later events would all be refused. A lease that is live, `owner`'s own or absent is
/// left as it is (the event's write then meets the fence as it is).
pub fn take_over(sessions: &Sessions, owner: Option<&str>) {
    let Some(owner) = owner else { return };
    let other = lease_owner(sessions).is_some_and(|held| held != owner);
    if other {
        // Refused while the lease is live: the write that follows reports the owner.
        let _ = try_claim(sessions, owner);
    }
}

/// Makes `owner` the writer of the session's shell commands: appends `export
/// SESSION_STATE_OWNER='owner'` to the file `CLAUDE_ENV_FILE` names (set by Claude Code for a
/// `SessionStart` hook), so that `session-state` commands the model runs write as the owner
/// its hooks write as. Nothing without that variable, for an owner no claim takes (a claim
/// of it has said why), or when the file's last line is that export already; a failure is
/// one line on stderr.
pub fn export_owner(owner: &str) {
    let Some(path) = std::env::var_os(ENV_FILE).filter(|path| !path.is_empty()) else {
        return;
    };
    if check_name("owner", owner)
        .and_then(|()| live_key(owner))
        .is_err()
    {
        return;
    }
    let line = format!("export {OWNER_ENV}='{}'\n", owner.replace('\'', "'\\''"));
    let last = std::fs::read_to_string(&path).unwrap_or_default();
    if last.ends_with(&line) {
        return;
    }
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    if let Err(error) = written {
        let what = format!(
            "cannot write {ENV_FILE} `{}`: {error}",
            path.to_string_lossy()
        );
        report(
            "SessionStart",
            &session_state::Error::new(ErrorKind::Storage, what),
        );
    }
}

/// Renews `owner`'s lease and live entry (nothing when the event names no owner).
pub fn renew(sessions: &Sessions, owner: Option<&str>) {
    let Some(owner) = owner else { return };
    let beat = owning_process().and_then(|process| {
        let heartbeat = Heartbeat {
            owner: owner.to_owned(),
            process,
            ..Heartbeat::default()
        };
        sessions.heartbeat(&heartbeat)
    });
    if let Err(error) = beat {
        report("heartbeat", &error);
    }
}

/// Releases `owner`'s lease when it holds one.
pub fn release(sessions: &Sessions, owner: Option<&str>) {
    let Some(owner) = owner else { return };
    let held = lease_owner(sessions).as_deref() == Some(owner);
    if !held {
        return;
    }
    let release = Release {
        owner: owner.to_owned(),
        ..Release::default()
    };
    match sessions.release(&release) {
        Ok(_) => {}
        Err(err) if err.kind() == ErrorKind::NotFound => {}
        Err(error) => report("SessionEnd", &error),
    }
}
