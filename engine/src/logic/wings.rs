//! Wings: XY-Wing and XYZ-Wing, and the bivalue-cell-plus-almost-locked-set wings
//! WXYZ, VWXYZ, UVWXYZ and TUVWXYZ, as Sukaku Explainer finds them.
//!
//! An XY-Wing is a bivalue pivot `xy` that sees two bivalue pincers `xz` and `yz`: one
//! pincer holds `z`, so `z` leaves the cells that see both (and, for the trivalue pivot
//! `xyz` of an XYZ-Wing, the pivot too). The larger wings pair an almost locked set (n
//! mutually visible cells holding n + 1 digits) with a bivalue cell `xz` whose digits both
//! lie in the set: when every cell of the set holding `x` sees the bivalue cell, `x` is a
//! restricted common and `z` leaves the cells that see the bivalue cell and every `z` of
//! the set. When both digits are restricted (doubly linked) the set and the cell lock all
//! their digits.
//!
//! XY and XYZ-Wing return the first pattern in the reference's scan order; the reference
//! sorts the larger wings (difficulty, more eliminations, larger suffix first), so the
//! best one in its scan order is kept.

use super::board::{Board, Cell, Digits, bit, digits_of};
use super::cell_masks::{CellMask, CellMasks, cells_of, digit_cells};
use super::step::{Elimination, Step, cells_name, digit_name, eliminations_text};
use super::technique::Technique;

