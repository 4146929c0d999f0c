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
/// the first call and kept (a process forked after it starts its own); when it cannot be
/// started, `side` runs after `here` on the calling thread.
///
/// ```
/// let (sum, text) = session_state_fs::beside(|| (1..=100).sum::<u32>(), || "here".to_owned());
/// assert_eq!((sum, text.as_str()), (5050, "here"));
/// ```
pub fn beside<S: Send, H>(side: impl FnOnce() -> S + Send, here: impl FnOnce() -> H) -> (S, H) {
    let Some(helper) = helper() else {
        let here = here();
        return (side(), here);
    };
    let mut side_done = None;
    let finished = AtomicBool::new(false);
    let here = helper.in_place_scope(|scope| {
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
    match side_done {
        Some(side_done) => (side_done, here),
        None => unreachable!("a scope returns once what it spawned has run"),
    }
}

/// The helper of this process, started on the first call. A fork copies no thread, so a
/// process forked from one with a helper gets a new one rather than queue work for a thread
/// it does not have (the old pool is left as it is: its state may be mid-change).
fn helper() -> Option<Arc<ThreadPool>> {
    static HELPER: Mutex<Option<(u32, Option<Arc<ThreadPool>>)>> = Mutex::new(None);
    let process = std::process::id();
    // Never waits: a lock taken elsewhere (another caller now, or a thread that held it when
    // this process was forked, which never lets go) means no helper for this call.
    let mut helper = match HELPER.try_lock() {
        Ok(helper) => helper,
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(TryLockError::WouldBlock) => return None,
    };
    if let Some((started_in, pool)) = &*helper
        && *started_in == process
    {
        return pool.clone();
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "session-state-helper".to_owned())
        .build()
        .ok()
        .map(Arc::new);
    if let Some(forked) = helper.replace((process, pool.clone())) {
        std::mem::forget(forked);
    }
    pool
}

#[cfg(test)]
mod tests {
    use std::thread;

    use super::beside;

    #[test]
    fn side_runs_on_another_thread_and_both_results_come_back() {
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
    fn callers_on_several_threads_share_the_helper() {
        thread::scope(|scope| {
            let callers: Vec<_> = (0..4_u64)
                .map(|i| {
                    scope.spawn(move || (0..50).map(|j| beside(|| i * j, || j).0).sum::<u64>())
                })
                .collect();
            for (i, caller) in (0..4_u64).zip(callers) {
                assert_eq!(caller.join().unwrap(), i * (0..50).sum::<u64>());
            }
        });
    }
}
