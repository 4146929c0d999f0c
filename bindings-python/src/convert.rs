//! Documents across the boundary: serde values to plain `dict`/`list` and back.

use pyo3::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::Error;

use crate::errors::to_py_err;

/// Any serialisable value as plain Python data (`dict`, `list`, `str`, `int`, ...).
pub fn to_py<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// Plain Python data into a typed value; a shape that does not fit is an
/// `InvalidInputError` naming `what` and the field.
pub fn from_py<T: DeserializeOwned>(what: &str, value: &Bound<'_, PyAny>) -> PyResult<T> {
    let json: serde_json::Value = pythonize::depythonize(value).map_err(|e| {
        to_py_err(Error::invalid_input(format!(
            "{what} is not plain JSON data: {e}"
        )))
    })?;
    serde_json::from_value(json)
        .map_err(|e| to_py_err(Error::invalid_input(format!("{what} does not fit: {e}"))))
}
