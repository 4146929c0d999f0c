//! [`AgentRegistry::doctor`]: checks the registry's three files and, when asked, repairs them
//! (SPEC section 1 "Recovery" for the copies, section 2 for starting empty like the drop-in).
//!
//! - `agent-sessions.json` and `workflow-chains.json` that do not parse are `corrupt_state`;
//!   the repair keeps a corrupt copy, then starts the file empty (the registry's
//!   [`recover`](AgentRegistry::recover) for the sessions file). Nothing can be salvaged
//!   field by field: the seed's own loader also starts empty.
//! - The journal is `corrupt_state` when it holds lines that do not parse or a last line cut
//!   short; the repair keeps a copy of the whole journal, then folds what parses into
//!   `agent-sessions.json` ([`compact`](AgentRegistry::compact)).
//! - A file over the read limit
//!   ([`with_max_document_bytes`](AgentRegistry::with_max_document_bytes)) is `invalid_input`;
//!   the repair keeps a copy and starts the file empty.

use serde::{Deserialize, Serialize};

use super::agent_registry::AgentRegistry;
use super::document::{
    ChainsDocument, SessionsDocument, parse_chains, parse_sessions, to_python_json,
};
use super::journal::replay;
use crate::corrupt_copy::keep_corrupt_copy;
use crate::error::{Error, ErrorKind, Result};
use crate::json::check_rewrite;
use crate::key::Key;
use crate::limit::is_over_limit;
use crate::store::{Leftover, Store, update_with};
use crate::time::Clock;

/// One problem the registry's doctor found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RegistryProblem {
    /// The store key of the file, e.g. `.moai/memory/agent-sessions.json`.
    pub key: String,
    /// The error kind code (`corrupt_state`, `storage`, ...).
    #[schemars(with = "crate::ErrorKind")]
    pub code: String,
    /// A lowercase message.
    pub message: String,
    /// Whether `doctor(fix = true)` can repair it.
    pub fixable: bool,
}

/// One file the registry's doctor repaired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RegistryRepair {
    /// The store key of the repaired file.
    pub key: String,
    /// Where the bytes it had were kept (`<key>.corrupt-<UTC stamp>`).
    pub kept_copy: String,
    /// What was done: `"started empty"`, `"salvaged 5 sessions, 2 chains, 4 metadata
    /// entries, 3 results"`, `"nothing readable: started empty"` or `"folded the lines that
    /// parse"`.
    pub action: String,
}

/// What [`AgentRegistry::doctor`] found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RegistryDoctorReport {
    /// How many of the three files exist and were checked.
    pub checked: usize,
    /// Problems left (after fixing, when asked).
    pub problems: Vec<RegistryProblem>,
    /// Files repaired.
    pub repaired: Vec<RegistryRepair>,
    /// Temporary files in the folder of `agent-sessions.json` left by writers killed
    /// mid-write ([`Store::leftovers`]): those found, or with `fix` those removed.
    pub leftovers: Vec<Leftover>,
}

/// What is wrong with a journal: lines that do not parse, a last line cut short.
struct JournalDamage {
    invalid: usize,
    torn: bool,
}

impl JournalDamage {
    fn message(&self) -> String {
        let mut parts = Vec::new();
        if self.invalid > 0 {
            parts.push(format!("{} line(s) that do not parse", self.invalid));
        }
        if self.torn {
            parts.push("a last line cut short".to_owned());
        }
        format!("it holds {}", parts.join(" and "))
    }
}

