//! Text for the terminal: what documents hold is printed with its control characters escaped,
//! so that a goal or an agent name cannot move the cursor, clear the screen or recolour the
//! terminal (`\u{1b}[2J` is printed as those characters, not run).

use std::borrow::Cow;

/// `text` with every control character other than a line break or a tab written as its
/// Rust escape (`\u{1b}`, `\r`, `\0`); `text` itself when it has none.
pub fn safe(text: &str) -> Cow<'_, str> {
    let shown_raw = |c: char| !c.is_control() || c == '\n' || c == '\t';
    if text.chars().all(shown_raw) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if shown_raw(c) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    Cow::Owned(out)
}

/// `text` for one line of a table or a `name: value` line: every control character escaped,
/// line breaks and tabs too, so a value cannot make a row of its own.
pub fn cell(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().collect()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// `println!` through [`safe`]. Like `println!`, it panics when stdout cannot be written;
/// `main` turns that panic into a quiet exit.
macro_rules! out {
    ($($arg:tt)*) => {
        println!("{}", $crate::terminal::safe(&format!($($arg)*)))
    };
}
pub(crate) use out;

#[cfg(test)]
mod tests {
    use super::{Cow, cell, safe};

    #[test]
    fn cells_escape_line_breaks_and_tabs_too() {
        assert_eq!(cell("x\nfake-row\tid9"), "x\\nfake-row\\tid9");
        assert_eq!(cell("\u{1b}[31mRED"), "\\u{1b}[31mRED");
        assert!(matches!(cell("plain é"), Cow::Borrowed("plain é")));
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(safe("plain text\n\twith é 中"), "plain text\n\twith é 中");
        assert!(matches!(safe("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(safe("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(safe("x\ry\0z\u{7f}\u{9b}"), "x\\ry\\u{0}z\\u{7f}\\u{9b}");
    }
}
