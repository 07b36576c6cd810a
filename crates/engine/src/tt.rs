//! Transposition table shared by the endgame solver and the midgame search.
//!
//! Values are stored in the midgame search's unit (hundredths of a disc). The endgame solver,
//! which counts whole discs, goes through [`TranspositionTable::probe_discs`] and
//! [`TranspositionTable::store_discs`]: its results are stored as searched to the end of the
//! game ([`DEPTH_TO_END`]), so the midgame search takes them as exact values, and it reads back
//! bounds only from entries searched to the end (by itself or by the midgame search), and the
//! best move from any entry. One table thus carries what either search learnt to the other.
//!
//! A fixed-size, lock-free hash table of search results. Every method takes `&self`, so one
//! table can be shared by all search threads (wrap it in an `Arc`, or borrow it from scoped
//! threads).
//!
//! Each entry stores the full board (both bitboards), so a hit is always for the probed
//! position: a 64-bit hash collision can never hand back another position's bounds. Entries are
//! written without locks as three 64-bit words; the two key words are stored xor-ed with the data
//! word, so an entry torn by two threads writing at once fails verification and reads as a miss
//! instead of returning mixed data.
//!
//! Callers outside the engine only create, size and clear a table (to hand it to
//! [`crate::endgame::solve_with_table`]); probing and storing are the searches' business:
//!
//! ```
//! use virada_engine::tt::TranspositionTable;
//! let tt = TranspositionTable::new(1);
//! assert!(tt.capacity() > 0);
//! tt.clear();
//! ```

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use virada_rules::{Board, Square};

/// Selectivity of a search without any selective pruning (a proof). Higher selectivity values
/// mean safer (less pruned) results; an entry can answer a probe that asks for a selectivity up
/// to its own.
pub(crate) const EXACT_SELECTIVITY: u8 = u8::MAX;

/// Depth code of a result searched to the end of the game on every line (perfect play when
/// the selectivity is [`EXACT_SELECTIVITY`]); deeper than any depth in plies.
pub(crate) const DEPTH_TO_END: u8 = 64;

/// Hundredths of a disc per disc: the unit of stored values.
const UNITS_PER_DISC: i32 = 100;

/// The smallest and largest value that can be stored (values are clamped to this range).
pub(crate) const VALUE_MIN: i32 = i16::MIN as i32 + 1;
/// See [`VALUE_MIN`].
pub(crate) const VALUE_MAX: i32 = i16::MAX as i32;

/// Entries per bucket: a probe looks at all of them, a store replaces the least useful one.
const BUCKET: usize = 4;
/// Bytes per entry (three `u64` words).
const ENTRY_BYTES: usize = 24;
/// Marker for "no best move" in the packed data.
const NO_MOVE: u64 = 0xFF;

/// What a probe returns: bounds on the position's value and how they were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtData {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// Search depth (plies, or empties for an endgame solve) that produced the bounds.
    pub depth: u8,
    /// Selectivity of that search ([`EXACT_SELECTIVITY`] = no selective pruning).
    pub selectivity: u8,
    /// Best (or cutoff) move found, if any.
    pub best_move: Option<Square>,
}

impl TtData {
    /// Whether these bounds come from a search at least as deep and as safe as asked.
    #[inline]
    pub(crate) fn covers(&self, depth: u8, selectivity: u8) -> bool {
        self.depth >= depth && self.selectivity >= selectivity
    }
}

/// What a search stores: the same fields as [`TtData`].
pub(crate) type TtStore = TtData;

impl TtData {
    /// Bounds from a fail-soft alpha-beta result `value` obtained with window `(alpha, beta)`:
    /// `value <= alpha` is an upper bound, `value >= beta` a lower bound, anything between is
    /// exact.
    #[inline]
    pub(crate) fn from_search(
        value: i32,
        alpha: i32,
        beta: i32,
        depth: u8,
        selectivity: u8,
        best_move: Option<Square>,
    ) -> TtData {
        let (lower, upper) = if value <= alpha {
            (VALUE_MIN, value)
        } else if value >= beta {
            (value, VALUE_MAX)
        } else {
            (value, value)
        };
        TtData {
            lower,
            upper,
            depth,
            selectivity,
            best_move,
        }
    }
}

