//! The seed's `should_resume` for callers whose arguments may be of any type (Python): the
//! order in which the seed looks at the name, the resume cap and the two tasks, so that a task
//! that is not a string is an error only where the seed would have read it.

use crate::error::{Error, Result};
use crate::store::Store;
use crate::time::Clock;

use super::policy::{CompatPolicy, ResumeDecision, ResumeReason};
use super::{AgentRegistry, ChosenPolicy, PolicyOptions};

/// A task argument as a dynamically typed caller passed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskArg<'a> {
    /// A string.
    Text(&'a str),
    /// No task: omitted, or a value the seed tests as false (`None`, `0`, `[]`).
    Absent,
    /// Any other value, of the type named here (`int`), which the seed cannot compare.
    Other(&'a str),
}

impl<S: Store, C: Clock> AgentRegistry<S, C> {
    /// [`decide_resume`](Self::decide_resume) by the policy of `options`, looking at the arguments in
    /// the seed's order: an unknown name, no previous task and the resume cap decide before
    /// either task is read; the compat rule reads `current_task` only when `previous_task` has
    /// a word longer than 4 letters. A task that is not a string is an error only when it would
    /// be read.
    ///
    /// # Errors
    /// As [`load`](Self::load) and [`PolicyOptions::policy`];
    /// [`ErrorKind::InvalidInput`](crate::ErrorKind::InvalidInput) naming the argument
    /// (`context["argument"]`) for a task read that is not a string.
    pub fn decide_resume_in_seed_order(
        &self,
        agent_name: &str,
        current_task: TaskArg<'_>,
        previous_task: TaskArg<'_>,
        options: &PolicyOptions,
    ) -> Result<ResumeDecision> {
        let policy = options.policy()?;
        let previous = match previous_task {
            TaskArg::Text("") | TaskArg::Absent => None,
            other => Some(other),
        };
        let decide = |current: &str, previous: Option<&str>| {
            self.decide_resume(agent_name, current, previous, &policy)
        };
        match (current_task, previous) {
            (TaskArg::Text(current), None) => return decide(current, None),
            (TaskArg::Text(current), Some(TaskArg::Text(previous))) => {
                return decide(current, Some(previous));
            }
            (_, None) => return decide("", None),
            _ => {}
        }
        // A task is not a string: the early answers stand, then only what the seed reads.
        let early = decide("", Some("-"))?;
        if matches!(
            early.reason,
            ResumeReason::UnknownAgent | ResumeReason::ResumeCapReached
        ) {
            return Ok(early);
        }
        match (current_task, previous) {
            (other, Some(TaskArg::Text(previous))) => {
                if matches!(policy, ChosenPolicy::Compat(_))
                    && !CompatPolicy::keywords_match(previous, previous)
                {
                    decide("", Some(previous))
                } else {
                    Err(not_text("current_task", other))
                }
            }
            // The previous task is read first, as `decide_resume` reads its arguments.
            (_, other) => Err(not_text("previous_task", other.unwrap_or(TaskArg::Absent))),
        }
    }
}

/// `` `name` must be a str, not int ``, with `context["argument"]`.
fn not_text(name: &str, value: TaskArg<'_>) -> Error {
    let type_name = match value {
        TaskArg::Other(type_name) => type_name,
        TaskArg::Text(_) => "str",
        TaskArg::Absent => "NoneType",
    };
    Error::invalid_input(format!("`{name}` must be a str, not {type_name}"))
        .with_context("argument", name)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::TaskArg::{Absent, Other, Text};
    use crate::registry::{AgentRegistry, PolicyOptions, ResumeReason};
    use crate::{FixedClock, MemoryStore};

    fn registry() -> AgentRegistry<MemoryStore, FixedClock> {
        let reg = AgentRegistry::new(
            MemoryStore::new(),
            FixedClock::at("2026-11-29T17:56:00Z").unwrap(),
        );
        reg.register("a", "id-1", json!(1), None).unwrap();
        reg
    }

    #[test]
    fn a_task_that_is_not_a_string_is_read_only_where_the_seed_reads_it() {
        let reg = registry();
        let decide = |name, current, previous| {
            reg.decide_resume_in_seed_order(name, current, previous, &PolicyOptions::default())
        };
        let reason = |d: crate::Result<super::ResumeDecision>| d.unwrap().reason;
        assert_eq!(
            reason(decide("x", Other("int"), Other("int"))),
            ResumeReason::UnknownAgent
        );
        assert_eq!(
            reason(decide("a", Other("int"), Absent)),
            ResumeReason::NoPreviousTask
        );
        // No word of the previous task is longer than 4 letters: the current one is not read.
        assert_eq!(
            reason(decide("a", Other("int"), Text("fix the bug"))),
            ResumeReason::Unrelated
        );
        let err = decide("a", Other("int"), Text("implement login")).unwrap_err();
        assert_eq!(err.message(), "`current_task` must be a str, not int");
        assert_eq!(err.context_value("argument"), Some("current_task"));
        let err = decide("a", Text("implement login"), Other("list")).unwrap_err();
        assert_eq!(err.context_value("argument"), Some("previous_task"));
        assert!(
            decide("a", Text("implement login now"), Text("implement login"))
                .unwrap()
                .resume
        );
        for _ in 0..5 {
            reg.increment_resume_count("id-1").unwrap();
        }
        assert_eq!(
            reason(decide("a", Other("int"), Text("implement login"))),
            ResumeReason::ResumeCapReached
        );
    }
}
