//! The board field of a FEN on a rectangular board, shared by the variants whose cells are
//! single letters: ranks from the top, `/` between them, a run of digits for empty squares
//! (protocol.md 2).

use super::FenError;

/// Walks the board field `text` of a `files` x `ranks` board: checks the number of ranks, that
/// every empty run is 1..=`files` and that every rank has exactly `files` cells, and calls
/// `cell(rank, file, c)` for each non-digit character `c` (rank and file 0-based, rank 0 at
/// the bottom).
///
/// # Errors
/// A [`FenError`] on the `board` field naming the rank: the wrong number of ranks, a bad or
/// oversized empty run, a rank too long or too short, or the reason returned by `cell`.
pub fn parse_board_rows(
    text: &str,
    files: usize,
    ranks: usize,
    mut cell: impl FnMut(usize, usize, char) -> Result<(), String>,
) -> Result<(), FenError> {
    let bad = |reason: String| FenError::new("board", reason);
    let rows = text.split('/').count();
    if rows != ranks {
        return Err(bad(format!("expected {ranks} ranks, found {rows}")));
    }
    for (i, row) in text.split('/').enumerate() {
        let rank = ranks - 1 - i;
        let name = rank + 1;
        let mut file = 0usize;
        let mut chars = row.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if c.is_ascii_digit() {
                let mut end = start + 1;
                while let Some(&(j, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = j + 1;
                    chars.next();
                }
                let digits = &row[start..end];
                let n: usize = digits.parse().map_err(|_| {
                    bad(format!("bad empty-square count '{digits}' on rank {name}"))
                })?;
                if n == 0 || n > files {
                    return Err(bad(format!("empty run of {digits} on rank {name}")));
                }
                file += n;
                continue;
            }
            if file >= files {
                return Err(bad(format!("rank {name} has more than {files} files")));
            }
            cell(rank, file, c).map_err(bad)?;
            file += 1;
        }
        if file != files {
            return Err(bad(format!(
                "rank {name} has {file} files, expected {files}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Result<Vec<(usize, usize, char)>, FenError> {
        let mut v = Vec::new();
        parse_board_rows(text, 3, 2, |r, f, c| {
            if c == 'x' {
                return Err(format!("unknown piece letter '{c}'"));
            }
            v.push((r, f, c));
            Ok(())
        })?;
        Ok(v)
    }

    #[test]
    fn cells_runs_and_errors() {
        assert_eq!(cells("a2/1b1").unwrap(), vec![(1, 0, 'a'), (0, 1, 'b')]);
        assert_eq!(cells("3/3").unwrap(), vec![]);
        for (bad, reason) in [
            ("3", "expected 2 ranks, found 1"),
            ("3/3/3", "expected 2 ranks, found 3"),
            ("4/3", "empty run of 4 on rank 2"),
            ("0a2/3", "empty run of 0 on rank 2"),
            ("12/3", "empty run of 12 on rank 2"),
            ("aaaa/3", "rank 2 has more than 3 files"),
            ("2/3", "rank 2 has 2 files, expected 3"),
            ("3/a", "rank 1 has 1 files, expected 3"),
            ("x2/3", "unknown piece letter 'x'"),
        ] {
            let e = cells(bad).unwrap_err();
            assert_eq!((e.field, e.reason.as_str()), ("board", reason), "{bad}");
        }
    }
}
