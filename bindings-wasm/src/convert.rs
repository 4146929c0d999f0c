//! JS arguments to core types and core data to plain JS values.
//!
//! Values cross as JSON text through the engine's own `JSON.parse` / `JSON.stringify`, as in
//! the Node package: a document reaches JavaScript as `JSON.parse(file)` gives it, and a JS
//! argument reaches the core as the core's strict `JSON.stringify` writes it
//! ([`session_state::js_json`]: what JSON cannot hold exactly is `invalid_input` naming the
//! argument and the member, never changed silently). Arguments are typed by the extern types
//! below (no check on the way in: each is read by a function here, which checks it).

use js_sys::{Array, JsString, Reflect, Uint8Array};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use session_state::js_json::{StrictJson, read_strict_json};
use session_state::{Error, Key, MAX_VALUE_NESTING, json};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::errors::{JsResult, Thrown, describe, invalid_input, type_name};

#[wasm_bindgen]
extern "C" {
    /// A `string` argument, checked when read ([`Text::get`]): wasm-bindgen would silently
    /// stringify a number given for a `String` parameter.
    #[wasm_bindgen(typescript_type = "string")]
    #[derive(Clone, Debug)]
    pub type Text;

    /// A `Store` argument ([`crate::stores::store_arg`]).
    #[wasm_bindgen(typescript_type = "Store")]
    #[derive(Clone, Debug)]
    pub type StoreArg;

    /// A `OrchestratorSession` argument ([`document_from_js`]).
    #[wasm_bindgen(typescript_type = "OrchestratorSession")]
    #[derive(Clone, Debug)]
    pub type SessionArg;

    /// A `SessionState` argument ([`document_bytes`]).
    #[wasm_bindgen(typescript_type = "SessionState")]
    #[derive(Clone, Debug)]
    pub type StateArg;

    /// A `SpawnConfig` argument ([`document_from_js`]).
    #[wasm_bindgen(typescript_type = "SpawnConfig")]
    #[derive(Clone, Debug)]
    pub type ConfigArg;

    /// An optional `{ replace?: boolean }` argument ([`options_arg`]).
    #[wasm_bindgen(typescript_type = "{ replace?: boolean }")]
    #[derive(Clone, Debug)]
    pub type ReplaceArg;
}

impl Text {
    /// The string, named `what` in errors (as [`string_arg`]).
    pub fn get(&self, what: &str) -> JsResult<String> {
        string_arg(self, what)
    }
}

/// An optional `string` argument `what` (`undefined` and `null` are `None`).
pub fn opt_text(value: Option<Text>, what: &str) -> JsResult<Option<String>> {
    value.map(|text| text.get(what)).transpose()
}

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
    let text = text.map_err(|e| invalid_input(e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|e| invalid_input(describe(&e)))
}

