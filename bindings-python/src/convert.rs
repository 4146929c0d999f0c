//! Documents across the boundary: serde values to plain `dict`/`list` and back.
//!
//! Both directions go through JSON text handled by CPython's C-accelerated `json` module
//! (`json.dumps` / `json.loads`) and serde_json on the Rust side: under the stable ABI this is
//! several times faster than building the objects one call at a time. The user never sees the
//! text: values arrive and leave as `dict`, `list`, `str`, `int`, `float`, `bool` and `None`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::Error;

use crate::errors::to_py_err;

/// Any serialisable value as plain Python data (`dict`, `list`, `str`, `int`, ...).
pub fn to_py<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_vec(value).map_err(|e| {
        to_py_err(Error::invalid_input(format!(
            "value cannot be written as JSON: {e}"
        )))
    })?;
    py.import("json")?
        .call_method1("loads", (PyBytes::new(py, &text),))
}

/// The JSON text of plain Python data (what `json.dumps` accepts, without NaN or infinities);
/// anything else is an `InvalidInputError` naming `what`.
pub fn json_bytes(what: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = value.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let text = py
        .import("json")?
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(|e| {
            to_py_err(Error::invalid_input(format!(
                "{what} is not plain JSON data: {}",
                e.value(py)
            )))
        })?;
    let text: String = text.extract()?;
    Ok(text.into_bytes())
}

/// Plain Python data into a typed value; a shape that does not fit is an
/// `InvalidInputError` naming `what` and the field.
pub fn from_py<T: DeserializeOwned>(what: &str, value: &Bound<'_, PyAny>) -> PyResult<T> {
    let bytes = json_bytes(what, value)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| to_py_err(Error::invalid_input(format!("{what} does not fit: {e}"))))
}
