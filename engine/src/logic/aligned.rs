//! Aligned exclusion: combinations of candidates in two (or three) cells that every
//! bivalue (or small) cell they all see rules out.
//!
//! Base cells need not see each other. A combination of one candidate per base cell is
//! ruled out when two base cells that see each other take the same digit, or when it
//! covers every candidate of an excluder (a cell of two, or for triplets two or three,
//! candidates that sees every base cell). A candidate of a base cell that no remaining
//! combination uses goes. The scan follows Sudoku Explainer's order, which decides which
//! exclusion comes first.

use super::board::{Board, Cell, Digits, bit, digits_of};
use super::cell_masks::{CellMask, cells_of};
use super::step::{Elimination, Step, cells_name, eliminations_text};
use super::technique::Technique;

/// The first aligned pair exclusion.
pub fn aligned_pair_exclusion(board: &Board) -> Option<Step> {
    let bases = Bases::of(board, 2)?;
    pairs(bases.cells.len()).find_map(|(first, second)| {
        let cells = [bases.cells[first], bases.cells[second]];
        bases.exclusion(board, &cells)
    })
}

/// The first aligned triplet exclusion: a pair of base cells, then a third among the
/// base cells that one of them sees with two or three candidates.
pub fn aligned_triplet_exclusion(board: &Board) -> Option<Step> {
    let bases = Bases::of(board, 3)?;
    pairs(bases.cells.len()).find_map(|(first, second)| {
        let (cell0, cell1) = (bases.cells[first], bases.cells[second]);
        if (bases.excluders[cell0] & bases.excluders[cell1]).count_ones() < 2 {
            // Fewer than two excluders see both: any third leaves fewer still.
            return None;
        }
        let pair = 1 << cell0 | 1 << cell1;
        let near0 = bases.excluders[cell0] & bases.mask & !pair;
        let near1 = bases.excluders[cell1] & bases.mask & !pair & !near0;
        cells_of(near0)
            .chain(cells_of(near1))
            .filter(|&third| !bases.seen_before(cell0, cell1, third))
            .find_map(|third| bases.exclusion(board, &[cell0, cell1, third]))
    })
}

/// Every pair of indexes below `count` as the reference enumerates them: by the larger
/// index, then by the smaller.
fn pairs(count: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..count).flat_map(|second| (0..second).map(move |first| (first, second)))
}

/// The cells that may be base cells, with their possible excluders.
struct Bases {
    /// Cells with two candidates or more, no peer with a single candidate, and some peer
    /// that may exclude, in ascending order.
    cells: Vec<Cell>,
    /// The same cells as a mask.
    mask: CellMask,
    /// For each base cell, its peers with two to `degree` candidates.
    excluders: [CellMask; 81],
}

impl Bases {
    /// The base cells for sets of `degree` cells, if there are at least `degree`.
    fn of(board: &Board, degree: u32) -> Option<Bases> {
        if board.size() != 9 {
            return None;
        }
        let counts: [u32; 81] = std::array::from_fn(|cell| board.candidates(cell).count_ones());
        let mut bases = Bases {
            cells: Vec::new(),
            mask: 0,
            excluders: [0; 81],
        };
        let masks = board.geometry().masks();
        for cell in (0..81).filter(|&cell| counts[cell] >= 2) {
            let peers = masks.peers[cell];
            // The reference skips cells beside a naked single: it would come first.
            if cells_of(peers).any(|peer| counts[peer] == 1) {
                continue;
            }
            let excluders = cells_of(peers)
                .filter(|&peer| (2..=degree).contains(&counts[peer]))
                .fold(0, |mask: CellMask, peer| mask | 1 << peer);
            if excluders != 0 {
                bases.cells.push(cell);
                bases.mask |= 1 << cell;
                bases.excluders[cell] = excluders;
            }
        }
        (bases.cells.len() >= degree as usize).then_some(bases)
    }

    /// Whether the triplet search reached the cells `first` < `second` with `third` from
    /// an earlier pair of them (pairs come by their larger cell, then their smaller), and
    /// so found nothing there: a set of cells excludes the same whatever its order.
    fn seen_before(&self, first: Cell, second: Cell, third: Cell) -> bool {
        let reaches =
            |a: Cell, b: Cell, tail: Cell| (self.excluders[a] | self.excluders[b]) & 1 << tail != 0;
        if third < first {
            reaches(third, first, second) || reaches(third, second, first)
        } else {
            third < second && reaches(first, third, second)
        }
    }

