//! Forcing chains and cycles, as the reference's `Chaining` rule searches and rates them.
//!
//! - `graph`: potentials, the nodes that derive them, and the reference's sets;
//! - `implications`: the direct consequences of one potential;
//! - `reach`: which potentials a static chain reaches, for all at once;
//! - `search`: the searches of each mode;
//! - `advanced`: the implications of other techniques, used from level 1 on;
//! - `hints`: what a search finds, rated, and as a step.

mod advanced;
mod bitboard;
mod graph;
mod hints;
mod implications;
mod reach;
mod search;

use self::search::Search;
use super::board::Board;
use super::step::Step;
use crate::solver::Cancellation;

/// What a chain search looks for (the reference's `Chaining` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Cell and region forcing chains (multiple branches).
    pub multiple: bool,
    /// Chains that remember what they removed (dynamic).
    pub dynamic: bool,
    /// Single-digit contradictions only (Nishio).
    pub nishio: bool,
    /// How many levels of other techniques (and nested chains) help the chains along.
    pub level: u8,
    /// For level 4 and up: the level of the nested dynamic chains.
    pub nesting_limit: u8,
}

impl Mode {
    /// Static forcing chains and cycles (X, Y and XY).
    pub const FORCING_CHAINS_AND_CYCLES: Mode = Mode::new(false, false, false, 0, 0);
    /// Nishio forcing chains.
    pub const NISHIO: Mode = Mode::new(false, true, true, 0, 0);
    /// Static cell and region forcing chains.
    pub const MULTIPLE: Mode = Mode::new(true, false, false, 0, 0);

    const fn new(
        multiple: bool,
        dynamic: bool,
        nishio: bool,
        level: u8,
        nesting_limit: u8,
    ) -> Mode {
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting_limit,
        }
    }

    /// Dynamic forcing chains helped by techniques of `level` (0: none; 1: locking,
    /// subsets and X-Wings; 2: also forcing chains; 3: also multiple ones; 4: also dynamic
    /// ones of `nesting_limit`).
    pub const fn dynamic(level: u8, nesting_limit: u8) -> Mode {
        Mode::new(true, true, false, level, nesting_limit)
    }

    /// The base difficulty of multi-chain hints of this mode.
    pub fn difficulty(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * f64::from(self.level)
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }
}

/// The easiest hint of a chain search in `mode` on `board` (the first of the smallest
/// difficulty, complexity and kind, in the order found), as a step.
pub fn chain_step(board: &Board, mode: Mode, cancel: &Cancellation) -> Option<Step> {
    let mut search = Search::for_easiest(mode, board, cancel);
    search.run();
    let best =
        search
            .hints
            .iter()
            .fold(None, |best: Option<&hints::ChainHint>, hint| match best {
                Some(best) if !hint.sorts_before(best) => Some(best),
                _ => Some(hint),
            })?;
    Some(best.to_step(&search.arena))
}

#[cfg(test)]
mod tests {
    //! Each search on a position where Sukaku Explainer's `serate` uses it, with what
    //! `serate` found there: its rating and conclusion (or the cells of its cycle).

    use super::*;
    use crate::logic::path::board_before;
    use crate::logic::step::{cell_name, conclusion_text};
    use crate::logic::technique::Technique;

    const NISHIO_PUZZLE: &str =
        "....9.....6.1.4.8...37.82....56.31...4.....9.6...4...21.4.8.7.3.3.4.1.5..........";

    /// The step the search in `mode` finds where `puzzle`'s path first uses `technique`.
    fn found(puzzle: &str, technique: Technique, mode: Mode) -> Step {
        let board = board_before(puzzle, technique);
        let step = chain_step(&board, mode, &Cancellation::none()).expect("a chain");
        assert_eq!(step.technique, technique, "{}", step.text);
        step
    }

    /// Asserts that the search finds a step of `technique` rated `rating` that concludes
    /// `conclusion` (`r9c9<>4`).
    fn assert_finds(puzzle: &str, technique: Technique, mode: Mode, rating: f64, conclusion: &str) {
        let step = found(puzzle, technique, mode);
        assert_eq!(step.rounded_difficulty(), rating, "{}", step.text);
        assert_eq!(conclusion_text(&step, 9), conclusion, "{}", step.text);
    }

