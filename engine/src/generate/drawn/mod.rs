//! Variant puzzles whose rules are drawn at random too: irregular regions, killer cages,
//! thermometers, arrows or kropki dots laid over a random full grid, then givens removed
//! while the variant logic still solves the puzzle within the level asked for.
//!
//! A path that the logic ends solved proves the solution unique (its steps only remove
//! digits that no solution holds), so each removal costs one logical solve, and every
//! puzzle made can be explained and hinted step by step.
//!
//! - `regions`: random connected regions, and a random full grid within any regions;
//! - `cages`: killer cages, grown small and merged while the logic stays in its level;
//! - `lines`: thermometers and arrows drawn along the full grid's digits, and kropki dots.

mod cages;
mod lines;
mod regions;

use super::random::Random;
use super::{InvalidOptions, Symmetry};
use crate::logic::{self, Level, LogicError};
use crate::solver::{Cancellation, Stopped};
use crate::variant::model::{Cell, Constraint, Origin, Puzzle, Rule, default_regions};
use crate::variant::{self, VariantSolveOptions};

/// A kind of variant puzzle whose rules are drawn with the puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawnKind {
    /// Irregular regions in place of the boxes.
    Jigsaw,
    /// Cages with sums over the whole grid.
    Killer,
    /// Thermometers: digits increase from the bulb.
    Thermometer,
    /// Arrows: the digits on the line add up to the circle's.
    Arrow,
    /// Every kropki dot drawn (white: consecutive; black: one twice the other).
    Kropki,
}

impl DrawnKind {
    /// Every kind, in the order the API lists them.
    pub const ALL: [DrawnKind; 5] = [
        DrawnKind::Jigsaw,
        DrawnKind::Killer,
        DrawnKind::Thermometer,
        DrawnKind::Arrow,
        DrawnKind::Kropki,
    ];

    /// The kind's name in the API.
    pub fn id(self) -> &'static str {
        match self {
            DrawnKind::Jigsaw => "jigsaw",
            DrawnKind::Killer => "killer",
            DrawnKind::Thermometer => "thermometer",
            DrawnKind::Arrow => "arrow",
            DrawnKind::Kropki => "kropki",
        }
    }

    /// The kind named `id`, or an error that lists the names.
    pub fn from_id(id: &str) -> Result<DrawnKind, String> {
        DrawnKind::ALL
            .into_iter()
            .find(|kind| kind.id() == id)
            .ok_or_else(|| {
                let ids: Vec<&str> = DrawnKind::ALL.iter().map(|kind| kind.id()).collect();
                format!("unknown variant `{id}`; one of {}", ids.join(", "))
            })
    }
}

/// The sizes puzzles with drawn rules are made in.
pub const DRAWN_SIZES: std::ops::RangeInclusive<usize> = 4..=9;

/// What to generate with drawn rules; made by [`DrawnOptions::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnOptions {
    kind: DrawnKind,
    size: usize,
    level: Option<Level>,
    max_givens: Option<usize>,
    symmetry: Symmetry,
    minimal: bool,
}

impl DrawnOptions {
    /// Puzzles of `kind` and `size` (4 to 9) whose variant path is of `level` (when
    /// `None`: easy to hard, solved without forcing; `beyond` cannot be asked for), with
    /// at most `max_givens` givens, their givens in `symmetry`, and with `minimal`,
    /// without a given (or an orbit of givens) that could go.
    pub fn new(
        kind: DrawnKind,
        size: usize,
        level: Option<Level>,
        max_givens: Option<usize>,
        symmetry: Symmetry,
        minimal: bool,
    ) -> Result<DrawnOptions, InvalidOptions> {
        if !DRAWN_SIZES.contains(&size) {
            return Err(InvalidOptions::DrawnSize { size });
        }
        if level == Some(Level::Beyond) {
            return Err(InvalidOptions::Beyond);
        }
        // Without rules on the digits, two digits that no given shows could swap places.
        let fewest = if kind == DrawnKind::Jigsaw {
            size - 1
        } else {
            0
        };
        if let Some(max_givens) = max_givens.filter(|&max_givens| max_givens < fewest) {
            return Err(InvalidOptions::TooFewGivens { max_givens, fewest });
        }
        Ok(DrawnOptions {
            kind,
            size,
            level,
            max_givens,
            symmetry,
            minimal,
        })
    }

