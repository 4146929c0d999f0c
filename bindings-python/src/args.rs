//! Arguments checked the way a Python user expects: a value of the wrong type is an
//! `InvalidInputError` (also a `TypeError`) naming the argument, an int out of range an
//! `InvalidInputError` naming it, never a builtin `OverflowError` or pyo3's bare `TypeError`.
//! Every public native method takes its arguments as Python objects and converts them here.

use std::borrow::Cow;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};
use serde::de::DeserializeOwned;
use session_state::{Clock, Error, Timestamp};
use session_state_fs::SystemClock;
use session_state_fs::process::{RecordsProcess, or_owning_process};

use crate::convert::{Obj, from_py};
use crate::errors::{IntoPyResult, to_py_err};

/// `InvalidInputError`: `` `name` must be {expected}, not {type} ``.
pub fn wrong_type(value: &Obj<'_>, name: &str, expected: &str) -> PyErr {
    to_py_err(Error::wrong_type(name, expected, type_name(value)))
}

/// The name of `value`'s type (`int`, `NoneType`).
pub fn type_name(value: &Obj<'_>) -> String {
    let name = value.get_type().name();
    name.map_or_else(|_| "an object".to_owned(), |n| n.to_string())
}

/// The int in `value` as an `i128`, or `None` when it is larger still. Wrong type when `value`
/// is not an int, and for a `bool`: `agent_progress("a", True)` storing 1 is not what the
/// caller meant, and the Node package refuses a boolean too.
fn int(value: &Obj<'_>, name: &str) -> PyResult<Option<i128>> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(wrong_type(value, name, "an int"));
    }
    Ok(value.extract::<i128>().ok())
}

fn out_of_range(name: &str, value: &Obj<'_>, range: &str) -> PyErr {
    let message = format!("`{name}` must be {range}, not `{value}`");
    to_py_err(Error::invalid_input(message).with_context("argument", name))
}

/// A count (a limit, an offset): an int from 0 up; one too large for a `usize` counts as
/// `usize::MAX` (no list is that long).
pub fn count(value: &Obj<'_>, name: &str) -> PyResult<usize> {
    let negative = || out_of_range(name, value, "zero or more");
    match int(value, name)? {
        Some(n) if n < 0 => Err(negative()),
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        // Beyond i128: positive or negative.
        None if value.lt(0i32)? => Err(negative()),
        None => Ok(usize::MAX),
    }
}

/// The `max_document_bytes` keyword: `None` (or absent) for the default, else a count.
pub fn byte_limit(value: Option<&Obj<'_>>, name: &str) -> PyResult<Option<u64>> {
    value
        .filter(|b| !b.is_none())
        .map(|b| count(b, name).map(|n| u64::try_from(n).unwrap_or(u64::MAX)))
        .transpose()
}

/// An int within `min..=max`.
pub fn bounded(value: &Obj<'_>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    int(value, name)?
        .and_then(|n| i64::try_from(n).ok())
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| out_of_range(name, value, &format!("an int from {min} to {max}")))
}

/// A `str` (a subclass such as a `str` enum counts). A lone surrogate, which UTF-8 cannot
/// hold, is an `InvalidInputError` as well.
pub fn text<'a>(value: &'a Obj<'_>, name: &str) -> PyResult<Cow<'a, str>> {
    let Ok(string) = value.cast::<PyString>() else {
        return Err(wrong_type(value, name, "a str"));
    };
    string
        .to_cow()
        .map_err(|_| to_py_err(Error::lone_surrogate(name)))
}

/// A `str` or `None` (an omitted argument is `None`).
pub fn opt_text<'a>(value: Option<&'a Obj<'_>>, name: &str) -> PyResult<Option<Cow<'a, str>>> {
    match value {
        Some(v) if !v.is_none() => text(v, name).map(Some),
        _ => Ok(None),
    }
}

/// A `bool` (exactly: `0`/`1` are refused as pyo3 refuses them); an omitted argument is
/// `default`.
pub fn flag(value: Option<&Obj<'_>>, name: &str, default: bool) -> PyResult<bool> {
    let wrong = |v: &Obj<'_>| wrong_type(v, name, "a bool");
    match value {
        None => Ok(default),
        Some(v) => Ok(v.cast::<PyBool>().map_err(|_| wrong(v))?.is_true()),
    }
}

