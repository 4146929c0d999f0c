//! Salvage: every prefix of every fixture is corrupt for `load`, salvages into a valid "1.0"
//! document, and every field complete in the prefix comes back equal to the original's.

mod orchestrator_common;

use orchestrator_common::{memory, vectors};
use serde_json::Value;
use session_state::orchestrator::{ParseOptions, current_key, parse_document, salvage};
use session_state::{ErrorKind, Store};

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(
        "seed-example.json".to_owned(),
        std::fs::read(vectors().join("seed-example.json")).unwrap(),
    )];
    let claude = vectors().join("project/.claude");
    let mut paths = vec![claude.join("orchestrator-session.json")];
    for e in std::fs::read_dir(claude.join("orchestrator-history")).unwrap() {
        paths.push(e.unwrap().path());
    }
    paths.sort();
    for p in paths {
        out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    out
}

/// Checks that `salvaged` at `path` equals `original` wherever it was read complete.
fn check(
    salvaged: &Value,
    original: &Value,
    path: &str,
    missing: &[String],
    partial: &[String],
    ctx: &str,
) {
    if missing.iter().any(|m| m == path) {
        return;
    }
    if !partial.iter().any(|p| p == path) {
        assert_eq!(salvaged, original, "{ctx}: `{path}` differs");
        return;
    }
    let join = |name: &str| {
        if path.is_empty() {
            name.to_owned()
        } else {
            format!("{path}.{name}")
        }
    };
    match (salvaged, original) {
        (Value::Object(s), Value::Object(o)) => {
            for (name, v) in s {
                let orig = o
                    .get(name)
                    .unwrap_or_else(|| panic!("{ctx}: invented `{}`", join(name)));
                check(v, orig, &join(name), missing, partial, ctx);
            }
        }
        (Value::Array(s), Value::Array(o)) => {
            assert!(s.len() <= o.len(), "{ctx}: `{path}` grew");
            for (i, v) in s.iter().enumerate() {
                check(v, &o[i], &format!("{path}[{i}]"), missing, partial, ctx);
            }
        }
        _ => panic!("{ctx}: `{path}` changed type"),
    }
}

/// End offset (exclusive, including the following `,` or newline) of each top-level value of
/// a pretty-printed document.
fn top_level_ends(text: &str, original: &Value) -> Vec<(String, usize)> {
    let keys: Vec<&String> = original.as_object().unwrap().keys().collect();
    let mut ends = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let end = match keys.get(i + 1) {
            Some(next) => text.find(&format!("\n  \"{next}\": ")).unwrap(),
            None => text.rfind("\n}").unwrap(),
        };
        ends.push(((*key).clone(), end + 1));
    }
    ends
}

#[test]
fn every_prefix_is_corrupt_and_salvages_every_complete_field() {
    let s = memory();
    let mut checked = 0;
    for (name, bytes) in fixtures() {
        let original: Value = serde_json::from_slice(&bytes).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        let ends = top_level_ends(text, &original);
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            if serde_json::from_slice::<Value>(prefix).is_ok() {
                continue;
            }
            let ctx = format!("{name} cut at {cut}");
            s.store().write(&current_key(), prefix).unwrap();
            let err = s.load().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::CorruptState, "{ctx}");
            assert!(err.salvaged().is_some(), "{ctx}");

            let salvaged = salvage(prefix);
            assert!(
                salvaged.replaced.is_empty(),
                "{ctx}: {:?}",
                salvaged.replaced
            );
            let as_bytes = serde_json::to_vec(&salvaged.document).unwrap();
            let doc = parse_document(&current_key(), &as_bytes, &ParseOptions::default())
                .unwrap_or_else(|e| panic!("{ctx}: salvage does not parse: {e}"));
            assert_eq!(doc.schema_version, "1.0");
            check(
                &salvaged.document,
                &original,
                "",
                &salvaged.missing,
                &salvaged.partial,
                &ctx,
            );
            for (key, end) in &ends {
                if cut >= *end {
                    assert_eq!(
                        salvaged.document[key], original[key],
                        "{ctx}: complete `{key}` lost"
                    );
                    assert!(
                        !salvaged.missing.contains(key) && !salvaged.partial.contains(key),
                        "{ctx}: {key}"
                    );
                }
            }
            checked += 1;
        }
    }
    println!("torn orchestrator: {checked} prefixes, all corrupt_state, all salvaged");
    assert!(checked > 7000, "{checked}");
}

#[test]
fn damaged_middles_and_wrong_types_are_repaired_and_reported() {
    let bytes = std::fs::read(vectors().join("seed-example.json")).unwrap();
    let mut v: Value = serde_json::from_slice(&bytes).unwrap();
    v["goal"] = Value::from(7);
    v["agents"][0]["progress"] = Value::from(500);
    v["pending_tasks"] = serde_json::json!(["ok", 3, null]);
    v["agents"]
        .as_array_mut()
        .unwrap()
        .push(Value::from("not an agent"));
    let salvaged = salvage(&serde_json::to_vec(&v).unwrap());
    assert_eq!(salvaged.document["goal"], "");
    assert_eq!(
        salvaged.document["pending_tasks"],
        serde_json::json!(["ok"])
    );
    assert_eq!(salvaged.document["agents"].as_array().unwrap().len(), 2);
    assert!(salvaged.document["agents"][0].get("progress").is_none());
    for path in [
        "goal",
        "agents[0].progress",
        "pending_tasks[1]",
        "pending_tasks[2]",
        "agents[2]",
    ] {
        assert!(
            salvaged.replaced.iter().any(|r| r == path),
            "{path}: {:?}",
            salvaged.replaced
        );
    }
    let as_bytes = serde_json::to_vec(&salvaged.document).unwrap();
    parse_document(&current_key(), &as_bytes, &ParseOptions::default()).unwrap();

    // A damaged byte in the middle: everything before it is kept.
    let mut broken = bytes.clone();
    let at = String::from_utf8_lossy(&bytes)
        .find("\"pending_tasks\"")
        .unwrap();
    broken[at] = b'#';
    let salvaged = salvage(&broken);
    assert_eq!(salvaged.document["completed_work"], v["completed_work"]);
    assert!(salvaged.missing.contains(&"pending_tasks".to_owned()));
}

#[test]
fn garbage_never_panics() {
    let inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\xEF\xBB\xBF".to_vec(),
        b"{\"a\\u12".to_vec(),
        b"{\"a\": \"\\ud800\\u0041\"}".to_vec(),
        b"{\"a\": 1e999999, \"b\": -}".to_vec(),
        b"{\"agents\": [[[[[{\"id\": 1}]]]]], \"session_id\": \"../x\"}".to_vec(),
        vec![0xff; 64],
        std::iter::repeat_n(b'{', 10_000).collect(),
    ];
    for input in inputs {
        let s = salvage(&input);
        assert!(s.document.is_object());
    }
}
