//! [`FsStore`]: keys as files below a root folder.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use session_state::{Error, ErrorKind, Key, Leftover, Result, Store, UpdateFn};

use crate::paths::{
    LOCK_SUFFIX, QUEUE_SUFFIX, TMP_INFIX, check_confined, check_not_reserved, io_error,
    is_reserved, path_of, remove_stale_temps, sibling,
};

/// How hard a write tries to reach the disk before it returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Atomic rename only: the file is whole after a process crash (old or new bytes), but a
    /// power loss or an OS crash may lose writes that had returned. The opt-out for speed
    /// (`durable=False` in Python, `{ durable: false }` in Node, `SESSION_STATE_DURABLE=0` for
    /// the CLI).
    Atomic,
    /// Also fsync the file before the rename and the folder after it: a write that returned
    /// survives a power loss or an OS crash too. The default.
    #[default]
    Sync,
}

/// A [`Store`] over the folder `root`: key `a/b.json` is the file `root/a/b.json`.
/// See the crate docs for the guarantees.
#[derive(Clone, Debug)]
pub struct FsStore {
    root: PathBuf,
    /// `root` with its symlinks resolved, set once the root exists (see `canonical_root`).
    canonical_root: OnceLock<PathBuf>,
    durability: Durability,
    lock_timeout: Duration,
    lock_wait: Option<LockWait>,
    mark_settle: Duration,
    /// When this handle (and its clones) last swept each folder for stale temporary files.
    swept: Arc<Mutex<HashMap<PathBuf, Instant>>>,
}

/// What waits between polls for a lock, instead of a plain sleep: an error ends the wait with
/// it (see [`FsStore::with_lock_wait`]).
#[derive(Clone)]
struct LockWait(Arc<dyn Fn(Duration) -> Result<()> + Send + Sync>);

impl std::fmt::Debug for LockWait {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LockWait")
    }
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The lock files this thread holds in `locked` (path, and the file locked), innermost
    /// last: a write checks them before its rename (see `locks_still_held`).
    static HELD: RefCell<Vec<(PathBuf, fs::Metadata)>> = const { RefCell::new(Vec::new()) };
    /// Whether a write under one of them found it lost: the update holding it runs again.
    static LOST: Cell<bool> = const { Cell::new(false) };
    /// Whether the `apply` of the update this thread runs has written or deleted another key:
    /// it cannot run again then (those changes would be made twice), so its writes go ahead.
    static CHANGED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a write may go ahead: not inside an update, or its locks still held, or that
/// update's `apply` already changed another key (see [`CHANGED`]).
fn may_write() -> bool {
    CHANGED.get() || locks_still_held()
}

/// Records a write or deletion made inside an update (see [`CHANGED`]).
fn changed() {
    if HELD.with_borrow(|held| !held.is_empty()) {
        CHANGED.set(true);
    }
}

/// A lock file in this thread's [`HELD`] while it lives (popped when `f` of `locked`
/// returns or unwinds).
struct Held;

impl Held {
    fn push(path: PathBuf, id: fs::Metadata) -> Held {
        HELD.with_borrow_mut(|held| held.push((path, id)));
        Held
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        HELD.with_borrow_mut(Vec::pop);
    }
}

/// Whether every lock file this thread holds is still the file at its path: one removed
/// meanwhile (by hand, `git clean -X`) lets the next writer lock a new file there and go ahead
/// too. Off Unix it cannot tell (see `is_at`).
fn locks_still_held() -> bool {
    HELD.with_borrow(|held| held.iter().all(|(path, id)| is_at(id, path)))
}

