//! JSON text the core has checked, built into plain Python data in one pass.

use jiter::{PythonParse, StringCacheMode};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::Out;

/// The JSON text `bytes` (BOM skipped) the core has checked, as what `json.loads` gives, built
/// in one pass by jiter (short strings shared through its bounded cache, as pydantic does);
/// text jiter refuses (nesting beyond its limit of 200, say) goes to `json.loads`.
pub fn json_to_py<'py>(py: Python<'py>, bytes: &[u8]) -> Out<'py> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
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
