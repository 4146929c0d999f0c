//! `FsStore` on a hostile folder layout: symlinks, folders where files are expected,
//! unreadable files, reserved and non-UTF-8 names, stale temp files.
#![cfg(unix)]

mod common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use common::{assert_os_storage, assert_storage, k, permissions_bypassed};
use session_state::{ErrorKind, Store};
use session_state_fs::FsStore;

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn a_linked_folder_leading_outside_is_refused_for_every_operation() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), root.path().join("out")).unwrap();
    let store = FsStore::new(root.path()).unwrap();

    let key = k("out/x.json");
    assert_storage(&store.write(&key, b"leak").unwrap_err(), "out/x.json");
    assert_storage(&store.append(&key, b"leak").unwrap_err(), "out/x.json");
    assert_storage(
        &store
            .update(&key, &mut |_| Ok(Some(b"leak".to_vec())))
            .unwrap_err(),
        "out/x.json",
    );
    assert_storage(
        &store.write(&k("out/deep/er/x"), b"leak").unwrap_err(),
        "out",
    );
    assert!(
        is_empty_dir(outside.path()),
        "something was written outside the root"
    );

    // A file already outside is neither read, listed, nor deleted through the link.
    std::fs::write(outside.path().join("secret"), b"top secret").unwrap();
    let secret = k("out/secret");
    let err = store.read(&secret).unwrap_err();
    assert_storage(&err, "out/secret");
    assert!(err.message().contains("outside the store root"), "{err}");
    assert!(err.context_value("symlink").unwrap().ends_with("/out"));
    assert!(!err.message().contains("top secret"));
    assert_storage(&store.delete(&secret).unwrap_err(), "out/secret");
    assert_storage(&store.list(&k("out")).unwrap_err(), "out");
    assert_eq!(
        std::fs::read(outside.path().join("secret")).unwrap(),
        b"top secret"
    );
    // A link to the outside folder is not walked when its parent is listed.
    store.write(&k("top/inside"), b"1").unwrap();
    symlink(outside.path(), root.path().join("top/link")).unwrap();
    assert_eq!(store.list(&k("top")).unwrap(), vec![k("top/inside")]);
}

#[test]
fn a_linked_file_leading_outside_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("passwd");
    std::fs::write(&target, b"root:x:0:0").unwrap();
    std::fs::create_dir(root.path().join("d")).unwrap();
    symlink(&target, root.path().join("d/passwd")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k("d/passwd");
    assert_storage(&store.read(&key).unwrap_err(), "d/passwd");
    assert_storage(&store.write(&key, b"x").unwrap_err(), "d/passwd");
    assert_storage(&store.append(&key, b"x").unwrap_err(), "d/passwd");
    assert_eq!(std::fs::read(&target).unwrap(), b"root:x:0:0");
    assert_eq!(store.list(&k("d")).unwrap(), Vec::new());
    // A dangling link is refused too, saying why (it said "leads outside" for a link to a
    // missing file inside, and for a loop).
    symlink(root.path().join("nowhere"), root.path().join("d/dangling")).unwrap();
    let err = store.read(&k("d/dangling")).unwrap_err();
    assert_storage(&err, "d/dangling");
    assert!(err.message().contains("cannot be followed"), "{err}");
    symlink("loop", root.path().join("d/loop")).unwrap();
    let err = store.write(&k("d/loop"), b"x").unwrap_err();
    assert!(err.message().contains("cannot be followed"), "{err}");
}

#[test]
fn links_that_stay_inside_can_be_read() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store.write(&k("real/doc.json"), b"{}").unwrap();
    symlink(root.path().join("real"), root.path().join("alias")).unwrap();
    symlink(
        root.path().join("real/doc.json"),
        root.path().join("real/link.json"),
    )
    .unwrap();
    assert_eq!(
        store.read(&k("alias/doc.json")).unwrap().as_deref(),
        Some(&b"{}"[..])
    );
    assert_eq!(
        store.read(&k("real/link.json")).unwrap().as_deref(),
        Some(&b"{}"[..])
    );
    // A link to a file inside lists as a key; a linked folder is not walked (it could loop).
    assert_eq!(
        store.list(&k("real")).unwrap(),
        vec![k("real/doc.json"), k("real/link.json")]
    );
    symlink(root.path(), root.path().join("real/loop")).unwrap();
    assert_eq!(store.list(&k("real")).unwrap().len(), 2);
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_symlink()
}

