//! How errors are printed and which exit code each kind gives.

use std::process::ExitCode;

use session_state::{Error, ErrorKind};

/// The exit-code table shown at the end of `--help` (and in the README).
pub const HELP: &str = "\
Exit codes:
  0  success (also: `should-resume` answered, whatever the answer)
  1  nothing there: no session to resume, unknown agent, chain or team (not_found)
  2  bad usage or input: unknown flag, bad value, unsafe id (invalid_input, invalid_key)
  3  the state is not usable as it is: corrupt_state, incompatible_schema,
     invalid_transition, conflict, already_exists; `doctor` found problems it did not fix
  4  the storage failed (storage)
Errors are printed to stderr as `error[<kind code>]: <message>`.";

/// The exit code for an error of `kind`.
pub fn code_for(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::NotFound => 1,
        ErrorKind::InvalidInput | ErrorKind::InvalidKey => 2,
        ErrorKind::Storage => 4,
        _ => 3,
    }
}

/// Prints `error[<code>]: <message>` to stderr and returns the matching exit code.
pub fn report(err: &Error) -> ExitCode {
    eprintln!("error[{}]: {}", err.code(), err);
    ExitCode::from(code_for(err.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_documented_code() {
        for kind in ErrorKind::ALL {
            let code = code_for(*kind);
            assert!((1..=4).contains(&code));
            assert!(HELP.contains(kind.code()), "{kind} missing from help");
        }
    }
}
