//! Single-digit chains of strong links: two (skyscraper, two-string kite, turbot fish,
//! empty rectangle), three and four links, as Sukaku Explainer's `StrongLinks` finds them.
//!
//! A strong link is a house where a digit has two places, or, grouped, two groups of
//! places: a line whose places lie in two of its boxes, or a box whose places lie on the
//! cross of one row and one column (an empty rectangle) or in two of its rows or columns.
//! The links are chained through houses shared by the end of one and the start of the
//! next; whichever end of the chain is true, the digit leaves the cells that see both ends.
//! When the two ends share a house too, the chain is a loop (X-Loop) and every weak link
//! of it eliminates.
//!
//! The reference collects every chain and sorts them (difficulty, then more eliminations
//! first, then the suffix that names the kinds of the links), so the first one is found by
//! keeping the best chain in the reference's generation order: kinds of links, digit, base
//! houses and their link shapes, order of the links along the chain, their directions.

use super::board::{Board, Cell, HouseKind, bit, combinations};
use super::cell_masks::{CellMask, CellMasks, cells_of, digit_cells, houses_of};
use super::step::{Elimination, HouseRef, Step, cell_name, digit_name, eliminations_text};
use super::technique::Technique;

/// The most links a chain has here (the reference's five and six are off by default).
const MOST_LINKS: usize = 4;

/// The kinds of house as the reference numbers them: 0 box, 1 row, 2 column, then the
/// houses of a variant mode's rules: 3 disjoint group, 4 window, 5 main diagonal, 6 anti
/// diagonal.
const KINDS: usize = 7;

/// The reference's kind of a house of `kind` whose index among its kind is `index`.
fn kind_of(kind: HouseKind, index: usize) -> u8 {
    match kind {
        HouseKind::Box | HouseKind::Region => 0,
        HouseKind::Row => 1,
        HouseKind::Column => 2,
        HouseKind::DisjointGroup => 3,
        HouseKind::ExtraRegion => 4,
        HouseKind::Diagonal => 5 + index.min(1) as u8,
    }
}

/// Whether links in houses of `kind` group their places as a box's: boxes, disjoint
/// groups and windows (the others are lines, split into three boxes).
fn box_like(kind: u8) -> bool {
    matches!(kind, 0 | 3 | 4)
}

/// The best chain of `links` strong links (2 to 4), as the reference sorts them.
pub fn strong_links(board: &Board, links: usize) -> Option<Step> {
    debug_assert!((2..=MOST_LINKS).contains(&links));
    let mut search = Search::new(board, links);
    let present: Vec<u8> = (0..KINDS as u8)
        .filter(|&kind| {
            search.kind_houses[usize::from(kind)].start < search.kind_houses[usize::from(kind)].end
        })
        .collect();
    for kinds in link_kinds(links, &present) {
        for digit in 1..=9 {
            search.digit = digit;
            search.descend(&kinds[..links], 0, 0, 0);
        }
    }
    search.best.map(|best| best.step(board))
}

/// The sequences of house kinds for `links` links, in the reference's order: every
/// non-decreasing sequence of the kinds `present`, as `Permutations` yields masks of
/// `links` bits among `present.len() * links` where bit `links * slot + depth` gives the
/// kind `present[slot]` at a depth.
fn link_kinds(links: usize, present: &[u8]) -> impl Iterator<Item = [u8; MOST_LINKS]> {
    let slots = present.len();
    combinations(links as u32, (slots * links) as u32).filter_map(move |mask| {
        let mut kinds = [0; MOST_LINKS];
        let bits = (0..slots * links).filter(|&index| mask & 1 << index != 0);
        for (depth, index) in bits.enumerate() {
            if index % links != depth {
                return None;
            }
            kinds[depth] = present[index / links];
        }
        Some(kinds)
    })
}

/// The orders in which the chosen links are walked: the permutations of `0..links` in
/// the order of QuickPerm (countdown), keeping those not above their reverse.
fn walk_orders(links: usize) -> Vec<[usize; MOST_LINKS]> {
    let mut order = [0, 1, 2, 3];
    let mut countdown = [0, 1, 2, 3, 4];
    countdown[links] = links;
    let mut orders = vec![order];
    let mut upper = 1;
    while upper < links {
        countdown[upper] -= 1;
        let lower = upper % 2 * countdown[upper];
        order.swap(lower, upper);
        let walked = &order[..links];
        if walked.iter().le(walked.iter().rev()) {
            orders.push(order);
        }
        upper = 1;
        while countdown[upper] == 0 {
            countdown[upper] = upper;
            upper += 1;
        }
    }
    orders
}

