//! A resume rule that compares whole words and says why.

use unicode_segmentation::UnicodeSegmentation;

use super::{ResumeDecision, ResumePolicy, ResumeQuery, ResumeReason, gate};

/// Compares the words of the two tasks (Unicode word boundaries, UAX #29) instead of
/// substrings, and explains its decision.
///
/// Steps: the checks of the seed (unknown agent, no previous task, `resume_count >= cap`),
/// then both tasks are tokenised with `tokenize` (lowercase, punctuation and stop words
/// dropped, simple stems). Identical tasks (after trimming and lowercasing) are related with
/// score 1, even when short or made only of stop words. Otherwise the score is the Dice
/// coefficient of the two term sets, `2 |P ∩ C| / (|P| + |C|)` in [0, 1], and the tasks are
/// related when `score >= threshold`.
///
/// `files` does not match `profiles` (whole words), `tests` matches `test` (stems), and
/// Korean, Japanese, Chinese, Cyrillic... tasks are compared word by word (Korean particles
/// such as `을`/`를` are stripped, Han ideographs count one per word).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExplainedPolicy {
    /// Resume cap (default 5, as the seed).
    pub cap: u64,
    /// Minimum score to resume, in [0, 1] (default 0.3).
    pub threshold: f64,
}

impl Default for ExplainedPolicy {
    fn default() -> Self {
        ExplainedPolicy {
            cap: 5,
            threshold: 0.3,
        }
    }
}

impl ResumePolicy for ExplainedPolicy {
    fn decide(&self, query: &ResumeQuery<'_>) -> ResumeDecision {
        if let Some(early) = gate(query, self.cap) {
            return early;
        }
        let previous = query.previous_task.unwrap_or_default();
        let current = query.current_task;
        let prev_terms = tokenize(previous);
        let cur_terms = tokenize(current);
        if previous.trim().to_lowercase() == current.trim().to_lowercase() {
            return ResumeDecision {
                resume: true,
                score: 1.0,
                matched: prev_terms,
                reason: ResumeReason::Related,
            };
        }
        let matched: Vec<String> = prev_terms
            .iter()
            .filter(|t| cur_terms.contains(t))
            .cloned()
            .collect();
        let total = prev_terms.len() + cur_terms.len();
        #[allow(clippy::cast_precision_loss)]
        let score = if total == 0 {
            0.0
        } else {
            (2 * matched.len()) as f64 / total as f64
        };
        let resume = score > 0.0 && score >= self.threshold;
        ResumeDecision {
            resume,
            score,
            matched,
            reason: if resume {
                ResumeReason::Related
            } else {
                ResumeReason::Unrelated
            },
        }
    }
}

/// The distinct terms of `text`, in order: Unicode words (UAX #29; punctuation dropped),
/// lowercased, English stop words dropped, then reduced to a simple stem (Latin: plural and
/// `-ing`/`-ed`/`-ly`/`-es` endings; Hangul: one trailing particle).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.unicode_words() {
        let lower = word.to_lowercase();
        if STOP_WORDS.contains(&lower.as_str()) {
            continue;
        }
        let term = stem(&lower);
        if !term.is_empty() && !out.contains(&term) {
            out.push(term);
        }
    }
    out
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "in", "into", "is", "it",
    "its", "of", "on", "or", "so", "that", "the", "then", "this", "to", "with", "we", "our", "up",
    "please", "now", "new", "all", "also", "again",
];

const LATIN_SUFFIXES: &[&str] = &["ing", "ed", "es", "ly", "s"];

const HANGUL_PARTICLES: &[&str] = &[
    "으로", "에서", "에게", "부터", "까지", "하고", "을", "를", "이", "가", "은", "는", "에", "의",
    "로", "와", "과", "도", "만",
];

fn stem(word: &str) -> String {
    if word.chars().any(is_hangul) {
        for particle in HANGUL_PARTICLES {
            if let Some(base) = word.strip_suffix(particle)
                && base.chars().count() >= 2
            {
                return base.to_owned();
            }
        }
        return word.to_owned();
    }
    if word.chars().all(char::is_alphabetic) {
        for suffix in LATIN_SUFFIXES {
            if let Some(base) = word.strip_suffix(suffix)
                && base.chars().count() >= 3
                && !base.ends_with('s')
            {
                return base.to_owned();
            }
        }
    }
    word.to_owned()
}

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(current: &str, previous: &str) -> ResumeDecision {
        ExplainedPolicy::default().decide(&ResumeQuery {
            known_agent: true,
            resume_count: 0,
            current_task: current,
            previous_task: Some(previous),
        })
    }

    #[test]
    fn whole_words_and_stems() {
        let d = decide("update profiles page", "rename files");
        assert!(!d.resume);
        assert_eq!(d.reason, ResumeReason::Unrelated);
        let d = decide(
            "Implement user login endpoint",
            "Implement user registration endpoint",
        );
        assert!(d.resume);
        assert_eq!(d.matched, ["implement", "user", "endpoint"]);
        assert!((d.score - 0.75).abs() < 1e-9);
        assert!(decide("fix the tests!", "Fix failing test.").resume);
    }

    #[test]
    fn identical_short_tasks_and_non_latin_scripts() {
        let d = decide("fix it", "Fix it");
        assert!(d.resume);
        assert!((d.score - 1.0).abs() < f64::EPSILON);
        let d = decide("로그인 기능을 구현", "로그인 기능 테스트");
        assert!(d.resume, "{d:?}");
        assert_eq!(d.matched, ["로그인", "기능"]);
        assert!(!decide("결제 모듈 수정", "로그인 기능 테스트").resume);
        assert_eq!(
            tokenize("Hello, world... the end!"),
            ["hello", "world", "end"]
        );
    }

    #[test]
    fn other_scripts() {
        assert!(decide("ログイン機能のテスト", "ログイン機能を実装").resume);
        assert!(decide("исправить тесты входа", "написать тесты входа").resume);
        assert!(!decide("исправить оплату", "написать тесты входа").resume);
        assert!(decide("实现用户登录", "实现用户注册").resume);
        assert!(!decide("!!!", "???").resume);
    }

    #[test]
    fn gates_and_threshold() {
        let p = ExplainedPolicy {
            cap: 2,
            threshold: 0.9,
        };
        let q = |count, prev| ResumeQuery {
            known_agent: true,
            resume_count: count,
            current_task: "write login tests",
            previous_task: prev,
        };
        assert_eq!(
            p.decide(&q(2, Some("write login"))).reason,
            ResumeReason::ResumeCapReached
        );
        assert_eq!(
            p.decide(&q(0, Some(""))).reason,
            ResumeReason::NoPreviousTask
        );
        let d = p.decide(&q(0, Some("write login docs")));
        assert!(!d.resume && d.score > 0.0 && d.score < 0.9);
    }
}
