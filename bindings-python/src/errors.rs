//! Maps the core `Error` to the Python exceptions of `session_state.errors`, once.
//!
//! An error whose source is a Python exception (raised by a host store) is re-raised unchanged.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use session_state::Error;

/// Advice in core messages written for the CLI user (a command-line flag), and the same
/// advice for the Python user (the keyword argument of the Python API), as
/// `(core text, Python text)`. The core message stays what the CLI prints; [`py_message`]
/// swaps the advice on the way to Python (as the Node package swaps it for its options).
/// `test_orchestrator.py::test_already_exists_names_the_python_keyword` fails when the core
/// wording changes and an entry stops matching.
const CLI_ADVICE: &[(&str, &str)] = &[(
    // `OrchestratorStore::archive` (also `complete`, `abort`, `session_end`): `already_exists`.
    "pass `--replace` (replace = true) to overwrite it, or `archive --replace` for a session \
     already in a final status",
    "pass `replace=True` to overwrite it: `archive(state, replace=True)` or \
     `archive_session(state, replace=True)` (also for a session already in a final status), \
     `complete(replace=True)` or `abort(replace=True)`",
)];

/// The message a Python user sees for a core message: [`CLI_ADVICE`] swapped for the Python
/// API's keywords, anything else unchanged.
pub fn py_message(message: &str) -> Cow<'_, str> {
    let mut message = Cow::Borrowed(message);
    for (cli, python) in CLI_ADVICE {
        if message.contains(cli) {
            message = Cow::Owned(message.replace(cli, python));
        }
    }
    message
}

/// Converts a core error into the matching `session_state.errors` exception.
pub fn to_py_err(mut err: Error) -> PyErr {
    if let Some(source) = err.take_source() {
        match source.downcast::<PyErr>() {
            Ok(host) => return *host,
            Err(source) => err = err.with_source(source),
        }
    }
    Python::attach(|py| match build(py, &err) {
        Ok(exc) => exc,
        Err(failure) => failure,
    })
}

fn build(py: Python<'_>, err: &Error) -> PyResult<PyErr> {
    let errors = py.import("session_state.errors")?;
    let class = errors.getattr("ERRORS_BY_CODE")?.get_item(err.code())?;
    let kwargs = PyDict::new(py);
    let context = PyDict::new(py);
    for (name, value) in err.context() {
        context.set_item(*name, value)?;
    }
    kwargs.set_item("context", context)?;
    if let Some(salvaged) = err.salvaged() {
        kwargs.set_item("salvaged", pythonize::pythonize(py, salvaged)?)?;
    }
    let exc = class.call((py_message(err.message()),), Some(&kwargs))?;
    Ok(PyErr::from_value(exc))
}

/// `Result<T, Error>` into `PyResult<T>`.
pub trait IntoPyResult<T> {
    /// Maps the error with [`to_py_err`].
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py_err)
    }
}
