//! Documents across the boundary: serde values to plain `dict`/`list` and back.
//!
//! Both directions go through JSON text handled by CPython's C-accelerated `json` module
//! (`json.dumps` / `json.loads`) and serde_json on the Rust side: under the stable ABI this is
//! several times faster than building the objects one call at a time. The user never sees the
//! text: values arrive and leave as `dict`, `list`, `str`, `int`, `float`, `bool` and `None`.

use pyo3::exceptions::PyRecursionError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use serde::Serialize;
use serde::de::DeserializeOwned;
use session_state::Error;

use crate::errors::to_py_err;
use crate::json_check::{self, MAX_DEPTH, Refusal};

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

/// The JSON text of plain Python data (what `json.dumps` accepts); anything else is an
/// `InvalidInputError` naming `what`:
///
/// - NaN and infinities (JSON has no such numbers);
/// - an `int` outside the 64-bit range (`-2**63` to `2**64 - 1`), which would not be kept
///   exactly (the message names where it is, e.g. `result["a"][0]`);
/// - lists and dicts nested deeper than [`MAX_DEPTH`] levels.
///
/// Dict keys that are `int`, `float`, `bool` or `None` become strings as `json.dumps` writes
/// them (`1` -> `"1"`, `None` -> `"null"`), as the seeds' `json.dump` did; other key types
/// are refused.
pub fn json_bytes(what: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = value.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let text = py
        .import("json")?
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(|e| {
            let err = if e.is_instance_of::<PyRecursionError>(py) {
                too_deep(what)
            } else {
                Error::invalid_input(format!("{what} is not plain JSON data: {}", e.value(py)))
            };
            to_py_err(err)
        })?;
    let text: String = text.extract()?;
    let bytes = text.into_bytes();
    check_text(what, &bytes)?;
    Ok(bytes)
}

/// [`json_check::check`] on JSON text (from `json.dumps`, or bytes a caller passed in), as an
/// `InvalidInputError` naming `what`. Invalid JSON is left for the parser to report.
pub fn check_text(what: &str, bytes: &[u8]) -> PyResult<()> {
    json_check::check(bytes).map_err(|refusal| {
        to_py_err(match refusal {
            Refusal::TooDeep => too_deep(what),
            Refusal::BigInteger { text, path } if path.is_empty() => Error::invalid_input(format!(
                "{what} is the integer `{text}`, outside the 64-bit range {RANGE}"
            )),
            Refusal::BigInteger { text, path } => Error::invalid_input(format!(
                "{what} holds the integer `{text}` at `{path}`, outside the 64-bit range {RANGE}"
            ))
            .with_context("field", path),
        })
    })
}

/// The integers kept exactly (an `i64` or a `u64` in serde_json).
const RANGE: &str = "(-2**63 to 2**64 - 1) that is kept exactly";

fn too_deep(what: &str) -> Error {
    Error::invalid_input(format!(
        "{what} is nested deeper than the limit of {MAX_DEPTH} levels of lists and dicts"
    ))
    .with_context("max_depth", MAX_DEPTH.to_string())
}

/// Plain Python data into a typed value; a shape that does not fit is an
/// `InvalidInputError` naming `what` and the field.
pub fn from_py<T: DeserializeOwned>(what: &str, value: &Bound<'_, PyAny>) -> PyResult<T> {
    let bytes = json_bytes(what, value)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| to_py_err(Error::invalid_input(format!("{what} does not fit: {e}"))))
}