/// Packs the data word: lower (16) | upper (16) | depth (8) | selectivity (8) | move (8) | age (8).
#[inline]
fn pack(d: &TtData, generation: u8) -> u64 {
    let lower = d.lower.clamp(VALUE_MIN, VALUE_MAX) as i16 as u16 as u64;
    let upper = d.upper.clamp(VALUE_MIN, VALUE_MAX) as i16 as u16 as u64;
    let mv = d.best_move.map_or(NO_MOVE, |s| s.index() as u64);
    lower
        | (upper << 16)
        | ((d.depth as u64) << 32)
        | ((d.selectivity as u64) << 40)
        | (mv << 48)
        | ((generation as u64) << 56)
}

#[inline]
fn unpack(w: u64) -> TtData {
    let mv = (w >> 48) & 0xFF;
    TtData {
        lower: (w as u16) as i16 as i32,
        upper: ((w >> 16) as u16) as i16 as i32,
        depth: (w >> 32) as u8,
        selectivity: (w >> 40) as u8,
        best_move: if mv < 64 {
            Some(Square::from_index_unchecked(mv as u8))
        } else {
            None
        },
    }
}

#[inline]
fn generation_of(w: u64) -> u8 {
    (w >> 56) as u8
}

/// `n` zeroed words, with the kernel asked to back them with huge pages where it can.
///
/// Every probe of a big table lands on a random page: with 4 KiB pages each one also misses the
/// TLB (a 256 MiB table spans 65,536 pages), with 2 MiB pages the whole table fits in it. The
/// memory comes fresh from the allocator (zeroed, not yet touched) so the advice applies before
/// the first page fault.
fn zeroed_words(n: usize) -> Vec<AtomicU64> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n.max(1)).expect("table size overflows");
    // SAFETY: the layout has a non-zero size (at least one word).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if ptr.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    advise_huge_pages(ptr.cast::<u8>(), layout.size());
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[AtomicU64; n']`
    // (n' = max(n, 1)), which is exactly what `Vec` deallocates with for capacity n'; all its
    // bytes are zero, a valid `AtomicU64` (0). Length n <= capacity n'.
    unsafe { Vec::from_raw_parts(ptr, n, n.max(1)) }
}