    /// The kind of puzzle.
    pub fn kind(&self) -> DrawnKind {
        self.kind
    }

    /// The level asked for.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// The most givens asked for.
    pub fn max_givens(&self) -> Option<usize> {
        self.max_givens
    }

    /// Whether the puzzles must have no given that could go.
    pub fn minimal(&self) -> bool {
        self.minimal
    }

    /// Whether the givens must have a symmetry.
    pub fn symmetric(&self) -> bool {
        self.symmetry != Symmetry::None
    }
}

/// A generated puzzle with drawn rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnPuzzle {
    /// The puzzle: its regions, rules and givens.
    pub puzzle: Puzzle,
    /// Its one solution, row-major.
    pub solution: Vec<u8>,
    /// The level of its variant path: the hardest step the explanation needs.
    pub level: Level,
    /// The seed that makes this puzzle alone.
    pub seed: u64,
}

/// The puzzle of `seed` under `options`: the same on every machine and thread.
pub fn generate_drawn(
    options: &DrawnOptions,
    seed: u64,
    cancel: &Cancellation,
) -> Result<DrawnPuzzle, Stopped> {
    let cancel = &cancel.starting_now();
    let mut random = Random::new(seed);
    let size = options.size;
    let (floor, ceiling) = match options.level {
        Some(level) => (level, level),
        None => (Level::Easy, Level::Hard),
    };
    loop {
        if cancel.is_cancelled() {
            return Err(Stopped);
        }
        let regions = match options.kind {
            DrawnKind::Jigsaw => regions::random_regions(size, &mut random),
            _ => default_regions(size).into_iter().flatten().collect(),
        };
        let Some(solution) = regions::full_grid(size, &regions, &mut random, cancel)? else {
            continue;
        };
        let mut draft = Draft {
            size,
            regions,
            rules: Vec::new(),
            givens: solution.iter().map(|&digit| Some(digit)).collect(),
            solution,
        };
        let made = match options.kind {
            DrawnKind::Killer if options.max_givens.is_some() => {
                let enough = options.level.is_some();
                cages::cages_alone(&mut draft, ceiling, enough, &mut random, cancel)?
            }
            _ => reduce(&mut draft, options, ceiling, &mut random, cancel)?,
        };
        if let Some(level) = made.filter(|&level| level >= floor) {
            return Ok(DrawnPuzzle {
                puzzle: draft.puzzle(),
                solution: draft.solution,
                level,
                seed,
            });
        }
    }
}

/// A puzzle being made: its full grid, regions, the rules drawn so far and the givens
/// kept so far.
struct Draft {
    size: usize,
    regions: Vec<usize>,
    rules: Vec<Rule>,
    givens: Vec<Option<u8>>,
    solution: Vec<u8>,
}

impl Draft {
    /// The puzzle as it stands.
    fn puzzle(&self) -> Puzzle {
        let constraints = self
            .rules
            .iter()
            .enumerate()
            .map(|(index, rule)| Constraint {
                origin: Origin {
                    kind: rule.kind().to_owned(),
                    index,
                },
                rule: rule.clone(),
            })
            .collect();
        let regions = self.regions.iter().map(|&region| Some(region)).collect();
        Puzzle::new(self.size, self.givens.clone(), Some(regions), constraints)
            .expect("rules drawn on the grid")
    }

