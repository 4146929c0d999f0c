//! Documents across the boundary: serde values to plain `dict`/`list` and back.
//!
//! Both directions go through JSON text handled by CPython's C-accelerated `json` module
//! (`json.dumps` / `json.loads`) and serde_json on the Rust side: under the stable ABI this is
//! several times faster than building the objects one call at a time. The user never sees the
//! text: values arrive and leave as `dict`, `list`, `str`, `int`, `float`, `bool` and `None`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::exceptions::PyRecursionError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::Serialize;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use serde_json::Value;
use session_state::Error;
use session_state::argument_fields::{MemberNames, from_argument};

use crate::errors::{IntoPyResult, to_py_err};
use session_state::json as json_check;

/// A Python object, as every native method takes its arguments.
pub type Obj<'py> = Bound<'py, PyAny>;

/// What a native method returning plain Python data returns.
pub type Out<'py> = PyResult<Obj<'py>>;

/// A core result as plain Python data: the value through [`to_py`], the error through
/// [`to_py_err`].
pub trait ToPyData {
    /// The value as `dict`, `list`, `str`, ... or the mapped error.
    fn out(self, py: Python<'_>) -> Out<'_>;
}

impl<T: Serialize> ToPyData for Result<T, Error> {
    fn out(self, py: Python<'_>) -> Out<'_> {
        to_py(py, &self.map_err(to_py_err)?)
    }
}

/// Any serialisable value as plain Python data (`dict`, `list`, `str`, `int`, ...).
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, value: &T) -> Out<'py> {
    let text = serde_json::to_vec(value);
    let text = text.map_err(|e| invalid(format!("value cannot be written as JSON: {e}")))?;
    py.import("json")?
        .call_method1("loads", (PyBytes::new(py, &text),))
}

/// `InvalidInputError` with `message`.
fn invalid(message: String) -> PyErr {
    to_py_err(Error::invalid_input(message))
}

/// The JSON text of plain Python data (what `json.dumps` accepts); anything else is an
/// `InvalidInputError` naming `what`:
///
/// - NaN and infinities (JSON has no such numbers);
/// - an `int` outside the 64-bit range (`-2**63` to `2**64 - 1`), which would not be kept
///   exactly (the message names where it is, e.g. `result["a"][0]`);
/// - lists and dicts nested deeper than [`json_check::MAX_VALUE_NESTING`] levels;
/// - a `str` (value or dict key) holding a lone surrogate such as `"\udc00"`, which UTF-8
///   cannot encode (the message names where it is, e.g. `result["k"]`).
///
/// Dict keys that are `int`, `float`, `bool` or `None` become strings as `json.dumps` writes
/// them (`1` -> `"1"`, `None` -> `"null"`), as the seeds' `json.dump` did; other key types
/// are refused.
pub fn json_bytes(what: &str, value: &Obj<'_>) -> PyResult<Vec<u8>> {
    let py = value.py();
    let (json, kwargs) = (py.import("json")?, PyDict::new(py));
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let text = json
        .call_method("dumps", (value,), Some(&kwargs))
        .map_err(|e| {
            if e.is_instance_of::<PyRecursionError>(py) {
                return to_py_err(json_check::too_deep(what));
            }
            invalid(format!("{what} is not plain JSON data: {}", e.value(py)))
        })?;
    let Ok(text) = text.extract::<String>() else {
        // Not UTF-8: a `str` holding a lone surrogate (`"\udc00"`). Written again with
        // `\uXXXX` escapes, the check finds and names it.
        kwargs.set_item("ensure_ascii", true)?;
        let ascii = json.call_method("dumps", (value,), Some(&kwargs))?;
        json_check::check_input(what, ascii.extract::<String>()?.as_bytes()).py()?;
        return Err(invalid(format!(
            "{what} holds a string that is not valid Unicode"
        )));
    };
    let bytes = text.into_bytes();
    json_check::check_input(what, &bytes).py()?;
    Ok(bytes)
}

