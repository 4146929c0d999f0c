//! Text for the terminal: what documents hold is printed with its control characters escaped,
//! so that a goal or an agent name cannot move the cursor, clear the screen or recolour the
//! terminal (`\u{1b}[2J` is printed as those characters, not run). The bidirectional
//! embedding, override and isolate characters are escaped too, so that an id cannot show its
//! text reversed (`\u{202e}`).

use std::borrow::Cow;

/// Widest a table column gets from its cells: a longer cell overflows its own row only.
pub const MAX_COLUMN_WIDTH: usize = 40;

/// Whether `c` is a bidirectional embedding, override or isolate character (U+202A to U+202E,
/// U+2066 to U+2069): invisible, they reorder the text around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is printed as its escape: a control character or a bidi control.
fn escaped(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// `text` with every control character other than a line break or a tab, and every bidi
/// control, written as its Rust escape (`\u{1b}`, `\r`, `\0`, `\u{202e}`); `text` itself when
/// it has none.
pub fn safe(text: &str) -> Cow<'_, str> {
    let shown_raw = |c: char| !escaped(c) || c == '\n' || c == '\t';
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
/// line breaks and tabs too, so a value cannot make a row of its own, and every bidi control.
pub fn cell(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if escaped(c) {
                    c.escape_default().collect()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// Prints `rows` under `header` in left-aligned columns two spaces apart, each cell through
/// [`cell`], trailing spaces trimmed. A column is as wide as its widest cell up to
/// [`MAX_COLUMN_WIDTH`] (or its header, when wider): one very long value does not pad every
/// row.
pub fn table(header: &[&str], rows: &[Vec<String>]) {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|c| cell(c).into_owned()).collect())
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, text) in widths.iter_mut().zip(row) {
            *w = (*w).max(text.chars().count().min(MAX_COLUMN_WIDTH));
        }
    }
    let line = |cells: &[&str]| {
        let mut out = String::new();
        for (i, (text, w)) in cells.iter().zip(&widths).enumerate() {
            out.push_str(text);
            if i + 1 < cells.len() {
                let pad = w.saturating_sub(text.chars().count()) + 2;
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        println!("{}", out.trim_end());
    };
    line(header);
    for row in &rows {
        line(&row.iter().map(String::as_str).collect::<Vec<_>>());
    }
}

/// `println!` through [`safe`]. Like `println!`, it panics when stdout cannot be written;
/// `main` turns that panic into a quiet exit.
macro_rules! out {
    ($($arg:tt)*) => {
        println!("{}", $crate::terminal::safe(&format!($($arg)*)))
    };
}
pub(crate) use out;

/// `eprintln!` that never panics (a stderr that cannot be written, full or closed, loses the
/// line, and the command still ends with its own exit code), its text through [`safe`] as
/// [`out!`]'s is.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            $crate::terminal::safe(&format!($($arg)*))
        );
    }};
}
pub(crate) use err;

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
    fn bidi_controls_are_escaped_everywhere() {
        assert_eq!(cell("id\u{202e}txt.exe"), "id\\u{202e}txt.exe");
        assert_eq!(safe("a\u{2066}b\u{2069}"), "a\\u{2066}b\\u{2069}");
        assert!(matches!(cell("عربي"), Cow::Borrowed(_)));
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(safe("plain text\n\twith é 中"), "plain text\n\twith é 中");
        assert!(matches!(safe("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(safe("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(safe("x\ry\0z\u{7f}\u{9b}"), "x\\ry\\u{0}z\\u{7f}\\u{9b}");
    }
}
