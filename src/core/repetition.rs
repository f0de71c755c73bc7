//! Repetition detection over a game's key history, shared by every variant.
//!
//! Keys of earlier positions are looked at every second ply (same side to move), back to the
//! last irreversible ply (`reach`, usually the halfmove clock).

/// How many times `key` occurs `4, 6, 8, ...` plies back, up to `reach` plies, stopping after
/// `stop_after` matches. `key_back(i)` returns the key of the position `i` plies ago
/// (`1 <= i <= reach`).
#[inline]
pub fn count(key: u64, reach: usize, stop_after: usize, key_back: impl Fn(usize) -> u64) -> usize {
    let mut n = 0;
    let mut i = 4;
    while i <= reach {
        if key_back(i) == key {
            n += 1;
            if n >= stop_after {
                break;
            }
        }
        i += 2;
    }
    n
}

/// Repetition as the search scores it: a repeat of a position within the last
/// `plies_from_root` plies (inside the search tree) is a draw at once; a position from before
/// the root must have occurred twice before (threefold).
#[inline]
pub fn in_search(
    key: u64,
    reach: usize,
    plies_from_root: usize,
    key_back: impl Fn(usize) -> u64,
) -> bool {
    let mut seen = 0;
    let mut i = 4;
    while i <= reach {
        if key_back(i) == key {
            if i <= plies_from_root {
                return true;
            }
            seen += 1;
            if seen >= 2 {
                return true;
            }
        }
        i += 2;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_second_ply_within_reach() {
        // history[len - i] is the key i plies ago; current key 7.
        let hist = [7u64, 1, 2, 3, 7, 5, 6, 8];
        let back = |i: usize| hist[hist.len() - i];
        assert_eq!(count(7, 8, 9, back), 2); // 4 and 8 plies ago
        assert_eq!(count(7, 8, 1, back), 1); // stops after one
        assert_eq!(count(7, 6, 9, back), 1); // 8 plies ago is out of reach
        assert_eq!(count(7, 3, 9, back), 0);
        assert!(in_search(7, 6, 4, back)); // inside the tree: once is enough
        assert!(!in_search(7, 6, 2, back)); // before the root: needs two
        assert!(in_search(7, 8, 2, back)); // two before the root
    }
}
