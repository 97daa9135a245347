//! What to generate: the options, checked together, and the typed reason a combination
//! is refused, for each front end to word with its own names for the options.

use thiserror::Error;

use super::Symmetry;
use crate::logic::modes::VariantMode;
use crate::logic::{self, Level};

/// The largest seed: every seed is exact as a JavaScript number.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The most puzzles one request may ask for.
pub const MAX_COUNT: usize = 100;

/// The lowest and highest ratings a band may ask for: `beyond` (9.0 and up) is too rare to
/// make on demand.
pub const RATING_RANGE: (f64, f64) = (1.0, 8.9);

/// An option of [`GenerateOptions::new`], for a front end to name in its own way (an API
/// field, a command-line flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenerateOption {
    /// The grid's size.
    Size,
    /// A difficulty band by name.
    Level,
    /// The lowest rating wanted.
    SeMin,
    /// The highest rating wanted.
    SeMax,
    /// The most givens wanted.
    MaxGivens,
}

/// Options that ask for something impossible: which rule they break, with their values.
/// [`InvalidOptions::describe`] says why, naming the options as the caller does.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum InvalidOptions {
    /// The size is not one puzzles are made in (25×25 takes far too long).
    #[error("size {size} is not 4, 9 or 16")]
    Size {
        /// The size asked for.
        size: usize,
    },
    /// A level and a rating range were both given.
    #[error("a level and a rating range exclude each other")]
    LevelAndRange,
    /// `beyond` puzzles (9.0 and up) are too rare to make on demand.
    #[error("`beyond` puzzles are too rare to generate on demand")]
    Beyond,
    /// A bound lies outside [`RATING_RANGE`].
    #[error("rating {rating} lies outside 1.0 to 8.9")]
    RatingOutOfRange {
        /// Which bound.
        option: GenerateOption,
        /// Its value.
        rating: f64,
    },
    /// The lowest rating is above the highest.
    #[error("the lowest rating {se_min} is above the highest {se_max}")]
    MinAboveMax {
        /// The lowest rating asked for.
        se_min: f64,
        /// The highest rating asked for.
        se_max: f64,
    },
    /// No rating exists within the bounds (ratings have one decimal, and few values below
    /// 4.0).
    #[error("no puzzle rates between {se_min} and {se_max}")]
    NoRatingBetween {
        /// The lowest rating asked for.
        se_min: f64,
        /// The highest rating asked for.
        se_max: f64,
        /// The variant mode (classic Sudoku by default), whose ratings below 4.0 these are.
        mode: VariantMode,
    },
    /// A band was asked for on a size without ratings.
    #[error("ratings exist for 9×9 puzzles only, not {size}×{size}")]
    RatingNeedsNine {
        /// The size asked for.
        size: usize,
    },
    /// Drawn rules were asked for on a size outside 4 to 9.
    #[error("puzzles with drawn rules are 4×4 to 9×9, not {size}×{size}")]
    DrawnSize {
        /// The size asked for.
        size: usize,
    },
    /// Fewer givens than the rules need to decide a puzzle.
    #[error("at most {max_givens} givens, where {fewest} are needed")]
    TooFewGivens {
        /// The most givens asked for.
        max_givens: usize,
        /// The fewest the rules need.
        fewest: usize,
    },
    /// Variant modes were asked for on another size than 9×9.
    #[error("variant modes exist for 9×9 puzzles only, not {size}×{size}")]
    ModeNeedsNine {
        /// The size asked for.
        size: usize,
    },
}

impl InvalidOptions {
    /// Why the options are impossible and what is allowed, with each option written as
    /// `name` writes it (`se_min` for an API, `--se-min` for a command line).
    pub fn describe(&self, name: impl Fn(GenerateOption) -> &'static str) -> String {
        use GenerateOption::{Level, MaxGivens, SeMax, SeMin, Size};
        let (lowest, highest) = RATING_RANGE;
        match self {
            InvalidOptions::Size { size: 25 } => format!(
                "25×25 puzzles take far longer to make than the time limit; {} must be 4, 9 or 16",
                name(Size)
            ),
            InvalidOptions::Size { size } => {
                format!("{} must be 4, 9 or 16, not {size}", name(Size))
            }
            InvalidOptions::LevelAndRange => format!(
                "{} and {}/{} exclude each other",
                name(Level),
                name(SeMin),
                name(SeMax)
            ),
            InvalidOptions::Beyond => {
                "`beyond` puzzles (9.0 and up) are too rare to generate on demand".to_owned()
            }
            InvalidOptions::RatingOutOfRange { option, rating } => {
                let why = match *rating > highest {
                    true => "`beyond` puzzles (9.0 and up) are too rare to generate on demand",
                    false => "ratings start at 1.0",
                };
                format!(
                    "{} must lie within {lowest:.1} to {highest:.1}, not {rating}: {why}",
                    name(*option)
                )
            }
            InvalidOptions::MinAboveMax { .. } => {
                format!("{} must not be above {}", name(SeMin), name(SeMax))
            }
            InvalidOptions::NoRatingBetween { mode, .. } => {
                let below_4: Vec<String> = mode
                    .ratings_below_4()
                    .iter()
                    .map(|rating| format!("{rating:.1}"))
                    .collect();
                format!(
                    "no puzzle rates between {} and {}: ratings have one decimal, and below \
                     4.0 they are {} only",
                    name(SeMin),
                    name(SeMax),
                    below_4.join(", ")
                )
            }
            InvalidOptions::RatingNeedsNine { .. } => format!(
                "ratings exist for 9×9 puzzles only: {}, {} and {} need {} 9",
                name(Level),
                name(SeMin),
                name(SeMax),
                name(Size)
            ),
            InvalidOptions::DrawnSize { size } => {
                format!("{} must be 4 to 9 with a variant, not {size}", name(Size))
            }
            InvalidOptions::TooFewGivens { max_givens, fewest } => format!(
                "{} must be at least {fewest}, not {max_givens}: irregular regions alone \
                 cannot tell apart two digits that no given shows",
                name(MaxGivens)
            ),
            InvalidOptions::ModeNeedsNine { .. } => format!(
                "Sukaku Explainer's variant modes are 9×9: {} must be 9 with rules",
                name(Size)
            ),
        }
    }
}