impl FsStore {
    /// A store over `root`. Nothing is created: a missing root reads as empty (every key
    /// absent, every list empty, a delete finds nothing), and the first write, update or append
    /// creates it (0700, with its missing parents) along with the folders the key needs.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when `root` is empty or holds a NUL; [`ErrorKind::Storage`]
    /// when it exists but is not a folder, or cannot be resolved (a file on its path).
    pub fn new(root: impl AsRef<Path>) -> Result<FsStore> {
        let given = root.as_ref();
        let shown = given.display().to_string();
        let storage = |action: &str, e: io::Error| {
            Error::new(
                ErrorKind::Storage,
                format!("cannot {action} store root `{shown}`: {e}"),
            )
            .with_context("path", shown.clone())
            .with_source(e)
        };
        if given.as_os_str().is_empty() {
            return Err(Error::invalid_input(
                "the store root is empty: give a folder (`.` for the current one)",
            ));
        }
        if given.as_os_str().as_encoded_bytes().contains(&0) {
            return Err(Error::invalid_input(format!(
                "the store root `{}` holds a NUL character, which no path can hold",
                shown.escape_debug()
            )));
        }
        // Resolved now: a relative root must not follow later changes of the current folder
        // (the folder would be created in one place and written in another).
        let root = std::path::absolute(given).map_err(|e| storage("resolve", e))?;
        let canonical_root = OnceLock::new();
        match fs::canonicalize(&root) {
            Ok(resolved) if resolved.is_dir() => {
                let _ = canonical_root.set(resolved);
            }
            Ok(_) => {
                return Err(storage(
                    "use",
                    io::Error::new(io::ErrorKind::NotADirectory, "not a folder"),
                ));
            }
            // Made by the first write; until then every read finds nothing.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(storage("resolve", e)),
        }
        Ok(FsStore {
            root,
            canonical_root,
            durability: Durability::default(),
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
            lock_wait: None,
            mark_settle: MARK_SETTLE,
            swept: Arc::default(),
        })
    }

    /// The same store with another bound on the wait for the cross-process lock of
    /// `update`/`append` (default [`DEFAULT_LOCK_TIMEOUT`]). Past it the operation fails with a
    /// `conflict` error naming the lock file, instead of waiting forever on a stuck process.
    #[must_use]
    pub fn with_lock_timeout(mut self, timeout: Duration) -> FsStore {
        self.lock_timeout = timeout;
        self
    }

    /// The same store with `wait(pause)` called instead of sleeping for `pause` between polls
    /// while `update`/`append` wait for another process's lock (pauses of 0.1 ms growing to
    /// 10 ms). When it returns an error, the wait ends with that error and nothing is written.
    /// A host language uses it to stay responsive during a long wait: the Python package
    /// runs pending signal handlers (Ctrl-C raises `KeyboardInterrupt`) and sleeps without
    /// holding the interpreter lock.
    #[must_use]
    pub fn with_lock_wait(
        mut self,
        wait: impl Fn(Duration) -> Result<()> + Send + Sync + 'static,
    ) -> FsStore {
        self.lock_wait = Some(LockWait(Arc::new(wait)));
        self
    }

    /// The same store vouching for a [`mark`](Store::mark) once the file or folder is
    /// `settle` old (default [`MARK_SETTLE`]); it must exceed the file system's timestamp
    /// granularity.
    #[must_use]
    pub fn with_mark_settle(mut self, settle: Duration) -> FsStore {
        self.mark_settle = settle;
        self
    }

    /// How long `update`/`append` wait for another process's lock before giving up.
    pub fn lock_timeout(&self) -> Duration {
        self.lock_timeout
    }

    /// The same store with another durability.
    #[must_use]
    pub fn with_durability(mut self, durability: Durability) -> FsStore {
        self.durability = durability;
        self
    }