/// The first XY-Wing, or XYZ-Wing when `xyz`: pivots in row-major order, then the
/// pivot's peers as the first pincer, then as the second.
pub fn xy_wing(board: &Board, xyz: bool) -> Option<Step> {
    let pivot_size = if xyz { 3 } else { 2 };
    let common_size = u32::from(xyz);
    let geometry = board.geometry();
    let masks = geometry.masks();
    let places = digit_cells(board);
    for (pivot, &pivot_peers) in masks.peers.iter().enumerate() {
        let xy = board.candidates(pivot);
        if xy.count_ones() != pivot_size {
            continue;
        }
        let peers = &geometry.peers[pivot];
        for &xz_cell in peers {
            let xz = board.candidates(xz_cell);
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &yz_cell in peers {
                let yz = board.candidates(yz_cell);
                if yz.count_ones() != 2
                    || (xy | xz | yz).count_ones() != 3
                    || (xy & xz & yz).count_ones() != common_size
                {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as usize;
                let pattern: CellMask = 1 << pivot | 1 << xz_cell | 1 << yz_cell;
                let mut victims =
                    masks.peers[xz_cell] & masks.peers[yz_cell] & places[z] & !pattern;
                if xyz {
                    victims &= pivot_peers;
                }
                if victims != 0 {
                    let cells = [pivot, xz_cell, yz_cell];
                    return Some(xy_step(xyz, &cells, z as u8 + 1, victims));
                }
            }
        }
    }
    None
}

fn xy_step(xyz: bool, cells: &[Cell], z: u8, victims: CellMask) -> Step {
    let (technique, difficulty) = if xyz {
        (Technique::XyzWing, 4.4)
    } else {
        (Technique::XyWing, 4.2)
    };
    let mut step = Step::new(technique, difficulty);
    step.eliminations = cells_of(victims)
        .map(|cell| Elimination {
            cell,
            digits: bit(z),
        })
        .collect();
    step.cells = cells.to_vec();
    step.text = format!(
        "{}: {} on {} => {}",
        technique.name(),
        cells_name(cells, 9),
        digit_name(z),
        eliminations_text(&step.eliminations, 9)
    );
    step
}

/// The best wing of a bivalue cell and an almost locked set of `size - 1` cells holding
/// `size` digits (`size` 4 to 7: WXYZ, VWXYZ, UVWXYZ, TUVWXYZ), as the reference sorts
/// them.
pub fn als_wing(board: &Board, size: usize) -> Option<Step> {
    debug_assert!((4..=7).contains(&size));
    let mut search = AlsSearch {
        candidates: std::array::from_fn(|cell| board.candidates(cell)),
        places: digit_cells(board),
        masks: board.geometry().masks(),
        size,
        set: [0; 6],
        best: None,
    };
    for (first, &peers) in search.masks.peers.iter().enumerate() {
        let digits = search.candidates[first];
        if (2..=size).contains(&(digits.count_ones() as usize)) {
            search.set[0] = first;
            let forward = peers & above(first);
            search.extend(1, digits, forward);
        }
    }
    search.best.map(|wing| wing.step(size))
}

/// The cells after `cell` in row-major order.
fn above(cell: Cell) -> CellMask {
    !0 << (cell + 1)
}

/// The search of one call: the board's candidates, the set being built, the best wing.
struct AlsSearch {
    candidates: [Digits; 81],
    places: [CellMask; 9],
    masks: &'static CellMasks,
    size: usize,
    /// The cells of the set so far, ascending.
    set: [Cell; 6],
    best: Option<AlsWing>,
}

impl AlsSearch {
    /// Adds the set's cell number `depth` among the `forward` cells (after the last one,
    /// seen by all), keeping the set's digits below `size + 1`, exactly `size` at the end.
    fn extend(&mut self, depth: usize, digits: Digits, forward: CellMask) {
        let last = depth + 1 == self.size - 1;
        for cell in cells_of(forward) {
            let own = self.candidates[cell];
            let union = digits | own;
            let count = union.count_ones() as usize;
            if own.count_ones() < 2 || count > self.size || (last && count != self.size) {
                continue;
            }
            self.set[depth] = cell;
            if last {
                self.pair_with_bivalue_cells(union);
            } else {
                self.extend(
                    depth + 1,
                    union,
                    forward & self.masks.peers[cell] & above(cell),
                );
            }
        }
    }

    /// Tries every bivalue cell that sees a cell of the set and holds two of its
    /// `digits`, in row-major order.
    fn pair_with_bivalue_cells(&mut self, digits: Digits) {
        let set = &self.set[..self.size - 1];
        let cells = set.iter().fold(0, |mask: CellMask, &cell| mask | 1 << cell);
        let reach = set
            .iter()
            .fold(0, |mask, &cell| mask | self.masks.peers[cell])
            & !cells;
        for bivalue in cells_of(reach) {
            let pair = self.candidates[bivalue];
            if pair.count_ones() != 2 || pair & !digits != 0 {
                continue;
            }
            let wing = Wing {
                masks: self.masks,
                set: cells,
                digits,
                bivalue,
                pair,
            };
            if let Some(found) = wing.eliminate(&self.places) {
                let found = AlsWing::new(self, wing, found);
                if self.best.as_ref().is_none_or(|best| found.beats(best)) {
                    self.best = Some(found);
                }
            }
        }
    }
}

/// An almost locked set and a bivalue cell whose two digits it holds.
#[derive(Clone, Copy)]
struct Wing {
    masks: &'static CellMasks,
    set: CellMask,
    digits: Digits,
    bivalue: Cell,
    pair: Digits,
}

/// What a wing removes: candidates by digit, counted as the reference counts them, and
/// whether it stays doubly linked.
struct Found {
    eliminations: [CellMask; 9],
    total: u32,
    doubly_linked: bool,
}

impl Wing {
    /// Whether every cell of the set holding `digit` (index) sees the bivalue cell.
    fn restricted(&self, places: &[CellMask; 9], digit: usize) -> bool {
        self.set & places[digit] & !self.masks.peers[self.bivalue] == 0
    }

    /// The removals of a restricted common: the set's x (lower digit) or z, or both
    /// (doubly linked), as the reference decides; `None` when nothing goes.
    fn eliminate(&self, places: &[CellMask; 9]) -> Option<Found> {
        let x = self.pair.trailing_zeros() as usize;
        let z = 31 - self.pair.leading_zeros() as usize;
        let mut found = Found {
            eliminations: [0; 9],
            total: 0,
            doubly_linked: false,
        };
        let (x_restricted, z_restricted) = (self.restricted(places, x), self.restricted(places, z));
        match (x_restricted, z_restricted) {
            (true, true) => {
                let mut weak = false;
                for digit in digits_of(self.digits & !self.pair) {
                    let digit = digit as usize - 1;
                    weak |= found.remove(digit, self.locked(places, digit, false));
                }
                let strong_x = found.remove(x, self.locked(places, x, true));
                let strong_z = found.remove(z, self.locked(places, z, true));
                // The reference keeps the doubly linked name only when a locked digit or
                // both commons remove something.
                found.doubly_linked = weak || (strong_x && strong_z);
            }
            (true, false) => {
                found.remove(z, self.locked(places, z, true));
            }
            (false, true) => {
                found.remove(x, self.locked(places, x, true));
            }
            (false, false) => return None,
        }
        (found.total > 0).then_some(found)
    }

    /// The places of `digit` (index) that see every place of it in the set, and the
    /// bivalue cell too when `with_bivalue`.
    fn locked(&self, places: &[CellMask; 9], digit: usize, with_bivalue: bool) -> CellMask {
        let mut seen = self.masks.seen_by_all(self.set & places[digit]);
        if with_bivalue {
            seen &= self.masks.peers[self.bivalue];
        }
        seen & places[digit] & !self.set & !(1 << self.bivalue)
    }
}

impl Found {
    /// Records removals of `digit` (index); whether there were any.
    fn remove(&mut self, digit: usize, cells: CellMask) -> bool {
        self.eliminations[digit] |= cells;
        self.total += cells.count_ones();
        cells != 0
    }
}

/// A wing found, with what the reference sorts it by.
struct AlsWing {
    cells: [Cell; 7],
    found: Found,
    difficulty: f64,
    /// Doubly linked (2) or not (1), the largest candidate count in the set, and the sum
    /// of the set's candidate counts, written out.
    suffix: [u8; 4],
    suffix_len: usize,
    pair: Digits,
}

impl AlsWing {
    fn new(search: &AlsSearch, wing: Wing, found: Found) -> AlsWing {
        let set = &search.set[..search.size - 1];
        let counts = set.iter().map(|&cell| search.candidates[cell].count_ones());
        let largest = counts.clone().max().unwrap_or(0);
        let total: u32 = counts.sum();
        let mut cells = [0; 7];
        cells[..set.len()].copy_from_slice(set);
        cells[set.len()] = wing.bivalue;
        let mut suffix = [if found.doubly_linked { b'2' } else { b'1' }, 0, 0, 0];
        let mut suffix_len = 1;
        for number in [largest, total] {
            if number >= 10 {
                suffix[suffix_len] = b'0' + (number / 10) as u8;
                suffix_len += 1;
            }
            suffix[suffix_len] = b'0' + (number % 10) as u8;
            suffix_len += 1;
        }
        AlsWing {
            cells,
            difficulty: wing_difficulty(search.size, largest as i32),
            found,
            suffix,
            suffix_len,
            pair: wing.pair,
        }
    }

    /// Whether the reference sorts `self` before `other`: easier, else more
    /// eliminations, else a larger suffix (ties keep the order found).
    fn beats(&self, other: &AlsWing) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        if self.found.total != other.found.total {
            return self.found.total > other.found.total;
        }
        self.suffix[..self.suffix_len] > other.suffix[..other.suffix_len]
    }

    fn step(&self, size: usize) -> Step {
        let technique = match size {
            4 => Technique::WxyzWing,
            5 => Technique::VwxyzWing,
            6 => Technique::UvwxyzWing,
            _ => Technique::TuvwxyzWing,
        };
        let mut step = Step::new(technique, self.difficulty);
        let mut removed = [0 as Digits; 81];
        for (digit, &cells) in self.found.eliminations.iter().enumerate() {
            for cell in cells_of(cells) {
                removed[cell] |= 1 << digit;
            }
        }
        step.eliminations = (0..81)
            .filter(|&cell| removed[cell] != 0)
            .map(|cell| Elimination {
                cell,
                digits: removed[cell],
            })
            .collect();
        step.cells = self.cells[..size].to_vec();
        let removed_digits = removed.iter().fold(0, |all, &digits| all | digits);
        let on = if self.found.doubly_linked {
            self.pair
        } else {
            removed_digits & self.pair
        };
        let on: Vec<String> = digits_of(on).map(|d| digit_name(d).to_string()).collect();
        step.text = format!(
            "{} {}: {} on {} => {}",
            technique.name(),
            String::from_utf8_lossy(&self.suffix[..self.suffix_len]),
            cells_name(&step.cells, 9),
            on.join(","),
            eliminations_text(&step.eliminations, 9)
        );
        step
    }
}