    /// The level of the puzzle's path within `ceiling`, or `None` when the logic stalls
    /// there. A count to two first turns away puzzles of several solutions, where the
    /// logic would stall only after trying everything.
    fn level_within(
        &self,
        ceiling: Level,
        cancel: &Cancellation,
    ) -> Result<Option<Level>, Stopped> {
        if !self.is_unique(cancel)? {
            return Ok(None);
        }
        match logic::level_within(&self.puzzle(), ceiling, cancel) {
            Ok(level) => Ok(level),
            Err(LogicError::Stopped(stopped)) => Err(stopped),
            Err(_) => Ok(None),
        }
    }

    /// Whether the puzzle has one solution, by a count to two.
    fn is_unique(&self, cancel: &Cancellation) -> Result<bool, Stopped> {
        let options = VariantSolveOptions {
            max_solutions: 2,
            ..VariantSolveOptions::default()
        };
        let answer = variant::solve(&self.puzzle(), &options, cancel).map_err(|_| Stopped)?;
        match (answer.solution_count, answer.count_exact) {
            (1, false) => Err(Stopped),
            (count, _) => Ok(count == 1),
        }
    }

    /// How many givens are left.
    fn given_count(&self) -> usize {
        self.givens.iter().flatten().count()
    }

    /// The cell at row-major `index`.
    fn cell(&self, index: usize) -> Cell {
        Cell {
            row: index / self.size,
            col: index % self.size,
        }
    }
}

