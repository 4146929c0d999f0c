//! The stores in real headless Chromium (wasm-bindgen-test):
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p session-state-wasm --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect};
use session_state::{Clock, Key, Store};
use session_state_wasm::convert::Arg;
use session_state_wasm::errors::{host_exception, to_js_error};
use session_state_wasm::{
    AnyStore, JsClock, JsResult, LocalStorageStore, MemoryStore, Thrown, errors,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function local_storage() { return window.localStorage; }
export function make_host(failure) {
  const map = new Map([["s/a.json", "{\"a\":1}"]]);
  return {
    map,
    read(key) { if (failure !== undefined) throw failure; return map.get(key) ?? null; },
    write(key, data) { map.set(key, data.slice()); },
    delete(key) { return map.delete(key); },
    list(prefix) { return [...map.keys()].filter((k) => k.startsWith(prefix + "/")); },
  };
}
"#)]
extern "C" {
    fn local_storage() -> JsValue;
    fn make_host(failure: JsValue) -> JsValue;
}

/// The `store` argument of a class.
fn store_arg(value: &JsValue) -> JsResult<AnyStore> {
    AnyStore::arg(value, "store")
}

fn k(key: &str) -> Key {
    Key::new(key).unwrap()
}

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

/// A `string` argument of a class method.
fn t(text: &str) -> JsValue {
    s(text)
}

fn prop(value: &JsValue, name: &str) -> JsValue {
    Reflect::get(value, &s(name)).unwrap()
}

fn get_item(name: &str) -> JsValue {
    let storage = local_storage();
    let get = prop(&storage, "getItem");
    get.unchecked_ref::<js_sys::Function>()
        .call1(&storage, &s(name))
        .unwrap()
}

fn set_item(name: &str, value: &str) -> Result<(), JsValue> {
    let storage = local_storage();
    let set = prop(&storage, "setItem");
    set.unchecked_ref::<js_sys::Function>()
        .call2(&storage, &s(name), &s(value))
        .map(drop)
}

fn remove_item(name: &str) {
    let storage = local_storage();
    let remove = prop(&storage, "removeItem");
    remove
        .unchecked_ref::<js_sys::Function>()
        .call1(&storage, &s(name))
        .unwrap();
}

#[wasm_bindgen_test]
fn memory_store_class_and_any_store_share_data() {
    let class = MemoryStore::new();
    class.write(&t("a/b.json"), &s("{}")).unwrap();
    let store = store_arg(&JsValue::from(class.clone())).unwrap();
    assert!(format!("{store:?}").starts_with("MemoryStore"), "{store:?}");
    assert_eq!(
        store.read(&k("a/b.json")).unwrap().as_deref(),
        Some(&b"{}"[..])
    );
    store.write(&k("a/c.json"), b"[]").unwrap();
    assert_eq!(class.size(), 2);
    assert_eq!(
        store.list(&k("a")).unwrap(),
        vec![k("a/b.json"), k("a/c.json")]
    );
}

#[wasm_bindgen_test]
fn local_storage_store_round_trip_in_window_local_storage() {
    let class = LocalStorageStore::new(&s("web-test/"), None).unwrap();
    let store = store_arg(&JsValue::from(class.clone())).unwrap();
    assert!(
        format!("{store:?}").starts_with("TextItemStore"),
        "{store:?}"
    );
    let doc = "{\"session_id\":\"é\"}";
    store.write(&k(".claude/s.json"), doc.as_bytes()).unwrap();
    store.write(&k(".claude/bin"), &[0xff, 0x00]).unwrap();
    assert_eq!(
        get_item("web-test/.claude/s.json").as_string().unwrap(),
        doc
    );
    assert_eq!(
        get_item("web-test/.claude/bin").as_string().unwrap(),
        "\0base64:/wA="
    );
    assert_eq!(
        class
            .read_text(&t(".claude/s.json"))
            .unwrap()
            .as_string()
            .unwrap(),
        doc
    );
    assert_eq!(
        store.read(&k(".claude/bin")).unwrap().as_deref(),
        Some(&[0xff, 0x00][..])
    );
    set_item("other/.claude/x", "not ours").unwrap();
    assert_eq!(
        store.list(&k(".claude")).unwrap(),
        vec![k(".claude/bin"), k(".claude/s.json")]
    );
    store
        .update(&k(".claude/s.json"), &mut |old| {
            assert_eq!(old, Some(doc.as_bytes()));
            Ok(Some(b"{}".to_vec()))
        })
        .unwrap();
    assert_eq!(
        get_item("web-test/.claude/s.json").as_string().unwrap(),
        "{}"
    );
    assert!(store.delete(&k(".claude/bin")).unwrap());
    assert!(!store.delete(&k(".claude/bin")).unwrap());
    assert!(get_item("web-test/.claude/bin").is_null());
    store.delete(&k(".claude/s.json")).unwrap();
    remove_item("other/.claude/x");
}

#[wasm_bindgen_test]
fn local_storage_quota_error_is_storage_and_keeps_the_old_value() {
    let class = LocalStorageStore::new(&s("quota-test/"), None).unwrap();
    class.write(&t("k/doc.json"), &s("{\"v\":1}")).unwrap();

    // Fill localStorage until the browser refuses, with ever smaller items.
    let mut fillers = Vec::new();
    let mut size = 1 << 20;
    while size >= 64 {
        let name = format!("filler-{}", fillers.len());
        if set_item(&name, &"x".repeat(size)).is_ok() {
            fillers.push(name);
        } else {
            size /= 4;
        }
    }
    assert!(!fillers.is_empty(), "localStorage accepted nothing");

    let err = class
        .write(&t("k/doc.json"), &s(&"y".repeat(64 << 10)))
        .unwrap_err();
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(prop(&err, "code").as_string().unwrap(), "storage");
    assert_eq!(
        prop(&prop(&err, "context"), "key").as_string().unwrap(),
        "k/doc.json"
    );
    let cause = prop(&err, "cause");
    assert_eq!(
        prop(&cause, "name").as_string().unwrap(),
        "QuotaExceededError"
    );
    assert_eq!(
        class
            .read_text(&t("k/doc.json"))
            .unwrap()
            .as_string()
            .unwrap(),
        "{\"v\":1}"
    );

    for name in &fillers {
        remove_item(name);
    }
    class.delete(&t("k/doc.json")).unwrap();
}

/// The core's store conformance suite on each kind of store (as `runStoreConformance` runs it
/// from JS).
#[wasm_bindgen_test]
fn every_kind_of_store_passes_the_conformance_suite() {
    let local = LocalStorageStore::new(&s("conformance-test/"), None).unwrap();
    let stores = [
        ("memory", store_arg(&JsValue::from(MemoryStore::new()))),
        ("localStorage", store_arg(&JsValue::from(local))),
        ("host", store_arg(&make_host(JsValue::UNDEFINED))),
    ];
    for (name, store) in stores {
        let report = session_state::conformance::run_all(&store.unwrap(), &k("scratch"));
        assert!(report.all_passed(), "{name}: {report:?}");
        assert_eq!(report.cases.len(), session_state::conformance::CASES.len());
    }
}

#[wasm_bindgen_test]
fn the_conformance_suite_catches_a_host_store_that_drops_writes() {
    let host = make_host(JsValue::UNDEFINED);
    let noop = js_sys::Function::new_no_args("");
    Reflect::set(&host, &s("write"), &noop).unwrap();
    let report = session_state::conformance::run_all(&store_arg(&host).unwrap(), &k("x"));
    assert!(!report.all_passed());
    assert!(!report.case("read_your_writes").unwrap().passed);
}

#[wasm_bindgen_test]
fn host_store_exceptions_come_back_unchanged() {
    let failure: JsValue = js_sys::Error::new("host broke").into();
    let store = store_arg(&make_host(failure.clone())).unwrap();
    assert!(format!("{store:?}").starts_with("HostStore"), "{store:?}");
    let err = store.read(&k("s/a.json")).unwrap_err();
    assert_eq!(err.code(), "storage");
    assert!(err.message().contains("host broke"), "{}", err.message());
    assert!(Object::is(&to_js_error(err), &failure));

    let healthy = store_arg(&make_host(JsValue::UNDEFINED)).unwrap();
    assert_eq!(
        healthy.read(&k("s/a.json")).unwrap().as_deref(),
        Some(&b"{\"a\":1}"[..])
    );
    healthy.write(&k("s/b.json"), b"[]").unwrap();
    assert_eq!(
        healthy.list(&k("s")).unwrap(),
        vec![k("s/a.json"), k("s/b.json")]
    );
    assert!(healthy.delete(&k("s/b.json")).unwrap());
}

#[wasm_bindgen_test]
fn dropped_host_errors_do_not_leak_into_later_errors() {
    let first: JsValue = js_sys::Error::new("first").into();
    drop(host_exception(&k("a"), "read", first));
    let second: JsValue = js_sys::Error::new("second").into();
    let err = host_exception(&k("a"), "read", second.clone());
    assert!(Object::is(&to_js_error(err), &second));
    // A plain core error becomes a typed JS error.
    let typed = to_js_error(session_state::Error::corrupt("a/b.json", "bad"));
    assert_eq!(prop(&typed, "code").as_string().unwrap(), "corrupt_state");
    assert_eq!(
        js_sys::Array::from(&errors::error_codes().unwrap()).length() as usize,
        session_state::ErrorKind::ALL.len()
    );
}

#[wasm_bindgen_test]
fn js_clock_reads_date_now() {
    let before = js_sys::Date::now();
    let now = JsClock.now().timestamp_millis();
    let after = js_sys::Date::now();
    #[allow(clippy::cast_possible_truncation)]
    let (before, after) = (before as i64, after as i64);
    assert!(
        before <= now && now <= after,
        "{before} <= {now} <= {after}"
    );
}

#[wasm_bindgen_test]
fn documents_convert_to_and_from_plain_js_without_losing_fields() {
    use session_state_wasm::convert::{Doc, Json, to_js};
    let document_from_js = Doc::arg;
    let value_from_js = <serde_json::Value as Arg>::arg;

    let text = r#"{"schema_version":"1.0","n":1,"x":1.5,"big":9007199254740993,"none":null,"list":[true,"é",{"deep":{}}],"unknown_field":{"kept":[1,2]}}"#;
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    // Out: exactly what JSON.parse gives (an integer above 2^53 as the nearest number).
    let out = to_js(&value).unwrap();
    assert!(
        !out.is_instance_of::<js_sys::Map>(),
        "maps must be plain objects"
    );
    let expected = js_sys::JSON::parse(text).unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&out).unwrap().as_string(),
        js_sys::JSON::stringify(&expected).unwrap().as_string()
    );
    // In: an integer beyond 2^53 - 1 no longer holds the integer meant: refused, not rounded.
    let err = document_from_js(&js_sys::JSON::parse(text).unwrap(), "document").unwrap_err();
    assert_eq!(prop(&err, "code").as_string().unwrap(), "invalid_input");
    assert!(
        prop(&err, "message").as_string().unwrap().starts_with(
            "`document` is not JSON: member `big` is 9007199254740992, beyond 2^53 - 1"
        ),
        "{err:?}"
    );
    // In: JSON.stringify semantics, members kept in order.
    let safe = text.replace("9007199254740993", "9007199254740991");
    let back = document_from_js(&js_sys::JSON::parse(&safe).unwrap(), "document").unwrap();
    assert_eq!(
        back.keys().collect::<Vec<_>>(),
        [
            "schema_version",
            "n",
            "x",
            "big",
            "none",
            "list",
            "unknown_field"
        ]
    );
    assert_eq!(back["big"], serde_json::json!(9_007_199_254_740_991_u64));
    assert_eq!(back["unknown_field"], value["unknown_field"]);
    assert_eq!(back["n"], serde_json::json!(1));

    let odd = js_sys::Function::new_no_args(
        "return { when: new Date(0), gone: undefined, arr: [undefined] };",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    assert_eq!(
        value_from_js(&odd, "odd").unwrap(),
        serde_json::json!({"when": "1970-01-01T00:00:00.000Z", "arr": [null]})
    );

    let code_of = |err: Thrown| prop(&err, "code").as_string().unwrap();
    let message_of = |err: &JsValue| prop(err, "message").as_string().unwrap();
    let bigint = js_sys::BigInt::from(5u32);
    let err = value_from_js(&bigint.into(), "doc").unwrap_err();
    assert_eq!(
        message_of(&err),
        "`doc` is not JSON: the value is a bigint, which JSON cannot hold"
    );
    assert_eq!(code_of(err), "invalid_input");
    let nan = js_sys::Function::new_no_args("return { nan: NaN };")
        .call0(&JsValue::NULL)
        .unwrap();
    let err = value_from_js(&nan, "doc").unwrap_err();
    assert_eq!(
        message_of(&err),
        "`doc` is not JSON: member `nan` is NaN, which JSON cannot hold"
    );
    assert_eq!(code_of(err), "invalid_input");
    let err = value_from_js(&JsValue::UNDEFINED, "doc").unwrap_err();
    assert_eq!(message_of(&err), "`doc` is not JSON: got undefined");
    for not_object in [JsValue::NULL, js_sys::Array::new().into(), JsValue::from(3)] {
        let err = document_from_js(&not_object, "doc").unwrap_err();
        assert!(message_of(&err).starts_with("`doc` must be an object, not "));
        assert_eq!(code_of(err), "invalid_input");
    }
    let err = Json::<Vec<String>>::arg(&JsValue::from(3), "names").unwrap_err();
    assert!(
        message_of(&err).starts_with("`names` "),
        "{}",
        message_of(&err)
    );
    assert_eq!(code_of(err), "invalid_input");
}
