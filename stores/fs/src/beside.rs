//! A second core at work while the calling thread does its own: what the native packages
//! (Python, Node) use to run the core's check of a file while the host builds its values.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

use rayon::{ThreadPool, ThreadPoolBuilder};

/// How long the calling thread, its own part done, spins for the helper's result before it
/// sleeps: a wake from sleep takes tens of microseconds on a virtual machine, as long as what
/// is typically left of the helper's part of a load.
const SPIN: Duration = Duration::from_micros(200);

/// Runs `side` on a helper thread while `here` runs on the calling thread (the thread that
/// may call into the host), and returns both results. The helper is one thread, started on
/// the first call and kept (a process forked after it starts its own). It serves one caller
/// at a time and no caller waits for it: when it is busy with another call, or cannot be
/// started, `side` runs after `here` on the calling thread. A panic in `side` reaches the
/// caller.
///
/// ```
/// let (sum, text) = session_state_fs::beside(|| (1..=100).sum::<u32>(), || "here".to_owned());
/// assert_eq!((sum, text.as_str()), (5050, "here"));
/// ```
pub fn beside<S: Send, H>(side: impl FnOnce() -> S + Send, here: impl FnOnce() -> H) -> (S, H) {
    let Some(claimed) = Claimed::helper() else {
        let here = here();
        return (side(), here);
    };
    let mut side_done = None;
    let finished = AtomicBool::new(false);
    let here = claimed.0.pool.in_place_scope(|scope| {
        scope.spawn(|_| {
            side_done = Some(side());
            finished.store(true, Ordering::Release);
        });
        let here = here();
        let waiting = Instant::now();
        while !finished.load(Ordering::Acquire) && waiting.elapsed() < SPIN {
            std::hint::spin_loop();
        }
        here
    });
    drop(claimed);
    match side_done {
        Some(side_done) => (side_done, here),
        None => unreachable!("a scope returns once what it spawned has run"),
    }
}

/// The helper thread of a process.
#[derive(Debug)]
struct Helper {
    pool: ThreadPool,
    /// Whether a call is using it.
    busy: AtomicBool,
}

/// The helper, held by one call until dropped.
struct Claimed(Arc<Helper>);

impl Claimed {
    /// The helper of this process, started on the first call, when no other call holds it.
    /// A fork copies no thread, so a process forked from one with a helper starts its own
    /// rather than queue work for a thread it does not have (the old pool is left as it is:
    /// its state may be mid-change); a fork is told by the process and parent ids, which
    /// differ in a child even when its id is a dead ancestor's.
    fn helper() -> Option<Self> {
        static HELPER: Mutex<Option<(Process, Option<Arc<Helper>>)>> = Mutex::new(None);
        let process = process();
        // Never waits: a lock taken elsewhere (another caller now, or a thread that held it
        // when this process was forked, which never lets go) means no helper for this call.
        let mut helper = match HELPER.try_lock() {
            Ok(helper) => helper,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        let current = match &*helper {
            Some((started_in, current)) if *started_in == process => current.clone(),
            _ => {
                let started = ThreadPoolBuilder::new()
                    .num_threads(1)
                    .thread_name(|_| "session-state-helper".to_owned())
                    .build()
                    .ok()
                    .map(|pool| {
                        let busy = AtomicBool::new(false);
                        Arc::new(Helper { pool, busy })
                    });
                if let Some(forked) = helper.replace((process, started.clone())) {
                    std::mem::forget(forked);
                }
                started
            }
        }?;
        let free = current
            .busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed);
        free.is_ok().then_some(Claimed(current))
    }
}

impl Drop for Claimed {
    fn drop(&mut self) {
        self.0.busy.store(false, Ordering::Release);
    }
}

/// What tells this process from one it was forked from.
type Process = (u32, u32);

fn process() -> Process {
    #[cfg(unix)]
    let parent = std::os::unix::process::parent_id();
    #[cfg(not(unix))]
    let parent = 0;
    (std::process::id(), parent)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;

    use super::beside;

    /// Held by each test: a test that asks whether the helper ran `side` needs it free.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    #[test]
    fn side_runs_on_another_thread_and_both_results_come_back() {
        let _serial = serial();
        let caller = thread::current().id();
        let words = ["a", "b"];
        let (side, here) = beside(
            || (thread::current().id(), words.concat()),
            || thread::current().id(),
        );
        assert_eq!(here, caller);
        assert_ne!(side.0, caller);
        assert_eq!(side.1, "ab");
    }

    #[test]
    fn a_side_waiting_for_one_caller_holds_up_no_other() {
        let _serial = serial();
        // One caller's side waits for a lock a second caller holds while it calls `beside`:
        // the second call does not queue behind the first, finishes, and lets the lock go.
        let lock = Mutex::new(0);
        let held = lock.lock().unwrap();
        let waiting = AtomicBool::new(false);
        thread::scope(|scope| {
            let first = scope.spawn(|| {
                let side = || {
                    waiting.store(true, Ordering::Release);
                    *lock.lock().unwrap() + 1
                };
                beside(side, || ()).0
            });
            // The first call's side is running (on the helper) when the second call comes.
            while !waiting.load(Ordering::Acquire) {
                thread::yield_now();
            }
            let (side, ()) = beside(|| 2, || ());
            assert_eq!(side, 2);
            drop(held);
            assert_eq!(first.join().unwrap(), 1);
        });
    }

    #[test]
    fn nested_calls_finish() {
        let _serial = serial();
        let (side, here) = beside(|| beside(|| 1, || 2), || beside(|| 3, || 4));
        assert_eq!((side, here), ((1, 2), (3, 4)));
    }

    #[test]
    fn a_panic_in_side_reaches_the_caller_and_frees_the_helper() {
        let _serial = serial();
        let outcome = std::panic::catch_unwind(|| beside(|| panic!("side"), || ()));
        assert!(outcome.is_err());
        let caller = thread::current().id();
        let (side, ()) = beside(|| thread::current().id(), || ());
        assert_ne!(side, caller, "the helper is free again");
    }
}
