//! Arguments, taken as Python objects and checked here the way a Python user expects: a wrong
//! type or an int out of range is an `InvalidInputError` (the former also a `TypeError`) naming
//! the argument, never a builtin `OverflowError` or pyo3's bare `TypeError`.

use std::borrow::Cow;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};
use serde::de::DeserializeOwned;
use session_state::orchestrator::SessionStatus;
use session_state::team::BackendType;
use session_state::{Error, Key, Timestamp};
use session_state_fs::process::{RecordsProcess, or_this_process};

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

/// The int in `value` as an `i128`, or `None` when it is larger still. Wrong type for a `bool`
/// too (`agent_progress("a", True)` storing 1 is not what the caller meant; Node refuses it).
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

/// A `str` (a subclass such as a `str` enum counts). A lone surrogate, which UTF-8 cannot
/// hold, is an `InvalidInputError` as well.
pub fn text<'a>(value: &'a Obj<'_>, name: &str) -> PyResult<Cow<'a, str>> {
    let wrong = |_| wrong_type(value, name, "a str");
    let string = value.cast::<PyString>().map_err(wrong)?;
    string
        .to_cow()
        .map_err(|_| to_py_err(Error::lone_surrogate(name)))
}

/// A typed argument of [`py_methods!`]: read from the Python object passed as `name`.
pub trait Arg<'a>: Sized {
    /// `value` read as `Self`, errors naming `name`.
    fn arg(value: &'a Obj<'_>, name: &str) -> PyResult<Self>;
}

/// An optional argument: `None` (or omitted) gives `None`; another value is read as `T`.
pub fn opt<'a, T: Arg<'a>>(value: Option<&'a Obj<'_>>, name: &str) -> PyResult<Option<T>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| T::arg(v, name))
        .transpose()
}

impl Arg<'_> for String {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        text(value, name).map(Cow::into_owned)
    }
}

/// `None` gives `None`; another value is read as `T`.
impl<'a, T: Arg<'a>> Arg<'a> for Option<T> {
    fn arg(value: &'a Obj<'_>, name: &str) -> PyResult<Self> {
        opt(Some(value), name)
    }
}

/// An int within `MIN..=MAX`.
#[derive(Debug)]
pub struct Bounded<const MIN: i32, const MAX: i32>(pub i32);

impl<const MIN: i32, const MAX: i32> Arg<'_> for Bounded<MIN, MAX> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        int(value, name)?
            .and_then(|n| i32::try_from(n).ok())
            .filter(|n| (MIN..=MAX).contains(n))
            .map(Bounded)
            .ok_or_else(|| out_of_range(name, value, &format!("an int from {MIN} to {MAX}")))
    }
}

/// A folder: a `str` or `os.PathLike`, with `~` expanded as `os.path.expanduser` does.
impl Arg<'_> for PathBuf {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        let wrong = |_: PyErr| wrong_type(value, name, "a str or os.PathLike");
        let os = value.py().import("os")?;
        let fspath = os.call_method1("fspath", (value,)).map_err(wrong)?;
        let expanded = os.getattr("path")?.call_method1("expanduser", (fspath,))?;
        expanded.extract::<PathBuf>().map_err(wrong)
    }
}

/// A `bool` (exactly: `0`/`1` are refused as pyo3 refuses them).
impl Arg<'_> for bool {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        let flag = value.cast::<PyBool>();
        Ok(flag
            .map_err(|_| wrong_type(value, name, "a bool"))?
            .is_true())
    }
}

/// A count (a limit, an offset, a size): an int from 0 up; one too large for a `u64` counts
/// as `u64::MAX` (no list is that long).
impl Arg<'_> for u64 {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        let negative = || out_of_range(name, value, "zero or more");
        match int(value, name)? {
            Some(n) if n < 0 => Err(negative()),
            Some(n) => Ok(u64::try_from(n).unwrap_or(u64::MAX)),
            // Beyond i128: positive or negative.
            None if value.lt(0i32)? => Err(negative()),
            None => Ok(u64::MAX),
        }
    }
}