/// A key that is a link to a file inside the root is written through, as a plain write would
/// be: the target changes and the link stays a link (not replaced by a file that leaves the
/// shared target stale).
#[test]
fn writes_to_a_link_inside_the_root_go_to_its_target() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store.write(&k("shared/as.json"), b"old").unwrap();
    std::fs::create_dir_all(root.path().join(".moai/memory")).unwrap();
    let link = root.path().join(".moai/memory/agent-sessions.json");
    symlink("../../shared/as.json", &link).unwrap();
    let key = k(".moai/memory/agent-sessions.json");

    store.write(&key, b"written").unwrap();
    assert!(is_link(&link));
    assert_eq!(
        store.read(&k("shared/as.json")).unwrap().as_deref(),
        Some(&b"written"[..])
    );
    store
        .update(&key, &mut |old| {
            assert_eq!(old, Some(&b"written"[..]));
            Ok(Some(b"updated".to_vec()))
        })
        .unwrap();
    store.append(&key, b"+appended").unwrap();
    assert!(is_link(&link));
    assert_eq!(
        store.read(&k("shared/as.json")).unwrap().as_deref(),
        Some(&b"updated+appended"[..])
    );
    // No temporary file is left beside the link or the target.
    for dir in ["shared", ".moai/memory"] {
        for entry in std::fs::read_dir(root.path().join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(!name.contains(".tmp-"), "{dir}/{name}");
        }
    }
}

/// A key's link removed, or swapped for one leading outside, while an update holds the lock
/// (after the key was checked): a removed link gives way to a plain file at the key, a link
/// leading outside is refused (`storage`); neither the old nor the outside target changes.
#[test]
fn a_link_changed_during_an_update_is_never_followed_outside() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let precious = outside.path().join("precious");
    std::fs::write(&precious, b"precious").unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store.write(&k("shared/as.json"), b"old").unwrap();
    let link = root.path().join("d/as.json");
    let key = k("d/as.json");
    for swap_in in [None, Some(precious.as_path())] {
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&link);
        symlink("../shared/as.json", &link).unwrap();
        let mut first = true;
        let updated = store.update(&key, &mut |old| {
            // The update runs again once it finds the file it read gone from the key.
            if std::mem::take(&mut first) {
                assert_eq!(old, Some(&b"old"[..]));
                std::fs::remove_file(&link).unwrap();
                if let Some(target) = swap_in {
                    symlink(target, &link).unwrap();
                }
            } else {
                assert_eq!(old, None, "nothing outside is read");
            }
            Ok(Some(b"new".to_vec()))
        });
        match swap_in {
            None => {
                updated.unwrap();
                assert!(!is_link(&link));
                assert_eq!(std::fs::read(&link).unwrap(), b"new");
            }
            Some(_) => assert_storage(&updated.unwrap_err(), "d/as.json"),
        }
        assert_eq!(
            store.read(&k("shared/as.json")).unwrap().as_deref(),
            Some(&b"old"[..])
        );
        assert_eq!(std::fs::read(&precious).unwrap(), b"precious");
    }
}

/// A relative root is resolved when the store is made: changing the current folder later does
/// not move the store (the folder is made and written in one place).
/// Runs in a child process, since the current folder is process-wide.
#[test]
fn a_relative_root_stays_where_it_was_made() {
    if std::env::var_os("FS_STORE_CHDIR_CHILD").is_some() {
        let base = std::env::current_dir().unwrap();
        std::fs::create_dir_all("a").unwrap();
        std::fs::create_dir_all("b").unwrap();
        std::env::set_current_dir("a").unwrap();
        let store = FsStore::new("rel").unwrap();
        std::env::set_current_dir(base.join("b")).unwrap();
        store.write(&k("k.json"), b"1").unwrap();
        assert_eq!(store.root(), base.join("a/rel"));
        assert_eq!(std::fs::read(base.join("a/rel/k.json")).unwrap(), b"1");
        assert!(!base.join("b/rel").exists());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_relative_root_stays_where_it_was_made",
            "--nocapture",
        ])
        .env("FS_STORE_CHDIR_CHILD", "1")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"));
}

