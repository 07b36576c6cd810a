//! The weights laid out for the evaluation's lookups, one table per phase, each built when the
//! evaluation first needs it.
//!
//! A phase's table holds its weights, then zeros up to the largest instance table offset plus
//! 65,537 ([`PHASE_STRIDE`] entries), so every instance offset plus any `u16` index stays
//! inside the table: the evaluation reads it as a fixed-size array and indexes it unchecked
//! (see its `SAFETY:` comment).
//!
//! Why lazily: the 30 tables take 40 MB and expanding the shipped (compact) weights completely
//! took about 0.1 s and 130 MB at every start of the program, while a program that analyses
//! one position uses one or two phases. A compact file is checked whole at start-up and a
//! phase decoded and expanded on first use ([`compact::PhaseDecoder`]); when every phase is
//! built, the decoder is dropped, leaving the 40 MB a long-running server held before.

use super::compact;
use super::patterns::{INSTANCE_OFFSETS, NUM_PHASES, WEIGHTS_PER_PHASE};
use std::sync::{Mutex, OnceLock};

/// Entries of one phase's table: its weights, then zeros up to the largest instance table
/// offset plus 65,536, and one more: the evaluation's AVX2 gathers read 32 bits at each entry
/// (`sum.rs`), so the entry after the last one a `u16` index reaches must exist too.
pub const PHASE_STRIDE: usize = {
    let mut max = 0;
    let mut k = 0;
    while k < INSTANCE_OFFSETS.len() {
        if INSTANCE_OFFSETS[k] as usize > max {
            max = INSTANCE_OFFSETS[k] as usize;
        }
        k += 1;
    }
    let end = max + u16::MAX as usize + 2;
    if end > WEIGHTS_PER_PHASE {
        end
    } else {
        WEIGHTS_PER_PHASE
    }
};

/// One phase's table.
pub type PhaseTable = [i16; PHASE_STRIDE];

/// The tables of every phase.
pub struct PhaseTables {
    phases: [OnceLock<Box<PhaseTable>>; NUM_PHASES],
    /// What builds a phase, until every phase is built; `None` once they are (or when all were
    /// built at once).
    decoder: Mutex<Option<compact::PhaseDecoder>>,
}

impl PhaseTables {
    /// Every phase built now from `weights` (`NUM_PHASES * WEIGHTS_PER_PHASE` entries, phase
    /// after phase).
    pub fn from_weights(weights: &[i16]) -> PhaseTables {
        assert_eq!(weights.len(), NUM_PHASES * WEIGHTS_PER_PHASE);
        let tables = PhaseTables {
            phases: std::array::from_fn(|_| OnceLock::new()),
            decoder: Mutex::new(None),
        };
        for (cell, w) in tables
            .phases
            .iter()
            .zip(weights.chunks_exact(WEIGHTS_PER_PHASE))
        {
            let mut t = zeroed();
            t[..WEIGHTS_PER_PHASE].copy_from_slice(w);
            let _ = cell.set(t);
        }
        tables
    }

    /// Tables built on first use by `decoder`.
    pub fn from_decoder(decoder: compact::PhaseDecoder) -> PhaseTables {
        PhaseTables {
            phases: std::array::from_fn(|_| OnceLock::new()),
            decoder: Mutex::new(Some(decoder)),
        }
    }

    /// The table of phase `phase` (below `NUM_PHASES`), built if this is its first use.
    #[inline]
    pub fn phase(&self, phase: usize) -> &PhaseTable {
        match self.phases[phase].get() {
            Some(t) => t,
            None => self.build(phase),
        }
    }

    /// Number of phases built so far.
    pub fn built(&self) -> usize {
        self.phases.iter().filter(|p| p.get().is_some()).count()
    }

    #[cold]
    #[inline(never)]
    fn build(&self, phase: usize) -> &PhaseTable {
        // One builder at a time: the decoder is dropped after the last phase.
        let mut decoder = self.decoder.lock().unwrap_or_else(|e| e.into_inner());
        let table = self.phases[phase].get_or_init(|| {
            let mut t = zeroed();
            decoder
                .as_ref()
                .expect("the decoder stays until every phase is built")
                .phase(phase, &mut t[..]);
            t
        });
        if self.phases.iter().all(|p| p.get().is_some()) {
            *decoder = None;
        }
        table
    }
}

impl std::fmt::Debug for PhaseTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PhaseTables {{ built: {} of {NUM_PHASES} }}",
            self.built()
        )
    }
}

/// A table of zeros, allocated zeroed (the padding's pages are never touched).
fn zeroed() -> Box<PhaseTable> {
    vec![0i16; PHASE_STRIDE]
        .into_boxed_slice()
        .try_into()
        .expect("PHASE_STRIDE entries")
}
