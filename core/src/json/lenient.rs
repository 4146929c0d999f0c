//! A tolerant JSON reader for salvage: it reads the longest usable prefix of damaged bytes.
//!
//! Rules: a value counts only when it is complete (a string with its closing quote, a number
//! followed by a delimiter, a whole literal). An object or array cut short keeps the members
//! it completed and is reported as partial (by its path, e.g. `agents[1]`); the member being
//! read when the bytes ended or went wrong is dropped. A complete value that would nest deeper
//! than [`MAX_DEPTH`] is skipped whole (its path reported as dropped) and reading goes on after
//! it; one cut short there ends the read. `NaN`, `Infinity` and `-Infinity` (which Python's `json` writes, and JSON does
//! not allow) read as `null`, so what follows them is kept. It never panics and runs in time
//! linear in the input.

use serde_json::{Map, Number, Value};

/// Most containers nested in one another, the top level included, that the reader keeps: as
/// many as serde_json reads back (it refuses the 128th), so that a salvage always parses.
pub const MAX_DEPTH: usize = 127;

/// What one value read gave.
enum Read {
    /// The whole value.
    Complete(Value),
    /// A container cut short, with its complete members.
    Partial(Value),
    /// A complete value nested too deep to keep: left out, reading goes on after it.
    TooDeep,
    /// Nothing usable.
    Nothing,
}

/// The result of a lenient read of a whole document.
pub(crate) struct Lenient {
    /// The top-level object (empty when the bytes do not start with one).
    pub object: Map<String, Value>,
    /// Whether the top level was an object at all.
    pub top_is_object: bool,
    /// Paths of containers cut short, innermost first (the root is `""`; also listed when
    /// the bytes hold no object at all).
    pub partial: Vec<String>,
    /// Paths of complete values left out because they nest deeper than [`MAX_DEPTH`].
    pub too_deep: Vec<String>,
}

