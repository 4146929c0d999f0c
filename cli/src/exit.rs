//! How errors are printed and which exit code each kind gives.

use std::process::ExitCode;

use session_state::{Error, ErrorKind, Hint};

/// The exit-code table shown at the end of `--help` (and in docs/CLI.md).
pub const HELP: &str = "\
Exit codes:
  0  success (also: `should-resume` answered, whatever the answer; `hook` always)
  1  nothing there: no current session, unknown agent, pending task, chain or team, a
     --root folder that does not exist (not_found)
  2  bad usage or input: unknown flag, bad value, unsafe id (invalid_input, invalid_key)
  3  the state is not usable as it is: corrupt_state, incompatible_schema,
     invalid_transition, conflict, already_exists; `doctor` found problems it did not fix
  4  the storage failed (storage), or stdout could not be written
  141 stdout was closed early (broken pipe), as for Unix tools stopped by SIGPIPE
Errors are printed to stderr as `error[<kind code>]: <message>`.";

/// Exit code when stdout is closed before everything was printed (128 + SIGPIPE).
const BROKEN_PIPE: u8 = 141;

/// Prefix of the panic message of `println!` when writing to stdout fails.
const STDOUT_PANIC: &str = "failed printing to stdout";

/// A command-line usage error (unknown flag, bad value): help and version requests print as
/// clap does; everything else as `error[invalid_input]: ...` with exit 2.
pub fn usage(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind as Clap;
    if matches!(err.kind(), Clap::DisplayHelp | Clap::DisplayVersion) {
        let _ = err.print();
        return ExitCode::SUCCESS;
    }
    if err.kind() == Clap::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = err.print();
        return ExitCode::from(code_for(ErrorKind::InvalidInput));
    }
    let rendered = err.render().to_string();
    let message = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    {
        use std::io::Write as _;
        let _ = write!(
            std::io::stderr(),
            "error[{}]: {message}",
            ErrorKind::InvalidInput.code()
        );
    }
    ExitCode::from(code_for(ErrorKind::InvalidInput))
}

/// Silences the default panic report for stdout write failures (handled by
/// [`stdout_failure`]); every other panic is reported as usual.
pub fn quiet_stdout_failures() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if panic_text(info.payload()).is_some_and(|m| m.starts_with(STDOUT_PANIC)) {
            return;
        }
        default(info);
    }));
}

/// Turns the panic of a failed stdout write into an exit code: 141 quietly for a closed pipe,
/// `error[storage]` and 4 for any other failure. Any other panic is resumed.
pub fn stdout_failure(payload: Box<dyn std::any::Any + Send>) -> ExitCode {
    let Some(message) = panic_text(payload.as_ref()).map(str::to_owned) else {
        std::panic::resume_unwind(payload);
    };
    if !message.starts_with(STDOUT_PANIC) {
        std::panic::resume_unwind(payload);
    }
    if message.contains("Broken pipe") {
        return ExitCode::from(BROKEN_PIPE);
    }
    let detail = message
        .trim_start_matches(STDOUT_PANIC)
        .trim_start_matches(": ");
    crate::terminal::err!(
        "error[{}]: cannot write to stdout: {detail}",
        ErrorKind::Storage.code()
    );
    ExitCode::from(code_for(ErrorKind::Storage))
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
}

/// The exit code for an error of `kind`.
pub fn code_for(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::NotFound => 1,
        ErrorKind::InvalidInput | ErrorKind::InvalidKey => 2,
        ErrorKind::Storage => 4,
        _ => 3,
    }
}

/// Prints `error[<code>]: <message>` to stderr, with the error's hint in this CLI's flags, and
/// returns the matching exit code. An input over a size limit (the hint `raise_limit`) says how
/// to raise it.
pub fn report(err: &Error) -> ExitCode {
    report_as(err, true)
}

/// [`report`] of a command's error; `owner_named` says whether the command named an owner
/// (`SESSION_STATE_OWNER`, or an ownership command's `--owner`). A write that named none,
/// refused because an owner holds the session, says how a writer names itself.
pub fn report_as(err: &Error, owner_named: bool) -> ExitCode {
    let mut message = err.to_string();
    if let Some(what) = err.hint().and_then(advice) {
        message.push_str(": ");
        message.push_str(what);
    } else if !owner_named && held_by_an_owner(err) {
        message.push_str(
            ": a writer names itself in `SESSION_STATE_OWNER` (in Claude Code the hooks set it \
             to the session's id)",
        );
    }
    crate::terminal::err!("error[{}]: {}", err.code(), crate::terminal::safe(&message));
    ExitCode::from(code_for(err.kind()))
}

/// Whether `err` refuses a write because an owner holds the session.
fn held_by_an_owner(err: &Error) -> bool {
    err.kind() == ErrorKind::Conflict
        && err
            .context_value("owner")
            .is_some_and(|owner| !owner.is_empty())
}

/// What the CLI user may do, for a core [`Hint`]: the flag to pass.
fn advice(hint: Hint) -> Option<&'static str> {
    Some(match hint {
        Hint::Replace => {
            "pass `--replace` to overwrite it, or `archive --replace` for a session already in \
             a final status"
        }
        Hint::ArchiveCurrent => "pass `--archive-current` to archive it as it is",
        Hint::Repair => "`session-state doctor --fix` repairs it, keeping a copy",
        Hint::Takeover => "pass `--takeover` to take it over",
        Hint::RaiseLimit { .. } => crate::input::RAISE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replace_hint_names_the_flag() {
        assert!(advice(Hint::Replace).unwrap().contains("`--replace`"));
        assert_eq!(
            advice(Hint::RaiseLimit {
                option: "max_document_bytes"
            }),
            Some(crate::input::RAISE)
        );
    }

    #[test]
    fn every_kind_has_a_documented_code() {
        for kind in ErrorKind::ALL {
            let code = code_for(*kind);
            assert!((1..=4).contains(&code));
            assert!(HELP.contains(kind.code()), "{kind} missing from help");
        }
    }
}
