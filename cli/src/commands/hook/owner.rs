//! The hook's part in session ownership: the payload's `session_id` is the owner; it claims
//! on `SessionStart`, renews on `Stop`, releases on `SessionEnd`. None of these stops the
//! event: a claim refused by another owner is one line on stderr, and the writes that follow
//! are then refused by the session's fence (also one line on stderr, exit 0).

use session_state::ErrorKind;
use session_state::ownership::{Claim, Heartbeat, Release};
use session_state_fs::process::owning_process;

use super::events::Sessions;
use super::payload::Payload;
use crate::terminal::cell;

/// The owner id of the event: the payload's `session_id`, when it has one.
pub fn owner(payload: &Payload) -> Option<String> {
    payload
        .session_id
        .clone()
        .filter(|id| !id.trim().is_empty())
}

/// Claims the current session for `owner`, taking over a lease that expired; a refusal is
/// reported on stderr.
pub fn claim(sessions: &Sessions, owner: &str) {
    let claim = Claim {
        owner: owner.to_owned(),
        takeover: true,
        process: owning_process(),
        ..Claim::default()
    };
    if let Err(err) = sessions.claim(&claim) {
        eprintln!(
            "session-state hook: SessionStart: error[{}]: {}",
            err.code(),
            cell(&err.to_string())
        );
    }
}

/// Renews `owner`'s lease and live entry (nothing when the event names no owner).
pub fn renew(sessions: &Sessions, owner: Option<&str>) {
    let Some(owner) = owner else { return };
    let heartbeat = Heartbeat {
        owner: owner.to_owned(),
        process: owning_process(),
        ..Heartbeat::default()
    };
    if let Err(err) = sessions.heartbeat(&heartbeat) {
        eprintln!(
            "session-state hook: heartbeat: error[{}]: {}",
            err.code(),
            cell(&err.to_string())
        );
    }
}

/// Releases `owner`'s lease when it holds one.
pub fn release(sessions: &Sessions, owner: Option<&str>) {
    let Some(owner) = owner else { return };
    let held = sessions
        .lease()
        .ok()
        .flatten()
        .is_some_and(|l| l.owner.as_deref() == Some(owner));
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
        Err(err) => eprintln!(
            "session-state hook: SessionEnd: error[{}]: {}",
            err.code(),
            cell(&err.to_string())
        ),
    }
}
