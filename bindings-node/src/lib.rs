//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. A binding
//! converts types and maps errors, nothing more: each module says what it holds. `cargo test`
//! runs the Rust tests without Node (napi's `dyn-symbols`); `npm run build` builds the addon.

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

/// The body of a method of the package: reads each argument (any JS value) as its type with
/// [`args::Arg`], named in errors as the parameter is (spelt as in JavaScript: `agentId`),
/// then evaluates `$body`, a core `Result`, into an [`Out`].
#[macro_export]
macro_rules! run {
    ($($arg:ident: $ty:ty),* => $body:expr) => {
        $crate::out(|| { $(let $arg: $ty = $crate::args::read($arg, stringify!($arg))?;)* $body })
    };
}

/// The body of a constructor: [`run!`], its error thrown through the `Env` `$env`.
#[macro_export]
macro_rules! construct {
    ($env:ident; $($arg:ident: $ty:ty),* => $body:expr) => {
        $crate::js(&$env, $crate::run!($($arg: $ty),* => $body).0)
    };
}

pub mod any_store;
pub mod args;
pub mod conformance;
pub mod errors;
pub mod git_head;
pub mod host_store;
pub mod orchestrator;
pub mod ownership;
pub mod redis_store;
pub mod registry;
pub mod retention;
pub mod stores;
pub mod team;

pub use any_store::AnyStore;
pub use errors::{Out, js, out, to_js_error};
