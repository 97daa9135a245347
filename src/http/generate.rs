//! `POST /generate`: proper puzzles of a size, symmetry and difficulty band, reproducible
//! from a seed. It runs on the solver pool under its own time limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::extract::State;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::dto::GridInput;
use super::json::ApiJson;
use super::on_pool::on_pool;
use super::problem::ApiError;
use super::variant::{self, Input};
use crate::answers::{PuzzleJson, order_model, puzzle_json};
use crate::solver_pool::Effort;
use serde_json::Value;
use sudoku_engine::generate::drawn::{DrawnKind, DrawnOptions};
use sudoku_engine::generate::{
    self, GenerateOption, GenerateOptions, MAX_COUNT, MAX_SEED, Made, Order, Symmetry,
};
use sudoku_engine::logic::Level;
use sudoku_engine::logic::modes::VariantMode;
use sudoku_engine::solver::{Cancellation, Stopped};

/// The body of `POST /generate`; every field may be left out.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// N: 4, 9 (the default) or 16.
    pub size: Option<usize>,
    /// A difficulty band by name (9×9 only).
    pub level: Option<String>,
    /// The lowest rating wanted (9×9 only).
    pub se_min: Option<f64>,
    /// The highest rating wanted (9×9 only).
    pub se_max: Option<f64>,
    /// The symmetry of the givens: `none` (the default), `central`, ...
    pub symmetry: Option<String>,
    /// The seed, 0 to 2^53 − 1; a random one when absent.
    pub seed: Option<u64>,
    /// No given (or orbit of givens) can be removed without losing uniqueness.
    #[serde(default)]
    pub minimal: bool,
    /// How many puzzles, 1 (the default) to 100.
    pub count: Option<usize>,
    /// The notation of the grids in the answer: `string` (the default) or `rows`.
    pub notation: Option<String>,
    /// The rules of a Sukaku Explainer variant mode (the native form): only the givens
    /// are made.
    pub rules: Option<Value>,
    /// An f-puzzles document with the rules of a variant mode and no givens, in place of
    /// `rules`.
    pub fpuzzles: Option<Value>,
    /// A kind of variant whose rules are drawn too: `jigsaw`, `killer`, `thermometer`,
    /// `arrow` or `kropki`.
    pub variant: Option<String>,
    /// The most givens, with `variant`.
    pub max_givens: Option<usize>,
}

/// The answer of `POST /generate`.
#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    /// The rating model's version, and for variant puzzles their mode.
    pub model: String,
    /// The puzzles, in the order of their seeds.
    pub puzzles: Vec<PuzzleJson>,
}

/// Generates the puzzles of the request.
pub async fn generate(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<GenerateRequest>,
) -> Result<ApiJson<GenerateResponse>, ApiError> {
    let (order, seeds, rows) = read(&request)?;
    let count = seeds.len();
    let limit = state.limits().generate_timeout;
    // How many puzzles the run has made, for an answer that runs out of time.
    let made = Arc::new(AtomicUsize::new(0));
    let progress = Arc::clone(&made);
    let generated = on_pool(&state, limit, Effort::Heavy, move |cancel| {
        make_puzzles(&order, &seeds, cancel, &progress)
    })
    .await
    .map_err(|error| match error {
        // The time-out of a generation says how far it got, and what to ask for instead.
        ApiError::SolveTimeout {
            timeout_ms,
            waited_ms,
        } => ApiError::GenerateTimeout {
            timeout_ms,
            waited_ms,
            made: made.load(Ordering::Relaxed),
            count,
            order,
        },
        other => other,
    })?;
    Ok(ApiJson(GenerateResponse {
        model: order_model(&order),
        puzzles: generated
            .iter()
            .map(|made| puzzle_json(made, &order, rows))
            .collect(),
    }))
}

/// The puzzles of `seeds`, made one after another and counted in `made` as they come (from
/// 0: the pool may run this twice); `Stopped` when `cancel` stopped them.
fn make_puzzles(
    order: &Order,
    seeds: &[u64],
    cancel: &Cancellation,
    made: &AtomicUsize,
) -> Result<Vec<Made>, Stopped> {
    made.store(0, Ordering::Relaxed);
    seeds
        .iter()
        .map(|&seed| {
            let puzzle = order.make(seed, cancel)?;
            made.fetch_add(1, Ordering::Relaxed);
            Ok(puzzle)
        })
        .collect()
}

/// How the request names a generation option.
fn field_name(option: GenerateOption) -> &'static str {
    match option {
        GenerateOption::Size => "`size`",
        GenerateOption::Level => "`level`",
        GenerateOption::SeMin => "`se_min`",
        GenerateOption::SeMax => "`se_max`",
        GenerateOption::MaxGivens => "`max_givens`",
    }
}