#[test]
fn a_folder_where_a_file_is_expected_is_a_storage_error() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("a/doc.json/inner")).unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k("a/doc.json");
    let err = store.read(&key).unwrap_err();
    assert_storage(&err, "a/doc.json");
    assert_eq!(err.context_value("key"), Some("a/doc.json"));
    assert!(err.message().contains("folder"), "{err}");
    assert_os_storage(&store.write(&key, b"x").unwrap_err(), "a/doc.json");
    assert_storage(
        &store
            .update(&key, &mut |_| Ok(Some(b"x".to_vec())))
            .unwrap_err(),
        "a/doc.json",
    );
    assert_os_storage(&store.append(&key, b"x").unwrap_err(), "a/doc.json");
    assert_os_storage(&store.delete(&key).unwrap_err(), "a/doc.json");
    assert!(root.path().join("a/doc.json/inner").is_dir());
    // A file where a folder is expected.
    store.write(&k("f"), b"1").unwrap();
    assert_os_storage(&store.write(&k("f/x"), b"2").unwrap_err(), "f");
    assert_os_storage(&store.read(&k("f/x")).unwrap_err(), "f");
    assert_eq!(store.list(&k("f")).unwrap(), Vec::new());
}

#[test]
fn an_unreadable_file_is_a_storage_error_naming_it() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k("locked/doc.json");
    store.write(&key, b"{}").unwrap();
    store.write(&k("locked/other.json"), b"{}").unwrap();
    let file = root.path().join("locked/doc.json");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
    if permissions_bypassed(root.path()) {
        println!(
            "skipping the permission-denied assertions: this process bypasses file modes \
             (running as root or with CAP_DAC_OVERRIDE), so a mode 000 file stays readable"
        );
        assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"{}"[..]));
    } else {
        let err = store.read(&key).unwrap_err();
        assert_os_storage(&err, "locked/doc.json");
        assert!(err.message().contains("denied"), "{err}");
        // The other file and the listing are unaffected by one unreadable file.
        assert_eq!(
            store.read(&k("locked/other.json")).unwrap().as_deref(),
            Some(&b"{}"[..])
        );
        assert_eq!(store.list(&k("locked")).unwrap().len(), 2);
        // An unreadable folder fails list with its path.
        let folder = root.path().join("locked");
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o000)).unwrap();
        let err = store.list(&k("locked")).unwrap_err();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_os_storage(&err, "locked");
    }
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
}

#[test]
fn list_skips_reserved_invalid_and_non_utf8_names() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store.write(&k("d/ok.json"), b"1").unwrap();
    store.write(&k("d/sub/deep.json"), b"2").unwrap();
    let d = root.path().join("d");
    for name in [
        ".ok.json.lock",
        ".ok.json.lock-queue",
        ".ok.json.tmp-123-4",
        ".x.tmp-1-1",
        "back\\slash",
        "new\nline",
    ] {
        std::fs::write(d.join(name), b"junk").unwrap();
    }
    std::fs::write(d.join(OsStr::from_bytes(b"bad-\xff\xfe")), b"junk").unwrap();
    std::fs::create_dir(d.join(OsStr::from_bytes(b"dir-\xff"))).unwrap();
    std::fs::write(d.join(OsStr::from_bytes(b"dir-\xff/inner.json")), b"junk").unwrap();
    std::fs::create_dir(d.join(".cache.lock")).unwrap();
    std::fs::write(d.join(".cache.lock/hidden.json"), b"junk").unwrap();
    assert_eq!(
        store.list(&k("d")).unwrap(),
        vec![k("d/ok.json"), k("d/sub/deep.json")]
    );
}