/// One side of a strong link: the cells that hold the digit if that side is true, plus,
/// for a box, the centre of the cross, which fixes the line the side stands for.
#[derive(Debug, Clone, Copy)]
struct End {
    /// The cell the chain is drawn through.
    primary: Cell,
    /// The cells that see all the side's cells.
    seen: CellMask,
    /// The houses (bits of [`CellMasks::houses`] indexes) that hold all the side's cells.
    houses: u64,
}

/// The houses in the order the reference looks for the one two sides share: columns,
/// rows, boxes, then the houses of the rules (disjoint groups, windows, diagonals), as
/// bits of house indexes.
const SHARED_ORDER: [u64; 4] = [0x1ff << 18, 0x1ff << 9, 0x1ff, !0 << 27];

impl End {
    fn new(masks: &CellMasks, primary: Cell, cells: CellMask) -> End {
        let houses = houses_of(primary)
            .into_iter()
            .chain(masks.rule_houses[primary].iter().copied())
            .filter(|&house| cells & !masks.houses[house] == 0)
            .fold(0, |houses, house| houses | 1 << house);
        End {
            primary,
            seen: masks.seen_by_all(cells),
            houses,
        }
    }

    /// The house both sides lie in: a column first, then a row, a box, a disjoint group,
    /// a window, a diagonal, as the reference tries them (disjoint sides share at most
    /// one house of each kind).
    fn shared_house(&self, other: &End) -> Option<usize> {
        let common = self.houses & other.houses;
        SHARED_ORDER
            .iter()
            .map(|&order| common & order)
            .find(|&houses| houses != 0)
            .map(|houses| houses.trailing_zeros() as usize)
    }
}

/// A strong link: a house and its two sides.
#[derive(Debug, Clone, Copy)]
struct Link {
    /// Index in [`CellMasks::houses`].
    house: usize,
    /// The reference's kind of the house.
    kind: u8,
    /// The house's index among the houses of its kind.
    rank: usize,
    /// The two sides, in the reference's order.
    ends: [End; 2],
    /// The houses either side lies in: links that share none cannot follow each other.
    reach: u64,
    /// Every place of the digit in the house (two links may not share one).
    places: CellMask,
    /// Whether a side has more than one place.
    grouped: bool,
}

impl Link {
    /// Pushes onto `links` the zero, one or two strong links, in the reference's order,
    /// of the digit whose places in `house` are `positions` (bit `i` for the house's
    /// `i`-th cell).
    fn push_links(board: &Board, house: usize, positions: u32, links: &mut Vec<Link>) {
        let count = positions.count_ones();
        if !(2..=6).contains(&count) {
            return;
        }
        let cells = &board.geometry().houses[house].cells;
        let masks = board.geometry().masks();
        let (house_kind, rank) = masks.house_refs[house];
        let kind = kind_of(house_kind, rank);
        let is_box = box_like(kind);
        let mask_of = |positions: u32| {
            (0..9)
                .filter(|&p| positions & 1 << p != 0)
                .fold(0, |mask: CellMask, p| mask | 1 << cells[p])
        };
        let nth = |positions: u32, n: usize| cells[nth_one(positions, n)];
        let mut push = |a: End, b: End| {
            links.push(Link {
                house,
                kind,
                rank,
                ends: [a, b],
                reach: a.houses | b.houses,
                places: mask_of(positions),
                grouped: count > 2,
            })
        };
        if count == 2 {
            let (a, b) = (nth(positions, 0), nth(positions, 1));
            if !(is_box && same_line(a, b)) {
                push(End::new(masks, a, 1 << a), End::new(masks, b, 1 << b));
            }
            return;
        }
        // Boxes try every grouping; disjoint groups and windows only the crosses whose
        // centre is one of their first three cells.
        let patterns = match kind {
            0 => 15,
            _ => 3,
        };
        let Some(pattern) = Grouping::first(positions, is_box, count, patterns) else {
            return;
        };
        let (blade1, blade2) = (positions & pattern.blade1, positions & pattern.blade2);
        if blade1 == 0 || blade2 == 0 {
            return;
        }
        let heart = pattern.heart.map_or(0, |heart| mask_of(1 << heart));
        let side =
            |blade: u32, extra: CellMask| End::new(masks, nth(blade, 0), mask_of(blade) | extra);
        // A blade of one cell is the side the reference starts from; the other side takes
        // the centre of the cross, which fixes the line it stands for.
        match (blade1.count_ones(), blade2.count_ones()) {
            (1, 1) | (2.., 1) => push(side(blade2, 0), side(blade1, heart)),
            (1, _) => push(side(blade1, 0), side(blade2, heart)),
            _ => {
                let square = pattern.heart.is_none()
                    && is_box
                    && count == 4
                    && same_line(nth(blade1, 1), nth(blade2, 1))
                    && same_line(nth(blade1, 0), nth(blade2, 0));
                if square {
                    // Two rows and two columns: the reference takes both splits.
                    push(side(blade1, 0), side(blade2, 0));
                    let (a, b) = (nth(blade1, 0), nth(blade1, 1));
                    let (c, d) = (nth(blade2, 0), nth(blade2, 1));
                    let across = |first: Cell, second: Cell| {
                        End::new(masks, first, 1 << first | 1 << second)
                    };
                    push(across(a, c), across(b, d));
                } else {
                    // A candidate at the centre of the cross belongs to both sides.
                    let centre = if pattern.heart.is_some_and(|h| positions & 1 << h != 0) {
                        heart
                    } else {
                        0
                    };
                    let with_centre = |blade: u32| {
                        if blade.count_ones() == 2 { centre } else { 0 }
                    };
                    push(
                        side(blade1, with_centre(blade1)),
                        side(blade2, with_centre(blade2)),
                    );
                }
            }
        }
    }
}

