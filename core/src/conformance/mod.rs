//! The store conformance suite: the behaviour every [`Store`] must show, as plain functions
//! that any host can run on its own store.
//!
//! The suite is pure (no threads, no clock, no I/O of its own), so the Python, Node and wasm
//! bindings run exactly these cases on a store written in their language and get back a
//! serde-serialisable [`ConformanceReport`]. Each case works in its own folder
//! `<scratch>/<case name>/`, clears it first and removes what it wrote at the end, so the suite
//! can be rerun on a persistent store.
//!
//! ```
//! use session_state::{Key, MemoryStore, conformance};
//!
//! let report = conformance::run_all(&MemoryStore::new(), &Key::new("conformance")?);
//! assert!(report.all_passed(), "{report:?}");
//! assert_eq!(report.cases.len(), conformance::CASES.len());
//! # Ok::<(), session_state::Error>(())
//! ```
//!
//! ## What is not here
//! - **Invalid keys.** Every [`Store`] method takes a [`Key`], and a `Key` can only be built by
//!   [`Key::new`], [`Key::join`] or [`Key::segment`], which validate it (SPEC section 4). A store
//!   therefore never sees an invalid key: this is enforced by the type system, not by each store.
//!   The case `invalid_keys_are_unrepresentable` checks the constructors refuse hostile input;
//!   the shared table `tests/vectors/hostile/keys.json` lists the cases for every language.
//!   A raw string is not a key, so this does not compile:
//!
//!   ```compile_fail,E0308
//!   use session_state::{MemoryStore, Store};
//!   MemoryStore::new().read("../etc/passwd");
//!   ```
//! - **No lost update under contention** needs several threads or processes, which the core does
//!   not spawn. [`counter_increment`] is the one unit of work: each host runs N concurrent
//!   workers doing M increments each on one key and checks the final count is exactly `N * M`
//!   (`stores/fs/tests/no_lost_update.rs` does it with 4 processes and with 4 threads).

mod cases;
mod ownership_cases;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::key::Key;
use crate::store::{Store, update_with};

/// One case of the suite: a stable snake_case `name`, a one-line `description`, and `run`,
/// which takes the store and the case's own empty folder key and returns `Err(message)` on the
/// first behaviour that differs from the [`Store`] contract.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// Stable snake_case name, e.g. `"read_your_writes"`.
    pub name: &'static str,
    /// What the case checks, in one lowercase sentence.
    pub description: &'static str,
    /// Runs the case in the folder key it is given (empty when the case starts).
    pub run: fn(&dyn Store, &Key) -> Result<(), String>,
}

/// Every case, in the order [`run_all`] runs them.
pub const CASES: &[Case] = cases::ALL;

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CaseOutcome {
    /// The case's [`Case::name`].
    pub name: String,
    /// Whether the store behaved as the contract says.
    pub passed: bool,
    /// Why it failed (`None` when it passed), naming the key and what was seen.
    pub message: Option<String>,
}

/// The outcome of a run, one entry per case in [`CASES`] order. Serialises as
/// `{"cases": [{"name", "passed", "message"}], "passed": n, "failed": n}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConformanceReport {
    /// One outcome per case run.
    pub cases: Vec<CaseOutcome>,
    /// How many cases passed.
    pub passed: usize,
    /// How many cases failed.
    pub failed: usize,
}

impl ConformanceReport {
    /// Whether every case passed (and at least one ran).
    pub fn all_passed(&self) -> bool {
        self.failed == 0 && !self.cases.is_empty()
    }

    /// The outcomes that failed.
    pub fn failures(&self) -> impl Iterator<Item = &CaseOutcome> {
        self.cases.iter().filter(|c| !c.passed)
    }

    /// The outcome of the case named `name`, if it ran.
    pub fn case(&self, name: &str) -> Option<&CaseOutcome> {
        self.cases.iter().find(|c| c.name == name)
    }

    fn push(&mut self, outcome: CaseOutcome) {
        if outcome.passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        self.cases.push(outcome);
    }
}

/// `N of M cases passed`, then one line per failed case: `name: message`.
impl std::fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} cases passed", self.passed, self.cases.len())?;
        for failure in self.failures() {
            let message = failure.message.as_deref().unwrap_or("");
            write!(f, "\n{}: {message}", failure.name)?;
        }
        Ok(())
    }
}

