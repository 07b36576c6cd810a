//! The solver's parallel search: a pool of helper threads for one solve, and split points
//! shared between threads (young brothers wait, with a "helpful master"). Part of the tree
//! search ([`super`]): the searcher splits its nodes here and its helpers search them.
//!
//! - A node with enough empties whose first move has been searched (the eldest brother), and
//!   whose other moves are not yet searched, becomes a *split point* when some thread is idle:
//!   its remaining moves go into a shared list that any thread may take moves from.
//! - The pool's threads live for the whole solve. An idle one looks for published split points
//!   with moves left (the one nearest the root first, where the work is largest), joins it and
//!   takes moves until none is left; with nothing to do it spins briefly, then sleeps until the
//!   next split point is published.
//! - The owner of a split point takes moves like everyone else. When none is left but helpers
//!   are still searching theirs, it does not just wait: it joins split points created *below*
//!   its own (by those helpers), so that its call stack stays consistent (it only ever works
//!   for a node its own result waits for) and no core is left idle.
//! - A cutoff at a split point sets its cut flag; every thread working under it checks the cut
//!   flags of all split points above its work ([`Searcher::aborted`]) and abandons its search.
//!   A thread's result at a split point is recorded only if nothing above it was cut.
//!
//! Scores do not depend on the threads (exact scores are unique and the root makes every choice
//! in a thread-independent order); only node counts and the table's contents do.

use super::{Searcher, Shared};
use crate::endgame::order::MoveItem;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// From this many empties, a null-window node may become a split point. Measured on FFO
/// #40-#44 with 2 threads (wall time, quiet machine): 11 to 14 within noise of each other, 12
/// the best; 15 slower (the helper waits longer for work).
pub(crate) const SPLIT_MIN: u32 = 12;
/// From this many empties, a principal-variation node may become a split point (not splitting
/// PV nodes: FFO #40-#44 with 2 threads 2.57 s against 2.14-2.24 s on one build, within noise on
/// a later one; from 15 empties: no better).
pub(crate) const PV_SPLIT_MIN: u32 = 13;
/// Checks of the work list an idle pool thread makes before it sleeps.
const SPIN_LIMIT: u32 = 1 << 12;
/// Longest sleep of an idle pool thread between two looks at the work list (a safety net:
/// publishing a split point wakes the sleepers).
const SLEEP: Duration = Duration::from_millis(20);

/// Locks a mutex; a panic elsewhere does not make the data unusable (each update is whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The threads of one solve and the split points they share.
pub(crate) struct Pool {
    /// Published split points (some may have no moves left).
    active: Mutex<Vec<Arc<SplitPoint>>>,
    /// Incremented whenever a split point is published: new work can only appear then, so a
    /// thread that found nothing looks again only when this has changed.
    generation: AtomicU64,
    /// Threads looking for work (pool threads, and owners waiting for their helpers).
    idle: AtomicUsize,
    /// Pool threads asleep (woken when a split point is published).
    sleepers: AtomicUsize,
    wake_lock: Mutex<()>,
    wake: Condvar,
    /// Set at the end of the solve: the pool threads exit.
    done: AtomicBool,
}

impl Pool {
    /// A pool for `threads` threads in all (the caller's thread included).
    pub fn new(threads: usize) -> Pool {
        Pool {
            active: Mutex::new(Vec::new()),
            generation: AtomicU64::new(0),
            idle: AtomicUsize::new(threads.max(1) - 1),
            sleepers: AtomicUsize::new(0),
            wake_lock: Mutex::new(()),
            wake: Condvar::new(),
            done: AtomicBool::new(false),
        }
    }

