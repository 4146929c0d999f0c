//! Integer arguments checked the way a Python user expects: a value of the wrong type is a
//! `TypeError` naming the argument, an int out of range an `InvalidInputError` (a
//! `ValueError`) naming it, never a builtin `OverflowError`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use session_state::Error;

use crate::errors::to_py_err;

/// The int in `value` as an `i128` (every Python int of 128 bits), or `None` when it is
/// larger still. `TypeError` naming `name` when `value` is not an int (`bool` counts as an
/// int, as everywhere in Python).
fn int(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i128>> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "`{name}` must be an int, not {}",
            value.get_type().name()?
        )));
    }
    Ok(value.extract::<i128>().ok())
}

fn out_of_range(name: &str, value: &Bound<'_, PyAny>, range: &str) -> PyErr {
    to_py_err(
        Error::invalid_input(format!("`{name}` must be {range}, not `{value}`"))
            .with_context("argument", name),
    )
}

/// A count (a limit, an offset): an int from 0 up.
pub fn count(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    int(value, name)?
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| out_of_range(name, value, "zero or more"))
}

/// An int within `min..=max`.
pub fn bounded(value: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    int(value, name)?
        .and_then(|n| i64::try_from(n).ok())
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| out_of_range(name, value, &format!("an int from {min} to {max}")))
}