    /// The root folder as an absolute path: a relative root is resolved against the current
    /// folder when the store is made (symlinks are not resolved).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Creates the root folder now (0700, with its missing parents; folders that exist are
    /// left as they are), as the first write would.
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] when a folder cannot be created (a file on the path).
    pub fn create_root(&self) -> Result<()> {
        create_dirs(&self.root).map_err(|e| {
            let shown = self.root.display().to_string();
            Error::new(
                ErrorKind::Storage,
                format!("cannot create store root `{shown}`: {e}"),
            )
            .with_context("path", shown)
            .with_source(e)
        })
    }

    /// The durability of writes.
    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// The file that holds `key` (whether or not it exists).
    pub fn path(&self, key: &Key) -> PathBuf {
        path_of(&self.root, key)
    }

    /// The root with its symlinks resolved, or `None` while it does not exist. Resolved once,
    /// the first time the root is there.
    fn canonical_root(&self, key: &Key) -> Result<Option<&Path>> {
        if let Some(resolved) = self.canonical_root.get() {
            return Ok(Some(resolved));
        }
        match fs::canonicalize(&self.root) {
            Ok(resolved) => Ok(Some(self.canonical_root.get_or_init(|| resolved))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(key, &self.root, "resolve the store root of", e)),
        }
    }

    pub(crate) fn confined(&self, key: &Key) -> Result<PathBuf> {
        Ok(self.confined_file(key)?.0)
    }

    /// [`confined`](Self::confined), and whether the key's file is a symlink (see
    /// `write_atomic`), seen by the same look.
    fn confined_file(&self, key: &Key) -> Result<(PathBuf, bool)> {
        check_not_reserved(key)?;
        let path = self.path(key);
        let is_link = check_confined(self.canonical_root(key)?, &self.root, key, &path)?;
        Ok((path, is_link))
    }

    /// Replaces the file of `key` at `path` atomically; `is_link` is whether `path` was a
    /// symlink when `confined_file` looked.
    fn write_atomic(&self, key: &Key, path: &Path, is_link: bool, data: &[u8]) -> Result<()> {
        if self.write_atomic_if(key, path, is_link, data, &may_write)? {
            changed();
            return Ok(());
        }
        // A write inside an update whose lock went: nothing written, the update runs again.
        LOST.set(true);
        Err(session_state::Error::new(
            session_state::ErrorKind::Conflict,
            format!("the lock held while writing `{key}` was removed: nothing written"),
        )
        .with_context("key", key.as_str()))
    }

    /// [`write_atomic`](Self::write_atomic), renaming only when `still` holds once the
    /// temporary file is written: `Ok(false)` (nothing written, no temporary file left) when it
    /// does not.
    fn write_atomic_if(
        &self,
        key: &Key,
        path: &Path,
        is_link: bool,
        data: &[u8],
        still: &dyn Fn() -> bool,
    ) -> Result<bool> {
        // A key that is a symlink (one leading inside the root: `confined` checked it) is
        // written through: its target is replaced, and the link stays, as a plain write would
        // do. Renaming over the link itself would turn it into a file and leave the target
        // stale. (A link swapped in since that look is replaced by the rename, never
        // followed.)
        let resolved;
        let path = match is_link.then(|| fs::canonicalize(path)) {
            Some(Ok(target)) => {
                resolved = target;
                let canonical_root = self.canonical_root(key)?;
                if !canonical_root.is_some_and(|c| resolved.starts_with(c)) {
                    // Changed since `confined` looked at it.
                    check_confined(canonical_root, &self.root, key, path)?;
                }
                resolved.as_path()
            }
            // No longer a link (removed or replaced since that look): written as a plain key.
            Some(Err(_))
                if !fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) =>
            {
                path
            }
            Some(Err(e)) => return Err(io_error(key, path, "resolve", e)),
            None => path,
        };
        let parent = path.parent().unwrap_or(&self.root);
        let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = sibling(path, &format!("{TMP_INFIX}{}-{n}", std::process::id()));
        // The folder is made only when the temporary file finds it missing.
        let mut file = match new_private_file(&tmp) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                create_dirs(parent)
                    .map_err(|e| io_error(key, parent, "create the folder of", e))?;
                new_private_file(&tmp)
            }
            opened => opened,
        }
        .map_err(|e| io_error(key, path, "write", e))?;
        let result = (|| {
            file.write_all(data)?;
            if self.durability == Durability::Sync {
                file.sync_all()?;
            }
            drop(file);
            if !still() {
                let _ = fs::remove_file(&tmp);
                return Ok(false);
            }
            fs::rename(&tmp, path)?;
            if self.durability == Durability::Sync {
                File::open(parent)?.sync_all()?;
            }
            Ok(true)
        })();
        result.map_err(|e| {
            let _ = fs::remove_file(&tmp);
            io_error(key, path, "write", e)
        })
    }

    /// Runs `f` holding the exclusive cross-process lock of `key`.
    ///
    /// The wait is fair between processes: a writer first takes the key's queue file
    /// (`.NAME.lock-queue`), then the lock file, then lets the queue go. The queue is held only
    /// while waiting, so a writer that has just released the lock and comes straight back finds
    /// the queue taken by the one that was waiting, and waits its turn instead of taking the
    /// lock again at once (with the lock alone, a steady writer could hold off another process
    /// until its lock timeout). Both waits share one deadline, the lock timeout.
    ///
    /// The lock and queue files stay when `f` is done: one pair per key ever updated or
    /// appended to, made at its first such write (creating and removing two files at every
    /// write would cost more than the write itself). [`delete`](Store::delete) removes the key's
    /// pair when no writer holds or waits for it (see `remove_lock_files`). A writer that
    /// opened a file before its removal sees, once it holds it, that its file is no longer
    /// the one at the path, and opens the path again (see `acquire_at`): so one file per path
    /// is ever locked.
    fn locked<T>(&self, key: &Key, path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let lock_path = sibling(path, LOCK_SUFFIX);
        let queue_path = sibling(path, QUEUE_SUFFIX);
        let deadline = Instant::now() + self.lock_timeout;
        let (queue, _) = self.acquire_at(key, &queue_path, deadline)?;
        let locked = self.acquire_at(key, &lock_path, deadline);
        let _ = queue.unlock();
        let (lock, id) = locked?;
        self.sweep_stale_temps(path);
        let held = Held::push(lock_path, id);
        let out = f();
        drop(held);
        let _ = lock.unlock();
        out
    }

    /// Removes the lock and queue files of the key at `path` (after its deletion) when no
    /// writer holds or waits for them: taken in the writers' order (queue, then lock), without
    /// waiting, and removed only while both are still the files at their paths. Off Unix a
    /// file cannot be told from its path's (see `is_at`): they stay. Best effort: a pair in
    /// use stays, to be used again.
    fn remove_lock_files(path: &Path) {
        if !cfg!(unix) {
            return;
        }
        let lock_path = sibling(path, LOCK_SUFFIX);
        let queue_path = sibling(path, QUEUE_SUFFIX);
        let Some((queue, queue_id)) = open_existing_lock_file(&queue_path) else {
            return;
        };
        if queue.try_lock().is_err() {
            return;
        }
        if let Some((lock, lock_id)) = open_existing_lock_file(&lock_path)
            && lock.try_lock().is_ok()
        {
            if is_at(&queue_id, &queue_path) && is_at(&lock_id, &lock_path) {
                let _ = fs::remove_file(&lock_path);
                let _ = fs::remove_file(&queue_path);
            }
            let _ = lock.unlock();
        }
        let _ = queue.unlock();
    }

    /// Opens the lock or queue file `lock_path` and takes its lock by `deadline`. When the
    /// file it locked is no longer the one at the path (its holder removed it meanwhile), it
    /// lets it go and opens the path again.
    fn acquire_at(
        &self,
        key: &Key,
        lock_path: &Path,
        deadline: Instant,
    ) -> Result<(File, fs::Metadata)> {
        loop {
            let (file, id) = open_lock_file(key, lock_path)?;
            self.acquire(key, lock_path, &file, deadline)?;
            if is_at(&id, lock_path) {
                return Ok((file, id));
            }
            let _ = file.unlock();
        }
    }

    /// The files below the folder key `prefix`, at any depth: those a key names, sorted
    /// ([`Store::list`]), and the paths below `prefix` of those no key can name
    /// ([`Store::unlisted`]). The store's own files (locks, temporary files) are neither.
    fn walk(&self, prefix: &Key) -> Result<(Vec<Key>, Vec<String>)> {
        let dir = self.confined(prefix)?;
        let mut out = Vec::new();
        let mut unlisted = Vec::new();
        let mut pending = vec![(dir, prefix.clone(), String::new())];
        while let Some((dir, dir_key, below)) = pending.pop() {
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(io_error(&dir_key, &dir, "list", e)),
            };
            for entry in entries {
                let entry = entry.map_err(|e| io_error(&dir_key, &dir, "list", e))?;
                let file_name = entry.file_name();
                let name = file_name.to_string_lossy();
                if is_reserved(&name) {
                    continue;
                }
                // Symlinks are not followed: a link is listed only when it leads to a file
                // inside the root; a linked folder is not walked (it could loop).
                let Ok(file_type) = entry.file_type() else {
                    continue;
                };
                let key = file_name.to_str().and_then(|n| dir_key.join(n).ok());
                let path = format!("{below}{name}");
                match key {
                    Some(key) if file_type.is_dir() => {
                        pending.push((entry.path(), key, format!("{path}/")));
                    }
                    Some(key)
                        if file_type.is_file()
                            || (file_type.is_symlink()
                                && self.confined(&key).is_ok()
                                && fs::metadata(entry.path()).is_ok_and(|m| m.is_file())) =>
                    {
                        out.push(key);
                    }
                    None if file_type.is_file() => unlisted.push(path),
                    // A special file at a key, a link out of the root, a folder no key names.
                    _ => {}
                }
            }
        }
        out.sort();
        unlisted.sort();
        Ok((out, unlisted))
    }

    /// Under the lock of the key `path`, no other writer of that key is mid-write: removes
    /// the temporary files dead writers left in its folder (see `remove_stale_temps`). A
    /// handle (with its clones) sweeps a folder at its first locked write there, then again
    /// only once [`STALE_SWEEP_INTERVAL`] has passed since: a listing of the folder at every
    /// write would cost more than the write in a busy folder, and a leftover is never read
    /// or listed meanwhile.
    fn sweep_stale_temps(&self, path: &Path) {
        let Some(folder) = path.parent() else {
            return;
        };
        let now = Instant::now();
        {
            let mut swept = self
                .swept
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match swept.get_mut(folder) {
                Some(at) if now.duration_since(*at) < STALE_SWEEP_INTERVAL => return,
                Some(at) => *at = now,
                None => {
                    swept.insert(folder.to_path_buf(), now);
                }
            }
        }
        remove_stale_temps(path);
    }
}