/// Plain Python data, the argument `name`, into a typed value; a shape that does not fit is
/// an `InvalidInputError` naming the member at fault below `name` (the core's
/// [`from_argument`]), without serde_json's line and column (the caller never sees the JSON
/// text).
pub fn from_py<T: DeserializeOwned>(name: &str, value: &Obj<'_>) -> PyResult<T> {
    from_py_as(name, value, MemberNames::Keys)
}

/// [`from_py`] naming the members as `names` says.
pub fn from_py_as<T: DeserializeOwned>(
    name: &str,
    value: &Obj<'_>,
    names: MemberNames,
) -> PyResult<T> {
    let bytes = json_bytes(&format!("`{name}`"), value)?;
    let json = serde_json::from_slice::<Value>(&bytes);
    let json = json.map_err(|e| invalid(format!("`{name}` is not plain JSON data: {e}")))?;
    from_argument(json, name, names).map_err(to_py_err)
}

/// The `#[pymethods]` of a handle class: first the methods that pass their `str` arguments
/// (checked by [`crate::args::text`], named; those after `;` optional, `None` by default) to
/// the core method of the same name on `self.inner` and return its result as plain data; then
/// the class's own methods.
macro_rules! handle_methods {
    ($class:ident { [$($name:ident($($a:ident),* $(; $($o:ident),*)?)),* $(,)?], $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            $(#[pyo3(signature = ($($a,)* $($($o = None),*)?))]
            fn $name<'py>(
                &self, py: Python<'py>, $($a: &Obj<'py>,)* $($($o: Option<&Obj<'py>>),*)?
            ) -> Out<'py> {
                self.inner.$name(
                    $(&$crate::args::text($a, stringify!($a))?,)*
                    $($($crate::args::opt_text($o, stringify!($o))?.as_deref()),*)?
                ).out(py)
            })*
            $($own)*
        }
    };
}
pub(crate) use handle_methods;

/// Plain Python data read as `T` with serde straight from the objects (no JSON text), when
/// every part of it is of an exact built-in type that needs no rewording: `dict` with `str`
/// keys, `list`, `str` without lone surrogates, `int` in the 64-bit range, finite `float`,
/// `bool` and `None`, nested at most [`json_check::MAX_VALUE_NESTING`] levels, with JSON text
/// of at most `limit` bytes for sure; and `T` accepts it. `None` otherwise: [`json_bytes`] then
/// converts or refuses the value with the named error. Both read the same `T` from what this
/// one accepts (the same calls of serde's visitor as serde_json makes for the value's text).
pub fn fast_typed<T: DeserializeOwned>(value: &Obj<'_>, limit: usize) -> Option<T> {
    let mut walk = Walk {
        budget: limit,
        keys: HashMap::default(),
    };
    T::deserialize(PyData {
        value,
        depth: 0,
        walk: &mut walk,
    })
    .ok()
}

/// The `, ` after a member or item, counted with each value.
const SEPARATOR: usize = 2;

/// The state of one [`fast_typed`]: how many bytes of JSON text are left under the limit
/// (counted at their largest, as `json.dumps` writes it: every string byte escaped as
/// `\u00XX`, `, ` and `: ` between members), and the keys already
/// converted, by object (a dict's keys are mostly the same `str` objects, which the dict
/// keeps alive while it is read).
struct Walk {
    budget: usize,
    keys: HashMap<usize, String, QuickHash>,
}

impl Walk {
    /// Takes `bytes` from the budget; [`Declined`] when it would run out.
    fn spend(&mut self, bytes: usize) -> Result<(), Declined> {
        self.budget = self.budget.checked_sub(bytes).ok_or(Declined)?;
        Ok(())
    }
}

/// Why [`fast_typed`] gives up: the value needs the careful path (which names the fault).
#[derive(Debug)]
struct Declined;

impl std::fmt::Display for Declined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not read directly")
    }
}

impl std::error::Error for Declined {}

impl de::Error for Declined {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Declined
    }
}

/// One Python value as a serde deserializer, `depth` containers down.
struct PyData<'a, 'py> {
    value: &'a Obj<'py>,
    depth: usize,
    walk: &'a mut Walk,
}