/// How the places of a digit in a house split into two groups: the positions that must
/// stay empty, the two blades, and for an empty rectangle the centre of its cross.
struct Grouping {
    blade1: u32,
    blade2: u32,
    heart: Option<usize>,
}

impl Grouping {
    /// The first grouping, in the reference's order, that leaves its empty positions
    /// empty. Boxes: the nine crosses (centre at position 0 to 8), then, with four places
    /// or more, two rows of three, then two columns; lines: two of their three boxes.
    fn first(positions: u32, is_box: bool, count: u32, patterns: usize) -> Option<Grouping> {
        (0..patterns)
            .filter(|&pattern| !(is_box && pattern > 8 && count < 4))
            .map(|pattern| {
                if is_box {
                    Grouping::of_box(pattern)
                } else {
                    Grouping::of_line(pattern)
                }
            })
            .find(|(empty, _)| positions & empty == 0)
            .map(|(_, grouping)| grouping)
    }

    fn of_line(empty_box: usize) -> (u32, Grouping) {
        Grouping::two_of_three(|index| 0b111 << (3 * index), empty_box)
    }

    fn of_box(pattern: usize) -> (u32, Grouping) {
        let row = |index: usize| 0b111 << (3 * index);
        let column = |index: usize| 0b1001001 << index;
        if pattern >= 9 {
            let lines: fn(usize) -> u32 = if pattern < 12 { row } else { column };
            return Grouping::two_of_three(lines, 2 - (pattern - 9) % 3);
        }
        let (heart_row, heart_column) = (pattern / 3, pattern % 3);
        let heart = 1 << pattern;
        let grouping = Grouping {
            blade1: column(heart_column) & !heart,
            blade2: row(heart_row) & !heart,
            heart: Some(pattern),
        };
        (0x1ff & !row(heart_row) & !column(heart_column), grouping)
    }

    /// The places in two of three parallel segments (`segment(0..3)`), the one at
    /// `empty` left empty.
    fn two_of_three(segment: impl Fn(usize) -> u32, empty: usize) -> (u32, Grouping) {
        let mut others = (0..3).filter(|&index| index != empty);
        let (first, second) = (others.next().unwrap(), others.next().unwrap());
        let grouping = Grouping {
            blade1: segment(first),
            blade2: segment(second),
            heart: None,
        };
        (segment(empty), grouping)
    }
}

/// The position of the `n`-th set bit of `mask`.
fn nth_one(mask: u32, n: usize) -> usize {
    (0..32)
        .filter(|&bit| mask & 1 << bit != 0)
        .nth(n)
        .expect("the mask has that many bits")
}

/// Whether two cells share a row or a column.
fn same_line(a: Cell, b: Cell) -> bool {
    a / 9 == b / 9 || a % 9 == b % 9
}