#[test]
fn a_stale_temp_file_from_a_crash_is_ignored() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let key = k("s/doc.json");
    std::fs::create_dir(root.path().join("s")).unwrap();
    // A crash between creating the temp file and the rename leaves a half-written file.
    let stale = root.path().join("s/.doc.json.tmp-99999-0");
    std::fs::write(&stale, b"{\"half").unwrap();
    assert_eq!(store.read(&key).unwrap(), None);
    assert_eq!(store.list(&k("s")).unwrap(), Vec::new());
    store.write(&key, b"{\"whole\":true}").unwrap();
    assert_eq!(
        store.read(&key).unwrap().as_deref(),
        Some(&b"{\"whole\":true}"[..])
    );
    store
        .update(&key, &mut |old| {
            assert_eq!(old, Some(&b"{\"whole\":true}"[..]));
            Ok(None)
        })
        .unwrap();
    assert_eq!(store.list(&k("s")).unwrap(), vec![key]);
    // The update cleared it: no process 99999 runs (pid_max is 32768 here, 4194304 at most;
    // where it might run, the file is kept, which is also correct).
    if std::path::Path::new("/proc/self").exists() && !std::path::Path::new("/proc/99999").exists()
    {
        assert!(
            !stale.exists(),
            "the dead writer's temp file is removed by the update"
        );
    }
}

#[test]
fn keys_with_reserved_names_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    store.write(&k("a/x"), b"1").unwrap();
    // A lock file of `a/x`, as a writer holding it (or killed) leaves it.
    std::fs::write(root.path().join("a/.x.lock"), b"").unwrap();
    for bad in [
        "a/.x.lock",
        "a/.x.lock-queue",
        "a/.x.tmp-1-2",
        ".lock",
        ".d.lock/inner",
    ] {
        let key = k(bad);
        let err = store.write(&key, b"replaces the lock").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidKey, "{bad}: {err}");
        assert!(err.message().contains("reserves"), "{err}");
        assert_eq!(store.read(&key).unwrap_err().kind(), ErrorKind::InvalidKey);
        assert_eq!(
            store.update(&key, &mut |_| Ok(None)).unwrap_err().kind(),
            ErrorKind::InvalidKey
        );
    }
    // The lock file of `a/x` is untouched and still empty.
    assert_eq!(std::fs::read(root.path().join("a/.x.lock")).unwrap(), b"");
    // Names that merely look alike are ordinary keys.
    for fine in [
        "a/x.lock",
        "a/.lockfile",
        "a/.x.lock.json",
        "a/x.tmp-1",
        "a/x.lock-queue",
    ] {
        store.write(&k(fine), b"ok").unwrap();
        assert_eq!(store.read(&k(fine)).unwrap().as_deref(), Some(&b"ok"[..]));
    }
    assert_eq!(store.list(&k("a")).unwrap().len(), 6);
}

#[test]
fn long_names_sharing_their_first_bytes_stay_distinct() {
    // Temp and lock names keep only the first 200 bytes of a name, so these two keys share a
    // lock file; their values must still be separate and both updatable.
    let root = tempfile::tempdir().unwrap();
    let store = FsStore::new(root.path()).unwrap();
    let stem = "s".repeat(240);
    let (a, b) = (k(&format!("l/{stem}-a")), k(&format!("l/{stem}-b")));
    store.write(&a, b"a").unwrap();
    store.write(&b, b"b").unwrap();
    store
        .update(&a, &mut |old| Ok(old.map(|v| [v, b"1"].concat())))
        .unwrap();
    store.append(&b, b"2").unwrap();
    assert_eq!(store.read(&a).unwrap().as_deref(), Some(&b"a1"[..]));
    assert_eq!(store.read(&b).unwrap().as_deref(), Some(&b"b2"[..]));
    assert_eq!(store.list(&k("l")).unwrap(), vec![a, b]);
    assert!(common::temp_files(root.path()).is_empty());
}