const STARTED_EMPTY: &str = "started empty";

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// Checks `agent-sessions.json`, `workflow-chains.json` and the journal; with `fix`,
    /// repairs the corrupt ones (a copy is always kept first, see the module docs) and removes
    /// the temporary files killed writers left in their folder
    /// ([`RegistryDoctorReport::leftovers`]). Only
    /// reads when `fix` is false. Problems that remain are in
    /// [`RegistryDoctorReport::problems`].
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when a file cannot be read. A file that cannot be repaired is
    /// reported as a problem, not an error.
    pub fn doctor(&self, fix: bool) -> Result<RegistryDoctorReport> {
        let mut report = RegistryDoctorReport::default();
        // The base file first: folding the journal needs it readable.
        if let Some(bytes) = self.store.read(&self.sessions_key)? {
            report.checked += 1;
            let parsed = self
                .limit(&self.sessions_key, Some(&bytes))
                .and_then(|()| parse_sessions(&self.sessions_key, &bytes));
            if let Err(err) = parsed {
                let repaired = fix.then(|| self.recover_salvaging());
                settle(&mut report, &self.sessions_key, &err, repaired);
            } else if let Err(err) = check_rewrite(&self.sessions_key, &bytes) {
                // Readable, but no change can write it again: the value is for a person to fix.
                report
                    .problems
                    .push(problem(&self.sessions_key, &err, false));
            }
        }
        if let Some(bytes) = self.store.read(&self.chains_key)? {
            report.checked += 1;
            let parsed = self
                .limit(&self.chains_key, Some(&bytes))
                .and_then(|()| parse_chains(&self.chains_key, &bytes));
            if let Err(err) = parsed {
                let action = if is_over_limit(&err) {
                    format!(
                        "over the limit of {} bytes: started empty",
                        self.max_document_bytes()
                    )
                } else {
                    STARTED_EMPTY.to_owned()
                };
                let repaired = fix.then(|| {
                    let copy = self.recover_chains()?;
                    Ok(copy.map(|copy| (copy, action)))
                });
                settle(&mut report, &self.chains_key, &err, repaired);
            } else if let Err(err) = check_rewrite(&self.chains_key, &bytes) {
                report.problems.push(problem(&self.chains_key, &err, false));
            }
        }
        self.check_journal(fix, &mut report)?;
        if let Some(folder) = self.sessions_key.parent() {
            report.leftovers = if fix {
                self.store.remove_leftovers(&folder)?
            } else {
                self.store.leftovers(&folder)?
            };
        }
        Ok(report)
    }

    /// Repairs a corrupt `agent-sessions.json` and a corrupt `workflow-chains.json` in one
    /// call, what a binding's `recover` does: for each, keeps a copy aside
    /// (`<key>.corrupt-<UTC stamp>`), then writes back the complete entries of the sessions
    /// file ([`recover_salvaging`](Self::recover_salvaging), as `doctor` with fixing) and an
    /// empty chains file ([`recover_chains`](Self::recover_chains)). Returns one
    /// [`RegistryRepair`] per file repaired, the sessions file's first; empty when both files
    /// were fine or absent. After it, registering and creating chains work again.
    ///
    /// # Errors
    /// As [`recover_salvaging`](Self::recover_salvaging) and
    /// [`recover_chains`](Self::recover_chains).
    pub fn repair(&self) -> Result<Vec<RegistryRepair>> {
        let mut repaired = Vec::new();
        if let Some((copy, action)) = self.recover_salvaging()? {
            repaired.push(RegistryRepair {
                key: self.sessions_key.to_string(),
                kept_copy: copy.to_string(),
                action,
            });
        }
        if let Some(copy) = self.recover_chains()? {
            repaired.push(RegistryRepair {
                key: self.chains_key.to_string(),
                kept_copy: copy.to_string(),
                action: STARTED_EMPTY.to_owned(),
            });
        }
        Ok(repaired)
    }

    /// Starts fresh after a corrupt `workflow-chains.json`, as [`recover`](Self::recover) does
    /// for `agent-sessions.json`: keeps a copy aside (`<key>.corrupt-<UTC stamp>`, reusing an
    /// identical copy), then writes an empty chains document (`{}`), in one exclusive
    /// read-modify-write. Returns the key of the copy, or `None` when the file is absent or
    /// parses (nothing is changed then). What [`doctor`](Self::doctor) runs with `fix` for
    /// this file; bindings call it to let `create_chain` work again.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`], and the errors of
    /// `keep_corrupt_copy`.
    pub fn recover_chains(&self) -> Result<Option<Key>> {
        update_with(&self.store, &self.chains_key, |current| {
            let Some(bytes) = current else {
                return Ok((None, None));
            };
            let over_limit = self.limit(&self.chains_key, Some(bytes)).is_err();
            if !over_limit && parse_chains(&self.chains_key, bytes).is_ok() {
                return Ok((None, None));
            }
            let copy = keep_corrupt_copy(&self.store, &self.chains_key, bytes, self.clock.now())?;
            let fresh = to_python_json(&ChainsDocument::default())?;
            Ok((Some(fresh), Some(copy)))
        })
    }

    fn check_journal(&self, fix: bool, report: &mut RegistryDoctorReport) -> Result<()> {
        // No journal: nothing to check, and no lock file to create for it.
        let Some(unlocked) = self.store.read(&self.journal_key)? else {
            return Ok(());
        };
        if let Err(err) = self.limit(&self.journal_key, Some(&unlocked)) {
            report.checked += 1;
            let key = &self.journal_key;
            if !fix {
                report.problems.push(problem(key, &err, true));
                return Ok(());
            }
            // Set aside whole (its registrations are in the copy), under the registry's lock.
            let copy = update_with(&self.store, key, |journal| {
                let Some(journal) = journal else {
                    return Ok((None, None));
                };
                let copy = keep_corrupt_copy(&self.store, key, journal, self.clock.now())?;
                Ok((Some(Vec::new()), Some(copy)))
            })?;
            if let Some(copy) = copy {
                report.repaired.push(RegistryRepair {
                    key: key.to_string(),
                    kept_copy: copy.to_string(),
                    action: format!(
                        "over the limit of {} bytes: set aside, its registrations are in the copy",
                        self.max_document_bytes()
                    ),
                });
            }
            return Ok(());
        }
        // Read without the lock first: a healthy journal needs no lock (nor a lock file, which
        // a read-only folder refuses).
        let mut base = match self.store.read(&self.sessions_key)? {
            Some(b) => parse_sessions(&self.sessions_key, &b).unwrap_or_default(),
            None => SessionsDocument::default(),
        };
        let replayed = replay(&mut base, &unlocked);
        if replayed.invalid == 0 && !replayed.torn {
            report.checked += 1;
            return Ok(());
        }
        // Damage seen: looked at again under the journal's lock, so that an append in progress
        // is never taken for a torn line.
        let found = update_with(&self.store, &self.journal_key, |journal| {
            let Some(journal) = journal else {
                return Ok((None, None));
            };
            let mut doc = match self.store.read(&self.sessions_key)? {
                Some(b) => parse_sessions(&self.sessions_key, &b).unwrap_or_default(),
                None => SessionsDocument::default(),
            };
            let replayed = replay(&mut doc, journal);
            if replayed.invalid == 0 && !replayed.torn {
                return Ok((None, Some(None)));
            }
            let damage = JournalDamage {
                invalid: replayed.invalid,
                torn: replayed.torn,
            };
            let copy = if fix {
                Some(keep_corrupt_copy(
                    &self.store,
                    &self.journal_key,
                    journal,
                    self.clock.now(),
                )?)
            } else {
                None
            };
            Ok((None, Some(Some((damage, copy)))))
        })?;
        let Some(found) = found else {
            return Ok(());
        };
        report.checked += 1;
        let Some((damage, copy)) = found else {
            return Ok(());
        };
        let err = Error::corrupt(&self.journal_key, damage.message());
        let key = &self.journal_key;
        match copy {
            None => report.problems.push(problem(key, &err, true)),
            // The fold keeps a copy too: the same bytes, so the same copy (never a second).
            Some(copy) => match self.compact() {
                Ok(()) => report.repaired.push(RegistryRepair {
                    key: key.to_string(),
                    kept_copy: copy.to_string(),
                    action: "folded the lines that parse".to_owned(),
                }),
                Err(e) => report.problems.push(problem(key, &e, false)),
            },
        }
        Ok(())
    }
}

/// Records a repair, or the problem that remains. `repaired` is `None` when no repair was
/// asked, `Some(Ok(None))` when the file was found readable on the repair's own read.
fn settle(
    report: &mut RegistryDoctorReport,
    key: &Key,
    err: &Error,
    repaired: Option<Result<Option<(Key, String)>>>,
) {
    let fixable = err.kind() == ErrorKind::CorruptState || is_over_limit(err);
    match repaired {
        None => report.problems.push(problem(key, err, fixable)),
        Some(Ok(Some((copy, action)))) => report.repaired.push(RegistryRepair {
            key: key.to_string(),
            kept_copy: copy.to_string(),
            action,
        }),
        Some(Ok(None)) => {}
        Some(Err(e)) => report.problems.push(problem(key, &e, false)),
    }
}

fn problem(key: &Key, err: &Error, fixable: bool) -> RegistryProblem {
    RegistryProblem {
        key: key.to_string(),
        code: err.code().to_owned(),
        message: err.message().to_owned(),
        fixable,
    }
}