/// The search of one call: the links of every digit and house, the chain being built,
/// the best chain so far.
///
/// A digit has at most 36 links (two in a box, one in a line), so sets of the links of
/// one digit are bits of a `u64`: bit `i` for its `i`-th link in `all`.
struct Search {
    links: usize,
    orders: Vec<[usize; MOST_LINKS]>,
    /// Every link of every digit, by digit, then house, then the reference's order.
    all: Vec<Link>,
    /// Where each digit's links start in `all` (index `digit - 1`; the last is the end).
    starts: [usize; 10],
    /// For each link, the links of its digit that share a house with it.
    touching: Vec<u64>,
    /// For each link, the links of its digit that share a place with it (itself too).
    clashing: Vec<u64>,
    /// For each digit (index) and house, the links of the house.
    in_house: [Vec<u64>; 9],
    /// For each of the reference's kinds, its houses (whose indexes follow each other).
    kind_houses: [std::ops::Range<usize>; KINDS],
    candidates: [CellMask; 9],
    masks: &'static CellMasks,
    digit: u8,
    /// The chosen links, by depth, as indexes in `all`.
    chosen: [usize; MOST_LINKS],
    best: Option<Chain>,
}

impl Search {
    fn new(board: &Board, links: usize) -> Search {
        let geometry = board.geometry();
        let mut all = Vec::new();
        let mut starts = [0; 10];
        let masks = geometry.masks();
        let mut in_house: [Vec<u64>; 9] = std::array::from_fn(|_| vec![0; masks.houses.len()]);
        let mut kind_houses: [std::ops::Range<usize>; KINDS] = Default::default();
        for (house, &(kind, index)) in masks.house_refs.iter().enumerate() {
            let range = &mut kind_houses[usize::from(kind_of(kind, index))];
            if range.start == range.end {
                *range = house..house;
            }
            range.end = house + 1;
        }
        for (digit, in_house) in (1..=9).zip(&mut in_house) {
            let start = all.len();
            starts[digit as usize - 1] = start;
            for (house, in_house) in in_house.iter_mut().enumerate() {
                let positions = board.positions(&geometry.houses[house], digit);
                let before = all.len();
                Link::push_links(board, house, positions, &mut all);
                *in_house = (before - start..all.len() - start).fold(0, |set, i| set | 1 << i);
            }
        }
        starts[9] = all.len();
        let (mut touching, mut clashing) = (vec![0; all.len()], vec![0; all.len()]);
        for digit in 0..9 {
            let links = &all[starts[digit]..starts[digit + 1]];
            for (i, link) in links.iter().enumerate() {
                for (j, other) in links.iter().enumerate() {
                    touching[starts[digit] + i] |= u64::from(link.reach & other.reach != 0) << j;
                    clashing[starts[digit] + i] |= u64::from(link.places & other.places != 0) << j;
                }
            }
        }
        Search {
            links,
            orders: walk_orders(links),
            all,
            starts,
            touching,
            clashing,
            in_house,
            kind_houses,
            candidates: digit_cells(board),
            masks: geometry.masks(),
            digit: 1,
            chosen: [0; MOST_LINKS],
            best: None,
        }
    }

    /// Chooses the link at `depth` among houses of `kinds[depth]` from index `first` on,
    /// sharing no place with the links before it (`clashes`).
    fn descend(&mut self, kinds: &[u8], depth: usize, first: usize, clashes: u64) {
        let digit = self.digit as usize - 1;
        let kind = kinds[depth] as usize;
        let range = &self.kind_houses[kind];
        let houses = &self.in_house[digit][(range.start + first).min(range.end)..range.end];
        let mut choices = houses.iter().fold(0, |set, &links| set | links) & !clashes;
        let last = depth + 1 == self.links;
        if last {
            choices &= self.closing_links();
        }
        while choices != 0 {
            let id = self.starts[digit] + choices.trailing_zeros() as usize;
            choices &= choices - 1;
            self.chosen[depth] = id;
            if last {
                self.walk_chosen();
            } else {
                let next = if kinds[depth + 1] as usize == kind {
                    self.all[id].rank + 1
                } else {
                    0
                };
                self.descend(kinds, depth + 1, next, clashes | self.clashing[id]);
            }
        }
    }

