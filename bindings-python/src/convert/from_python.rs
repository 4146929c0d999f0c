//! Plain Python data read with serde straight from the objects, for the common case.

use pyo3::prelude::*;
use pyo3::types::iter::{BoundDictIterator, BoundListIterator};
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use session_state::json as json_check;

use super::Obj;

/// Plain Python data read as `T` straight from the objects when all of it is of exact built-in
/// types needing no rewording (`str` keys, no lone surrogate, 64-bit ints, finite floats, at
/// most [`json_check::MAX_VALUE_NESTING`] levels, at most `limit` bytes of JSON for sure) and
/// `T` accepts it, with the visitor calls serde_json makes; `None` sends it to `json_bytes`.
pub fn fast_typed<T: DeserializeOwned>(value: &Obj<'_>, limit: usize) -> Option<T> {
    let mut budget = limit;
    T::deserialize(PyData(value, 0, &mut budget)).ok()
}

/// The `, ` after a member or item, counted with each value.
const SEPARATOR: usize = 2;

/// Takes `bytes` from the `budget`; [`Declined`] when it would run out.
fn spend(budget: &mut usize, bytes: usize) -> Result<(), Declined> {
    *budget = budget.checked_sub(bytes).ok_or_else(declined)?;
    Ok(())
}

/// Why [`fast_typed`] gives up: the value needs the careful path (which names the fault).
type Declined = de::value::Error;

fn declined() -> Declined {
    de::Error::custom("not read directly")
}

/// One Python value as a serde deserializer, `depth` containers down, with the bytes of JSON
/// text left under the limit (counted at their largest: each string byte as `\u00XX`).
struct PyData<'a, 'py>(&'a Obj<'py>, usize, &'a mut usize);

impl<'de> serde::Deserializer<'de> for PyData<'_, '_> {
    type Error = Declined;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Declined> {
        let PyData(value, depth, budget) = self;
        if let Ok(text) = value.cast_exact::<PyString>() {
            let text = text.to_cow().map_err(|_| declined())?;
            spend(budget, text.len() * 6 + 2 + SEPARATOR)?;
            return visitor.visit_string(text.into_owned());
        }
        let (dict, list) = (value.cast_exact::<PyDict>(), value.cast_exact::<PyList>());
        if dict.is_ok() || list.is_ok() {
            if depth == json_check::MAX_VALUE_NESTING {
                return Err(declined());
            }
            spend(budget, 2 + SEPARATOR)?;
            return match (dict, list) {
                (Ok(dict), _) => visitor.visit_map(PyMap(dict.iter(), None, depth + 1, budget)),
                (_, Ok(list)) => visitor.visit_seq(PySeq(list.iter(), depth + 1, budget)),
                _ => Err(declined()),
            };
        }
        // The longest number `json.dumps` writes: `-2.2250738585072014e-308`.
        spend(budget, 24 + SEPARATOR)?;
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
                Err(_) => visitor.visit_u64(value.extract::<u64>().map_err(|_| declined())?),
            };
        }
        if let Ok(float) = value.cast_exact::<PyFloat>() {
            let float = float.value();
            if !float.is_finite() {
                return Err(declined());
            }
            return visitor.visit_f64(float);
        }
        Err(declined())
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Declined> {
        if self.0.is_none() {
            spend(self.2, 4 + SEPARATOR)?;
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

/// A `dict` for [`PyData`]: its items, the value of the key just read, the depth, the budget.
struct PyMap<'a, 'py>(
    BoundDictIterator<'py>,
    Option<Obj<'py>>,
    usize,
    &'a mut usize,
);

impl<'de> de::MapAccess<'de> for PyMap<'_, '_> {
    type Error = Declined;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Declined> {
        let Some((key, value)) = self.0.next() else {
            return Ok(None);
        };
        self.1 = Some(value);
        // The key's UTF-8, kept by the `str` object (no copy): a field name needs none.
        let key = key.cast_exact::<PyString>().map_err(|_| declined())?;
        let text = key.to_cow().map_err(|_| declined())?;
        spend(self.3, text.len() * 6 + 4)?; // `"key": `
        seed.deserialize(de::value::StrDeserializer::<Declined>::new(&text))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Declined> {
        let value = self.1.take().ok_or_else(declined)?;
        seed.deserialize(PyData(&value, self.2, self.3))
    }
}

/// The items of a `list` for [`PyData`], the depth and the budget.
struct PySeq<'a, 'py>(BoundListIterator<'py>, usize, &'a mut usize);

impl<'de> de::SeqAccess<'de> for PySeq<'_, '_> {
    type Error = Declined;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Declined> {
        let Some(item) = self.0.next() else {
            return Ok(None);
        };
        seed.deserialize(PyData(&item, self.1, self.2)).map(Some)
    }
}