/// Whether the file whose metadata is `held` is the file at `path` now (same device and
/// inode; a path that is gone or holds another file is not). Off Unix it cannot tell and
/// answers `true` (lock files are never removed there).
fn is_at(held: &fs::Metadata, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::symlink_metadata(path)
            .is_ok_and(|there| held.dev() == there.dev() && held.ino() == there.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = (held, path);
        true
    }
}

impl FsStore {
    /// Takes the exclusive lock on `file` by `deadline`, polling with a growing pause (0.1 ms
    /// to 10 ms), else gives up with `conflict` naming `lock_path`.
    fn acquire(&self, key: &Key, lock_path: &Path, file: &File, deadline: Instant) -> Result<()> {
        let mut pause = Duration::from_micros(100);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(()),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    match &self.lock_wait {
                        Some(LockWait(wait)) => wait(pause)?,
                        None => std::thread::sleep(pause),
                    }
                    pause = (pause * 2).min(Duration::from_millis(10));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(Error::new(
                        ErrorKind::Conflict,
                        format!(
                            "`{key}` is locked by another process: gave up after {} ms waiting for `{}`",
                            self.lock_timeout.as_millis(),
                            lock_path.display()
                        ),
                    )
                    .with_context("key", key.as_str())
                    .with_context("path", lock_path.display().to_string()));
                }
                Err(TryLockError::Error(e)) => return Err(io_error(key, lock_path, "lock", e)),
            }
        }
    }
}