    /// The links that can complete the chosen ones (all but the last) into a chain: the
    /// chosen ones fall into at most two groups that share no house, and the last link
    /// must touch each (taking one link out of a chain leaves at most two pieces).
    fn closing_links(&self) -> u64 {
        let chosen = &self.chosen[..self.links - 1];
        let mut grouped = 0u32;
        let mut closing = !0;
        let mut groups = 0;
        for start in 0..chosen.len() {
            if grouped & 1 << start != 0 {
                continue;
            }
            groups += 1;
            let (mut members, mut reach): (u32, u64) = (1 << start, self.all[chosen[start]].reach);
            for _ in 0..chosen.len() {
                for (index, &id) in chosen.iter().enumerate() {
                    if members & 1 << index == 0 && self.all[id].reach & reach != 0 {
                        members |= 1 << index;
                        reach |= self.all[id].reach;
                    }
                }
            }
            grouped |= members;
            closing &= chosen
                .iter()
                .enumerate()
                .filter(|&(index, _)| members & 1 << index != 0)
                .fold(0, |set, (_, &id)| set | self.touching[id]);
        }
        if groups > 2 { 0 } else { closing }
    }

    /// Tries every order and direction of the chosen links as a chain.
    fn walk_chosen(&mut self) {
        let n = self.links;
        let mut reach = [0u64; MOST_LINKS];
        for (reach, &id) in reach.iter_mut().zip(&self.chosen[..n]) {
            *reach = self.all[id].reach;
        }
        for order_index in 0..self.orders.len() {
            let order = self.orders[order_index];
            if (1..n).any(|i| reach[order[i - 1]] & reach[order[i]] == 0) {
                continue;
            }
            for directions in 0..1u32 << n {
                if let Some(chain) = self.chain(order, directions)
                    && self.best.as_ref().is_none_or(|best| chain.beats(best))
                {
                    self.best = Some(chain);
                }
            }
        }
    }

    /// The chain that walks the chosen links in `order`, entering link `order[i]` by its
    /// side `directions >> (links - 1 - i) & 1`, if consecutive links meet and it
    /// eliminates something.
    fn chain(&self, order: [usize; MOST_LINKS], directions: u32) -> Option<Chain> {
        let n = self.links;
        let entry = |i: usize| (directions >> (n - 1 - i) & 1) as usize;
        let link = |i: usize| &self.all[self.chosen[order[i]]];
        let enter = |i: usize| &link(i).ends[entry(i)];
        let exit = |i: usize| &link(i).ends[1 - entry(i)];
        let mut shared = [0; MOST_LINKS - 1];
        for (i, house) in shared[..n - 1].iter_mut().enumerate() {
            *house = exit(i).shared_house(enter(i + 1))?;
        }
        let (start, end) = (enter(0), exit(n - 1));
        let ring = start.shared_house(end);
        let chosen = self.chosen[..n].iter().map(|&id| &self.all[id]);
        if ring.is_some() {
            // The reference keeps a loop once: from its lowest house, first direction.
            let lowest = chosen.clone().map(|link| link.house).min();
            if entry(0) != 0 || lowest != Some(link(0).house) {
                return None;
            }
        }
        let houses = &self.masks.houses;
        let outside = chosen.fold(0, |cells, link| cells | houses[link.house]);
        let candidates = self.candidates[self.digit as usize - 1] & !outside;
        let ends_see = start.seen & end.seen & candidates;
        let (mut eliminations, mut total) = (0, 0);
        let mut add = |cells: CellMask| {
            eliminations |= cells;
            total += cells.count_ones();
        };
        if ring.is_some() {
            add(ends_see);
            for i in 0..n - 1 {
                add(exit(i).seen & enter(i + 1).seen & candidates);
            }
        } else {
            let between = shared[..n - 1]
                .iter()
                .fold(0, |cells, &house| cells | houses[house]);
            add(ends_see & !between);
        }
        if eliminations == 0 {
            return None;
        }
        let mut chain = Chain {
            digit: self.digit,
            links: [*link(0); MOST_LINKS],
            entries: [0; MOST_LINKS],
            count: n,
            shared,
            ring,
            eliminations,
            total,
            suffix: [0; MOST_LINKS + 1],
            grouped: 0,
            difficulty: 0.0,
        };
        for i in 0..n {
            chain.links[i] = *link(i);
            chain.entries[i] = entry(i);
        }
        chain.rate();
        Some(chain)
    }
}

/// A chain of strong links found, with what the reference sorts it by.
struct Chain {
    digit: u8,
    /// The links in chain order.
    links: [Link; MOST_LINKS],
    /// The side by which each link is entered.
    entries: [usize; MOST_LINKS],
    count: usize,
    /// The house between each link and the next.
    shared: [usize; MOST_LINKS - 1],
    /// The house the two ends share, for a loop.
    ring: Option<usize>,
    eliminations: CellMask,
    /// Eliminations counted as the reference counts them (a loop counts a cell once for
    /// each weak link that removes it).
    total: u32,
    /// The reference's suffix: grouped links, then the kinds of the links as digits.
    suffix: [u8; MOST_LINKS + 1],
    grouped: u8,
    difficulty: f64,
}

