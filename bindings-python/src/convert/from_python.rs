//! Plain Python data read with serde straight from the objects, for the common case.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use session_state::json as json_check;

use super::Obj;
use rustc_hash::FxBuildHasher;

/// Plain Python data read as `T` with serde straight from the objects (no JSON text), when
/// every part of it is of an exact built-in type that needs no rewording: `dict` with `str`
/// keys, `list`, `str` without lone surrogates, `int` in the 64-bit range, finite `float`,
/// `bool` and `None`, nested at most [`json_check::MAX_VALUE_NESTING`] levels, with JSON text
/// of at most `limit` bytes for sure; and `T` accepts it. `None` otherwise: [`json_bytes`](super::json_bytes) then
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
    keys: HashMap<usize, String, FxBuildHasher>,
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