/// How old a file's or folder's change time must be, by default, for [`Store::mark`] to vouch
/// for it: more than the coarsest common file timestamp (FAT's 2 s).
pub const MARK_SETTLE: Duration = Duration::from_secs(2);

/// How long `update`/`append` wait for the cross-process lock by default: 30 s.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// How many times an update runs again from its read when its lock file or its file was
/// replaced or removed while it held the lock (see `update`), before it gives up.
pub const LOST_LOCK_RETRIES: usize = 8;

/// How often one handle sweeps a folder it writes in for stale temporary files: at its first
/// locked write there, then at the first one this long after its last sweep.
pub const STALE_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// Fsyncs the folder that holds `path`, so a rename, creation or removal in it is durable.
fn sync_folder(key: &Key, path: &Path) -> Result<()> {
    let Some(parent) = path.parent() else {
        return Ok(());
    };
    File::open(parent)
        .and_then(|dir| dir.sync_all())
        .map_err(|e| io_error(key, parent, "sync the folder of", e))
}

/// Creates `dir` and its missing parents with mode 0700.
fn create_dirs(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Opens `path` for writing as a new file with mode 0600 (fails if anything, even a dangling
/// symlink, is there already).
fn new_private_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Opens the lock or queue file `path` of `key` (created with mode 0600 if missing, with the
/// folders it needs, never truncated), with its metadata (what tells it from the file at the
/// path later, see `is_at`). A lock file is the store's own, never a user's link: a symlink
/// there (leading inside the root or not, dangling or not) is refused with a `storage` error
/// naming it, and nothing is created or opened through it (the open uses `O_NOFOLLOW` on
/// Unix). Anything else that is not a plain file (a folder, a FIFO: opened without blocking)
/// is refused as well.
fn open_lock_file(key: &Key, path: &Path) -> Result<(File, fs::Metadata)> {
    let refuse = |what: &str| {
        Error::new(
            ErrorKind::Storage,
            format!(
                "lock file `{}` of `{key}` {what}: the store's lock files are its own plain \
                 files, never followed elsewhere (remove it to go on)",
                path.display()
            ),
        )
        .with_context("key", key.as_str())
        .with_context("path", path.display().to_string())
    };
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let opened = match options.open(path) {
        // The folder is made only when the lock file finds it missing.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let parent = path.parent().unwrap_or(path);
            create_dirs(parent).map_err(|e| io_error(key, parent, "create the folder of", e))?;
            options.open(path)
        }
        opened => opened,
    };
    let failed = match opened {
        Ok(file) => match file.metadata() {
            Ok(meta) if meta.is_file() => return Ok((file, meta)),
            Ok(_) => return Err(refuse("is not a plain file")),
            Err(e) => e,
        },
        Err(e) => e,
    };
    // Why the open failed: `O_NOFOLLOW` refuses a link (ELOOP), a folder cannot be written
    // (EISDIR), a FIFO without a reader cannot be opened without blocking (ENXIO).
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(refuse("is a symlink")),
        Ok(meta) if !meta.is_file() => Err(refuse("is not a plain file")),
        _ => Err(io_error(key, path, "lock", failed)),
    }
}

/// Reads `file` to its end into a buffer sized for `size` bytes, the size its metadata gave:
/// one read for the bytes and one that finds the end when the file has not grown since
/// (`File::read_to_end` would look the size up again; reading without a size starts small and
/// takes several reads).
fn read_whole(mut file: &File, size: usize) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0; size.saturating_add(1)];
    let mut filled = 0;
    loop {
        if filled == bytes.len() {
            bytes.resize(filled.saturating_mul(2).max(8192), 0);
        }
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// Opens the lock or queue file at `path` if it is there as a plain file (never created,
/// never through a link).
fn open_existing_lock_file(path: &Path) -> Option<(File, fs::Metadata)> {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    let file = options.open(path).ok()?;
    let meta = file.metadata().ok().filter(fs::Metadata::is_file)?;
    Some((file, meta))
}

fn read_file(key: &Key, path: &Path) -> Result<Option<Vec<u8>>> {
    read_file_as_found(key, path).map(|(bytes, _)| bytes)
}

/// [`read_file`] and the identity of the file read (`None` when there is none): what
/// [`FileId::still_at`] compares the path with before an update renames over it.
fn read_file_as_found(key: &Key, path: &Path) -> Result<(Option<Vec<u8>>, Option<FileId>)> {
    let mut options = OpenOptions::new();
    options.read(true);
    // A FIFO or device at a key would block the open; without blocking it opens at once and
    // is refused below. Regular files read the same either way.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    match options.open(path) {
        Ok(file) => {
            let meta = file
                .metadata()
                .map_err(|e| io_error(key, path, "read", e))?;
            if meta.is_dir() {
                let e = io::Error::new(io::ErrorKind::IsADirectory, "it is a folder");
                return Err(io_error(key, path, "read", e));
            }
            if !meta.is_file() {
                let e = io::Error::other("it is not a regular file (a FIFO, socket or device)");
                return Err(io_error(key, path, "read", e));
            }
            let size = usize::try_from(meta.len()).unwrap_or(0);
            let bytes = read_whole(&file, size).map_err(|e| io_error(key, path, "read", e))?;
            Ok((Some(bytes), Some(FileId::of(&meta))))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok((None, None)),
        Err(e) => Err(io_error(key, path, "read", e)),
    }
}

/// A file as a writer found it: device, inode, size and change time (which any write to it
/// sets, to the file system's clock tick), so that a file replaced since is another, and one
/// written in place since is another unless that write kept its size within the same tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64, u64, i64, i64);

impl FileId {
    fn of(meta: &fs::Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId(
                meta.dev(),
                meta.ino(),
                meta.size(),
                meta.ctime(),
                meta.ctime_nsec(),
            )
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            FileId(0, 0, 0, 0, 0)
        }
    }

    /// Whether `path` (followed, as it was read) holds the file `found` (`None`: no file)
    /// still. Off Unix it cannot tell and answers `true`.
    fn still_at(found: Option<FileId>, path: &Path) -> bool {
        if cfg!(not(unix)) {
            return true;
        }
        match fs::metadata(path) {
            Ok(meta) => found == Some(FileId::of(&meta)),
            Err(e) => found.is_none() && e.kind() == io::ErrorKind::NotFound,
        }
    }
}