/// The reference's difficulty of a wing of `size` digits whose set's largest cell holds
/// `largest` candidates: middle sizes rate higher for WXYZ and VWXYZ, the two largest
/// wings have a fixed rating.
fn wing_difficulty(size: usize, largest: i32) -> f64 {
    match size {
        4 => 5.5 + f64::from((4 - 3) - (3 - largest).abs()) * 0.1,
        5 => 6.2 + f64::from((5 - 3) - (3 - largest).abs()) * 0.1,
        6 => 6.6,
        _ => 7.5,
    }
}

#[cfg(test)]
mod tests {
    use super::super::cell_masks::board_from_marks;
    use super::*;

    /// The eliminations of `step` as (cell, digits) pairs.
    fn removed(step: &Step) -> Vec<(usize, Digits)> {
        step.eliminations
            .iter()
            .map(|e| (e.cell, e.digits))
            .collect()
    }

    #[test]
    fn an_xy_wing_removes_z_from_cells_that_see_both_pincers() {
        // Pivot r6c5 (15) sees r6c3 (25) and r9c5 (12): one of them is 2.
        let board = board_from_marks(XY);
        let step = xy_wing(&board, false).unwrap();
        assert_eq!(step.technique, Technique::XyWing);
        assert_eq!(step.difficulty, 4.2);
        assert_eq!(removed(&step), [(74, bit(2))]);
        assert_eq!(step.text, "XY-Wing: r6c5,r6c3,r9c5 on 2 => r9c3<>2");
        assert_eq!(xy_wing(&board, true), None);
    }

