//! A test helper, not part of the stable API: runs one [`Store`] operation on any store
//! argument through [`AnyStore`], so the JS tests can drive the host store adapter before
//! the core-module wrappers (and the core conformance suite) are exposed.

use napi::bindgen_prelude::{Buffer, Either, Env, Unknown};
use napi_derive::napi;
use session_state::Store;

use crate::any_store::{AnyStore, StoreArg};
use crate::args::{self, BytesArg, StrArg};
use crate::errors::{ToJs, invalid_input};
use crate::{documents, stores};

/// What `testingStoreCall` returns: a `Buffer`, a boolean or keys.
type CallResult = Either<Buffer, Either<bool, Vec<String>>>;

/// Test helper (unstable, may go away): runs `op` (`"read"`, `"write"`, `"delete"`,
/// `"list"`, `"append"`, `"update"`) on `store` the way the core will, and returns what the
/// core gets: a `Buffer` or `null` (`read`), a boolean (`delete`), the keys (`list`),
/// `undefined` (`write`, `append`, `update` = read, then write the old bytes followed by
/// `data`).
#[napi(
    js_name = "testingStoreCall",
    ts_args_type = "store: Store, op: 'read' | 'write' | 'delete' | 'list' | 'append' | 'update', key: string, data?: Uint8Array",
    ts_return_type = "Buffer | boolean | string[] | null | undefined"
)]
pub fn testing_store_call(
    env: Env,
    store: StoreArg<'_>,
    op: StrArg<'_>,
    key: StrArg<'_>,
    data: Option<BytesArg<'_>>,
) -> napi::Result<Option<CallResult>> {
    let store = AnyStore::from_js(&env, store)?;
    let op = args::string(&env, op, "op")?;
    let data = match data {
        Some(data) => args::bytes(&env, data, "data")?,
        None => Vec::new(),
    };
    Ok(match op.as_str() {
        "read" => stores::read(&env, &store, key)?.map(Either::A),
        "write" => {
            let key = args::key(&env, key, "key")?;
            store.write(&key, &data).js(&env)?;
            None
        }
        "delete" => Some(Either::B(Either::A(stores::delete(&env, &store, key)?))),
        "list" => Some(Either::B(Either::B(stores::list(&env, &store, key)?))),
        "append" => {
            let key = args::key(&env, key, "key")?;
            store.append(&key, &data).js(&env)?;
            None
        }
        "update" => {
            let key = args::key(&env, key, "key")?;
            store
                .update(&key, &mut |old| {
                    let mut bytes = old.map(<[u8]>::to_vec).unwrap_or_default();
                    bytes.extend_from_slice(&data);
                    Ok(Some(bytes))
                })
                .js(&env)?;
            None
        }
        other => return Err(invalid_input(&env, format!("unknown op `{other}`"))),
    })
}

/// Test helper (unstable, may go away): a document through the conversions every class
/// uses (`documents::document_from_js`, then `documents::to_js`): what the core would
/// receive, given back as JavaScript would receive it.
#[napi(
    js_name = "testingDocumentRoundTrip",
    ts_args_type = "document: Record<string, unknown>",
    ts_return_type = "Record<string, unknown>"
)]
pub fn testing_document_round_trip<'env>(
    env: &'env Env,
    document: Unknown<'_>,
) -> napi::Result<Unknown<'env>> {
    let map = documents::document_from_js(env, document, "document")?;
    documents::to_js(env, &map)
}
