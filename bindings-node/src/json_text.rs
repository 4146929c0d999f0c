//! Documents as JSON text: a plain object goes to the core as the text of the engine's own
//! `JSON.stringify` (the core's [`PLAIN_JSON_JS`]), with no JSON value built on the way;
//! anything else through the strict reading of [`crate::args`], errors included.

use std::cell::RefCell;

use napi::bindgen_prelude::{Env, FnArgs, Function, FunctionRef, JsValue, Unknown, ValueType};
use session_state::js_json::PLAIN_JSON_JS;
use session_state::orchestrator::{
    OrchestratorSession, ParseOptions, parse_object_argument, parse_text_argument,
};
use session_state::{MAX_VALUE_NESTING, Result};

use crate::args::{Arg, Doc};

type PlainJson = FunctionRef<FnArgs<(Unknown<'static>, u32)>, Option<String>>;

thread_local! {
    /// [`PLAIN_JSON_JS`] evaluated once for the environment (by address) of this JS thread.
    static PLAIN_JSON: RefCell<Option<(usize, PlainJson)>> = const { RefCell::new(None) };
}

/// The document argument `name`, read with `options`.
pub fn session_argument(
    value: Unknown<'_>,
    name: &str,
    options: &ParseOptions,
) -> Result<OrchestratorSession> {
    let object =
        value.get_type().ok() == Some(ValueType::Object) && !value.is_array().unwrap_or(true);
    match object.then(|| plain_json(value).ok().flatten()).flatten() {
        Some(text) => parse_text_argument(name, &text, options),
        None => parse_object_argument(name, &Doc::arg(value, name)?, options),
    }
}

/// The JSON text of `value` when [`PLAIN_JSON_JS`] gives one.
fn plain_json(value: Unknown<'_>) -> napi::Result<Option<String>> {
    let env = Env::from_raw(value.value().env);
    let function = PLAIN_JSON.with_borrow_mut(|cached| match cached {
        Some((at, function)) if *at == env.raw() as usize => function.borrow_back(&env),
        _ => {
            let made: Function<'_, _, _> = env.run_script(PLAIN_JSON_JS)?;
            *cached = Some((env.raw() as usize, made.create_ref()?));
            Ok(made)
        }
    })?;
    let max_depth = u32::try_from(MAX_VALUE_NESTING).unwrap_or(u32::MAX);
    function.call(FnArgs::from((value, max_depth)))
}