/// Asks Linux to use transparent huge pages for the 2 MiB-aligned part of `[ptr, ptr + len)`.
/// Advice only: failure (an old kernel, huge pages disabled) changes nothing but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + len) / HUGE_PAGE * HUGE_PAGE;
    if end > start {
        // SAFETY: the range lies inside our own live allocation and is page-aligned; the
        // advice changes how pages are backed, never their contents. libc is linked by std.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// A fixed-size, thread-safe transposition table keyed by the full board.
pub struct TranspositionTable {
    /// `3 * BUCKET` words per bucket: for each entry `player ^ data`, `opponent ^ data`, `data`.
    words: Vec<AtomicU64>,
    /// Number of buckets minus one (the bucket count is a power of two).
    mask: u64,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table using about `mib` mebibytes (rounded down to a power-of-two number of buckets;
    /// at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let words = zeroed_words(buckets * BUCKET * 3);
        TranspositionTable {
            words,
            mask: buckets as u64 - 1,
            generation: AtomicU8::new(1),
        }
    }

    /// Size of the table in bytes.
    pub fn size_bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Number of entries the table holds.
    pub fn capacity(&self) -> usize {
        self.words.len() / 3
    }

    /// Forgets everything. Not meant to run while other threads use the table (their entries
    /// would survive or be half-cleared, which is harmless but pointless).
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(1, Ordering::Relaxed);
    }

    /// Starts a new search: entries from earlier searches stay usable but become the first
    /// to be replaced.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed).wrapping_add(1);
        // Generation 0 marks never-written slots; skip it.
        self.generation
            .store(if g == 0 { 1 } else { g }, Ordering::Relaxed);
    }

    #[inline]
    fn bucket_start(&self, board: &Board) -> usize {
        ((board.hash() & self.mask) as usize) * BUCKET * 3
    }

    /// Hints the CPU to fetch the bucket of `board` (call a little before [`Self::probe`]).
    #[inline]
    pub(crate) fn prefetch(&self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket_start(board);
            let ptr = self.words[i..].as_ptr() as *const i8;
            // A bucket (96 bytes) always spans two cache lines: fetch its last word's too.
            let last = self.words[i + BUCKET * 3 - 1..].as_ptr() as *const i8;
            // SAFETY: both pointers point into `self.words` (in bounds by construction);
            // prefetching never reads or writes memory observably.
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
                std::arch::x86_64::_mm_prefetch(last, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// The stored bounds for `board`, if the table holds them.
    #[inline]
    pub(crate) fn probe(&self, board: &Board) -> Option<TtData> {
        let start = self.bucket_start(board);
        let slots = &self.words[start..start + BUCKET * 3];
        for e in slots.chunks_exact(3) {
            let data = e[2].load(Ordering::Relaxed);
            if e[0].load(Ordering::Relaxed) ^ data == board.player
                && e[1].load(Ordering::Relaxed) ^ data == board.opponent
                && generation_of(data) != 0
            {
                return Some(unpack(data));
            }
        }
        None
    }

    /// The endgame solver's probe: bounds in whole discs from an entry searched to the end of
    /// the game, reported with depth [`DEPTH_TO_END`]; any other entry gives only its best move
    /// (open bounds, depth 0).
    #[inline]
    pub(crate) fn probe_discs(&self, board: &Board) -> Option<TtData> {
        let hit = self.probe(board)?;
        if hit.depth != DEPTH_TO_END {
            return Some(TtData {
                lower: VALUE_MIN,
                upper: VALUE_MAX,
                depth: 0,
                selectivity: 0,
                best_move: hit.best_move,
            });
        }
        // Values searched to the end are whole discs: round the bounds inwards.
        let lower = if hit.lower <= VALUE_MIN {
            VALUE_MIN
        } else {
            hit.lower.div_euclid(UNITS_PER_DISC)
                + i32::from(hit.lower.rem_euclid(UNITS_PER_DISC) != 0)
        };
        let upper = if hit.upper >= VALUE_MAX {
            VALUE_MAX
        } else {
            hit.upper.div_euclid(UNITS_PER_DISC)
        };
        Some(TtData {
            lower,
            upper,
            ..hit
        })
    }

    /// The endgame solver's store: `data` holds bounds in whole discs from a search to the end
    /// of the game (its depth is ignored and stored as [`DEPTH_TO_END`]).
    #[inline]
    pub(crate) fn store_discs(&self, board: &Board, data: TtStore) {
        let scale = |v: i32| {
            if v <= VALUE_MIN || v >= VALUE_MAX {
                v
            } else {
                v * UNITS_PER_DISC
            }
        };
        self.store(
            board,
            TtData {
                lower: scale(data.lower),
                upper: scale(data.upper),
                depth: DEPTH_TO_END,
                ..data
            },
        );
    }

    /// Records a search result for `board`.
    ///
    /// An existing entry for the same board from an equally deep and safe search is merged
    /// (the bounds are intersected, so a fail-low and a fail-high result combine); a deeper
    /// entry is kept unless the new one is at least as deep. Otherwise the least valuable entry
    /// of the bucket (oldest generation, then shallowest) is replaced.
    pub(crate) fn store(&self, board: &Board, new: TtStore) {
        let generation = self.generation.load(Ordering::Relaxed);
        let start = self.bucket_start(board);
        let slots = &self.words[start..start + BUCKET * 3];
        let mut victim = 0usize;
        let mut victim_rank = u32::MAX;
        for (i, e) in slots.chunks_exact(3).enumerate() {
            let data = e[2].load(Ordering::Relaxed);
            if e[0].load(Ordering::Relaxed) ^ data == board.player
                && e[1].load(Ordering::Relaxed) ^ data == board.opponent
                && generation_of(data) != 0
            {
                let old = unpack(data);
                let merged = merge(&old, &new);
                write(e, board, pack(&merged, generation));
                return;
            }
            // Rank: lower is more replaceable. Current-generation entries rank above old ones.
            let age_bonus = if generation_of(data) == generation {
                1 << 16
            } else {
                0
            };
            let d = unpack(data);
            // A result searched to the end is worth the work of its empties.
            let work = if d.depth == DEPTH_TO_END {
                let occupied =
                    (e[0].load(Ordering::Relaxed) ^ data) | (e[1].load(Ordering::Relaxed) ^ data);
                64 - occupied.count_ones()
            } else {
                d.depth as u32
            };
            let rank = if generation_of(data) == 0 {
                0
            } else {
                age_bonus + (work << 8) + 1
            };
            if rank < victim_rank {
                victim_rank = rank;
                victim = i;
            }
        }
        write(
            &slots[victim * 3..victim * 3 + 3],
            board,
            pack(&new, generation),
        );
    }

    /// The fraction of entries written during the current search, per mille (a fill gauge
    /// sampled from the first 1000 entries).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = self.capacity().min(1000);
        let used = (0..n)
            .filter(|i| generation_of(self.words[i * 3 + 2].load(Ordering::Relaxed)) == generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Combines an old entry for the same board with a new result.
#[inline]
fn merge(old: &TtData, new: &TtData) -> TtData {
    if new.depth == old.depth && new.selectivity == old.selectivity {
        let lower = old.lower.max(new.lower);
        let upper = old.upper.min(new.upper);
        if lower <= upper {
            return TtData {
                lower,
                upper,
                depth: new.depth,
                selectivity: new.selectivity,
                best_move: new.best_move.or(old.best_move),
            };
        }
        // Inconsistent bounds (possible after a selective search): trust the newer result.
        return *new;
    }
    if new.depth > old.depth || (new.depth == old.depth && new.selectivity > old.selectivity) {
        return TtData {
            best_move: new.best_move.or(old.best_move),
            ..*new
        };
    }
    // Keep the deeper result, but refresh its age and take a move hint if it lacks one.
    TtData {
        best_move: old.best_move.or(new.best_move),
        ..*old
    }
}

#[inline]
fn write(e: &[AtomicU64], board: &Board, data: u64) {
    e[0].store(board.player ^ data, Ordering::Relaxed);
    e[1].store(board.opponent ^ data, Ordering::Relaxed);
    e[2].store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_result_is_probed_back() {
        let tt = TranspositionTable::new(1);
        let board = Board::start();
        assert!(tt.probe(&board).is_none());
        let f5 = "f5".parse::<Square>().unwrap();
        tt.store(
            &board,
            TtStore::from_search(12, -64, 64, 20, EXACT_SELECTIVITY, Some(f5)),
        );
        let hit = tt.probe(&board).unwrap();
        assert_eq!((hit.lower, hit.upper), (12, 12));
        assert_eq!(hit.best_move, Some(f5));
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn solver_results_read_as_exact_hundredths_by_the_midgame_search() {
        let tt = TranspositionTable::new(1);
        let board = Board::start();
        // The solver proved the value is at least +6 discs (fail-high on the window (5, 6)).
        tt.store_discs(
            &board,
            TtData::from_search(6, 5, 6, 60, EXACT_SELECTIVITY, Some(sq("d3"))),
        );
        let midgame = tt.probe(&board).unwrap();
        assert_eq!((midgame.lower, midgame.upper), (600, VALUE_MAX));
        assert_eq!(midgame.depth, DEPTH_TO_END);
        assert!(midgame.covers(DEPTH_TO_END, EXACT_SELECTIVITY));
        let solver = tt.probe_discs(&board).unwrap();
        assert_eq!((solver.lower, solver.upper), (6, VALUE_MAX));
        assert!(solver.covers(60, EXACT_SELECTIVITY));
        assert_eq!(solver.best_move, Some(sq("d3")));
    }

    #[test]
    fn the_solver_takes_only_moves_from_depth_limited_entries() {
        let tt = TranspositionTable::new(1);
        let a = Board::start();
        let b = a.play_unchecked(sq("d3"));
        tt.store(
            &a,
            TtData::from_search(150, -10, 10, 12, EXACT_SELECTIVITY, Some(sq("c4"))),
        );
        let hit = tt.probe_discs(&a).unwrap();
        assert_eq!((hit.lower, hit.upper), (VALUE_MIN, VALUE_MAX));
        assert_eq!(hit.depth, 0);
        assert_eq!(hit.best_move, Some(sq("c4")));
        // A midgame result searched to the end: bounds rounded inwards to whole discs.
        tt.store(
            &b,
            TtData {
                lower: -250,
                upper: 150,
                depth: DEPTH_TO_END,
                selectivity: EXACT_SELECTIVITY,
                best_move: None,
            },
        );
        let hit = tt.probe_discs(&b).unwrap();
        assert_eq!((hit.lower, hit.upper), (-2, 1));
    }

    #[test]
    fn store_then_probe_and_merge_bounds() {
        let tt = TranspositionTable::new(1);
        let b = Board::start();
        // Fail high at 4 (window 3..4), then fail low at 10 (window 10..11): bounds 4..10.
        tt.store(
            &b,
            TtData::from_search(4, 3, 4, 10, EXACT_SELECTIVITY, Some(sq("d3"))),
        );
        tt.store(
            &b,
            TtData::from_search(10, 10, 11, 10, EXACT_SELECTIVITY, None),
        );
        let hit = tt.probe(&b).unwrap();
        assert_eq!((hit.lower, hit.upper), (4, 10));
        assert_eq!(hit.best_move, Some(sq("d3")));
        assert!(hit.covers(10, EXACT_SELECTIVITY));
        assert!(!hit.covers(11, 0));
        // A deeper result replaces the shallower one.
        tt.store(&b, TtData::from_search(-2, -64, 64, 12, 3, Some(sq("c4"))));
        let hit = tt.probe(&b).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.depth), (-2, -2, 12));
        // A shallower result does not overwrite it.
        tt.store(&b, TtData::from_search(30, -64, 64, 2, 3, Some(sq("f5"))));
        assert_eq!(tt.probe(&b).unwrap().depth, 12);
    }

    #[test]
    fn verified_key_and_negative_values() {
        let tt = TranspositionTable::new(1);
        let a = Board::new(1, 2);
        let b = Board::new(2, 1);
        tt.store(&a, TtData::from_search(-30000, -64, 64, 1, 0, None));
        assert!(tt.probe(&b).is_none());
        let hit = tt.probe(&a).unwrap();
        assert_eq!(hit.upper, -30000);
        assert_eq!(hit.lower, VALUE_MIN);
        assert_eq!(hit.best_move, None);
    }

    #[test]
    fn bucket_replacement_keeps_the_table_usable() {
        let tt = TranspositionTable::new(1);
        let n = tt.capacity() as u64 * 2;
        for i in 0..n {
            let b = Board::new(i.wrapping_mul(0x9E37_79B9) | 1 << 63, !i & 0xFF00);
            tt.store(&b, TtData::from_search(1, 0, 2, (i % 20) as u8, 0, None));
            assert_eq!(tt.probe(&b).map(|d| d.lower), Some(1));
        }
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(&Board::new(1 << 63, 0xFF00)).is_none());
    }

    #[test]
    fn shared_between_threads() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..10_000u64 {
                        let b = Board::new(i << 1 | 1, t << 40 | 1 << 50);
                        tt.store(&b, TtData::from_search(i as i32 % 64, -64, 64, 5, 0, None));
                        if let Some(d) = tt.probe(&b) {
                            assert_eq!(d.lower, i as i32 % 64);
                        }
                    }
                });
            }
        });
    }
}
