//! JS arguments to core types and core data to plain JS values.
//!
//! Values cross as JSON text through the engine's own `JSON.parse` / `JSON.stringify`, as in
//! the Node package: a document reaches JavaScript as `JSON.parse(file)` gives it, and a JS
//! argument reaches the core as the core's strict `JSON.stringify` writes it
//! ([`session_state::js_json`]: what JSON cannot hold exactly is `invalid_input` naming the
//! argument and the member, never changed silently). Exported functions take `JsValue`s, each
//! read by its [`Arg`] impl, which checks it ([`js_methods!`]).

use js_sys::{Array, JsString, Reflect, Uint8Array};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use session_state::js_json::{StrictJson, read_strict_json};
use session_state::{Error, Key, MAX_VALUE_NESTING, json};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{JsResult, Thrown, describe, invalid_input, type_name};

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = strictJson)]
    fn strict_json(value: &JsValue, max_depth: u32) -> std::result::Result<JsValue, JsValue>;
}

/// `value` as a plain JS value (objects, arrays, strings, numbers, booleans, `null`).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsResult<JsValue> {
    parse_json(serde_json::to_string_pretty(value))
}

/// The JS value of JSON text (the part of [`to_js`] that is the same for every type).
fn parse_json(text: serde_json::Result<String>) -> JsResult<JsValue> {
    from_json(&text.map_err(|e| invalid_input(e.to_string()))?)
}

/// The JS value of JSON text (`JSON.parse`).
pub fn from_json(text: &str) -> JsResult<JsValue> {
    js_sys::JSON::parse(text).map_err(|e| invalid_input(describe(&e)))
}

/// `undefined` or `null`.
pub fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// A Rust value read from one JS argument of [`js_methods!`].
pub trait Arg: Sized {
    /// `value` read as `Self`, errors naming `what`.
    fn arg(value: &JsValue, what: &str) -> JsResult<Self>;
}

/// The argument itself, for a method that reads it later.
impl Arg for JsValue {
    fn arg(value: &JsValue, _: &str) -> JsResult<Self> {
        Ok(value.clone())
    }
}

/// A `string` (wasm-bindgen would silently stringify a number).
impl Arg for String {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        let Some(text) = value.dyn_ref::<JsString>() else {
            return Err(Error::wrong_type(what, "a string", type_name(value)).into());
        };
        if !text.is_valid_utf16() {
            return Err(Error::lone_surrogate(what).into());
        }
        Ok(String::from(text))
    }
}

/// `undefined` and `null` give `None`; another value is read as `T`.
impl<T: Arg> Arg for Option<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        (!is_absent(value)).then(|| T::arg(value, what)).transpose()
    }
}

/// A store key: `invalid_key` when it is not a safe relative key.
impl Arg for Key {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        Ok(Key::new(String::arg(value, what)?)?)
    }
}

/// The bytes of a `string | Uint8Array` (strings as UTF-8).
impl Arg for Vec<u8> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        if let Some(array) = value.dyn_ref::<Uint8Array>() {
            return Ok(array.to_vec());
        }
        if !value.is_string() {
            let got = type_name(value);
            return Err(Error::wrong_type(what, "a string or a Uint8Array", got).into());
        }
        Ok(String::arg(value, what)?.into_bytes())
    }
}

/// An instant: `undefined` and `null` are now (`Date.now()`), an RFC 3339 string or a `Date`
/// (its ISO text) is that instant.
impl Arg for chrono::DateTime<chrono::Utc> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        if is_absent(value) {
            return Ok(session_state::Clock::now(&crate::clock::JsClock));
        }
        Ok(Json::<session_state::Timestamp>::arg(value, what)?.utc())
    }
}

/// Any JSON value, as the core's strict `JSON.stringify` writes it.
impl Arg for Value {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        #[allow(clippy::cast_possible_truncation)] // 100
        let outcome = strict_json(value, MAX_VALUE_NESTING as u32)
            .map_err(|e| invalid_input(format!("`{what}` is not JSON: {}", describe(&e))))?;
        let get = |name: &str| Reflect::get(&outcome, &JsValue::from_str(name)).unwrap_or_default();
        let (text, refused) = (get("text").as_string(), get("refused"));
        let part = |p: JsValue| p.as_string().unwrap_or_default();
        let parts: Vec<String> = refused
            .dyn_ref::<Array>()
            .map(|a| a.iter().map(part).collect())
            .unwrap_or_default();
        let type_name = type_name(value);
        let outcome = StrictJson::from_members(text.as_deref(), &parts, &type_name);
        Ok(read_strict_json(what, outcome)?)
    }
}