/// A count, as for `u64`.
impl Arg<'_> for usize {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        u64::arg(value, name).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }
}

/// `bytes` (not `str`: a str has no single byte form).
impl<'a> Arg<'a> for &'a [u8] {
    fn arg(value: &'a Obj<'_>, name: &str) -> PyResult<Self> {
        let wrong = |_| wrong_type(value, name, "bytes");
        Ok(value.cast::<PyBytes>().map_err(wrong)?.as_bytes())
    }
}

/// A list (or tuple) of `str`.
impl Arg<'_> for Vec<String> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        if value.is_instance_of::<PyString>() {
            return Err(wrong_type(value, name, "a list of str"));
        }
        value
            .extract::<Vec<Bound<'_, PyAny>>>()
            .map_err(|_| wrong_type(value, name, "a list of str"))?
            .iter()
            .enumerate()
            .map(|(i, item)| String::arg(item, &format!("{name}[{i}]")))
            .collect()
    }
}

/// Arguments that are a `str` the core parses (its error when it does not parse).
macro_rules! parsed_args {
    ($($t:ty => $parse:expr),* $(,)?) => {$(
        impl Arg<'_> for $t {
            fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
                $parse(&*text(value, name)?).py()
            }
        }
    )*};
}

parsed_args!(
    // A time in RFC 3339.
    DateTime<Utc> => |t| Timestamp::parse(t).map(|t| t.utc()),
    // A safe key (`InvalidKeyError` otherwise).
    Key => Key::new,
    SessionStatus => SessionStatus::parse,
    // A backend name (`claude-code`, `codex`, `gemini-cli`).
    BackendType => str::parse,
);

/// Plain data of the shape of the core's serde type `T` ([`from_py`]), errors naming the
/// argument unless `NAMED` is false.
#[derive(Debug, Default)]
pub struct Json<T, const NAMED: bool = true>(pub T);

impl<T: DeserializeOwned, const NAMED: bool> Arg<'_> for Json<T, NAMED> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        from_py(if NAMED { name } else { "" }, value).map(Json)
    }
}

impl<T, const NAMED: bool> std::ops::Deref for Json<T, NAMED> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// [`Json`] whose errors name the members only (the recording verbs' `input`).
pub type Fields<T> = Json<T, false>;

/// A claim or heartbeat ([`Json`]) recording this process when it names no process
/// ([`or_this_process`]).
#[derive(Debug)]
pub struct Here<T>(pub T);

impl<T: DeserializeOwned + RecordsProcess> Arg<'_> for Here<T> {
    fn arg(value: &Obj<'_>, name: &str) -> PyResult<Self> {
        let request = from_py(name, value)?;
        or_this_process(request).map(Here).map_err(to_py_err)
    }
}

/// The arguments of [`py_methods!`], [`py_functions!`] and [`py_new!`] read by type ([`Arg`])
/// into local variables; the optional ones as `Option<T>`, or `T` with the default after `=`.
macro_rules! read_args {
    ($($a:ident: $t:ty),*; $($o:ident: $ot:ty $(= $d:expr)?),*) => {
        $(let $a = <$t as $crate::args::Arg>::arg($a, stringify!($a))?;)*
        $(
            let $o = $crate::args::opt::<$ot>($o, stringify!($o))?;
            $(let $o = match $o { Some(value) => value, None => $d };)?
        )*
    };
}
pub(crate) use read_args;

/// The type of an argument of the leading list of [`py_methods!`]: `String` unless given.
macro_rules! or_string {
    () => {
        String
    };
    ($t:ty) => {
        $t
    };
}
pub(crate) use or_string;