    /// The exclusion on `cells`, if they have two common excluders or more and some
    /// candidate of theirs is in no allowed combination.
    fn exclusion(&self, board: &Board, cells: &[Cell]) -> Option<Step> {
        let common = cells
            .iter()
            .fold(!0, |common, &cell| common & self.excluders[cell]);
        if common.count_ones() < 2 {
            return None;
        }
        let excluded: Vec<Digits> = cells_of(common)
            .map(|cell| board.candidates(cell))
            .collect();
        let mut allowed = [0; 3];
        let mut chosen = [0u8; 3];
        allow(board, cells, &excluded, &mut chosen, 0, &mut allowed);
        let mut eliminations: Vec<Elimination> = (cells.iter().zip(allowed))
            .map(|(&cell, allowed)| Elimination {
                cell,
                digits: board.candidates(cell) & !allowed,
            })
            .filter(|elimination| elimination.digits != 0)
            .collect();
        if eliminations.is_empty() {
            return None;
        }
        eliminations.sort_by_key(|elimination| elimination.cell);
        let (technique, difficulty) = match cells.len() {
            2 => (Technique::AlignedPairExclusion, 6.2),
            _ => (Technique::AlignedTripletExclusion, 7.5),
        };
        let mut step = Step::new(technique, difficulty);
        let excluders: Vec<Cell> = cells_of(common).collect();
        step.text = format!(
            "{}: {} (excluders {}) => {}",
            technique.name(),
            cells_name(cells, 9),
            cells_name(&excluders, 9),
            eliminations_text(&eliminations, 9)
        );
        step.eliminations = eliminations;
        step.cells = cells.to_vec();
        Some(step)
    }
}

/// Walks the combinations of one candidate per cell from `depth` on, and marks in
/// `allowed` the candidates of each cell that some allowed combination uses. A branch
/// whose combinations could mark nothing new (its chosen digits are allowed already, and
/// so is every candidate of the cells after it) is skipped.
fn allow(
    board: &Board,
    cells: &[Cell],
    excluded: &[Digits],
    chosen: &mut [u8; 3],
    depth: usize,
    allowed: &mut [Digits; 3],
) {
    let chosen_allowed = (0..depth).all(|i| allowed[i] & bit(chosen[i]) != 0);
    let rest_allowed = (depth..cells.len()).all(|i| allowed[i] == board.candidates(cells[i]));
    if chosen_allowed && rest_allowed {
        return;
    }
    if depth == cells.len() {
        let used = chosen[..depth]
            .iter()
            .fold(0, |used, &digit| used | bit(digit));
        if excluded.iter().all(|&digits| digits & !used != 0) {
            for (mask, &digit) in allowed.iter_mut().zip(&chosen[..depth]) {
                *mask |= bit(digit);
            }
        }
        return;
    }
    let cell = cells[depth];
    let peers = board.geometry().masks().peers[cell];
    for digit in digits_of(board.candidates(cell)) {
        // Two cells that see each other cannot take the same digit.
        let clash =
            (0..depth).any(|earlier| chosen[earlier] == digit && peers & 1 << cells[earlier] != 0);
        if !clash {
            chosen[depth] = digit;
            allow(board, cells, excluded, chosen, depth + 1, allowed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn empty_board() -> Board {
        Board::from_grid(&Grid::empty(9).unwrap())
    }

    fn keep(board: &mut Board, cell: Cell, digits: &[u8]) {
        let keep = digits.iter().fold(0, |mask, &digit| mask | bit(digit));
        board.eliminate(cell, !keep);
    }

    #[test]
    fn pairs_come_by_the_larger_index_first() {
        let order: Vec<_> = pairs(4).collect();
        assert_eq!(order, [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]);
    }

    /// A position from a reference path where both exclusions apply.
    const POSITION: &str =
        "4..86...581..5.76..561.398.38159.4.69.53.68.16.7.815....861534.5.4.38...1...24.58";

    fn board_of(symbols: &str) -> Board {
        Board::from_grid(&Grid::parse_symbols(symbols).unwrap())
    }

    #[test]
    fn an_aligned_pair_exclusion_removes_what_no_allowed_pair_uses() {
        let step = aligned_pair_exclusion(&board_of(POSITION)).unwrap();
        assert_eq!(step.technique, Technique::AlignedPairExclusion);
        assert_eq!(step.difficulty, 6.2);
        let expected = Elimination {
            cell: 52,
            digits: bit(2),
        };
        assert_eq!(step.eliminations, [expected]);
    }

    #[test]
    fn an_aligned_triplet_exclusion_removes_what_no_allowed_triplet_uses() {
        let step = aligned_triplet_exclusion(&board_of(POSITION)).unwrap();
        assert_eq!(step.technique, Technique::AlignedTripletExclusion);
        assert_eq!(step.difficulty, 7.5);
        let cells: Vec<Cell> = step.eliminations.iter().map(|e| e.cell).collect();
        assert_eq!(cells, [7, 53]);
        assert!(step.eliminations.iter().all(|e| e.digits == bit(2)));
    }

    #[test]
    fn no_exclusion_without_two_common_excluders() {
        assert_eq!(aligned_pair_exclusion(&empty_board()), None);
        assert_eq!(aligned_triplet_exclusion(&empty_board()), None);
        // Two bivalue cells seeing both r1c1 and r1c2 on different digits exclude nothing.
        let mut board = empty_board();
        keep(&mut board, 2, &[1, 2]);
        keep(&mut board, 9, &[3, 4]);
        assert_eq!(aligned_pair_exclusion(&board), None);
    }
}