/// `bytes` (not `str`: a str has no single byte form).
pub fn bytes<'a>(value: &'a Obj<'_>, name: &str) -> PyResult<&'a [u8]> {
    let wrong = |_| wrong_type(value, name, "bytes");
    Ok(value.cast::<PyBytes>().map_err(wrong)?.as_bytes())
}

/// A list (or tuple) of `str`.
pub fn texts(value: &Obj<'_>, name: &str) -> PyResult<Vec<String>> {
    if value.is_instance_of::<PyString>() {
        return Err(wrong_type(value, name, "a list of str"));
    }
    value
        .extract::<Vec<Bound<'_, PyAny>>>()
        .map_err(|_| wrong_type(value, name, "a list of str"))?
        .iter()
        .enumerate()
        .map(|(i, item)| text(item, &format!("{name}[{i}]")).map(Cow::into_owned))
        .collect()
}

/// The time `now` (RFC 3339), or the system clock's when it is `None`.
pub fn now(now: Option<&Obj<'_>>) -> PyResult<DateTime<Utc>> {
    match opt_text(now, "now")? {
        Some(text) => Ok(Timestamp::parse(&text).py()?.utc()),
        None => Ok(SystemClock.now()),
    }
}

/// A folder: a `str` or `os.PathLike`, with `~` expanded as `os.path.expanduser` does.
pub fn folder(value: &Obj<'_>, name: &str) -> PyResult<PathBuf> {
    let wrong = |_: PyErr| wrong_type(value, name, "a str or os.PathLike");
    let os = value.py().import("os")?;
    let fspath = os.call_method1("fspath", (value,)).map_err(wrong)?;
    let expanded = os.getattr("path")?.call_method1("expanduser", (fspath,))?;
    expanded.extract::<PathBuf>().map_err(wrong)
}

/// A typed argument of [`py_methods!`]: read from the Python object passed as `name`.
pub trait Arg: Sized {
    /// `value` read as `Self`, errors naming `name`.
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self>;
}

impl Arg for String {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        text(value, name).map(Cow::into_owned)
    }
}

/// `None` gives `None`; another value is read as `T`.
impl<T: Arg> Arg for Option<T> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        (!value.is_none()).then(|| T::arg(value, name)).transpose()
    }
}

/// An optional argument: `None` (or omitted) gives `None`; another value is read as `T`.
pub fn opt<T: Arg>(value: Option<&Obj<'_>>, name: &str) -> PyResult<Option<T>> {
    Ok(value
        .map(|v| Option::<T>::arg(v, name))
        .transpose()?
        .flatten())
}

/// The time in an RFC 3339 `str`.
impl Arg for DateTime<Utc> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        Ok(Timestamp::parse(&text(value, name)?).py()?.utc())
    }
}

/// Plain data of the shape of the core's serde type `T` ([`from_py`]).
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> Arg for Json<T> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        from_py(name, value).map(Json)
    }
}

/// A claim or heartbeat ([`Json`]) recording this process's orchestrator when it names no
/// process ([`or_owning_process`]).
#[derive(Debug)]
pub struct Here<T>(pub T);

impl<T: DeserializeOwned + RecordsProcess> Arg for Here<T> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        from_py(name, value).map(|request| Here(or_owning_process(request)))
    }
}

/// `#[pymethods]` of a handle class whose arguments are read by type ([`Arg`], named as the
/// parameter) and whose body, a core `Result`, runs without the interpreter lock (other
/// Python threads run meanwhile; a host store takes it again) and is returned as plain data:
/// `fn name(&self, a: T, ...; o: U, ...) => body;`, the arguments after `;` optional (`None`
/// by default, read as `Option<U>`).
macro_rules! py_methods {
    ($class:ident { $(
        $(#[$meta:meta])*
        fn $name:ident(&$s:ident $(, $a:ident: $t:ty)* $(; $($o:ident: $ot:ty),*)?) => $body:expr;
    )* }) => {
        #[pymethods]
        impl $class {$(
            $(#[$meta])*
            #[pyo3(signature = ($($a,)* $($($o = None),*)?))]
            fn $name<'py>(
                &$s, py: Python<'py>, $($a: &Obj<'py>,)* $($($o: Option<&Obj<'py>>),*)?
            ) -> $crate::convert::Out<'py> {
                $(let $a = <$t as $crate::args::Arg>::arg($a, stringify!($a))?;)*
                $($(let $o = $crate::args::opt::<$ot>($o, stringify!($o))?;)*)?
                $crate::convert::ToPyData::out(py.detach(|| $body), py)
            }
        )*}
    };
}
pub(crate) use py_methods;