/// The methods of a class that take only `string` arguments: each calls the core method of
/// `self.inner` it names with the strings ([`js_methods!`]), typed in TS as the string it
/// gives. Written as `#[doc = " ..."]` lines, then `jsName(argName, ...) ->
/// "TS type" = core_method;`; an argument that is not a string is `invalid_input` naming it.
/// (A `///` comment passed through a macro reaches wasm-bindgen as a raw string, whose `r"`
/// it would copy into the TS declarations.)
macro_rules! string_methods {
    ($class:ident: $($(#[doc = $doc:literal])+ $js:ident($($arg:ident),*) -> $ts:literal = $method:ident;)+) => {
        $crate::convert::js_methods!($class {$(
            $(#[doc = $doc])+
            fn $js as $method(&self $(, $arg: String = "string")*) -> $ts
                => self.inner.$method($(&$arg),*);
        )+});
    };
}
pub(crate) use string_methods;

/// Any JSON value from the JS argument `what` (the core's strict `JSON.stringify`).
pub fn value_from_js(value: &JsValue, what: &str) -> JsResult<Value> {
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

/// An optional JSON value argument `what`: `undefined` and `null` are `None`.
pub fn opt_value(value: &JsValue, what: &str) -> JsResult<Option<Value>> {
    (!is_absent(value))
        .then(|| value_from_js(value, what))
        .transpose()
}

/// A document (a plain JS object) from the argument `what`, members kept in order.
pub fn document_from_js(value: &JsValue, what: &str) -> JsResult<Map<String, Value>> {
    let not_object = || Thrown::from(Error::wrong_type(what, "an object", type_name(value)));
    if !value.is_object() || Array::is_array(value) {
        return Err(not_object());
    }
    match value_from_js(value, what)? {
        Value::Object(map) => Ok(map),
        _ => Err(not_object()),
    }
}

/// The JSON bytes of the document argument `what`, for the core's parsers.
pub fn document_bytes(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    serde_json::to_vec(&document_from_js(value, what)?).map_err(|e| invalid_input(e.to_string()))
}

/// The JS argument `what` read as `T` (the core's `json::from_value`).
pub fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> JsResult<T> {
    Ok(json::from_value(value_from_js(value, what)?, what)?)
}

/// An optional options object `what` read as the core's options type `T`: `undefined` and
/// `null` give `T::default()`.
pub fn options_arg<T: DeserializeOwned + Default>(value: &JsValue, what: &str) -> JsResult<T> {
    if is_absent(value) {
        return Ok(T::default());
    }
    let object = document_from_js(value, what)?;
    Ok(json::from_value(object.into(), what)?)
}

/// The `string` argument `what` (wasm-bindgen would silently stringify a number).
pub fn string_arg(value: &JsValue, what: &str) -> JsResult<String> {
    let Some(text) = value.dyn_ref::<JsString>() else {
        return Err(Error::wrong_type(what, "a string", type_name(value)).into());
    };
    if !text.is_valid_utf16() {
        return Err(Error::lone_surrogate(what).into());
    }
    Ok(String::from(text))
}

/// `undefined` or `null`.
pub fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// The store key argument `what`: `invalid_key` when it is not a safe relative key.
pub fn key_arg(key: &JsValue, what: &str) -> JsResult<Key> {
    Ok(Key::new(string_arg(key, what)?)?)
}

/// The bytes of a `string | Uint8Array` argument `what` (strings as UTF-8).
pub fn bytes_arg(value: &JsValue, what: &str) -> JsResult<Vec<u8>> {
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    if !value.is_string() {
        let got = type_name(value);
        return Err(Error::wrong_type(what, "a string or a Uint8Array", got).into());
    }
    Ok(string_arg(value, what)?.into_bytes())
}

/// An instant argument `what`: `undefined` and `null` are now (`Date.now()`), an RFC 3339
/// string or a `Date` (its ISO text) is that instant.
pub fn instant_arg(value: &JsValue, what: &str) -> JsResult<chrono::DateTime<chrono::Utc>> {
    if is_absent(value) {
        return Ok(session_state::Clock::now(&crate::clock::JsClock));
    }
    Ok(from_js::<session_state::Timestamp>(value, what)?.utc())
}

/// A Rust value read from one JS argument of [`js_methods!`].
pub trait Arg: Sized {
    /// `value` read as `Self`, errors naming `what`.
    fn arg(value: &JsValue, what: &str) -> JsResult<Self>;
}

impl Arg for String {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        string_arg(value, what)
    }
}

/// `undefined` and `null` give `None`; another value is read as `T`.
impl<T: Arg> Arg for Option<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        (!is_absent(value)).then(|| T::arg(value, what)).transpose()
    }
}

/// A document argument: a plain JS object ([`document_from_js`]).
pub type Doc = Map<String, Value>;

impl Arg for Doc {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        document_from_js(value, what)
    }
}

/// A value of the shape of the core's serde type `T` ([`from_js`]).
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> Arg for Json<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        from_js(value, what).map(Json)
    }
}

/// An options object ([`options_arg`]): `undefined` and `null` give `T::default()`.
#[derive(Debug)]
pub struct Options<T>(pub T);

impl<T: DeserializeOwned + Default> Arg for Options<T> {
    fn arg(value: &JsValue, what: &str) -> JsResult<Self> {
        options_arg(value, what).map(Options)
    }
}

/// A core result as the JS value [`to_js`] gives (`undefined` for `()`).
pub fn js_out<T: Serialize + 'static>(result: session_state::Result<T>) -> JsResult<JsValue> {
    let value = result?;
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<()>() {
        return Ok(JsValue::UNDEFINED);
    }
    to_js(&value)
}

/// Methods of a class whose arguments are read by type ([`Arg`], named as the JS parameter,
/// declared in TS as the string after `=`) and whose body, a core `Result`, is returned by
/// [`js_out`]: `fn jsName as rust_name(&self, a: T = "TS", ...; o: U = "TS", ...) -> "TS" =>
/// body;`, the arguments after `;` optional (read as `Option<U>`). Docs are `#[doc = " ..."]`
/// lines (see [`string_methods!`]).
macro_rules! js_methods {
    ($class:ident { $(
        $(#[doc = $doc:literal])+
        fn $js:ident as $name:ident(&$s:ident $(, $a:ident: $t:ty = $ts:literal)*
            $(; $($o:ident: $ot:ty = $ots:literal),*)?) -> $ret:literal => $body:expr;
    )+ }) => {
        #[wasm_bindgen::prelude::wasm_bindgen]
        impl $class {$(
            $(#[doc = $doc])+
            #[wasm_bindgen(js_name = $js, unchecked_return_type = $ret)]
            pub fn $name(
                &$s,
                $(#[wasm_bindgen(unchecked_param_type = $ts)] $a: &wasm_bindgen::JsValue,)*
                $($(
                    #[wasm_bindgen(unchecked_optional_param_type = $ots)]
                    $o: &wasm_bindgen::JsValue,
                )*)?
            ) -> $crate::errors::JsResult<wasm_bindgen::JsValue> {
                $(let $a = <$t as $crate::convert::Arg>::arg($a, stringify!($a))?;)*
                $($(let $o = <Option<$ot> as $crate::convert::Arg>::arg($o, stringify!($o))?;)*)?
                $crate::convert::js_out($body)
            }
        )+}
    };
}
pub(crate) use js_methods;
