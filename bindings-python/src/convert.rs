//! Documents across the boundary: serde values to plain `dict`/`list` and back through JSON
//! text (faster than a generic converter; the user never sees the text): built by
//! [`json_to_py`] (orjson, else jiter) and written by CPython's C-accelerated `json.dumps`. The
//! orchestrator document has its own path in: [`fast_typed`] reads a dict into it.

mod from_python;
mod to_python;

pub use from_python::fast_typed;
pub use to_python::json_to_py;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyRecursionError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use session_state::Error;
use session_state::argument_fields::{MemberNames, from_argument};

use crate::errors::{IntoPyResult, to_py_err};
use session_state::json as json_check;

/// A Python object, as every native method takes its arguments.
pub type Obj<'py> = Bound<'py, PyAny>;

/// What a native method returning plain Python data returns.
pub type Out<'py> = PyResult<Obj<'py>>;

/// A core result for Python: the value through [`to_py`], the error through [`to_py_err`].
pub trait ToPyData {
    /// The value as `dict`, `list`, `str`, ... or the mapped error.
    fn out(self, py: Python<'_>) -> Out<'_>;
}

impl<T: Serialize> ToPyData for Result<T, Error> {
    fn out(self, py: Python<'_>) -> Out<'_> {
        to_py(py, &self.map_err(to_py_err)?)
    }
}

/// A result Python gets as pyo3 converts it (`bytes`, a `pathlib.Path`, a tuple), not as
/// plain data.
#[derive(Debug)]
pub struct Native<T>(pub T);

impl<T: for<'py> IntoPyObject<'py>> ToPyData for Result<Native<T>, Error> {
    fn out(self, py: Python<'_>) -> Out<'_> {
        self.map_err(to_py_err)?.0.into_bound_py_any(py)
    }
}

/// Any serialisable value as plain Python data (`dict`, `list`, `str`, `int`, ...): what
/// `json.loads` gives for its JSON text.
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, value: &T) -> Out<'py> {
    let text = serde_json::to_vec(value);
    let text = text.map_err(|e| invalid(format!("value cannot be written as JSON: {e}")))?;
    json_to_py(py, &text)
}

/// `InvalidInputError` with `message`.
fn invalid(message: String) -> PyErr {
    to_py_err(Error::invalid_input(message))
}

/// The JSON text of plain Python data (what `json.dumps` accepts, keys `1` and `None` written
/// `"1"` and `"null"` as the seeds' `json.dump` did); an `InvalidInputError` naming `what`
/// otherwise, and for what the core's `check_input` refuses (an `int` outside 64 bits, nesting
/// over [`json_check::MAX_VALUE_NESTING`]), NaN and a lone surrogate such as `"\udc00"`.
pub fn json_bytes(what: &str, value: &Obj<'_>) -> PyResult<Vec<u8>> {
    let py = value.py();
    let (json, kwargs) = (py.import("json")?, PyDict::new(py));
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let refused = |e: PyErr| {
        if e.is_instance_of::<PyRecursionError>(py) {
            return to_py_err(json_check::too_deep(what));
        }
        invalid(format!("{what} is not plain JSON data: {}", e.value(py)))
    };
    let text = json
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(refused)?;
    let Ok(text) = text.extract::<String>() else {
        // Not UTF-8: a `str` holding a lone surrogate (`"\udc00"`). Written again with
        // `\uXXXX` escapes, the check finds and names it.
        kwargs.set_item("ensure_ascii", true)?;
        let ascii = json.call_method("dumps", (value,), Some(&kwargs))?;
        json_check::check_input(what, ascii.extract::<String>()?.as_bytes()).py()?;
        let message = format!("{what} holds a string that is not valid Unicode");
        return Err(invalid(message));
    };
    let bytes = text.into_bytes();
    json_check::check_input(what, &bytes).py()?;
    Ok(bytes)
}

/// Plain Python data, the argument `name`, into a typed value; a shape that does not fit is
/// an `InvalidInputError` naming the member at fault below `name` (the core's [`from_argument`]).
pub fn from_py<T: DeserializeOwned>(name: &str, value: &Obj<'_>) -> PyResult<T> {
    from_py_as(name, value, MemberNames::Keys)
}

/// [`from_py`] naming the members as `names` says.
pub fn from_py_as<T: DeserializeOwned>(
    name: &str,
    value: &Obj<'_>,
    names: MemberNames,
) -> PyResult<T> {
    let bytes = json_bytes(&format!("`{name}`"), value).map_err(|e| {
        // Unnamed (the recording verbs' keyword arguments): the member at fault is named.
        let members = value.cast::<PyDict>().ok().filter(|_| name.is_empty());
        members
            .and_then(|dict| {
                dict.iter()
                    .find_map(|(key, member)| json_bytes(&format!("`{key}`"), &member).err())
            })
            .unwrap_or(e)
    })?;
    let json = serde_json::from_slice::<Value>(&bytes);
    let json = json.map_err(|e| invalid(format!("`{name}` is not plain JSON data: {e}")))?;
    from_argument(json, name, names).map_err(to_py_err)
}
