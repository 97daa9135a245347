//! The seeded random numbers of generation: ChaCha8, whose stream is fixed by its
//! specification, so a seed gives the same numbers on every platform and thread.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// A stream of random numbers fixed by its seed.
pub struct Random(ChaCha8Rng);

impl Random {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Random {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..bound` (a nonzero bound), every one equally likely (Lemire's
    /// multiply-and-reject).
    pub fn below(&mut self, bound: usize) -> usize {
        let bound = bound as u64;
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if product as u64 >= threshold {
                return (product >> 64) as usize;
            }
        }
    }

    /// Puts `items` in a random order (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            items.swap(last, self.below(last + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_stream_and_others_differ() {
        let take = |seed| {
            let mut random = Random::new(seed);
            (0..4).map(|_| random.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(take(42), take(42));
        assert_ne!(take(42), take(43));
    }

    #[test]
    fn numbers_below_a_bound_cover_it_evenly() {
        let mut random = Random::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[random.below(6)] += 1;
        }
        // Each count is 10,000 ± a few standard deviations (about 91).
        assert!(
            counts.iter().all(|&count| (9_500..10_500).contains(&count)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_shuffle_keeps_every_item() {
        let mut items: Vec<u32> = (0..50).collect();
        Random::new(1).shuffle(&mut items);
        assert_ne!(items, (0..50).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
    }
}
