//! The seed's resume rule, with Python's string semantics reproduced exactly.

use super::{ResumeDecision, ResumePolicy, ResumeQuery, ResumeReason, gate};

/// The seed's `should_resume` rule (SPEC section 2), bit for bit:
///
/// 1. unknown agent, empty or missing previous task, or `resume_count >= 5`: start new;
/// 2. otherwise resume when any word of `previous_task.lower().split()` longer than 4 code
///    points is a substring of `current_task.lower()`.
///
/// `lower()` is Python's full Unicode lowercasing (`python_lower`) and `split()` splits on
/// runs of Python whitespace (`python_split`). The decision's `score` is 1 when resuming,
/// else 0; `matched` lists the matching keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompatPolicy {
    /// Resume cap: 5 in the seed.
    pub cap: u64,
}

impl Default for CompatPolicy {
    fn default() -> Self {
        CompatPolicy { cap: 5 }
    }
}

impl CompatPolicy {
    /// Whether the seed's keyword rule relates the two tasks (step 2 above only).
    pub(crate) fn keywords_match(current_task: &str, previous_task: &str) -> bool {
        !Self::matching_keywords(current_task, previous_task, true).is_empty()
    }

    fn matching_keywords(current: &str, previous: &str, first_only: bool) -> Vec<String> {
        let current = python_lower(current);
        let previous = python_lower(previous);
        let mut out: Vec<String> = Vec::new();
        for word in python_split(&previous) {
            if word.chars().count() > 4 && current.contains(word) && !out.iter().any(|w| w == word)
            {
                out.push(word.to_owned());
                if first_only {
                    break;
                }
            }
        }
        out
    }
}

impl ResumePolicy for CompatPolicy {
    fn decide(&self, query: &ResumeQuery<'_>) -> ResumeDecision {
        if let Some(early) = gate(query, self.cap) {
            return early;
        }
        let previous = query.previous_task.unwrap_or_default();
        let matched = Self::matching_keywords(query.current_task, previous, false);
        let resume = !matched.is_empty();
        ResumeDecision {
            resume,
            score: if resume { 1.0 } else { 0.0 },
            matched,
            reason: if resume {
                ResumeReason::Related
            } else {
                ResumeReason::Unrelated
            },
        }
    }
}

/// Python's `str.lower()`: full Unicode lowercasing, including `'İ'` to `"i\u{307}"` and the
/// final sigma rule (`'Σ'` at the end of a word becomes `'ς'`).
///
/// Rust's tables follow a newer Unicode version than the oracle's Python 3.11 (Unicode 14.0):
/// capital letters added since ([`NEWER_CAPITALS`]) are left as they are, as Python leaves them.
/// `tests/vectors/registry/lower.json` checks every code point.
pub fn python_lower(text: &str) -> String {
    if !text.chars().any(is_newer_capital) {
        return text.to_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(is_newer_capital) {
        out.push_str(&rest[..pos].to_lowercase());
        let c = rest[pos..].chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[pos + c.len_utf8()..];
    }
    out.push_str(&rest.to_lowercase());
    out
}

/// Capital letters whose lowercase mapping came after Unicode 14.0 (Unicode 15.0 to 17.0):
/// Python 3.11's `lower()` leaves them unchanged.
pub const NEWER_CAPITALS: &[(char, char)] = &[
    ('\u{1C89}', '\u{1C89}'),
    ('\u{A7CB}', '\u{A7CC}'),
    ('\u{A7CE}', '\u{A7CE}'),
    ('\u{A7D2}', '\u{A7D2}'),
    ('\u{A7D4}', '\u{A7D4}'),
    ('\u{A7DA}', '\u{A7DA}'),
    ('\u{A7DC}', '\u{A7DC}'),
    ('\u{10D50}', '\u{10D65}'),
    ('\u{16EA0}', '\u{16EB8}'),
];

fn is_newer_capital(c: char) -> bool {
    NEWER_CAPITALS
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// Whether Python's `str.isspace()` holds for `c`: Unicode `White_Space` plus the ASCII
/// separators U+001C..U+001F, which Python also splits on.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.split()` with no argument: the non-empty runs between Python whitespace.
pub fn python_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_python_space).filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(known: bool, count: u64, current: &str, previous: Option<&str>) -> bool {
        CompatPolicy::default()
            .decide(&ResumeQuery {
                known_agent: known,
                resume_count: count,
                current_task: current,
                previous_task: previous,
            })
            .resume
    }

    #[test]
    fn seed_rule() {
        let prev = Some("Implement user registration endpoint");
        assert!(decide(true, 0, "Implement user login endpoint", prev));
        assert!(!decide(false, 0, "Implement user login endpoint", prev));
        assert!(!decide(true, 5, "Implement user login endpoint", prev));
        assert!(decide(true, 4, "Implement user login endpoint", prev));
        assert!(!decide(true, 0, "x", Some("")));
        assert!(!decide(true, 0, "x", None));
        // substring: `files` inside `profiles` counts for the seed
        assert!(decide(true, 0, "update profiles", Some("files")));
        assert!(!decide(true, 0, "fix it", Some("fix it")));
        assert!(decide(true, 0, "a\u{1c}tests", Some("tests\u{1f}x")));
    }

    /// The oracle's golden `tests/vectors/registry/{name}` (made by generate.py).
    fn vectors(name: &str) -> serde_json::Value {
        let path = format!(
            "{}/../tests/vectors/registry/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn python_lower_matches_python_on_every_code_point() {
        let golden = vectors("lower.json");
        let changed = golden["changed"].as_object().unwrap();
        let mut differ = Vec::new();
        for cp in 0..=0x10_FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let text = c.to_string();
            let expected = changed
                .get(&cp.to_string())
                .and_then(serde_json::Value::as_str)
                .unwrap_or(&text);
            if python_lower(&text) != expected {
                differ.push(format!("U+{cp:04X}"));
            }
        }
        for (text, expected) in golden["contexts"].as_object().unwrap() {
            if python_lower(text) != expected.as_str().unwrap() {
                differ.push(format!("{text:?}"));
            }
        }
        assert!(differ.is_empty(), "differ from Python: {differ:?}");
    }

    #[test]
    fn python_split_uses_python_whitespace() {
        let golden = vectors("lower.json");
        let spaces: Vec<u64> = golden["spaces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        for cp in 0..=0x10_FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let text = format!("a{c}b");
            let words: Vec<&str> = python_split(&text).collect();
            let splits = spaces.contains(&u64::from(cp));
            assert_eq!(words.len() == 2, splits, "U+{cp:04X}");
        }
    }
}
