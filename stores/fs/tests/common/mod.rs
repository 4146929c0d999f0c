//! Helpers shared by the FsStore integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use session_state::{Error, ErrorKind, Key};

/// Shorthand for a valid key.
pub fn k(s: &str) -> Key {
    Key::new(s).unwrap()
}

/// Checks `err` is a `storage` error whose context names a path containing `path_part`, with a
/// lowercase message without a final period.
pub fn assert_storage(err: &Error, path_part: &str) {
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    let path = err
        .context_value("path")
        .unwrap_or_else(|| panic!("no path in the context of: {err}"));
    assert!(
        path.contains(path_part),
        "path `{path}` lacks `{path_part}`"
    );
    assert!(
        err.message().starts_with(|c: char| !c.is_uppercase()) && !err.message().ends_with('.'),
        "message style: {err}"
    );
}

/// Checks `err` is a `storage` error carrying `path_part` and an OS error: the message shows it
/// (`(os error N)`) and the source is the `io::Error` with its raw OS code.
pub fn assert_os_storage(err: &Error, path_part: &str) {
    assert_storage(err, path_part);
    assert!(err.message().contains("os error"), "no os error in: {err}");
    let source = std::error::Error::source(err).expect("an io source");
    let io = source
        .downcast_ref::<std::io::Error>()
        .expect("the source is an io::Error");
    assert!(io.raw_os_error().is_some(), "not an os error: {io:?}");
}

/// Every file below `dir` (recursively) whose name contains `.tmp-`.
pub fn temp_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if entry.file_name().to_string_lossy().contains(".tmp-") {
                out.push(entry.path());
            }
        }
    }
    out
}

/// Whether this process bypasses file permission bits (root, CAP_DAC_OVERRIDE): it can open a
/// file with mode 000.
pub fn permissions_bypassed(probe_dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = probe_dir.join("permission-probe");
    std::fs::write(&probe, b"x").unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).unwrap();
    let bypassed = std::fs::File::open(&probe).is_ok();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::remove_file(&probe).unwrap();
    bypassed
}