/// What to generate, the seeds of the puzzles and whether the answer uses rows, or why the
/// request asks for something impossible.
fn read(request: &GenerateRequest) -> Result<(Order, Vec<u64>, bool), ApiError> {
    let invalid = |detail: String| ApiError::InvalidRequest(detail);
    let level = request
        .level
        .as_deref()
        .map(|id| Level::from_id(id).map_err(|error| invalid(format!("level: {error}"))))
        .transpose()?;
    let symmetry = request
        .symmetry
        .as_deref()
        .map(|id| Symmetry::from_id(id).map_err(|error| invalid(format!("symmetry: {error}"))))
        .transpose()?
        .unwrap_or_default();
    let rows = match request.notation.as_deref() {
        None | Some("string") => false,
        Some("rows") => true,
        Some(other) => {
            return Err(invalid(format!(
                "notation: expected `string` or `rows`, not `{other}`"
            )));
        }
    };
    let count = request.count.unwrap_or(1);
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(invalid(format!("count: must be 1 to {MAX_COUNT}")));
    }
    let seed = match request.seed {
        Some(seed) if seed > MAX_SEED => {
            return Err(invalid(format!("seed: must be 0 to {MAX_SEED}")));
        }
        Some(seed) => seed,
        None => generate::fresh_seed(),
    };
    let order = match &request.variant {
        Some(kind) => drawn_order(request, kind, level, symmetry)?,
        None => {
            if request.max_givens.is_some() {
                return Err(invalid(
                    "max_givens: only with `variant`; classic puzzles and variant modes are \
                     made by removing givens while the solution stays unique"
                        .into(),
                ));
            }
            let mode = requested_mode(request)?;
            let options = GenerateOptions::new(
                request.size.unwrap_or(9),
                level,
                request.se_min,
                request.se_max,
                symmetry,
                request.minimal,
            )
            .and_then(|options| options.in_mode(mode))
            .map_err(|error| invalid(error.describe(field_name)))?;
            Order::Givens(options)
        }
    };
    Ok((order, generate::puzzle_seeds(seed, count), rows))
}

/// What a request with `variant` asks for: its rules are drawn, so it brings none, and
/// its level is the variant logic's, with no Sudoku Explainer rating.
fn drawn_order(
    request: &GenerateRequest,
    kind: &str,
    level: Option<Level>,
    symmetry: Symmetry,
) -> Result<Order, ApiError> {
    let invalid = |detail: String| ApiError::InvalidRequest(detail);
    let kind = DrawnKind::from_id(kind).map_err(|error| invalid(format!("variant: {error}")))?;
    if request.rules.is_some() || request.fpuzzles.is_some() {
        return Err(invalid(
            "`variant` draws its own rules: leave out `rules` and `fpuzzles`".into(),
        ));
    }
    if request.se_min.is_some() || request.se_max.is_some() {
        return Err(invalid(
            "se_min and se_max: a `variant` has no Sudoku Explainer rating; ask for a `level` \
             of the variant logic"
                .into(),
        ));
    }
    let options = DrawnOptions::new(
        kind,
        request.size.unwrap_or(9),
        level,
        request.max_givens,
        symmetry,
        request.minimal,
    )
    .map_err(|error| invalid(error.describe(field_name)))?;
    Ok(Order::Drawn(options))
}

/// The variant mode of the request's `rules` or `fpuzzles` (classic Sudoku without
/// them): 422 `unsupported_rules` for rules of no mode, and an f-puzzles document may
/// bring no givens, since they are what is made.
fn requested_mode(request: &GenerateRequest) -> Result<VariantMode, ApiError> {
    let (rules, fpuzzles) = (request.rules.as_ref(), request.fpuzzles.as_ref());
    if rules.is_some() && fpuzzles.is_some() {
        return Err(ApiError::InvalidRequest(
            "`rules` and `fpuzzles` exclude each other".into(),
        ));
    }
    if rules.is_none() && fpuzzles.is_none() {
        return Ok(VariantMode::default());
    }
    let blank = GridInput::Symbols(".".repeat(81));
    let grid = rules.is_some().then_some(&blank);
    let puzzle = match variant::read("grid", grid, rules, fpuzzles)? {
        Input::Classic(_) => return Ok(VariantMode::default()),
        Input::Variant { puzzle, .. } => puzzle,
    };
    if puzzle.givens().iter().any(Option::is_some) {
        return Err(ApiError::InvalidRequest(
            "fpuzzles: a document for /generate brings the rules only; the givens are made".into(),
        ));
    }
    VariantMode::of(&puzzle).map_err(ApiError::NoScale)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    #[test]
    fn the_puzzles_made_are_counted_afresh_on_every_run() {
        let options = GenerateOptions::new(4, None, None, None, Symmetry::None, false).unwrap();
        let options = Order::Givens(options);
        let made = AtomicUsize::new(0);
        let seeds = [1, 2, 3];
        let puzzles = make_puzzles(&options, &seeds, &Cancellation::none(), &made);
        assert_eq!(puzzles.map(|puzzles| puzzles.len()), Ok(3));
        assert_eq!(made.load(Ordering::Relaxed), 3);
        let stopped = Cancellation::none().with_flag(Arc::new(AtomicBool::new(true)));
        assert!(make_puzzles(&options, &seeds, &stopped, &made).is_err());
        assert_eq!(made.load(Ordering::Relaxed), 0);
    }
}