/// `#[pymethods]`: `fn name(&self, a: T, ...; o: U = default, ...) => body;` ([`read_args!`];
/// after `;` optional, `None` in Python; after `*,` keyword-only), `body` a core `Result` run
/// without the interpreter lock, returned by [`ToPyData`](crate::convert::ToPyData). A leading
/// `[name(a, b: T, ...; o, ...), ...]` passes them (`str` unless typed) to `self.inner.name`.
macro_rules! py_methods {
    ($class:ident {
        [$($name:ident($($p:ident $(: $pt:ty)?),* $(; $($q:ident),*)?)),* $(,)?], $($rest:tt)*
    }) => {
        $crate::args::py_methods!($class { $(
            fn $name(&self $(, $p: $crate::args::or_string!($($pt)?))* $(; $($q: String),*)?) =>
                self.inner.$name($(&$p,)* $($($q.as_deref()),*)?);
        )* $($rest)* });
    };
    ($class:ident { $(
        $(#[$meta:meta])*
        fn $name:ident(&$s:ident $(, $a:ident: $t:ty)*
            $(; $($(*$star:tt)? $o:ident: $ot:ty $(= $d:expr)?),*)?) => $body:expr;
    )* }) => {
        #[pymethods]
        impl $class {$(
            $(#[$meta])*
            #[pyo3(signature = ($($a,)* $($($(*$star)? $o = None),*)?))]
            fn $name<'py>(
                &$s, py: Python<'py>, $($a: &$crate::convert::Obj<'py>,)*
                $($($o: Option<&$crate::convert::Obj<'py>>),*)?
            ) -> $crate::convert::Out<'py> {
                $crate::args::read_args!($($a: $t),*; $($($o: $ot $(= $d)?),*)?);
                $crate::convert::ToPyData::out(py.detach(|| $body), py)
            }
        )*}
    };
}
pub(crate) use py_methods;

/// `#[pyfunction]`s: `fn name(a: T, ...; o: U = default, ...) => body;` as in [`py_methods!`].
macro_rules! py_functions {
    ($(
        $(#[$meta:meta])*
        fn $name:ident($($a:ident: $t:ty),* $(; $($o:ident: $ot:ty $(= $d:expr)?),*)?) =>
            $body:expr;
    )*) => {$(
        $(#[$meta])*
        #[pyfunction]
        #[allow(clippy::elidable_lifetime_names)] // `json_schema()` takes no argument
        #[pyo3(signature = ($($a,)* $($($o = None),*)?))]
        pub fn $name<'py>(
            py: Python<'py>, $($a: &$crate::convert::Obj<'py>,)*
            $($($o: Option<&$crate::convert::Obj<'py>>),*)?
        ) -> $crate::convert::Out<'py> {
            $crate::args::read_args!($($a: $t),*; $($($o: $ot $(= $d)?),*)?);
            $crate::convert::ToPyData::out(py.detach(|| $body), py)
        }
    )*};
}
pub(crate) use py_functions;

/// The `#[pymethods]` of a class: `fn new(a: T, ...; o: U = default, ...) => body;` (the
/// arguments as in [`py_methods!`], `body` a `PyResult<Self>`), then the class's own methods.
macro_rules! py_new {
    ($class:ident {
        $(#[$meta:meta])*
        fn new($($a:ident: $t:ty),* $(; $($(*$star:tt)? $o:ident: $ot:ty $(= $d:expr)?),*)?) =>
            $body:expr;
        $($own:tt)*
    }) => {
        #[pymethods]
        impl $class {
            $(#[$meta])*
            #[new]
            #[allow(clippy::unnecessary_wraps)] // `MemoryStore()` cannot fail
            #[pyo3(signature = ($($a,)* $($($(*$star)? $o = None),*)?))]
            fn new(
                $($a: &$crate::convert::Obj<'_>,)* $($($o: Option<&$crate::convert::Obj<'_>>),*)?
            ) -> PyResult<Self> {
                $crate::args::read_args!($($a: $t),*; $($($o: $ot $(= $d)?),*)?);
                $body
            }
            $($own)*
        }
    };
}
pub(crate) use py_new;