/// A document argument: a plain JS object, members kept in order.
pub type Doc = Map<String, Value>;

impl Arg for Doc {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        let not_object = || Thrown::from(Error::wrong_type(what, "an object", type_name(value)));
        if !value.is_object() || Array::is_array(value) {
            return Err(not_object());
        }
        match Value::arg(value, what)? {
            Value::Object(map) => Ok(map),
            _ => Err(not_object()),
        }
    }
}

/// A value of the shape of the core's serde type `T` (the core's `json::from_value`).
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> Arg for Json<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        Ok(Json(json::from_value(Value::arg(value, what)?, what)?))
    }
}

/// An options object read as the core's options type `T` (`undefined`, `null`: `T::default()`).
#[derive(Debug)]
pub struct Options<T>(pub T);

impl<T: DeserializeOwned + Default> Arg for Options<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        if is_absent(value) {
            return Ok(Options(T::default()));
        }
        Ok(Options(json::from_value(
            Doc::arg(value, what)?.into(),
            what,
        )?))
    }
}

/// [`Json`] and [`Options`] are the value read: `&Json<T>` passes as `&T`.
macro_rules! deref_to_inner {
    ($($wrapper:ident),+) => {$(
        impl<T> std::ops::Deref for $wrapper<T> {
            type Target = T;
            fn deref(&self) -> &T {
                &self.0
            }
        }
    )+};
}
deref_to_inner!(Json, Options);

/// Exported methods of `Class` (`js_methods!(Class { ... })`) or free functions
/// (`js_methods!(fn { ... })`): `fn jsName as rust_name(&self, a: T = "TS", ...; o: U = "TS",
/// ...) -> "TS" => body;`. Each argument is read by its [`Arg`] impl (errors naming the JS
/// parameter) and declared in TS as the string after `=`; those after `;` are optional in TS
/// (`U` reads `undefined`). The body, a core `Result`, is returned as a plain JS value
/// ([`to_js`]) of the TS type after `->`, or as `void` without one; a method without `=> body`
/// calls `self.inner.rust_name(&a, ...)`. Docs are `#[doc = " ..."]` lines (a `///` comment
/// passed through a macro reaches wasm-bindgen as a raw string, whose `r"` it would copy).
macro_rules! js_methods {
    ($class:tt { $(
        $(#[doc = $doc:literal])+
        fn $js:ident as $name:ident($(&$s:ident $(,)?)? $($a:ident: $t:ty = $ts:literal),*
            $(; $($o:ident: $ot:ty = $ots:literal),*)?) $(-> $ret:literal)? $(=> $body:expr)?;
    )+ }) => {$(
        $crate::convert::js_methods!(@wrap $class {
            $(#[doc = $doc])+
            #[wasm_bindgen(js_name = $js $(, unchecked_return_type = $ret)?)]
            pub fn $name(
                $(&$s,)?
                $(#[wasm_bindgen(unchecked_param_type = $ts)] $a: &wasm_bindgen::JsValue,)*
                $($(
                    #[wasm_bindgen(unchecked_optional_param_type = $ots)]
                    $o: &wasm_bindgen::JsValue,
                )*)?
            ) -> $crate::errors::JsResult<$crate::convert::js_methods!(@ret $($ret)?)> {
                $(let $a = <$t as $crate::convert::Arg>::arg($a, stringify!($a))?;)*
                $($(let $o = <$ot as $crate::convert::Arg>::arg($o, stringify!($o))?;)*)?
                let out: session_state::Result<_> = $crate::convert::js_methods!(
                    @body $name($($a)* $($($o)*)?) $($s)? $(=> $body)?
                );
                $crate::convert::js_methods!(@out out $($ret)?)
            }
        });
    )+};
    (@wrap fn { $($item:tt)* }) => { $($item)* };
    (@wrap $class:ident { $($item:tt)* }) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $class { $($item)* }
    };
    (@ret) => { () };
    (@ret $ret:literal) => { wasm_bindgen::JsValue };
    (@out $out:ident) => {{ $out?; Ok(()) }};
    (@out $out:ident $ret:literal) => { $crate::convert::to_js(&$out?) };
    (@body $name:ident($($a:ident)*) $s:ident) => { $s.inner.$name($(&$a),*) };
    (@body $name:ident($($a:ident)*) $($s:ident)? => $body:expr) => { $body };
}
pub(crate) use js_methods;