/// Runs `case` on `store` in the folder `<scratch>/<case name>/`: clears that folder, runs the
/// case, then removes what the case left (a failing cleanup fails the case).
pub fn run_case<S: Store + ?Sized>(store: &S, scratch: &Key, case: &Case) -> CaseOutcome {
    let store: &dyn Store = &store;
    let result = scratch
        .join(case.name)
        .map_err(|e| format!("scratch key cannot hold case `{}`: {e}", case.name))
        .and_then(|dir| {
            clear(store, &dir)?;
            (case.run)(store, &dir)?;
            clear(store, &dir)
        });
    CaseOutcome {
        name: case.name.to_owned(),
        passed: result.is_ok(),
        message: result.err(),
    }
}

/// Runs every case of [`CASES`] on `store` below the folder key `scratch`, which should hold
/// nothing else (each case clears its own sub-folder first). Every difference from the
/// contract, and every error the store returns, is a failed [`CaseOutcome`]; only a store that
/// panics itself stops the run.
pub fn run_all<S: Store + ?Sized>(store: &S, scratch: &Key) -> ConformanceReport {
    let mut report = ConformanceReport::default();
    for case in CASES {
        report.push(run_case(store, scratch, case));
    }
    report
}

/// Runs only the cases whose names are in `names` (unknown names are reported as failed), for
/// hosts that skip a case their store cannot support and say so.
pub fn run_named<S: Store + ?Sized>(store: &S, scratch: &Key, names: &[&str]) -> ConformanceReport {
    let mut report = ConformanceReport::default();
    for name in names {
        let outcome = match CASES.iter().find(|c| c.name == *name) {
            Some(case) => run_case(store, scratch, case),
            None => CaseOutcome {
                name: (*name).to_owned(),
                passed: false,
                message: Some(format!("no conformance case is named `{name}`")),
            },
        };
        report.push(outcome);
    }
    report
}

/// Deletes every key below `dir` and checks none is left.
fn clear(store: &dyn Store, dir: &Key) -> Result<(), String> {
    let keys = store
        .list(dir)
        .map_err(|e| format!("list `{dir}` failed: {}", describe(&e)))?;
    for key in &keys {
        store
            .delete(key)
            .map_err(|e| format!("delete `{key}` failed: {}", describe(&e)))?;
    }
    let left = store
        .list(dir)
        .map_err(|e| format!("list `{dir}` failed: {}", describe(&e)))?;
    if left.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "keys left under `{dir}` after deleting them all: {left:?}"
        ))
    }
}

/// An error as `[code] message`, for case messages.
fn describe(err: &Error) -> String {
    format!("[{}] {}", err.code(), err.message())
}

/// Adds one to the decimal counter stored under `key` (absent counts as 0) in one
/// [`Store::update`], and returns the new count. Every worker of a no-lost-update test calls
/// this; with a correct store, W workers doing I increments each end at exactly `W * I`, and
/// the returned values are exactly `1..=W * I`.
///
/// The counter is stored as ASCII decimal digits with no sign, spaces or newline, e.g. `b"42"`.
///
/// # Errors
/// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) when the stored bytes are not such a counter (then nothing is
/// written), [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) when the count would overflow `u64`, and whatever the
/// store's `update` returns.
pub fn counter_increment<S: Store + ?Sized>(store: &S, key: &Key) -> Result<u64> {
    update_with(store, key, |current| {
        let count = match current {
            None => 0,
            Some(bytes) => parse_counter(key, bytes)?,
        };
        let next = count
            .checked_add(1)
            .ok_or_else(|| Error::invalid_input(format!("counter `{key}` would overflow")))?;
        Ok((Some(next.to_string().into_bytes()), next))
    })
}

/// The value of the decimal counter under `key`: 0 when absent.
///
/// # Errors
/// [`ErrorKind::CorruptState`](crate::ErrorKind::CorruptState) when the bytes are not a counter; the store's read errors.
pub fn counter_value<S: Store + ?Sized>(store: &S, key: &Key) -> Result<u64> {
    match store.read(key)? {
        None => Ok(0),
        Some(bytes) => parse_counter(key, &bytes),
    }
}

fn parse_counter(key: &Key, bytes: &[u8]) -> Result<u64> {
    let text = std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    text.and_then(|t| t.parse::<u64>().ok())
        .ok_or_else(|| Error::corrupt(key, "not a decimal counter"))
}