impl<'de> serde::Deserializer<'de> for PyData<'_, '_> {
    type Error = Declined;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Declined> {
        let (value, depth, walk) = (self.value, self.depth, self.walk);
        if let Ok(text) = value.cast_exact::<PyString>() {
            let text = text.to_cow().map_err(|_| Declined)?;
            walk.spend(text.len() * 6 + 2 + SEPARATOR)?;
            return visitor.visit_string(text.into_owned());
        }
        if let Ok(dict) = value.cast_exact::<PyDict>() {
            if depth == json_check::MAX_VALUE_NESTING {
                return Err(Declined);
            }
            walk.spend(2 + SEPARATOR)?;
            return visitor.visit_map(PyMap {
                items: dict.iter(),
                next: None,
                depth: depth + 1,
                walk,
            });
        }
        if let Ok(list) = value.cast_exact::<PyList>() {
            if depth == json_check::MAX_VALUE_NESTING {
                return Err(Declined);
            }
            walk.spend(2 + SEPARATOR)?;
            return visitor.visit_seq(PySeq {
                items: list.iter(),
                depth: depth + 1,
                walk,
            });
        }
        // The longest number `json.dumps` writes: `-2.2250738585072014e-308`.
        walk.spend(24 + SEPARATOR)?;
        if value.is_none() {
            return visitor.visit_unit();
        }
        if let Ok(flag) = value.cast_exact::<PyBool>() {
            return visitor.visit_bool(flag.is_true());
        }
        if value.is_exact_instance_of::<PyInt>() {
            // As serde_json reads the text: from 0 up a u64, below 0 an i64.
            return match value.extract::<i64>() {
                Ok(n) => match u64::try_from(n) {
                    Ok(n) => visitor.visit_u64(n),
                    Err(_) => visitor.visit_i64(n),
                },
                Err(_) => visitor.visit_u64(value.extract::<u64>().map_err(|_| Declined)?),
            };
        }
        if let Ok(float) = value.cast_exact::<PyFloat>() {
            let float = float.value();
            if !float.is_finite() {
                return Err(Declined);
            }
            return visitor.visit_f64(float);
        }
        Err(Declined)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Declined> {
        if self.value.is_none() {
            self.walk.spend(4 + SEPARATOR)?;
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Declined> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The members of a `dict` for [`PyData`].
struct PyMap<'a, 'py> {
    items: pyo3::types::iter::BoundDictIterator<'py>,
    next: Option<Obj<'py>>,
    depth: usize,
    walk: &'a mut Walk,
}

impl<'de> de::MapAccess<'de> for PyMap<'_, '_> {
    type Error = Declined;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Declined> {
        let Some((key, value)) = self.items.next() else {
            return Ok(None);
        };
        self.next = Some(value);
        let text = key.cast_exact::<PyString>().map_err(|_| Declined)?;
        let text = match self.walk.keys.entry(key.as_ptr() as usize) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => new.insert(text.to_cow().map_err(|_| Declined)?.into_owned()),
        };
        self.walk.budget = self
            .walk
            .budget
            .checked_sub(text.len() * 6 + 4) // `"key": `
            .ok_or(Declined)?;
        seed.deserialize(de::value::StrDeserializer::<Declined>::new(text))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Declined> {
        let value = self.next.take().ok_or(Declined)?;
        seed.deserialize(PyData {
            value: &value,
            depth: self.depth,
            walk: self.walk,
        })
    }
}

/// The items of a `list` for [`PyData`].
struct PySeq<'a, 'py> {
    items: pyo3::types::iter::BoundListIterator<'py>,
    depth: usize,
    walk: &'a mut Walk,
}

impl<'de> de::SeqAccess<'de> for PySeq<'_, '_> {
    type Error = Declined;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Declined> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        seed.deserialize(PyData {
            value: &item,
            depth: self.depth,
            walk: self.walk,
        })
        .map(Some)
    }
}

/// FxHash (rustc's): one rotate, xor and multiplication per word; for the addresses and short
/// keys of one conversion, where SipHash's protection against chosen collisions buys nothing.
#[derive(Default)]
struct QuickHasher(u64);

impl QuickHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let mut word = [0; 8];
        word[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(word));
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

type QuickHash = BuildHasherDefault<QuickHasher>;

/// The JSON text `bytes` (a leading UTF-8 BOM skipped), which the core has already parsed and
/// checked, as plain Python data equal to what `json.loads` gives, built in one pass over the
/// text; keys that repeat share one `str` (as `json.loads` does). A number `json.loads` reads
/// otherwise than serde_json (an integer outside the 64-bit range, which serde_json reads as a
/// float, and `-0`) sends the whole text to `json.loads`.
pub fn json_to_py<'py>(py: Python<'py>, bytes: &[u8]) -> Out<'py> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let built = std::str::from_utf8(bytes).ok().and_then(|text| {
        // From a `str`: serde_json does not check each string's UTF-8 again.
        let mut reader = serde_json::Deserializer::from_str(text);
        let mut keys = HashMap::default();
        let value = Build {
            py,
            keys: &mut keys,
        }
        .deserialize(&mut reader);
        value.and_then(|value| reader.end().map(|()| value)).ok()
    });
    match built {
        Some(value) => Ok(value),
        None => py
            .import("json")?
            .call_method1("loads", (PyBytes::new(py, bytes),)),
    }
}

