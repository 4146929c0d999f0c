//! How bytes are kept in a string-only storage (`localStorage`).
//!
//! Documents are UTF-8 JSON, so the common case is stored as the text itself, readable in the
//! browser's devtools. Bytes that are not valid UTF-8, or text that starts with a NUL character
//! (which no JSON document does), are stored as [`BASE64_MARKER`] followed by standard padded
//! base64. A string starting with NUL that is not that form (someone else wrote the value) reads as
//! its own UTF-8 bytes, like any other foreign text: a document reader then finds it corrupt and
//! keeps it aside, as it would a torn file.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// Prefix of the base64 form: a NUL character, then `base64:`.
pub const BASE64_MARKER: &str = "\0base64:";

/// The string that stores `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with('\0') => text.to_owned(),
        _ => {
            let mut out = String::from(BASE64_MARKER);
            STANDARD.encode_string(bytes, &mut out);
            out
        }
    }
}

/// The bytes a stored string holds: the base64 form decoded, any other string's UTF-8 bytes
/// (also a string that starts with the marker but whose base64 is broken).
pub fn decode(stored: String) -> Vec<u8> {
    stored
        .strip_prefix(BASE64_MARKER)
        .and_then(|b64| STANDARD.decode(b64).ok())
        .unwrap_or_else(|| stored.into_bytes())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn utf8_json_is_stored_as_text() {
        let doc = "{\"session_id\":\"é-1\",\"n\":[1,2]}";
        assert_eq!(encode(doc.as_bytes()), doc);
        assert_eq!(decode(doc.to_owned()), doc.as_bytes());
        assert_eq!(encode(b""), "");
        assert_eq!(decode(String::new()), b"");
    }

    #[test]
    fn invalid_utf8_and_leading_nul_use_base64() {
        let cases: [&[u8]; 4] = [b"\xff\xfe{", b"\0base64:AAAA", b"\0", b"ok\xc3"];
        for bytes in cases {
            let stored = encode(bytes);
            assert!(stored.starts_with(BASE64_MARKER), "{stored:?}");
            assert_eq!(decode(stored), bytes);
        }
        assert_eq!(encode(b"\xff"), "\0base64:/w==");
    }

    #[test]
    fn foreign_nul_values_that_are_not_base64_read_as_their_text() {
        assert_eq!(decode("\0base64:***".to_owned()), b"\0base64:***");
        assert_eq!(decode("\0other".to_owned()), b"\0other");
    }
}
