//! The symmetries a puzzle's givens may have, and the orbits of cells each one ties
//! together.

/// A symmetry of the pattern of givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Unchanged by a half turn about the centre (180°).
    Central,
    /// Unchanged by a quarter turn (90°).
    Rotational,
    /// Mirrored across the main diagonal (top left to bottom right).
    Diagonal,
    /// Mirrored across the anti-diagonal (top right to bottom left).
    Antidiagonal,
    /// Mirrored top to bottom, across the middle row.
    Horizontal,
    /// Mirrored left to right, across the middle column.
    Vertical,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Central,
        Symmetry::Rotational,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
        Symmetry::Horizontal,
        Symmetry::Vertical,
    ];

    /// The API's name of the symmetry.
    pub fn id(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Central => "central",
            Symmetry::Rotational => "rotational",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Antidiagonal => "antidiagonal",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
        }
    }

    /// The symmetry named `id`, or an error that lists the names.
    pub fn from_id(id: &str) -> Result<Symmetry, String> {
        let ids = Symmetry::ALL.map(Symmetry::id).join(", ");
        Symmetry::ALL
            .into_iter()
            .find(|symmetry| symmetry.id() == id)
            .ok_or_else(|| format!("unknown symmetry `{id}`; one of {ids}"))
    }

    /// The cells that (row, col) maps to on a board of `size`, itself first.
    pub fn images(self, size: usize, row: usize, col: usize) -> Vec<(usize, usize)> {
        let last = size - 1;
        let mut images = vec![(row, col)];
        match self {
            Symmetry::None => {}
            Symmetry::Central => images.push((last - row, last - col)),
            Symmetry::Rotational => images.extend([
                (col, last - row),
                (last - row, last - col),
                (last - col, row),
            ]),
            Symmetry::Diagonal => images.push((col, row)),
            Symmetry::Antidiagonal => images.push((last - col, last - row)),
            Symmetry::Horizontal => images.push((last - row, col)),
            Symmetry::Vertical => images.push((row, last - col)),
        }
        images
    }

    /// The cells of a board of `size` (row-major indexes) in orbits: sets of cells that the
    /// symmetry maps onto each other, so givens come and go a whole orbit at a time.
    pub fn orbits(self, size: usize) -> Vec<Vec<usize>> {
        let mut taken = vec![false; size * size];
        let mut orbits = Vec::new();
        for cell in 0..size * size {
            if taken[cell] {
                continue;
            }
            let mut orbit: Vec<usize> = self
                .images(size, cell / size, cell % size)
                .into_iter()
                .map(|(row, col)| row * size + col)
                .collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &member in &orbit {
                taken[member] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_split_the_board_and_map_onto_themselves() {
        for symmetry in Symmetry::ALL {
            for size in [4, 9, 16] {
                let orbits = symmetry.orbits(size);
                let mut cells: Vec<usize> = orbits.iter().flatten().copied().collect();
                cells.sort_unstable();
                assert_eq!(cells, (0..size * size).collect::<Vec<_>>(), "{symmetry:?}");
                for orbit in &orbits {
                    for &cell in orbit {
                        for (row, col) in symmetry.images(size, cell / size, cell % size) {
                            assert!(orbit.contains(&(row * size + col)), "{symmetry:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn orbit_counts_on_nine_by_nine() {
        let count = |symmetry: Symmetry| symmetry.orbits(9).len();
        assert_eq!(count(Symmetry::None), 81);
        // The centre is its own orbit; the other 80 cells pair up.
        assert_eq!(count(Symmetry::Central), 41);
        assert_eq!(count(Symmetry::Rotational), 21);
        assert_eq!(count(Symmetry::Diagonal), 9 + 36);
        assert_eq!(count(Symmetry::Antidiagonal), 9 + 36);
        assert_eq!(count(Symmetry::Horizontal), 9 + 36);
        assert_eq!(count(Symmetry::Vertical), 9 + 36);
        assert_eq!(Symmetry::from_id("rotational"), Ok(Symmetry::Rotational));
        let unknown = Symmetry::from_id("spiral").unwrap_err();
        assert!(unknown.starts_with("unknown symmetry `spiral`; one of none, central,"));
    }
}