    /// Whether some thread is looking for work (a new split point would be joined).
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    fn publish(&self, sp: Arc<SplitPoint>) {
        lock(&self.active).push(sp);
        // SeqCst with the sleepers' count: either this thread sees a sleeper (and wakes it) or
        // the sleeper, after announcing itself, sees the new generation and does not sleep.
        self.generation.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = lock(&self.wake_lock);
            self.wake.notify_all();
        }
    }

    /// Removes `sp` from the published ones: nobody joins it any more.
    fn retire(&self, sp: &Arc<SplitPoint>) {
        lock(&self.active).retain(|x| !Arc::ptr_eq(x, sp));
    }

    /// Joins (counts the caller as a worker of) the published split point with moves left
    /// that is nearest the root, among the descendants of `under` if given.
    fn join(&self, under: Option<&Arc<SplitPoint>>) -> Option<Arc<SplitPoint>> {
        let active = lock(&self.active);
        let mut pick: Option<&Arc<SplitPoint>> = None;
        for sp in active.iter() {
            if !sp.has_work() || under.is_some_and(|u| !sp.descends_from(u)) {
                continue;
            }
            if pick.is_none_or(|p| sp.empties > p.empties) {
                pick = Some(sp);
            }
        }
        let sp = pick?.clone();
        // Under the lock: an owner that retired its split point sees every worker that joined.
        sp.workers.fetch_add(1, Ordering::AcqRel);
        self.idle.fetch_sub(1, Ordering::AcqRel);
        Some(sp)
    }

    /// Sleeps until a split point is published after `seen`, the solve ends, or [`SLEEP`].
    fn sleep(&self, seen: u64) {
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let mut guard = lock(&self.wake_lock);
        while !self.done.load(Ordering::SeqCst) && self.generation.load(Ordering::SeqCst) == seen {
            let (g, timeout) = self
                .wake
                .wait_timeout(guard, SLEEP)
                .unwrap_or_else(|e| e.into_inner());
            guard = g;
            if timeout.timed_out() {
                break;
            }
        }
        drop(guard);
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Ends the solve: the pool threads return.
    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        let _guard = lock(&self.wake_lock);
        self.wake.notify_all();
    }
}

/// The best value so far at a split point, its move, and the window's lower end.
struct SplitState {
    best: i32,
    best_sq: u8,
    alpha: i32,
}

/// A node whose remaining moves are searched by several threads.
pub(crate) struct SplitPoint {
    moves: Vec<MoveItem>,
    player: u64,
    opponent: u64,
    empties: u32,
    beta: i32,
    /// A principal-variation node: moves that beat alpha are searched again with the full
    /// window (else a null-window node: beta is alpha + 1 and a move beating alpha cuts).
    pv: bool,
    /// The searching pass's table selectivity and Multi-ProbCut confidence.
    sel: u8,
    mpc_t: f32,
    /// Index of the next move to hand out.
    next: AtomicUsize,
    /// Threads other than the owner working here.
    workers: AtomicUsize,
    state: Mutex<SplitState>,
    /// Set on a cutoff (or when the owner abandons the node): everyone below stops.
    cut: Arc<AtomicBool>,
    /// Cut flags of this split point and of every one above it.
    chain: Vec<Arc<AtomicBool>>,
    /// The split point the owner was working under when it created this one.
    parent: Option<Arc<SplitPoint>>,
}

impl SplitPoint {
    fn has_work(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.moves.len()
            && !self.chain.iter().any(|c| c.load(Ordering::Relaxed))
    }

    fn descends_from(&self, ancestor: &Arc<SplitPoint>) -> bool {
        let mut p = self.parent.as_ref();
        while let Some(sp) = p {
            if Arc::ptr_eq(sp, ancestor) {
                return true;
            }
            p = sp.parent.as_ref();
        }
        false
    }
}

/// A split node's description for [`Searcher::split`].
pub(crate) struct SplitNode<'m> {
    /// The moves not yet searched, in order.
    pub moves: &'m [MoveItem],
    pub player: u64,
    pub opponent: u64,
    pub empties: u32,
    pub alpha: i32,
    pub beta: i32,
    pub pv: bool,
    /// Best value and move from the moves already searched.
    pub best: i32,
    pub best_sq: u8,
}

