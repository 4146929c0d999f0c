//! Maps the core `Error` to the Python exceptions of `session_state.errors`, once; one carrying
//! a Python exception (raised by a host store) in its source chain re-raises that exception.

use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict};
use session_state::Error;
use session_state::py_message::py_message;

/// Converts a core error into the matching `session_state.errors` exception.
pub fn to_py_err(mut err: Error) -> PyErr {
    if let Some(host) = err.take_source_of::<PyErr>() {
        return host;
    }
    Python::attach(|py| build(py, &err).unwrap_or_else(|failure| failure))
}

fn build(py: Python<'_>, err: &Error) -> PyResult<PyErr> {
    let errors = py.import("session_state.errors")?;
    let class = errors.getattr("ERRORS_BY_CODE")?.get_item(err.code())?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("context", err.context().into_py_dict(py)?)?;
    if let Some(salvaged) = err.salvaged() {
        kwargs.set_item("salvaged", pythonize::pythonize(py, salvaged)?)?;
    }
    if let Some(hint) = err.hint() {
        kwargs.set_item("hint", hint.code())?;
    }
    let exc = class.call((py_message(err),), Some(&kwargs))?;
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