/// Reads `bytes` leniently (a leading UTF-8 BOM is skipped).
pub(crate) fn read(bytes: &[u8]) -> Lenient {
    let bytes = super::strip_bom(bytes);
    let mut reader = Reader {
        bytes,
        pos: 0,
        partial: Vec::new(),
        too_deep: Vec::new(),
    };
    reader.skip_ws();
    if reader.peek() != Some(b'{') {
        return Lenient {
            object: Map::new(),
            top_is_object: false,
            partial: vec![String::new()],
            too_deep: Vec::new(),
        };
    }
    let object = match reader.value(String::new(), 0) {
        Read::Complete(Value::Object(m)) | Read::Partial(Value::Object(m)) => m,
        _ => Map::new(),
    };
    Lenient {
        object,
        top_is_object: true,
        partial: reader.partial,
        too_deep: reader.too_deep,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    partial: Vec<String>,
    too_deep: Vec<String>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, path: String, depth: usize) -> Read {
        self.skip_ws();
        match self.peek() {
            Some(b'{' | b'[') if depth + 1 > MAX_DEPTH => self.skip_too_deep(path),
            Some(b'{') => self.object(path, depth),
            Some(b'[') => self.array(path, depth),
            Some(b'"') => self
                .string()
                .map_or(Read::Nothing, |s| Read::Complete(Value::String(s))),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            // Not JSON, but what Python's `json` writes for NaN and infinities: read as null,
            // so that the members after one are not lost.
            Some(b'N') => self.literal(b"NaN", Value::Null),
            Some(b'I') => self.literal(b"Infinity", Value::Null),
            Some(b'-') if self.bytes[self.pos..].starts_with(b"-Infinity") => {
                self.literal(b"-Infinity", Value::Null)
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Read::Nothing,
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Read {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Read::Complete(value)
        } else {
            Read::Nothing
        }
    }

    fn number(&mut self) -> Read {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.pos += 1;
        }
        // A number that runs to the end of the bytes may have been cut: not complete.
        if self.pos >= self.bytes.len() {
            return Read::Nothing;
        }
        std::str::from_utf8(&self.bytes[start..self.pos])
            .ok()
            .and_then(|text| text.parse::<Number>().ok())
            .map_or(Read::Nothing, |n| Read::Complete(Value::Number(n)))
    }

    /// A string starting at the opening quote; `None` when it has no closing quote or a bad
    /// escape.
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let byte = self.peek()?;
            self.pos += 1;
            match byte {
                b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    let esc = self.peek()?;
                    self.pos += 1;
                    let ch = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(byte),
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        let code = u32::from_str_radix(text, 16).ok()?;
        self.pos += 4;
        Some(code)
    }

    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) {
            if self.bytes.get(self.pos..self.pos + 2)? != b"\\u" {
                return Some('\u{FFFD}');
            }
            self.pos += 2;
            let second = self.hex4()?;
            let code = 0x10000 + ((first - 0xD800) << 10) + (second.wrapping_sub(0xDC00) & 0x3FF);
            return Some(char::from_u32(code).unwrap_or('\u{FFFD}'));
        }
        Some(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }

    /// Skips the container at `pos` whole, minding strings: [`Read::TooDeep`] (its `path`
    /// recorded) when it is complete, [`Read::Nothing`] when the bytes end inside it.
    fn skip_too_deep(&mut self, path: String) -> Read {
        let mut open = 0_usize;
        let mut in_string = false;
        let mut escaped = false;
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => open += 1,
                b']' | b'}' => {
                    open -= 1;
                    if open == 0 {
                        self.too_deep.push(path);
                        return Read::TooDeep;
                    }
                }
                _ => {}
            }
        }
        Read::Nothing
    }

    fn object(&mut self, path: String, depth: usize) -> Read {
        self.pos += 1;
        let mut map = Map::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return Read::Complete(Value::Object(map));
                }
                Some(b'"') => {}
                _ => return self.cut(path, Value::Object(map)),
            }
            let Some(name) = self.string() else {
                return self.cut(path, Value::Object(map));
            };
            self.skip_ws();
            if self.peek() != Some(b':') {
                return self.cut(path, Value::Object(map));
            }
            self.pos += 1;
            let child = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            match self.value(child, depth + 1) {
                Read::Complete(v) => {
                    map.insert(name, v);
                }
                Read::Partial(v) => {
                    map.insert(name, v);
                    return self.cut(path, Value::Object(map));
                }
                Read::TooDeep => {}
                Read::Nothing => return self.cut(path, Value::Object(map)),
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Read::Complete(Value::Object(map));
                }
                _ => return self.cut(path, Value::Object(map)),
            }
        }
    }

    fn array(&mut self, path: String, depth: usize) -> Read {
        self.pos += 1;
        let mut items = Vec::new();
        let mut index = 0_usize;
        loop {
            self.skip_ws();
            if self.peek() == Some(b']') {
                self.pos += 1;
                return Read::Complete(Value::Array(items));
            }
            let child = format!("{path}[{index}]");
            index += 1;
            match self.value(child, depth + 1) {
                Read::Complete(v) => items.push(v),
                Read::Partial(v) => {
                    items.push(v);
                    return self.cut(path, Value::Array(items));
                }
                Read::TooDeep => {}
                Read::Nothing => return self.cut(path, Value::Array(items)),
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Read::Complete(Value::Array(items));
                }
                _ => return self.cut(path, Value::Array(items)),
            }
        }
    }

    /// Records `path` as cut short and stops reading (the rest of the bytes is not trusted).
    fn cut(&mut self, path: String, value: Value) -> Read {
        self.partial.push(path);
        self.pos = self.bytes.len();
        Read::Partial(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_complete_members_and_reports_cuts() {
        let r = read(br#"{"a": 1, "b": [1, 2, {"c": "x", "d": 12"#);
        assert!(r.top_is_object);
        assert_eq!(
            Value::Object(r.object),
            json!({"a": 1, "b": [1, 2, {"c": "x"}]})
        );
        assert_eq!(r.partial, vec!["b[2]", "b", ""]);
    }

    #[test]
    fn numbers_at_the_end_are_not_trusted_and_escapes_decode() {
        let r = read(br#"{"s": "a\"\u00e9\ud83d\ude00", "n": 250"#);
        assert_eq!(Value::Object(r.object), json!({"s": "a\"é😀"}));
        let r = read(b"[1, 2]");
        assert!(!r.top_is_object);
    }

    #[test]
    fn a_value_too_deep_to_read_back_is_left_out_and_the_rest_kept() {
        // 126 levels inside the top object: 127 in all, as serde_json reads back.
        let kept = "[".repeat(126) + &"]".repeat(126);
        let deep = "[".repeat(127) + "\"]\\\"[\"" + &"]".repeat(127);
        let text =
            format!(r#"{{"ok": {kept}, "deep": {deep}, "list": [1, {deep}, 3], "after": 1}}"#);
        let r = read(text.as_bytes());
        // The innermost array, at level 128, is left out; the levels around it are kept.
        let inner = |top: &str, levels: usize| format!("{top}{}", "[0]".repeat(levels));
        assert_eq!(r.too_deep, [inner("deep", 126), inner("list[1]", 125)]);
        assert!(r.partial.is_empty(), "{:?}", r.partial);
        let shell: Value = serde_json::from_str(&kept).unwrap();
        assert_eq!(r.object["deep"], shell);
        assert_eq!(r.object["list"][0], json!(1));
        assert_eq!(r.object["list"][2], json!(3));
        assert_eq!(r.object["after"], json!(1));
        let doc = serde_json::to_string(&Value::Object(r.object)).unwrap();
        assert!(serde_json::from_str::<Value>(&doc).is_ok(), "reads back");
    }

    #[test]
    fn deep_nesting_is_cut_not_overflowed() {
        let mut bytes = b"{\"a\": ".to_vec();
        bytes.extend(std::iter::repeat_n(b'[', 100_000));
        let r = read(&bytes);
        assert!(r.object.contains_key("a"));
    }
}
