//! The process that claims a session, read from `/proc` (Linux): its pid, its start time (so
//! that a reused pid is not taken for it) and the host name. Elsewhere only the pid and what
//! the environment says are known.

use std::path::Path;

use session_state::ownership::{Claim, Heartbeat, ProcessInfo};
use session_state::{Error, Result};

/// The environment variable naming the pid of the orchestrator process to record when the
/// command is run by a helper process (a shell, a hook runner).
pub const PID_ENV: &str = "SESSION_STATE_PID";

/// Processes that only run the command for someone else: `owning_process` looks past them.
const RUNNERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "ksh", "env", "timeout", "nohup", "nice", "xargs",
];

/// What `/proc/PID/stat` says of a process: its name, parent and start time.
struct Stat {
    name: String,
    parent: u32,
    start: u64,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `PID (NAME) STATE PPID ...`: the name may hold spaces and parentheses.
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text.get(open + 1..close)?.to_owned();
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // Fields after the name start at field 3 (state); ppid is 4, starttime 22.
    Some(Stat {
        name,
        parent: fields.get(1)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The host name (`/proc/sys/kernel/hostname`, or `HOSTNAME`).
pub fn host_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
}

/// The process `pid` on this host: its start time when `/proc` has it.
pub fn process_info(pid: u32) -> ProcessInfo {
    ProcessInfo {
        pid: Some(pid),
        pid_start: stat(pid).map(|s| s.start),
        host: host_name(),
        ..ProcessInfo::default()
    }
}

/// The process to record as the claimant: the pid in `SESSION_STATE_PID` when set, else the
/// first ancestor of this process that is not a shell or a runner (`sh -c`, `env`, `timeout`,
/// ...), since this command is short-lived and the orchestrator that ran it is not. Without
/// `/proc`, this process.
///
/// # Errors
/// `invalid_input` when `SESSION_STATE_PID` is set to anything but a pid.
pub fn owning_process() -> Result<ProcessInfo> {
    if let Some(named) = named_process()? {
        return Ok(named);
    }
    let me = std::process::id();
    let Some(mut pid) = stat(me)
        .map(|s| s.parent)
        .filter(|&parent| !is_init(parent))
    else {
        // No parent known, or the system's init: nothing runs this command but itself.
        return Ok(process_info(me));
    };
    for _ in 0..8 {
        match stat(pid) {
            Some(s) if RUNNERS.contains(&s.name.as_str()) && s.parent > 1 => pid = s.parent,
            _ => break,
        }
    }
    Ok(process_info(pid))
}

/// Whether `pid` is the system's init, which adopts orphans (not a container's pid 1 that is
/// the orchestrator itself).
fn is_init(pid: u32) -> bool {
    const INITS: &[&str] = &[
        "systemd",
        "init",
        "tini",
        "dumb-init",
        "docker-init",
        "s6-svscan",
    ];
    pid == 0 || (pid == 1 && stat(1).is_none_or(|s| INITS.contains(&s.name.as_str())))
}

/// The process `SESSION_STATE_PID` names, if it is set and not blank; `invalid_input` when
/// it holds anything but a pid (a recorded process that is not the caller's would make the
/// caller's entries look dead, or a dead caller's look alive).
fn named_process() -> Result<Option<ProcessInfo>> {
    let Some(value) = std::env::var_os(PID_ENV) else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    if text.trim().is_empty() {
        return Ok(None);
    }
    match text.trim().parse::<u32>() {
        Ok(pid) if pid > 0 => Ok(Some(process_info(pid))),
        _ => Err(Error::invalid_input(format!(
            "{PID_ENV} `{}` is not a process id: give the orchestrator's pid (a whole number \
             above 0), or unset it to record the caller's process",
            text.escape_debug()
        ))
        .with_context("field", PID_ENV)),
    }
}

/// The process to record as the claimant for a library call: the pid in `SESSION_STATE_PID`
/// when set, else this process (a program using the library is the long-lived one).
///
/// # Errors
/// As [`owning_process`].
pub fn this_process() -> Result<ProcessInfo> {
    Ok(named_process()?.unwrap_or_else(|| process_info(std::process::id())))
}

/// A request that records the claimant's process: a [`Claim`] or a [`Heartbeat`].
pub trait RecordsProcess {
    /// The process it names (the empty default when the caller named none).
    fn process_mut(&mut self) -> &mut ProcessInfo;
}

impl RecordsProcess for Claim {
    fn process_mut(&mut self) -> &mut ProcessInfo {
        &mut self.process
    }
}

impl RecordsProcess for Heartbeat {
    fn process_mut(&mut self) -> &mut ProcessInfo {
        &mut self.process
    }
}

/// `request` with its process, or [`this_process`] when it names none: what a claim or
/// heartbeat made from a library (Python, Node) records.
///
/// # Errors
/// As [`owning_process`], when the request names no process.
pub fn or_this_process<R: RecordsProcess>(mut request: R) -> Result<R> {
    let process = request.process_mut();
    if *process == ProcessInfo::default() {
        *process = this_process()?;
    }
    Ok(request)
}

/// Whether the recorded process is still running: `None` when this host cannot tell (another
/// host, no pid, no `/proc`); `Some(false)` when its pid is gone or now names a process that
/// started at another time.
pub fn is_running(process: &ProcessInfo) -> Option<bool> {
    let pid = process.pid?;
    if process.host.is_some() && process.host != host_name() {
        return None;
    }
    if !Path::new("/proc/self/stat").exists() {
        return None;
    }
    match (stat(pid), process.pid_start) {
        (None, _) => Some(false),
        (Some(s), Some(start)) => Some(s.start == start),
        (Some(_), None) => Some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_running_and_a_changed_start_time_is_not_it() {
        let me = process_info(std::process::id());
        assert!(me.pid_start.is_some(), "/proc gives the start time");
        assert_eq!(is_running(&me), Some(true));
        let reused = ProcessInfo {
            pid_start: me.pid_start.map(|s| s + 1),
            ..me.clone()
        };
        assert_eq!(is_running(&reused), Some(false));
        let elsewhere = ProcessInfo {
            host: Some("another-host.invalid".into()),
            ..me
        };
        assert_eq!(is_running(&elsewhere), None);
        // A name with spaces and parentheses does not shift the fields.
        let parent = stat(std::process::id()).unwrap().parent;
        assert!(parent > 0);
    }

    #[test]
    fn a_request_naming_no_process_records_this_one() {
        let claim = or_this_process(Claim::owner("o")).unwrap();
        assert_eq!(claim.process.pid, Some(std::process::id()));
        assert_eq!(claim.process, this_process().unwrap());
        let given = ProcessInfo {
            pid: Some(42),
            ..ProcessInfo::default()
        };
        let heartbeat = Heartbeat {
            process: given.clone(),
            ..Heartbeat::default()
        };
        assert_eq!(or_this_process(heartbeat).unwrap().process, given);
    }

    #[test]
    fn a_child_that_exited_is_not_running() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let info = process_info(child.id());
        child.wait().unwrap();
        assert_eq!(is_running(&info), Some(false));
    }
}