impl Chain {
    fn enter(&self, i: usize) -> &End {
        &self.links[i].ends[self.entries[i]]
    }

    fn exit(&self, i: usize) -> &End {
        &self.links[i].ends[1 - self.entries[i]]
    }

    /// Sets the suffix and the difficulty, as `StrongLinksHint` computes them.
    fn rate(&mut self) {
        let n = self.count;
        self.grouped = self.links[..n].iter().filter(|link| link.grouped).count() as u8;
        let mut kinds = [0u8; MOST_LINKS];
        for (kind, link) in kinds.iter_mut().zip(&self.links[..n]) {
            *kind = link.kind;
        }
        let kinds = &mut kinds[..n];
        if !kinds.iter().le(kinds.iter().rev()) {
            kinds.reverse();
        }
        self.suffix[0] = self.grouped;
        self.suffix[1..=n].copy_from_slice(&line_name(kinds)[..n]);
        let named = &self.suffix[1..=n];
        let has_box = named.contains(&0);
        let both_lines = named.contains(&2);
        let base = [4.0, 5.4, 5.8][n - 2];
        let rule_house = named.iter().any(|&kind| kind >= 3);
        self.difficulty = if self.grouped > 0 || rule_house {
            base + 0.3
        } else if !has_box && !both_lines {
            base
        } else if has_box && both_lines {
            base + 0.2
        } else {
            base + 0.1
        };
    }

    /// Whether the reference sorts `self` before `other`: easier, else more
    /// eliminations, else a smaller suffix (ties keep the order found).
    fn beats(&self, other: &Chain) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        if self.total != other.total {
            return self.total > other.total;
        }
        self.suffix[..=self.count] < other.suffix[..=other.count]
    }

    /// The reference's name: loop, skyscrapers, kite or plain links, grouped or not,
    /// with the suffix.
    fn name(&self) -> String {
        let n = self.count;
        let named = &self.suffix[1..=n];
        let grouped = if self.grouped > 0 { "Grouped " } else { "" };
        let suffix: String = self.suffix[..=n]
            .iter()
            .map(|&digit| char::from(b'0' + digit))
            .collect();
        if self.ring.is_some() {
            return format!("({n} Strong Links) {grouped}X-Loop {suffix}");
        }
        let shape = if !named.contains(&0) && !named.contains(&2) {
            if n < 3 {
                "Skyscraper".to_owned()
            } else {
                format!("{n} Skyscrapers")
            }
        } else if !named.contains(&0) && n < 4 {
            format!("{n}-String Kite")
        } else {
            format!("{n} Strong links")
        };
        format!("{grouped}{shape} {suffix}")
    }

    fn step(&self, board: &Board) -> Step {
        let n = self.count;
        let technique = match n {
            2 => Technique::TwoStrongLinks,
            3 => Technique::ThreeStrongLinks,
            _ => Technique::FourStrongLinks,
        };
        let mut step = Step::new(technique, self.difficulty);
        step.eliminations = cells_of(self.eliminations)
            .map(|cell| Elimination {
                cell,
                digits: bit(self.digit),
            })
            .collect();
        step.cells.push(self.enter(0).primary);
        for i in 0..n - 1 {
            step.cells.push(self.exit(i).primary);
            step.cells.push(self.enter(i + 1).primary);
        }
        step.cells.push(self.exit(n - 1).primary);
        let refs = &board.geometry().masks().house_refs;
        let house_ref = |house: usize| HouseRef {
            kind: refs[house].0,
            index: refs[house].1,
        };
        step.houses = self.links[..n]
            .iter()
            .map(|link| link.house)
            .chain(self.shared[..n - 1].iter().copied())
            .chain(self.ring)
            .map(house_ref)
            .collect();
        let size = board.size();
        let path: Vec<String> = step.cells.iter().map(|&c| cell_name(c, size)).collect();
        step.text = format!(
            "{}: {} on {} => {}",
            self.name(),
            path.join(","),
            digit_name(self.digit),
            eliminations_text(&step.eliminations, size)
        );
        step
    }
}

