//! JSON text the core has checked, built into plain Python data in one pass.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyList, PyString};
use serde::de::{self, DeserializeSeed, Visitor};

use super::{Obj, Out};
use rustc_hash::FxBuildHasher;

/// The JSON text `bytes` (BOM skipped) the core has checked, as what `json.loads` gives, built
/// in one pass (repeated keys share one `str`); a number `json.loads` reads otherwise than
/// serde_json (beyond 64 bits, `-0`) or a key with escapes sends the text to `json.loads`.
pub fn json_to_py<'py>(py: Python<'py>, bytes: &[u8]) -> Out<'py> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let built = std::str::from_utf8(bytes).ok().and_then(|text| {
        // From a `str`: serde_json does not check each string's UTF-8 again.
        let mut reader = serde_json::Deserializer::from_str(text);
        let value = Build(py, &mut HashMap::default()).deserialize(&mut reader);
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
type Keys<'de, 'py> = HashMap<&'de str, Bound<'py, PyString>, FxBuildHasher>;

/// One value of [`json_to_py`].
struct Build<'a, 'de, 'py>(Python<'py>, &'a mut Keys<'de, 'py>);

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
        Ok(self.0.None().into_bound(self.0))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Obj<'py>, E> {
        Ok(PyBool::new(self.0, v).to_owned().into_any())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Obj<'py>, E> {
        Ok(v.into_pyobject(self.0).map_err(E::custom)?.into_any())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Obj<'py>, E> {
        Ok(v.into_pyobject(self.0).map_err(E::custom)?.into_any())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Obj<'py>, E> {
        // serde_json reads `-0` and integers outside the 64-bit range as floats.
        if (v == 0.0 && v.is_sign_negative()) || (v.fract() == 0.0 && v.abs() >= 9.2e18) {
            return Err(E::custom("a number json.loads reads otherwise"));
        }
        Ok(PyFloat::new(self.0, v).into_any())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Obj<'py>, E> {
        Ok(PyString::new(self.0, v).into_any())
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Obj<'py>, A::Error> {
        let Build(py, keys) = self;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Build(py, &mut *keys))? {
            items.push(item);
        }
        PyList::new(py, items)
            .map(Bound::into_any)
            .map_err(de::Error::custom)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Obj<'py>, A::Error> {
        let Build(py, keys) = self;
        let dict = PyDict::new(py);
        // A key with escapes, which serde_json cannot lend, sends the text to `json.loads`.
        while let Some(key) = map.next_key::<&'de str>()? {
            let key = keys.entry(key).or_insert_with(|| PyString::new(py, key));
            let key = key.clone();
            let value = map.next_value_seed(Build(py, &mut *keys))?;
            dict.set_item(key, value).map_err(de::Error::custom)?;
        }
        Ok(dict.into_any())
    }
}