/// What to generate; made by [`GenerateOptions::new`], which checks the combination.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenerateOptions {
    pub(super) size: usize,
    pub(super) band: Option<(f64, f64)>,
    pub(super) symmetry: Symmetry,
    pub(super) minimal: bool,
    pub(super) mode: VariantMode,
}

impl GenerateOptions {
    /// Puzzles of `size` with `symmetry`, rated in `level`'s band or between `se_min` and
    /// `se_max` (9×9 only; one bound alone leaves the other at [`RATING_RANGE`]'s), and
    /// with `minimal`, without a given (or an orbit of givens) that could go.
    pub fn new(
        size: usize,
        level: Option<Level>,
        se_min: Option<f64>,
        se_max: Option<f64>,
        symmetry: Symmetry,
        minimal: bool,
    ) -> Result<GenerateOptions, InvalidOptions> {
        if ![4, 9, 16].contains(&size) {
            return Err(InvalidOptions::Size { size });
        }
        let ranged = se_min.is_some() || se_max.is_some();
        let band = match level {
            Some(_) if ranged => return Err(InvalidOptions::LevelAndRange),
            Some(Level::Beyond) => return Err(InvalidOptions::Beyond),
            Some(level) => Some(level.range()),
            None if ranged => Some(rating_band(se_min, se_max)?),
            None => None,
        };
        if band.is_some() && size != 9 {
            return Err(InvalidOptions::RatingNeedsNine { size });
        }
        Ok(GenerateOptions {
            size,
            band,
            symmetry,
            minimal,
            mode: VariantMode::default(),
        })
    }

    /// The same options for puzzles of a Sukaku Explainer variant `mode` (9×9 only): only
    /// the givens are made, and a band must hold a rating the mode's puzzles can have.
    pub fn in_mode(self, mode: VariantMode) -> Result<GenerateOptions, InvalidOptions> {
        if self.size != 9 && !mode.is_classic() {
            return Err(InvalidOptions::ModeNeedsNine { size: self.size });
        }
        if let Some((se_min, se_max)) = self.band
            && !logic::may_rate_within(mode, se_min, se_max)
        {
            return Err(InvalidOptions::NoRatingBetween {
                se_min,
                se_max,
                mode,
            });
        }
        Ok(GenerateOptions { mode, ..self })
    }

    /// The variant mode of the puzzles (classic Sudoku by default).
    pub fn mode(&self) -> VariantMode {
        self.mode
    }

    /// Whether the puzzles must be rated within a band.
    pub fn banded(&self) -> bool {
        self.band.is_some()
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

/// The band between `se_min` and `se_max` (a missing bound is [`RATING_RANGE`]'s), or
/// which rule it breaks.
fn rating_band(se_min: Option<f64>, se_max: Option<f64>) -> Result<(f64, f64), InvalidOptions> {
    let (lowest, highest) = RATING_RANGE;
    for (option, bound) in [
        (GenerateOption::SeMin, se_min),
        (GenerateOption::SeMax, se_max),
    ] {
        if let Some(rating) = bound.filter(|rating| !(lowest..=highest).contains(rating)) {
            return Err(InvalidOptions::RatingOutOfRange { option, rating });
        }
    }
    let (se_min, se_max) = (se_min.unwrap_or(lowest), se_max.unwrap_or(highest));
    if se_min > se_max {
        return Err(InvalidOptions::MinAboveMax { se_min, se_max });
    }
    let mode = VariantMode::default();
    if !logic::may_rate_within(mode, se_min, se_max) {
        return Err(InvalidOptions::NoRatingBetween {
            se_min,
            se_max,
            mode,
        });
    }
    Ok((se_min, se_max))
}