    /// Asserts that the search finds a cycle of `technique` rated `rating` through `cells`.
    fn assert_cycle(puzzle: &str, technique: Technique, rating: f64, cells: &[&str]) {
        let step = found(puzzle, technique, Mode::FORCING_CHAINS_AND_CYCLES);
        assert_eq!(step.rounded_difficulty(), rating, "{}", step.text);
        let mut names: Vec<String> = step.cells.iter().map(|&c| cell_name(c, 9)).collect();
        names.sort_unstable();
        let mut expected: Vec<&str> = cells.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected, "{}", step.text);
    }

    #[test]
    fn a_cycle_of_bivalue_cells_is_a_y_cycle() {
        assert_cycle(
            "1......498.....6...6574.2.....5829....94.73....7693.....8.5473...3.....845......2",
            Technique::YCycle,
            6.7,
            &["r3c1", "r2c2", "r2c4", "r7c4", "r7c1"],
        );
    }

    #[test]
    fn a_cycle_of_cell_and_house_links_is_bidirectional() {
        assert_cycle(
            "9.15....8......7...382..6.5....6.2.3...1.2...5.2.9....3.5..491...4......8....94.6",
            Technique::XyCycle,
            7.0,
            &["r7c2", "r7c4", "r6c4", "r6c2"],
        );
    }

    #[test]
    fn a_candidate_that_implies_its_own_removal_goes() {
        let mode = Mode::FORCING_CHAINS_AND_CYCLES;
        assert_finds(NISHIO_PUZZLE, Technique::ForcingChain, mode, 7.1, "r9c9<>4");
    }

    #[test]
    fn nishio_finds_what_static_chains_cannot() {
        let board = board_before(NISHIO_PUZZLE, Technique::NishioForcingChain);
        let cancel = Cancellation::none();
        assert_eq!(
            chain_step(&board, Mode::FORCING_CHAINS_AND_CYCLES, &cancel),
            None
        );
        let mode = Mode::NISHIO;
        assert_finds(
            NISHIO_PUZZLE,
            Technique::NishioForcingChain,
            mode,
            7.9,
            "r4c5<>2",
        );
    }

    #[test]
    fn every_place_of_a_digit_in_a_house_removes_a_candidate() {
        assert_finds(
            "...762.....4...1...5.....9...3.9.8...156.374....587....4..3..7.39.....24..7...3..",
            Technique::RegionForcingChain,
            Mode::MULTIPLE,
            8.2,
            "r9c2<>8",
        );
    }

    #[test]
    fn every_candidate_of_a_cell_removes_a_candidate() {
        assert_finds(
            "4..8.2..62.......3....1....1.3.2.4.8.2..8..5...6...9...4..3..8.3..7.8..9.87...63.",
            Technique::CellForcingChain,
            Mode::MULTIPLE,
            8.5,
            "r8c5<>4",
        );
    }

    #[test]
    fn dynamic_chains_reach_contradictions_and_double_implications() {
        let mode = Mode::dynamic(0, 0);
        assert_finds(
            "..2...9..9....6..18..4...3.....6..5..3...82........3.7.2.9..1..6.1.5.....7...4...",
            Technique::DynamicContradictionChain,
            mode,
            8.9,
            "r4c2<>4",
        );
        assert_finds(
            "35.....211...7...6.9....3....38.6..7...1.2...5..7.42....9....8.8...4...961.....34",
            Technique::DynamicDoubleChain,
            mode,
            8.8,
            "r1c7<>8",
        );
    }

    #[test]
    fn dynamic_chains_from_a_cell_and_from_a_house() {
        let mode = Mode::dynamic(0, 0);
        assert_finds(
            "46.2.....9....4..887..5........2173...........2879........3..865..1....7.....2.41",
            Technique::DynamicCellForcingChain,
            mode,
            8.9,
            "r2c7<>2",
        );
        assert_finds(
            "..8...1.....7....967..1.32...7.3.2...961.745...4.6.9...82.7..617....1.....3...7..",
            Technique::DynamicRegionForcingChain,
            mode,
            8.7,
            "r9c5<>4",
        );
    }

    /// A puzzle of the forum's hardest list of 2019 (`serate`: 11.0) whose path starts with a nested
    /// chain.
    const NESTED_PUZZLE: &str =
        "98.7..6..5...9..7...7..4...4...327....65...9.......3.11...8.5...2.........54...8.";

    #[test]
    fn chains_nested_in_chains_find_what_dynamic_chains_cannot() {
        let grid = crate::grid::Grid::parse_symbols(NESTED_PUZZLE).unwrap();
        let board = Board::from_grid(&grid);
        let cancel = Cancellation::none();
        assert_eq!(chain_step(&board, Mode::dynamic(2, 0), &cancel), None);
        let step = chain_step(&board, Mode::dynamic(3, 0), &cancel).expect("a chain");
        assert_eq!(step.technique, Technique::NestedForcingChain);
        assert_eq!(step.rounded_difficulty(), 11.0, "{}", step.text);
        assert_eq!(conclusion_text(&step, 9), "r2c9<>2", "{}", step.text);
    }

    #[test]
    fn dynamic_chains_helped_by_other_techniques_are_plus() {
        // The same puzzle before its tenth step.
        let board = crate::logic::cell_masks::board_from_marks([
            "=9 =8 1234 =7 125 135 =6 12345 2345",
            "=5 1346 124 12368 =9 1368 148 =7 34",
            "236 136 =7 1368 1256 =4 1289 1235 2589",
            "=4 159 189 1689 =3 =2 =7 56 568",
            "2378 137 =6 =5 147 178 248 =9 248",
            "278 579 289 689 467 6789 =3 2456 =1",
            "=1 34679 349 2369 =8 3679 =5 236 23679",
            "3678 =2 389 1369 1567 135679 149 1346 34679",
            "367 3679 =5 =4 1267 13679 129 =8 23679",
        ]);
        let cancel = Cancellation::none();
        assert_eq!(chain_step(&board, Mode::dynamic(0, 0), &cancel), None);
        let step = chain_step(&board, Mode::dynamic(1, 0), &cancel).expect("a chain");
        assert_eq!(step.technique, Technique::DynamicForcingChainPlus);
        assert_eq!(step.rounded_difficulty(), 9.4, "{}", step.text);
        assert_eq!(conclusion_text(&step, 9), "r1c3<>1", "{}", step.text);
    }
}