/// Draws the kind's rules over the draft's full grid, then removes givens (an orbit of
/// the symmetry at a time, in a random order) while the logic still solves the puzzle
/// within `ceiling`, or, for minimal puzzles, while it stays unique. Thermometers and
/// arrows that leave more than `max_givens` get another line through a given left, and
/// the removal goes on. Returns the level of the puzzle made, or `None` when these rules
/// do not make one.
fn reduce(
    draft: &mut Draft,
    options: &DrawnOptions,
    ceiling: Level,
    random: &mut Random,
    cancel: &Cancellation,
) -> Result<Option<Level>, Stopped> {
    match options.kind {
        DrawnKind::Jigsaw => {}
        DrawnKind::Killer => cages::draw_cages(draft, random),
        DrawnKind::Thermometer | DrawnKind::Arrow => {
            lines::draw_lines(draft, options.kind, random);
        }
        DrawnKind::Kropki => lines::draw_dots(draft),
    }
    let orbits = options.symmetry.orbits(draft.size);
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    loop {
        random.shuffle(&mut order);
        for &orbit in &order {
            let cells = &orbits[orbit];
            if draft.givens[cells[0]].is_none() {
                continue;
            }
            for &cell in cells {
                draft.givens[cell] = None;
            }
            let kept = if options.minimal {
                draft.is_unique(cancel)?
            } else {
                draft.level_within(ceiling, cancel)?.is_some()
            };
            if !kept {
                for &cell in cells {
                    draft.givens[cell] = Some(draft.solution[cell]);
                }
            }
        }
        if options
            .max_givens
            .is_none_or(|most| draft.given_count() <= most)
        {
            return draft.level_within(ceiling, cancel);
        }
        let given = (0..draft.givens.len()).filter(|&cell| draft.givens[cell].is_some());
        let through: Vec<usize> = given.collect();
        if !lines::add_line(draft, options.kind, &through, random) {
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(
        kind: DrawnKind,
        size: usize,
        level: Option<Level>,
        max: Option<usize>,
    ) -> DrawnOptions {
        DrawnOptions::new(kind, size, level, max, Symmetry::None, false).unwrap()
    }

    /// Asserts that `made` has one solution, its own, that keeps its givens, and that its
    /// level is the level of its path.
    fn assert_proper(made: &DrawnPuzzle) {
        let count = VariantSolveOptions {
            max_solutions: 2,
            ..VariantSolveOptions::default()
        };
        let answer = variant::solve(&made.puzzle, &count, &Cancellation::none()).unwrap();
        assert_eq!((answer.solution_count, answer.count_exact), (1, true));
        assert_eq!(answer.solution.as_ref(), Some(&made.solution));
        let level = logic::level_within(&made.puzzle, Level::Extreme, &Cancellation::none());
        assert_eq!(level.unwrap(), Some(made.level));
    }

    #[test]
    fn every_kind_makes_proper_puzzles_of_its_level_again_from_its_seed() {
        let cancel = Cancellation::none();
        for (seed, kind) in DrawnKind::ALL.into_iter().enumerate() {
            for (size, level) in [(9, None), (6, Some(Level::Easy)), (9, Some(Level::Medium))] {
                let options = options(kind, size, level, None);
                let made = generate_drawn(&options, seed as u64, &cancel).unwrap();
                assert_proper(&made);
                assert!(made.level <= level.unwrap_or(Level::Hard));
                assert!(level.is_none_or(|level| made.level == level));
                assert_eq!(
                    made,
                    generate_drawn(&options, seed as u64, &cancel).unwrap()
                );
            }
        }
    }

    #[test]
    fn jigsaw_regions_are_drawn_and_killers_need_no_givens() {
        let cancel = Cancellation::none();
        let jigsaw =
            generate_drawn(&options(DrawnKind::Jigsaw, 9, None, None), 3, &cancel).unwrap();
        assert!(!jigsaw.puzzle.has_default_regions());
        assert!(jigsaw.puzzle.constraints().is_empty());
        let killer =
            generate_drawn(&options(DrawnKind::Killer, 9, None, Some(0)), 3, &cancel).unwrap();
        assert_proper(&killer);
        assert!(killer.puzzle.givens().iter().all(Option::is_none));
        let capped = options(DrawnKind::Thermometer, 9, None, Some(4));
        let thermometers = generate_drawn(&capped, 3, &cancel).unwrap();
        assert_proper(&thermometers);
        assert!(thermometers.puzzle.givens().iter().flatten().count() <= 4);
    }

    #[test]
    fn minimal_puzzles_lose_uniqueness_without_any_given() {
        let cancel = Cancellation::none();
        let minimal =
            DrawnOptions::new(DrawnKind::Arrow, 9, None, None, Symmetry::None, true).unwrap();
        let made = generate_drawn(&minimal, 5, &cancel).unwrap();
        assert_proper(&made);
        for cell in (0..81).filter(|&cell| made.puzzle.givens()[cell].is_some()) {
            let mut givens = made.puzzle.givens().to_vec();
            givens[cell] = None;
            let regions = made.puzzle.regions().to_vec();
            let fewer =
                Puzzle::new(9, givens, Some(regions), made.puzzle.constraints().to_vec()).unwrap();
            let count = VariantSolveOptions {
                max_solutions: 2,
                ..VariantSolveOptions::default()
            };
            assert_eq!(
                variant::solve(&fewer, &count, &cancel)
                    .unwrap()
                    .solution_count,
                2
            );
        }
    }

    #[test]
    fn impossible_requests_are_refused() {
        let new = |kind, size, max| DrawnOptions::new(kind, size, None, max, Symmetry::None, false);
        assert!(new(DrawnKind::Killer, 3, None).is_err());
        assert!(new(DrawnKind::Killer, 10, None).is_err());
        assert!(new(DrawnKind::Jigsaw, 9, Some(7)).is_err());
        assert!(new(DrawnKind::Jigsaw, 9, Some(8)).is_ok());
        assert!(new(DrawnKind::Kropki, 9, Some(0)).is_ok());
        let beyond = DrawnOptions::new(
            DrawnKind::Arrow,
            9,
            Some(Level::Beyond),
            None,
            Symmetry::None,
            false,
        );
        assert_eq!(beyond, Err(InvalidOptions::Beyond));
        assert_eq!(DrawnKind::from_id("killer"), Ok(DrawnKind::Killer));
        assert!(
            DrawnKind::from_id("sandwich")
                .unwrap_err()
                .contains("jigsaw, killer")
        );
    }
}
