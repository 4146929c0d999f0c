//! How bytes are kept in a string-only storage (`localStorage`).
//!
//! Documents are UTF-8 JSON, so the common case is stored as the text itself, readable in the
//! browser's devtools. Bytes that are not valid UTF-8, or text that starts with a NUL character
//! (which no JSON document does), are stored as [`BASE64_MARKER`] followed by standard padded
//! base64. Decoding is unambiguous: a stored string starting with NUL is always the base64 form.

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

/// The bytes a stored string holds, or `None` when it starts with the marker but its base64 is
/// broken (someone else wrote the value).
pub fn decode(stored: String) -> Option<Vec<u8>> {
    match stored.strip_prefix(BASE64_MARKER) {
        Some(b64) => STANDARD.decode(b64).ok(),
        None if stored.starts_with('\0') => None,
        None => Some(stored.into_bytes()),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn utf8_json_is_stored_as_text() {
        let doc = "{\"session_id\":\"é-1\",\"n\":[1,2]}";
        assert_eq!(encode(doc.as_bytes()), doc);
        assert_eq!(decode(doc.to_owned()).unwrap(), doc.as_bytes());
        assert_eq!(encode(b""), "");
        assert_eq!(decode(String::new()).unwrap(), b"");
    }

    #[test]
    fn invalid_utf8_and_leading_nul_use_base64() {
        let cases: [&[u8]; 4] = [b"\xff\xfe{", b"\0base64:AAAA", b"\0", b"ok\xc3"];
        for bytes in cases {
            let stored = encode(bytes);
            assert!(stored.starts_with(BASE64_MARKER), "{stored:?}");
            assert_eq!(decode(stored).unwrap(), bytes);
        }
        assert_eq!(encode(b"\xff"), "\0base64:/w==");
    }

    #[test]
    fn foreign_nul_values_that_are_not_base64_are_refused() {
        assert_eq!(decode("\0base64:***".to_owned()), None);
        assert_eq!(decode("\0other".to_owned()), None);
    }
}