impl Searcher<'_> {
    /// Searches the moves of `node` together with whichever threads join; returns the
    /// fail-soft best value and its move (the moves searched before included). Meaningless if
    /// [`Searcher::aborted`] afterwards.
    pub(crate) fn split(&mut self, node: SplitNode<'_>) -> (i32, u8) {
        let cut = Arc::new(AtomicBool::new(false));
        let mut chain = self.chain.clone();
        chain.push(cut.clone());
        let sp = Arc::new(SplitPoint {
            moves: node.moves.to_vec(),
            player: node.player,
            opponent: node.opponent,
            empties: node.empties,
            beta: node.beta,
            pv: node.pv,
            sel: self.sel,
            mpc_t: self.mpc_t,
            next: AtomicUsize::new(0),
            workers: AtomicUsize::new(0),
            state: Mutex::new(SplitState {
                best: node.best,
                best_sq: node.best_sq,
                alpha: node.alpha,
            }),
            cut,
            chain,
            parent: self.split_point.clone(),
        });
        let pool = &self.shared.pool;
        pool.publish(sp.clone());
        self.work_at(&sp);
        pool.retire(&sp);
        if self.aborted() {
            // Abandoned from above: the helpers' work here is useless too.
            sp.cut.store(true, Ordering::Relaxed);
        }
        self.help_until_done(&sp);
        let state = lock(&sp.state);
        (state.best, state.best_sq)
    }

    /// Waits until no helper works at `sp` any more, meanwhile helping at split points below
    /// it (created by those helpers).
    fn help_until_done(&mut self, sp: &Arc<SplitPoint>) {
        if sp.workers.load(Ordering::Acquire) == 0 {
            return;
        }
        let pool = &self.shared.pool;
        pool.idle.fetch_add(1, Ordering::AcqRel);
        let mut seen = u64::MAX;
        let mut spins = 0u32;
        while sp.workers.load(Ordering::Acquire) > 0 {
            let generation = pool.generation.load(Ordering::Acquire);
            if generation != seen {
                if let Some(below) = pool.join(Some(sp)) {
                    self.work_at(&below);
                    below.workers.fetch_sub(1, Ordering::AcqRel);
                    pool.idle.fetch_add(1, Ordering::AcqRel);
                    continue;
                }
                seen = generation;
            }
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        pool.idle.fetch_sub(1, Ordering::AcqRel);
    }

    /// Takes moves from `sp` until none is left, the node is cut, or the search is abandoned.
    fn work_at(&mut self, sp: &Arc<SplitPoint>) {
        let saved_chain = std::mem::replace(&mut self.chain, sp.chain.clone());
        let saved_split = self.split_point.replace(sp.clone());
        let saved_pass = (self.sel, self.mpc_t);
        (self.sel, self.mpc_t) = (sp.sel, sp.mpc_t);
        loop {
            if self.aborted() {
                break;
            }
            let i = sp.next.fetch_add(1, Ordering::AcqRel);
            let Some(&item) = sp.moves.get(i) else {
                break;
            };
            let (cp, co) = item.child(sp.player, sp.opponent);
            let alpha = if sp.pv {
                lock(&sp.state).alpha
            } else {
                sp.beta - 1
            };
            let mut v = -self.nws(cp, co, -alpha - 1);
            if sp.pv && v > alpha && v < sp.beta && !self.aborted() {
                // Better than the window's lower end when this move started: find its score
                // (above the current lower end, which other moves may have raised).
                let a = lock(&sp.state).alpha.max(v - 1);
                v = -self.pvs(cp, co, -sp.beta, -a);
            }
            if self.aborted() {
                break;
            }
            let mut state = lock(&sp.state);
            if v > state.best {
                state.best = v;
                state.best_sq = item.sq;
            }
            if v > state.alpha {
                state.alpha = v;
                if v >= sp.beta {
                    sp.cut.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        self.chain = saved_chain;
        self.split_point = saved_split;
        (self.sel, self.mpc_t) = saved_pass;
    }
}

/// A pool thread: joins split points until the solve ends.
fn pool_thread(shared: &Shared<'_>) {
    let mut searcher = Searcher::new(shared);
    let pool = &shared.pool;
    let mut seen = u64::MAX;
    let mut spins = 0u32;
    while !pool.done.load(Ordering::Acquire) {
        let generation = pool.generation.load(Ordering::SeqCst);
        if generation != seen {
            if let Some(sp) = pool.join(None) {
                searcher.work_at(&sp);
                sp.workers.fetch_sub(1, Ordering::AcqRel);
                pool.idle.fetch_add(1, Ordering::AcqRel);
                searcher.flush_nodes();
                spins = 0;
                continue;
            }
            seen = generation;
        }
        if spins < SPIN_LIMIT {
            spins += 1;
            std::hint::spin_loop();
        } else {
            pool.sleep(seen);
            spins = 0;
        }
    }
    searcher.flush_nodes();
}

/// Ends the pool even if the caller's search panics (else the scope would wait forever).
struct FinishOnDrop<'p>(&'p Pool);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Runs `search` on the caller's thread with `threads - 1` pool threads helping at its split
/// points (none when `threads <= 1`); every thread's nodes are flushed into `shared` before
/// this returns.
pub(crate) fn with_pool<R>(
    shared: &Shared<'_>,
    threads: usize,
    search: impl FnOnce(&mut Searcher<'_>) -> R,
) -> R {
    let mut searcher = Searcher::new(shared);
    if threads <= 1 {
        let r = search(&mut searcher);
        searcher.flush_nodes();
        return r;
    }
    std::thread::scope(|scope| {
        let _finish = FinishOnDrop(&shared.pool);
        for started in 1..threads {
            let spawned = std::thread::Builder::new()
                .name("virada-solver".into())
                .spawn_scoped(scope, || pool_thread(shared));
            if spawned.is_err() {
                // The system refuses more threads: solve with those there are (they were
                // all counted idle; the missing ones must not attract split points).
                shared
                    .pool
                    .idle
                    .fetch_sub(threads - started, Ordering::AcqRel);
                break;
            }
        }
        let r = search(&mut searcher);
        searcher.flush_nodes();
        r
    })
}
