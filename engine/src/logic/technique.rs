//! The techniques, with their ids (snake_case of Sudoku Explainer's names) and their names
//! for people.

use std::fmt;

/// Generates the technique enum with its id and name tables from one list.
macro_rules! techniques {
    ($($(#[$doc:meta])* $variant:ident = $id:literal, $name:literal;)*) => {
        /// A technique a logical solve may use.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Technique {
            $($(#[$doc])* $variant,)*
        }

        impl Technique {
            /// Every technique, in declaration order.
            pub const ALL: &[Technique] = &[$(Technique::$variant,)*];

            /// The stable snake_case id the API uses.
            pub fn id(self) -> &'static str {
                match self {
                    $(Technique::$variant => $id,)*
                }
            }

            /// The name people know it by.
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $name,)*
                }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a house.
    FullHouse = "full_house", "Full house";
    /// A digit with one place left in a box.
    HiddenSingleBox = "hidden_single_box", "Hidden single";
    /// A digit with one place left in a row or column.
    HiddenSingleLine = "hidden_single_line", "Hidden single";
    /// Pointing that leaves a hidden single.
    DirectPointing = "direct_pointing", "Direct pointing";
    /// Claiming that leaves a hidden single.
    DirectClaiming = "direct_claiming", "Direct claiming";
    /// A hidden pair that leaves a hidden single.
    DirectHiddenPair = "direct_hidden_pair", "Direct hidden pair";
    /// A cell with one candidate left.
    NakedSingle = "naked_single", "Naked single";
    /// Non-consecutive: a cell of two or three close candidates removes the digits that
    /// every one of them forbids from its orthogonal neighbours.
    NonconsecutiveForcingCell = "nonconsecutive_forcing_cell", "Non-consecutive forcing cell";
    /// Non-consecutive: a digit's places in a house all touch the same cells, which lose
    /// the digits next to it.
    NonconsecutiveLockedDigit = "nonconsecutive_locked_digit", "Non-consecutive locked digit";
    /// A hidden triple that leaves a hidden single.
    DirectHiddenTriple = "direct_hidden_triple", "Direct hidden triple";
    /// A box confines a digit of a row or column.
    Pointing = "pointing", "Pointing";
    /// A row or column confines a digit of a box.
    Claiming = "claiming", "Claiming";
    /// A digit's places in a house all see the same cells outside them, which lose it
    /// (Sukaku Explainer's generalized intersection, for variant modes).
    GeneralizedIntersection = "generalized_intersection", "Generalized intersection";
    /// Two cells of a house hold the same two candidates and no other.
    NakedPair = "naked_pair", "Naked pair";
    /// A naked pair whose digits leave every cell that sees the pair's cells holding them
    /// (variant modes).
    GeneralizedNakedPair = "generalized_naked_pair", "Generalized naked pair";
    /// A fish of two lines.
    XWing = "x_wing", "X-Wing";
    /// Two digits confined to the same two cells of a house.
    HiddenPair = "hidden_pair", "Hidden pair";
    /// Three cells of a house hold three candidates between them.
    NakedTriple = "naked_triple", "Naked triple";
    /// A generalized naked triple (variant modes).
    GeneralizedNakedTriple = "generalized_naked_triple", "Generalized naked triple";
    /// A fish of three lines.
    Swordfish = "swordfish", "Swordfish";
    /// Three digits confined to the same three cells of a house.
    HiddenTriple = "hidden_triple", "Hidden triple";
    /// Skyscraper, two-string kite, turbot fish, empty rectangle.
    TwoStrongLinks = "two_strong_links", "Two strong links";
    /// A single-digit chain of three strong links.
    ThreeStrongLinks = "three_strong_links", "Three strong links";
    /// A single-digit chain of four strong links.
    FourStrongLinks = "four_strong_links", "Four strong links";
    /// A pivot with two bivalue pincers.
    XyWing = "xy_wing", "XY-Wing";
    /// A trivalue pivot with two bivalue pincers.
    XyzWing = "xyz_wing", "XYZ-Wing";
    /// A bivalue cell and an almost locked set of three cells.
    WxyzWing = "wxyz_wing", "WXYZ-Wing";
    /// A bivalue cell and an almost locked set of four cells.
    VwxyzWing = "vwxyz_wing", "VWXYZ-Wing";
    /// A bivalue cell and an almost locked set of five cells.
    UvwxyzWing = "uvwxyz_wing", "UVWXYZ-Wing";
    /// A bivalue cell and an almost locked set of six cells.
    TuvwxyzWing = "tuvwxyz_wing", "TUVWXYZ-Wing";
    /// A deadly rectangle with one extra cell.
    UniqueRectangleType1 = "unique_rectangle_type_1", "Unique rectangle type 1";
    /// A deadly rectangle whose extra cells share one extra digit.
    UniqueRectangleType2 = "unique_rectangle_type_2", "Unique rectangle type 2";
    /// A deadly rectangle whose extra cells form a naked set with others.
    UniqueRectangleType3 = "unique_rectangle_type_3", "Unique rectangle type 3";
    /// A deadly rectangle with a conjugate pair.
    UniqueRectangleType4 = "unique_rectangle_type_4", "Unique rectangle type 4";
    /// A deadly loop of six cells or more with one extra cell.
    UniqueLoopType1 = "unique_loop_type_1", "Unique loop type 1";
    /// A deadly loop whose extra cells share one extra digit.
    UniqueLoopType2 = "unique_loop_type_2", "Unique loop type 2";
    /// A deadly loop whose extra cells form a naked set with others.
    UniqueLoopType3 = "unique_loop_type_3", "Unique loop type 3";
    /// A deadly loop with a conjugate pair.
    UniqueLoopType4 = "unique_loop_type_4", "Unique loop type 4";
    /// Four cells of a house hold four candidates between them.
    NakedQuad = "naked_quad", "Naked quad";
    /// A generalized naked quad (variant modes).
    GeneralizedNakedQuad = "generalized_naked_quad", "Generalized naked quad";
    /// A fish of four lines.
    Jellyfish = "jellyfish", "Jellyfish";
    /// Four digits confined to the same four cells of a house.
    HiddenQuad = "hidden_quad", "Hidden quad";
    /// A bivalue universal grave with one cell of three candidates.
    BugType1 = "bug_type_1", "BUG type 1";
    /// A bivalue universal grave whose extra cells share one extra digit.
    BugType2 = "bug_type_2", "BUG type 2";
    /// A bivalue universal grave whose extra cells form a naked set with others.
    BugType3 = "bug_type_3", "BUG type 3";
    /// A bivalue universal grave with a conjugate pair.
    BugType4 = "bug_type_4", "BUG type 4";
    /// Two cells that see each other's combinations excluded.
    AlignedPairExclusion = "aligned_pair_exclusion", "Aligned pair exclusion";
    /// Three cells whose combinations are excluded.
    AlignedTripletExclusion = "aligned_triplet_exclusion", "Aligned triplet exclusion";
    /// A loop of single-digit links.
    XCycle = "x_cycle", "X-Cycle";
    /// A loop through bivalue cells.
    YCycle = "y_cycle", "Y-Cycle";
    /// A single-digit implication chain that contradicts its start.
    ForcingXChain = "forcing_x_chain", "Forcing X-Chain";
    /// A loop of mixed links.
    XyCycle = "xy_cycle", "Bidirectional cycle";
    /// An implication chain of mixed links.
    ForcingChain = "forcing_chain", "Forcing chain";
    /// Single-digit assumptions that lead to a contradiction.
    NishioForcingChain = "nishio_forcing_chain", "Nishio forcing chains";
    /// Every candidate of a cell leads to the same conclusion.
    CellForcingChain = "cell_forcing_chain", "Cell forcing chains";
    /// Every place of a digit in a house leads to the same conclusion.
    RegionForcingChain = "region_forcing_chain", "Region forcing chains";
    /// An assumption that leads to a contradiction, with dynamic chains.
    DynamicContradictionChain = "dynamic_contradiction_chain", "Dynamic contradiction forcing chains";
    /// Both values of a candidate lead to the same conclusion, with dynamic chains.
    DynamicDoubleChain = "dynamic_double_chain", "Dynamic double forcing chains";
    /// Cell forcing chains with dynamic chains.
    DynamicCellForcingChain = "dynamic_cell_forcing_chain", "Dynamic cell forcing chains";
    /// Region forcing chains with dynamic chains.
    DynamicRegionForcingChain = "dynamic_region_forcing_chain", "Dynamic region forcing chains";
    /// Dynamic forcing chains helped by simple techniques.
    DynamicForcingChainPlus = "dynamic_forcing_chain_plus", "Dynamic forcing chains (+)";
    /// Forcing chains inside forcing chains.
    NestedForcingChain = "nested_forcing_chain", "Nested forcing chains";
    /// On grids other than 9×9, a digit of the solution the techniques do not reach.
    GuessFreeSolutionDigit = "guess_free_solution_digit", "Digit of the solution";
    /// A killer cage's sets of digits that reach its sum.
    CageCombinations = "cage_combinations", "Cage combinations";
    /// The bounds a thermometer, an arrow or a sum line puts on its cells.
    LineBounds = "line_bounds", "Line bounds";
    /// Digits that a kropki dot, an X or V, a negative rule or a neighbour rule allows
    /// beside each other.
    PairRelations = "pair_relations", "Pair relations";
    /// The ranges of digits a whisper, renban, between, lockout or other line allows.
    LineRanges = "line_ranges", "Line ranges";
    /// The sums and counts of a little killer, sandwich, x-sum or skyscraper clue.
    OutsideSums = "outside_sums", "Outside clue sums";
    /// Cells that indexers, clones and palindromes tie together.
    LinkedCells = "linked_cells", "Linked cells";
    /// The digits an odd, even, candidates or quadruple clue allows.
    CellClues = "cell_clues", "Cell clues";
    /// Every candidate of a cell, placed and propagated one step of every rule deep,
    /// removes the same candidate elsewhere.
    CellForcing = "cell_forcing", "Cell forcing";
    /// A candidate that, placed and propagated one step of every rule deep, breaks a rule.
    Contradiction = "contradiction", "Contradiction";
}

impl fmt::Display for Technique {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_snake_case() {
        let mut ids: Vec<&str> = Technique::ALL.iter().map(|t| t.id()).collect();
        assert!(ids.iter().all(|id| {
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        }));
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Technique::ALL.len());
    }
}