    #[test]
    fn an_xyz_wing_also_needs_its_victims_to_see_the_pivot() {
        let board = board_from_marks(XYZ);
        assert_eq!(xy_wing(&board, false), None);
        let step = xy_wing(&board, true).unwrap();
        assert_eq!(step.technique, Technique::XyzWing);
        assert_eq!(step.difficulty, 4.4);
        assert_eq!(removed(&step), [(72, bit(3))]);
    }

    #[test]
    fn a_doubly_linked_wxyz_wing_locks_every_digit_of_the_set() {
        // Set r7c1 (89), r7c2 (37), r7c8 (38) and cell r9c3 (79): both 7 and 9 are
        // restricted commons, so each leaves the cells that see all its places.
        let board = board_from_marks(WXYZ);
        let step = als_wing(&board, 4).unwrap();
        assert_eq!(step.technique, Technique::WxyzWing);
        assert_eq!(step.difficulty, 5.5);
        assert_eq!(removed(&step), [(72, bit(9)), (73, bit(7))]);
        assert!(step.text.starts_with("WXYZ-Wing 226: "), "{}", step.text);
    }

    #[test]
    fn a_vwxyz_wing_rates_by_its_largest_cell() {
        // A set of four cells of row 6 whose largest holds three candidates: 6.2 + 0.2.
        let board = board_from_marks(VWXYZ);
        assert_eq!(als_wing(&board, 4), None);
        let step = als_wing(&board, 5).unwrap();
        assert_eq!(step.technique, Technique::VwxyzWing);
        assert_eq!(step.difficulty, 6.2 + 0.2);
        assert_eq!(removed(&step), [(41, bit(5))]);
    }

    #[test]
    fn the_two_largest_wings_have_fixed_ratings() {
        let board = board_from_marks(UVWXYZ);
        assert_eq!(als_wing(&board, 5), None);
        let step = als_wing(&board, 6).unwrap();
        assert_eq!(step.technique, Technique::UvwxyzWing);
        assert_eq!(step.difficulty, 6.6);
        let expected = [(64, bit(4)), (78, bit(6) | bit(7)), (80, bit(7))];
        assert_eq!(removed(&step), expected);

        let board = board_from_marks(TUVWXYZ);
        assert_eq!(als_wing(&board, 6), None);
        let step = als_wing(&board, 7).unwrap();
        assert_eq!(step.technique, Technique::TuvwxyzWing);
        assert_eq!(step.difficulty, 7.5);
        let expected = [(16, bit(5)), (44, bit(2) | bit(6) | bit(8))];
        assert_eq!(removed(&step), expected);
    }