/// The reference's name of a sequence of kinds (0 box, 1 row, 2 column): without a row,
/// columns read as rows; with one, the smallest of the sequence and its two mirror forms
/// with rows and columns swapped that the reference compares.
fn line_name(kinds: &[u8]) -> [u8; MOST_LINKS] {
    let mut name = [0; MOST_LINKS];
    let n = kinds.len();
    if !kinds.contains(&1) {
        for (named, &kind) in name.iter_mut().zip(kinds) {
            *named = if kind == 2 { 1 } else { kind };
        }
        return name;
    }
    let swap = |kind: u8| match kind {
        1 => 2,
        2 => 1,
        other => other,
    };
    let mut swapped = [0; MOST_LINKS];
    let mut reversed = [0; MOST_LINKS];
    for (i, &kind) in kinds.iter().enumerate() {
        swapped[i] = swap(kind);
        reversed[n - 1 - i] = swap(kind);
    }
    let mirror = std::cmp::min(&reversed[..n], &swapped[..n]);
    name[..n].copy_from_slice(std::cmp::min(kinds, mirror));
    name
}

#[cfg(test)]
mod tests {
    use super::super::cell_masks::board_from_marks;
    use super::*;

    #[test]
    fn link_kinds_and_walk_orders_follow_the_reference() {
        let kinds: Vec<[u8; 2]> = link_kinds(2, &[0, 1, 2]).map(|k| [k[0], k[1]]).collect();
        assert_eq!(kinds, [[0, 0], [0, 1], [1, 1], [0, 2], [1, 2], [2, 2]]);
        assert_eq!(link_kinds(3, &[0, 1, 2]).count(), 10);
        assert_eq!(link_kinds(4, &[0, 1, 2]).count(), 15);
        let with_groups: Vec<[u8; 2]> =
            link_kinds(2, &[0, 1, 2, 3]).map(|k| [k[0], k[1]]).collect();
        assert_eq!(with_groups[6..], [[0, 3], [1, 3], [2, 3], [3, 3]]);
        assert_eq!(walk_orders(2), [[0, 1, 2, 3]]);
        let three: Vec<[usize; 3]> = walk_orders(3).iter().map(|o| [o[0], o[1], o[2]]).collect();
        assert_eq!(three, [[0, 1, 2], [1, 0, 2], [0, 2, 1]]);
        assert_eq!(walk_orders(4).len(), 12);
    }

    #[test]
    fn line_names_are_the_references_suffixes() {
        assert_eq!(&line_name(&[1, 1])[..2], [1, 1]);
        assert_eq!(&line_name(&[2, 2])[..2], [1, 1]);
        assert_eq!(&line_name(&[1, 2])[..2], [1, 2]);
        assert_eq!(&line_name(&[0, 1])[..2], [0, 1]);
        assert_eq!(&line_name(&[0, 2])[..2], [0, 1]);
        assert_eq!(&line_name(&[0, 1, 2])[..3], [0, 1, 2]);
        assert_eq!(&line_name(&[1, 2, 1])[..3], [1, 2, 1]);
    }

    /// The eliminations of `step` as (cell, digits) pairs.
    fn removed(step: &Step) -> Vec<(usize, u32)> {
        step.eliminations
            .iter()
            .map(|e| (e.cell, e.digits))
            .collect()
    }

    #[test]
    fn a_skyscraper_rates_4_0() {
        // Rows 4 and 8 hold 8 twice each, joined in column 9: r4c5 or r8c6 is 8.
        let board = board_from_marks(SKYSCRAPER);
        let step = strong_links(&board, 2).unwrap();
        assert_eq!(step.technique, Technique::TwoStrongLinks);
        assert_eq!(step.difficulty, 4.0);
        assert_eq!(removed(&step), [(50, bit(8)), (58, bit(8))]);
        assert!(step.text.starts_with("Skyscraper 011: "), "{}", step.text);
    }

    #[test]
    fn an_empty_rectangle_is_a_grouped_link_at_4_3() {
        // Box 5 holds 8 on the cross of row 6 and column 6 only; column 5 and row 7
        // carry the chain to r7c8.
        let board = board_from_marks(EMPTY_RECTANGLE);
        let step = strong_links(&board, 2).unwrap();
        assert_eq!(step.difficulty, 4.0 + 0.3);
        assert_eq!(removed(&step), [(52, bit(8))]);
        assert!(
            step.text.starts_with("Grouped 2 Strong links 101: "),
            "{}",
            step.text
        );
    }

