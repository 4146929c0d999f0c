//! Checks `Key::new`, `Key::segment` and `Key::join` against the shared table
//! `tests/vectors/hostile/keys.json` (also read by the Python, Node and wasm tests).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Deserialize;
use session_state::{ErrorKind, Key, Result};

#[derive(Debug, Deserialize)]
struct Table {
    description: String,
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
struct Case {
    name: String,
    input: String,
    key: String,
    segment: String,
    why: String,
}

fn table() -> Table {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/hostile/keys.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks `result` against `expected` ("ok" or an error code); on error, that the error names
/// the input in its `value` context.
fn check<T>(case: &Case, how: &str, expected: &str, result: Result<T>) {
    match result {
        Ok(_) => assert_eq!(
            expected, "ok",
            "{how} accepted case `{}` ({})",
            case.name, case.why
        ),
        Err(e) => {
            assert_eq!(
                e.code(),
                expected,
                "{how} of case `{}` ({}): {e}",
                case.name,
                case.why
            );
            assert_eq!(
                e.context_value("value"),
                Some(case.input.as_str()),
                "{how} `{}`",
                case.name
            );
            assert!(!e.message().ends_with('.'), "{e}");
        }
    }
}

#[test]
fn table_is_well_formed() {
    let table = table();
    assert!(!table.description.is_empty());
    assert!(table.cases.len() >= 15, "{}", table.cases.len());
    let names: BTreeSet<&str> = table.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), table.cases.len(), "duplicate case names");
    for case in &table.cases {
        for expected in [&case.key, &case.segment] {
            assert!(
                expected == "ok" || ErrorKind::from_code(expected).is_some(),
                "case `{}`: `{expected}` is neither ok nor an error code",
                case.name
            );
        }
    }
    // Both outcomes occur for both functions, so the table exercises both sides.
    for pick in [|c: &Case| c.key.clone(), |c: &Case| c.segment.clone()] {
        let outcomes: BTreeSet<String> = table.cases.iter().map(pick).collect();
        assert!(
            outcomes.contains("ok") && outcomes.contains("invalid_key"),
            "{outcomes:?}"
        );
    }
}

#[test]
fn key_new_matches_the_table() {
    for case in &table().cases {
        let result = Key::new(case.input.clone());
        if let Ok(key) = &result {
            assert_eq!(
                key.as_str(),
                case.input,
                "case `{}` changed the key",
                case.name
            );
        }
        check(case, "Key::new", &case.key, result);
    }
}

#[test]
fn key_segment_and_join_match_the_table() {
    let base = Key::new("base").unwrap();
    for case in &table().cases {
        let result = Key::segment("test id", &case.input);
        match &result {
            Ok(value) => assert_eq!(*value, case.input),
            Err(e) => assert!(e.message().starts_with("test id `"), "{e}"),
        }
        check(case, "Key::segment", &case.segment, result);
        // `join` appends one segment, so it follows the segment rule.
        let joined = base.join(&case.input);
        if let Ok(key) = &joined {
            assert_eq!(key.file_name(), case.input);
            assert!(key.is_under(&base));
        }
        check(case, "Key::join", &case.segment, joined);
    }
}