impl Store for FsStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        let path = self.confined(key)?;
        read_file(key, &path)
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        let (path, is_link) = self.confined_file(key)?;
        self.write_atomic(key, &path, is_link, data)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let path = self.confined(key)?;
        match fs::remove_file(&path) {
            Ok(()) => {
                changed();
                FsStore::remove_lock_files(&path);
                if self.durability == Durability::Sync {
                    sync_folder(key, &path)?;
                }
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A key updated without ever being written has a pair too.
                FsStore::remove_lock_files(&path);
                Ok(false)
            }
            Err(e) => Err(io_error(key, &path, "delete", e)),
        }
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.walk(prefix).map(|(keys, _)| keys)
    }

    fn unlisted(&self, prefix: &Key) -> Result<Vec<String>> {
        self.walk(prefix).map(|(_, unlisted)| unlisted)
    }

    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.stale_temps(prefix)
    }

    fn remove_leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.remove_stale_temps_below(prefix)
    }

    /// The file's or folder's device, inode, size, modification and change times, once the
    /// change time is older than [`MARK_SETTLE`] (see `with_mark_settle`): a change
    /// made later gets a later time, whatever the file system's timestamp granularity. One changed more recently has no mark (the racy
    /// case of git's index). A missing key's mark is `absent`; off Unix there is no mark.
    fn mark(&self, key: &Key) -> Result<Option<String>> {
        let path = self.confined(key)?;
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some("absent".into())),
            Err(e) if e.kind() == io::ErrorKind::NotADirectory => return Ok(None),
            Err(e) => return Err(io_error(key, &path, "look at", e)),
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // The change time: every change sets it to now, and nobody can set it back.
            let changed = u64::try_from(meta.ctime()).ok().map(|secs| {
                std::time::UNIX_EPOCH
                    + Duration::new(secs, u32::try_from(meta.ctime_nsec()).unwrap_or(0))
            });
            let settled = changed
                .and_then(|at| std::time::SystemTime::now().duration_since(at).ok())
                .is_some_and(|age| age > self.mark_settle);
            if settled {
                return Ok(Some(format!(
                    "{}:{}:{}:{}.{:09}:{}.{:09}",
                    meta.dev(),
                    meta.ino(),
                    meta.size(),
                    meta.mtime(),
                    meta.mtime_nsec(),
                    meta.ctime(),
                    meta.ctime_nsec()
                )));
            }
        }
        let _ = meta;
        Ok(None)
    }

    /// Before it renames over the file, an update checks that its lock file and the file it
    /// read are still the ones at their paths (a write of `apply` checks the lock file too):
    /// when either was replaced or removed (a lock file deleted by hand lets a second writer
    /// in, which may have written meanwhile), it writes nothing more and runs again from the
    /// read, up to [`LOST_LOCK_RETRIES`] times, then gives up with
    /// [`ErrorKind::Conflict`](session_state::ErrorKind::Conflict). Once `apply` has written
    /// or deleted another key, it is not run again (that would change it twice): its writes go
    /// ahead as they would have without the check. Off Unix there is no check.
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        for _ in 0..LOST_LOCK_RETRIES {
            // Looked at again for each run: a link swapped in meanwhile may lead outside.
            let (path, is_link) = self.confined_file(key)?;
            let mut removed = false;
            LOST.set(false);
            CHANGED.set(false);
            let done = self.locked(key, &path, || {
                let (current, found) = read_file_as_found(key, &path)?;
                if let Some(bytes) = apply(current.as_deref())? {
                    let still =
                        || CHANGED.get() || locks_still_held() && FileId::still_at(found, &path);
                    return self.write_atomic_if(key, &path, is_link, &bytes, &still);
                }
                // `apply` may delete the key (a prune): its pair goes then, as with `delete`.
                removed = current.is_some() && fs::symlink_metadata(&path).is_err();
                Ok(true)
            });
            if removed {
                FsStore::remove_lock_files(&path);
            }
            let (lost, changed) = (LOST.replace(false), CHANGED.replace(false));
            let rerun = lost && !changed;
            match done {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                // A write of `apply` found the lock gone before any other change: run again.
                Err(_) if rerun => {}
                Err(err) => return Err(err),
            }
        }
        Err(session_state::Error::new(
            session_state::ErrorKind::Conflict,
            format!(
                "`{key}` was changed or its lock file removed while this update held the lock, \
                 {LOST_LOCK_RETRIES} times: nothing written; do not remove lock files while \
                 writers run"
            ),
        )
        .with_context("key", key.as_str()))
    }

    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        let path = self.confined(key)?;
        self.locked(key, &path, || {
            let mut options = OpenOptions::new();
            options.append(true).create(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options
                .open(&path)
                .map_err(|e| io_error(key, &path, "append to", e))?;
            file.write_all(data)
                .map_err(|e| io_error(key, &path, "append to", e))?;
            if self.durability == Durability::Sync {
                file.sync_data()
                    .map_err(|e| io_error(key, &path, "sync", e))?;
                // The append may have created the file: make its folder entry durable too.
                sync_folder(key, &path)?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::read_whole;

    #[test]
    fn read_whole_reads_every_byte_whatever_the_size_it_was_told() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0, 1, 8191, 8192, 8193, 100_000] {
            let bytes: Vec<u8> = (0..len).map(|i| u8::try_from(i % 251).unwrap()).collect();
            let path = dir.path().join(format!("f{len}"));
            std::fs::write(&path, &bytes).unwrap();
            // Told the size, less (the file grew since), more (it shrank since).
            for told in [len, 0, len / 2, len + 10] {
                let file = std::fs::File::open(&path).unwrap();
                assert_eq!(read_whole(&file, told).unwrap(), bytes, "{len} told {told}");
            }
        }
    }
}
