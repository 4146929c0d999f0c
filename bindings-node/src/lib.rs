//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. A binding
//! converts types and maps errors, nothing more: each module says what it holds. `cargo test`
//! runs the Rust tests without Node (napi's `dyn-symbols`); `npm run build` builds the addon.

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

/// The one shape of the package's methods (`js_api! { impl Class { fn ... } }`) and free
/// functions (`js_api! { fn ... }`): each parameter is taken as any JS value and read with
/// [`args::Arg`] as its declared type under its own name (so parameters are spelt as in
/// JavaScript, `agentId`), then the body runs and its core result goes out through [`Out`].
/// Each item keeps its docs and its `#[napi(...)]` attribute, whose TypeScript types are those
/// of `index.d.ts`.
#[macro_export]
macro_rules! js_api {
    (impl $class:ident { $(
        $(#[$attr:meta])*
        fn $name:ident(&$this:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty { $($body:tt)* }
    )* }) => {
        #[napi]
        impl $class {$(
            $(#[$attr])*
            #[allow(non_snake_case, clippy::redundant_closure_call)]
            pub fn $name(&$this, $($arg: $crate::args::Any<'_>),*) -> $crate::Out<$ret> {
                $crate::Out((|| { $(let $arg: $ty = $crate::args::read($arg, stringify!($arg))?;)* $($body)* })())
            }
        )*}
    };
    ($(
        $(#[$attr:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty { $($body:tt)* }
    )*) => {$(
        $(#[$attr])*
        #[allow(non_snake_case, clippy::redundant_closure_call)]
        pub fn $name($($arg: $crate::args::Any<'_>),*) -> $crate::Out<$ret> {
            $crate::Out((|| { $(let $arg: $ty = $crate::args::read($arg, stringify!($arg))?;)* $($body)* })())
        }
    )*};
}

pub mod any_store;
pub mod args;
pub mod conformance;
pub mod errors;
pub mod host_store;
pub mod orchestrator;
pub mod redis_store;
pub mod registry;
pub mod stores;
pub mod team;

pub use any_store::AnyStore;
pub use errors::{Out, js, to_js_error};