/// The keys made so far by one [`json_to_py`], by text.
type Keys<'de, 'py> = HashMap<&'de str, Bound<'py, PyString>, QuickHash>;

/// One value of [`json_to_py`].
struct Build<'a, 'de, 'py> {
    py: Python<'py>,
    keys: &'a mut Keys<'de, 'py>,
}

/// One key of [`json_to_py`]: the `str` made before for the same text, if any.
struct Key<'a, 'de, 'py> {
    py: Python<'py>,
    keys: &'a mut Keys<'de, 'py>,
}

impl<'de, 'py> DeserializeSeed<'de> for Key<'_, 'de, 'py> {
    type Value = Bound<'py, PyString>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, 'py> Visitor<'de> for Key<'_, 'de, 'py> {
    type Value = Bound<'py, PyString>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        let py = self.py;
        let key = self.keys.entry(v).or_insert_with(|| PyString::new(py, v));
        Ok(key.clone())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PyString::new(self.py, v))
    }
}

impl<'de, 'py> DeserializeSeed<'de> for Build<'_, 'de, 'py> {
    type Value = Obj<'py>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Obj<'py>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for Build<'_, 'de, 'py> {
    type Value = Obj<'py>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Obj<'py>, E> {
        Ok(self.py.None().into_bound(self.py))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Obj<'py>, E> {
        Ok(PyBool::new(self.py, v).to_owned().into_any())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Obj<'py>, E> {
        Ok(v.into_pyobject(self.py).map_err(E::custom)?.into_any())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Obj<'py>, E> {
        Ok(v.into_pyobject(self.py).map_err(E::custom)?.into_any())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Obj<'py>, E> {
        // serde_json reads `-0` and integers outside the 64-bit range as floats.
        if (v == 0.0 && v.is_sign_negative()) || (v.fract() == 0.0 && v.abs() >= 9.2e18) {
            return Err(E::custom("a number json.loads reads otherwise"));
        }
        Ok(PyFloat::new(self.py, v).into_any())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Obj<'py>, E> {
        Ok(PyString::new(self.py, v).into_any())
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Obj<'py>, A::Error> {
        let (py, keys) = (self.py, self.keys);
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Build {
            py,
            keys: &mut *keys,
        })? {
            items.push(item);
        }
        PyList::new(py, items)
            .map(Bound::into_any)
            .map_err(de::Error::custom)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Obj<'py>, A::Error> {
        let (py, keys) = (self.py, self.keys);
        let dict = PyDict::new(py);
        while let Some(key) = map.next_key_seed(Key {
            py,
            keys: &mut *keys,
        })? {
            let value = map.next_value_seed(Build {
                py,
                keys: &mut *keys,
            })?;
            dict.set_item(key, value).map_err(de::Error::custom)?;
        }
        Ok(dict.into_any())
    }
}