    #[test]
    fn a_loop_of_three_links_eliminates_on_every_weak_link() {
        // Rows 1, 2 and 8 link 9 in a loop through box 2, column 8 and column 2; only
        // the weak link of box 2 (r1c6-r2c5) has another 9 to remove.
        let board = board_from_marks(X_LOOP);
        assert_eq!(strong_links(&board, 2), None, "no two-link chain here");
        let step = strong_links(&board, 3).unwrap();
        assert_eq!(step.technique, Technique::ThreeStrongLinks);
        assert_eq!(step.difficulty, 5.4);
        assert_eq!(removed(&step), [(23, bit(9))]);
        assert!(
            step.text.starts_with("(3 Strong Links) X-Loop 0111: "),
            "{}",
            step.text
        );
    }

    #[test]
    fn four_links_with_three_grouped_rate_6_1() {
        // Column 1, box 5, box 8 and column 7 on 3, the last three grouped.
        let board = board_from_marks(FOUR_LINKS);
        assert_eq!(strong_links(&board, 3), None);
        let step = strong_links(&board, 4).unwrap();
        assert_eq!(step.technique, Technique::FourStrongLinks);
        assert_eq!(step.difficulty, 5.8 + 0.3);
        assert_eq!(removed(&step), [(65, bit(3))]);
        assert!(
            step.text.starts_with("Grouped 4 Strong links 31001: "),
            "{}",
            step.text
        );
    }

    #[test]
    fn a_board_of_open_houses_has_no_link() {
        let board = Board::from_grid(&crate::grid::Grid::empty(9).unwrap());
        assert_eq!(strong_links(&board, 2), None);
    }

    /// States of the reference's solving paths, just before it took each pattern.
    const SKYSCRAPER: [&str; 9] = [
        "=8 =2 =6 =1 =5 =3 =4 =9 =7",
        "=9 =5 =7 =2 =4 =6 =8 =1 =3",
        "=3 =1 =4 =8 =9 =7 =2 =6 =5",
        "=7 46 =3 =9 18 =2 16 =5 48",
        "=2 46 18 =3 =7 =5 16 48 =9",
        "=5 =9 18 =4 =6 18 =7 =3 =2",
        "=6 =3 =2 =7 18 =9 =5 48 148",
        "=4 =7 =5 =6 =3 18 =9 =2 18",
        "=1 =8 =9 =5 =2 =4 =3 =7 =6",
    ];
    const EMPTY_RECTANGLE: [&str; 9] = [
        "=5 =7 =8 =2 =1 =6 49 =3 49",
        "=4 =6 =9 =8 =7 =3 =1 =5 =2",
        "=2 =1 =3 =9 =4 =5 =8 =7 =6",
        "89 24 =1 =5 =3 289 =7 =6 48",
        "=3 89 =5 =7 =6 =4 =2 89 =1",
        "=7 24 =6 =1 28 289 =5 489 =3",
        "=1 =5 =4 =3 =9 28 =6 28 =7",
        "89 389 =7 =6 258 =1 349 24 4589",
        "=6 389 =2 =4 58 =7 39 =1 589",
    ];
    const X_LOOP: [&str; 9] = [
        "38 389 =6 =5 =2 39 =1 =4 =7",
        "=2 17 17 =6 89 =4 =3 89 =5",
        "=4 =5 39 =1 =7 389 =6 =2 89",
        "=9 168 18 =7 =5 =2 =4 68 =3",
        "78 =4 =5 =3 89 =6 79 =1 =2",
        "37 36 =2 =4 =1 89 =5 67 89",
        "=6 =2 79 =8 =4 =5 79 =3 =1",
        "=5 79 =4 =2 =3 =1 =8 79 =6",
        "=1 38 38 =9 =6 =7 =2 =5 =4",
    ];
    const FOUR_LINKS: [&str; 9] = [
        "=2 =5 38 378 37 =6 =9 =4 =1",
        "69 679 789 =5 =4 =1 =2 68 =3",
        "=4 36 =1 =2 =9 38 =5 68 =7",
        "=5 139 39 139 =6 =4 =8 =7 =2",
        "379 =8 =4 379 =2 37 =6 =1 =5",
        "17 =2 =6 178 78 =5 =4 =3 =9",
        "36 346 =2 34 =1 =9 =7 =5 =8",
        "=8 147 37 347 =5 =2 13 =9 =6",
        "139 179 =5 =6 378 378 13 =2 =4",
    ];
}
