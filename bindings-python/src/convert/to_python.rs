//! JSON text the core has checked, built into plain Python data in one pass.

use jiter::{PythonParse, StringCacheMode};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBytes;

use super::Out;

/// The JSON text `bytes` (BOM skipped) the core has checked, as what `json.loads` gives, built
/// in one pass: by orjson when it is installed and the text has no run of 19 digits (orjson
/// reads an integer past 64 bits as a float, `json.loads` as an int), else by jiter (short
/// strings shared through its bounded cache, as pydantic does); text both refuse (NaN, a lone
/// surrogate, nesting beyond their limits) goes to `json.loads`. Other exceptions of orjson
/// (`MemoryError`) are raised.
pub fn json_to_py<'py>(py: Python<'py>, bytes: &[u8]) -> Out<'py> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(loads) = orjson_loads(py).filter(|_| !has_long_digit_run(bytes)) {
        match loads.call1((PyBytes::new(py, bytes),)) {
            Ok(value) => return Ok(value),
            // orjson.JSONDecodeError: text it refuses (NaN, a lone surrogate, deep nesting).
            Err(e) if e.is_instance_of::<PyValueError>(py) => {}
            Err(e) => return Err(e), // MemoryError, KeyboardInterrupt: not the text's doing
        }
    }
    let parse = PythonParse {
        cache_mode: StringCacheMode::All,
        ..PythonParse::default()
    };
    match parse.python_parse(py, bytes) {
        Ok(value) => Ok(value),
        Err(_) => py
            .import("json")?
            .call_method1("loads", (PyBytes::new(py, bytes),)),
    }
}

/// `orjson.loads`, looked up once; `None` when orjson is not installed.
fn orjson_loads(py: Python<'_>) -> Option<&Bound<'_, PyAny>> {
    static LOADS: PyOnceLock<Option<Py<PyAny>>> = PyOnceLock::new();
    let loads = LOADS.get_or_init(py, || {
        let module = py.import("orjson").ok()?;
        module.getattr("loads").ok().map(Bound::unbind)
    });
    loads.as_ref().map(|loads| loads.bind(py))
}

/// The digits that may spell an integer past 64 bits: the shortest such is 19 digits long
/// (`-9223372036854775809`).
const LONG_DIGIT_RUN: u32 = 19;

/// Whether `bytes` hold [`LONG_DIGIT_RUN`] ASCII digits in a row (in a number or a string: a
/// string of digits only costs the faster builder). Such a run covers a whole 8-byte word of
/// digits (counted from the start), so the words are looked at first, 64 bytes at a time
/// without a branch, and the bytes counted only when one is all digits.
fn has_long_digit_run(bytes: &[u8]) -> bool {
    let all_digits = |word: &[u8]| {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let offset = word ^ u64::from_ne_bytes([b'0'; 8]);
        // High bit of each byte: set unless that byte of `offset` is below 10 (the low seven
        // bits plus 0x76 cannot carry into the next byte).
        let not_digit = (offset | ((offset & 0x7F7F_7F7F_7F7F_7F7F) + 0x7676_7676_7676_7676))
            & 0x8080_8080_8080_8080;
        u8::from(not_digit == 0)
    };
    let has_digit_word = bytes.chunks(64).any(|block| {
        block
            .chunks_exact(8)
            .fold(0, |any, word| any | all_digits(word))
            != 0
    });
    has_digit_word && {
        let mut run = 0;
        bytes.iter().any(|byte| {
            run = if byte.is_ascii_digit() { run + 1 } else { 0 };
            run >= LONG_DIGIT_RUN
        })
    }
}

#[cfg(test)]
mod tests {
    use super::has_long_digit_run;

    /// Every place and length of a digit run across 64-byte blocks, against a plain count.
    #[test]
    fn a_long_digit_run_is_found_wherever_it_lies() {
        let plain = |bytes: &[u8]| {
            let mut run = 0;
            bytes.iter().any(|b| {
                run = if b.is_ascii_digit() { run + 1 } else { 0 };
                run >= 19
            })
        };
        for start in 0..140 {
            for len in [0, 1, 17, 18, 19, 20, 63, 64, 65, 130] {
                let mut bytes = vec![b'x'; 300];
                bytes[start..start + len].fill(b'7');
                assert_eq!(
                    has_long_digit_run(&bytes),
                    plain(&bytes),
                    "start {start} len {len}"
                );
                bytes.truncate(start + len);
                assert_eq!(has_long_digit_run(&bytes), plain(&bytes), "ending there");
            }
        }
        assert!(!has_long_digit_run(b"[123456789012345678]")); // 18 digits
        assert!(has_long_digit_run(b"-9223372036854775809"));
        assert!(!has_long_digit_run(b"/0:9/0:9/0"));
    }
}
