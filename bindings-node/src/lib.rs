//! # session-state-node
//!
//! The Node.js package `session-state`: napi-rs bindings of the session-state core. A binding
//! converts types and maps errors, nothing more: each module says what it holds. `cargo test`
//! runs the Rust tests without Node (napi's `dyn-symbols`); `npm run build` builds the addon.

// Helpers take `&Env` like napi-rs's own API (`Object::new(&env)`).
#![allow(clippy::trivially_copy_pass_by_ref)]

/// mimalloc for the addon's own allocations: a save allocates and frees a document's strings
/// and its 70 KB buffers of JSON on every call.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The body of a method of the package: reads each argument (any JS value) as its type with
/// [`args::Arg`], named in errors as the parameter is (spelt as in JavaScript: `agentId`),
/// then evaluates `$body`, a core `Result`, into an [`Out`].
#[macro_export]
macro_rules! run {
    ($($arg:ident: $ty:ty),* => $body:expr) => {
        $crate::out(|| { $(let $arg = <$ty as $crate::args::Arg>::arg($arg, stringify!($arg))?;)* $body })
    };
}

/// A `#[napi]` class holding `inner`, a value of the core: `Class(Inner type);`, its constructor
/// `new(argName: Type, ...) = "TS args" => body;` (a core `Result<Self>`, its error thrown),
/// then its getters, `get name(&self) -> Rust type = "TS type" => value;`, each after its
/// `#[doc = " ..."]` lines (see [`core_methods!`]).
#[macro_export]
macro_rules! js_class {
    ($(#[doc = $class_doc:tt])+ $class:ident($inner:ty);
        $(#[doc = $new_doc:tt])+ new($($arg:ident: $ty:ty),*) = $args:tt => $body:expr;
        $($(#[doc = $doc:tt])+ get $name:ident(&$s:ident) -> $ret:ty = $ts:tt => $get:expr;)*
    ) => {
        $(#[doc = $class_doc])+
        #[napi]
        #[derive(Debug)]
        pub struct $class {
            pub(crate) inner: $inner,
        }

        #[napi]
        #[allow(non_snake_case)]
        impl $class {
            $(#[doc = $new_doc])+
            #[napi(constructor, ts_args_type = $args)]
            pub fn new(env: napi::Env, $($arg: $crate::args::Any<'_>),*) -> napi::Result<Self> {
                $crate::run!($($arg: $ty),* => $body).0.map_err(|e| $crate::to_js_error(&env, e))
            }
            $(
                $(#[doc = $doc])+
                #[napi(getter, ts_return_type = $ts)]
                pub fn $name(&$s) -> $ret {
                    $get
                }
            )*
        }
    };
}

/// Methods of the `#[napi]` class `$class` that read their arguments by type ([`run!`]) and
/// return the core method of the same name on `self.inner` (arguments by reference: `&str`,
/// or `&T` for a [`args::Json`]) through [`Out`]. Written as `#[doc = " ..."]` lines, then
/// `name(argName: Type, ...) -> Rust type = "TS args", "TS type";` (napi-derive would copy the
/// `r"` of a `///` comment passed through a macro into the JSDoc).
#[macro_export]
macro_rules! core_methods {
    ($class:ident: $($(#[doc = $doc:tt])+ $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $args:tt, $ts:tt;)+) => {
        $crate::js_methods!($class {$(
            $(#[doc = $doc])+
            fn $name(&self $(, $arg: $ty)*) -> $ret = $args, $ts
                => self.inner.$name($(&*$arg),*);
        )+});
    };
}

/// Methods of the `#[napi]` class `$class` whose arguments are read by type ([`run!`]) and
/// whose body, a core `Result`, is returned through [`Out`]: as [`core_methods!`], with
/// `fn name(&self, argName: Type, ...) -> Rust type = "TS args", "TS type" => body;`.
#[macro_export]
macro_rules! js_methods {
    ($class:ident { $(
        $(#[doc = $doc:tt])+
        fn $name:ident(&$s:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty = $args:tt, $ts:tt => $body:expr;
    )+ }) => {
        #[napi]
        #[allow(non_snake_case)]
        impl $class {$(
            $(#[doc = $doc])+
            #[napi(ts_args_type = $args, ts_return_type = $ts)]
            pub fn $name(&$s, $($arg: $crate::args::Any<'_>),*) -> $crate::Out<$ret> {
                $crate::run!($($arg: $ty),* => $body)
            }
        )+}
    };
}

/// Free functions of the package: as [`js_methods!`], without `&self`.
#[macro_export]
macro_rules! js_functions {
    ($($(#[doc = $doc:tt])+ fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $args:tt, $ts:tt => $body:expr;)+) => {$(
        $(#[doc = $doc])+
        #[napi(ts_args_type = $args, ts_return_type = $ts)]
        #[allow(non_snake_case)]
        pub fn $name($($arg: $crate::args::Any<'_>),*) -> $crate::Out<$ret> {
            $crate::run!($($arg: $ty),* => $body)
        }
    )+};
}

pub mod any_store;
pub mod args;
pub mod conformance;
pub mod errors;
pub mod host_store;
pub mod json_text;
pub mod orchestrator;
pub mod ownership;
pub mod registry;
pub mod retention;
pub mod stores;
pub mod team;

pub use any_store::AnyStore;
pub use errors::{Out, out, to_js_error};