    /// States of the reference's solving paths, just before it took each pattern.
    const XY: [&str; 9] = [
        "=7 =4 =3 25 25 =1 =9 =6 =8",
        "=6 =2 =9 =7 =8 =3 =5 =4 =1",
        "=5 =1 =8 =9 =4 =6 =3 =2 =7",
        "=9 =8 =7 =3 =6 =2 =1 =5 =4",
        "14 =6 45 15 =9 =7 =2 =8 =3",
        "12 =3 25 =8 15 =4 =7 =9 =6",
        "=8 =5 =1 =4 =3 =9 =6 =7 =2",
        "23 =9 =6 12 =7 =8 =4 13 =5",
        "234 =7 24 =6 12 =5 =8 13 =9",
    ];
    const XYZ: [&str; 9] = [
        "36 38 68 =2 =9 =7 =4 =5 =1",
        "=1 24 24 =5 =3 =8 =7 =9 =6",
        "=7 =9 =5 =6 =1 =4 =2 =8 =3",
        "45 45 =7 =9 =8 =6 =1 =3 =2",
        "23 =1 23 =4 =7 =5 =8 =6 =9",
        "=8 =6 =9 =3 =2 =1 =5 =7 =4",
        "269 28 68 =1 =5 =3 69 =4 =7",
        "356 35 =1 =7 =4 =9 36 =2 =8",
        "349 =7 34 =8 =6 =2 39 =1 =5",
    ];
    const WXYZ: [&str; 9] = [
        "=1 =5 =4 =6 =9 =2 =8 =7 =3",
        "=6 =9 =8 =3 =4 =7 =2 =1 =5",
        "=7 =2 =3 =5 =8 =1 =4 =9 =6",
        "49 47 79 =2 =1 =6 =3 =5 =8",
        "=3 =1 =2 =7 =5 =8 =9 =6 =4",
        "=5 =8 =6 =9 =3 =4 =7 =2 =1",
        "89 37 =1 =4 =2 =5 =6 38 79",
        "24 36 =5 =8 67 =9 =1 34 27",
        "2489 467 79 =1 67 =3 =5 48 29",
    ];
    const VWXYZ: [&str; 9] = [
        "=7 =5 19 12 =4 =6 28 =3 89",
        "=8 =2 =4 =5 =3 =9 =1 =7 =6",
        "19 =3 =6 12 =8 =7 =4 29 =5",
        "139 =7 15 =4 19 =2 58 =6 1389",
        "139 =8 1259 =6 =7 35 25 =4 139",
        "=4 =6 125 =8 19 35 =7 29 139",
        "=6 =1 =3 =7 =2 =8 =9 =5 =4",
        "=2 =9 =8 =3 =5 =4 =6 =1 =7",
        "=5 =4 =7 =9 =6 =1 =3 =8 =2",
    ];
    const UVWXYZ: [&str; 9] = [
        "=1 =5 =4 =6 =9 =2 =8 =7 =3",
        "=6 =9 =8 =3 =4 =7 =2 =1 =5",
        "=7 =2 =3 =5 =8 =1 =4 =9 =6",
        "49 47 79 =2 13 =6 35 358 18",
        "=3 =1 =2 =7 =5 =8 =9 =6 =4",
        "=5 =8 =6 =9 13 =4 37 =2 17",
        "89 367 =1 =4 =2 =5 367 38 789",
        "24 3467 =5 =8 67 =9 =1 34 27",
        "2489 467 79 =1 67 =3 567 458 2789",
    ];
    const TUVWXYZ: [&str; 9] = [
        "345 =6 348 158 =2 =7 13 35 =9",
        "125 =7 128 =9 =3 18 =4 256 256",
        "239 259 1239 15 =4 =6 =8 =7 1235",
        "=6 89 139 =2 =5 =4 =7 389 18",
        "2345 2458 234 =7 =1 =9 26 23568 23568",
        "159 1259 =7 =6 =8 =3 129 259 =4",
        "12 =3 =5 =4 =7 18 269 2689 268",
        "=7 12 =6 18 =9 =5 23 =4 238",
        "=8 49 49 =3 =6 =2 =5 =1 =7",
    ];
}
