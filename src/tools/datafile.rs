//! The binary training-data format of `menagerie datagen --format bin` (and of `datagen
//! merge`): one file per run or shard, one variant per file, positions with their search score,
//! the game's result and the ply, for the network trainer (`menagerie-tuning net`).
//!
//! # Layout (all integers little-endian)
//!
//! ```text
//! header:  "MDG1"  u8 n  n bytes: the variant's protocol name (`chess`, `mitosis`, ...)
//! record:  u32 game  u16 ply  i16 score  u8 result  u16 m  m bytes: the position's FEN
//! ```
//!
//! - `game`: the game's id in its run (positions of one game share it, so a trainer can hold
//!   out whole games); `datagen merge` renumbers games 0, 1, 2, ... in order of appearance.
//! - `ply`: plies played in the game before this position, the opening's random plies included.
//! - `score`: the search score in centipawns from White's point of view (|score| <
//!   [`super::datagen::DECIDED_CP`]).
//! - `result`: the game's result for White: 0 Black won, 1 draw, 2 White won.
//! - the position is the variant's canonical FEN ([`crate::variants::Notation::fen`]): one
//!   encoding for every variant's whole state (hands, coins, drop counters, pending portions),
//!   exact by construction since the engine reads it back with [`crate::variants::Notation::from_fen`].
//!
//! Records follow each other to the end of the file; a file cut inside a record is refused
//! (never half read). Within a file no position (by Zobrist key) appears twice: datagen keeps
//! the first occurrence of each, and `datagen merge` does the same across its inputs.
//!
//! Size: 10 bytes plus the FEN (about 60-90 bytes a position depending on the variant).

use std::io::{self, Read, Write};

/// The first four bytes of every data file (the format's version is its last byte).
pub const MAGIC: &[u8; 4] = b"MDG1";

/// One recorded position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The game's id (see the module documentation).
    pub game: u32,
    /// Plies played in the game before this position.
    pub ply: u16,
    /// Search score, centipawns, White's point of view.
    pub score: i16,
    /// The game's result for White: 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    /// The position as the variant's FEN.
    pub fen: String,
}

impl Sample {
    /// The result as White's points: 0, 0.5 or 1.
    pub fn white_points(&self) -> f64 {
        f64::from(self.result) / 2.0
    }
}

/// Writes a data file: the header on creation, then records.
pub struct DataWriter<W: Write> {
    out: W,
}

impl<W: Write> DataWriter<W> {
    /// Starts a file of variant `variant` (its protocol name) on `out`.
    ///
    /// Errors: the write error; a variant name longer than 255 bytes (`InvalidInput`).
    pub fn new(mut out: W, variant: &str) -> io::Result<DataWriter<W>> {
        let n = u8::try_from(variant.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "variant name too long"))?;
        out.write_all(MAGIC)?;
        out.write_all(&[n])?;
        out.write_all(variant.as_bytes())?;
        Ok(DataWriter { out })
    }

    /// Appends one record.
    ///
    /// Errors: the write error; a FEN longer than 65535 bytes or a result above 2
    /// (`InvalidInput`).
    pub fn write(&mut self, s: &Sample) -> io::Result<()> {
        let m = u16::try_from(s.fen.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "FEN too long"))?;
        if s.result > 2 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "result above 2",
            ));
        }
        let mut head = [0u8; 11];
        head[0..4].copy_from_slice(&s.game.to_le_bytes());
        head[4..6].copy_from_slice(&s.ply.to_le_bytes());
        head[6..8].copy_from_slice(&s.score.to_le_bytes());
        head[8] = s.result;
        head[9..11].copy_from_slice(&m.to_le_bytes());
        self.out.write_all(&head)?;
        self.out.write_all(s.fen.as_bytes())
    }

    /// Flushes and gives the writer back.
    ///
    /// Errors: the flush error.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Reads a data file: the variant from the header, then records one by one.
pub struct DataReader<R: Read> {
    input: R,
    variant: String,
    offset: u64,
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` at a clean end of input (nothing read).
fn read_full<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("cut inside a record ({got} of {} bytes)", buf.len()),
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

fn invalid(text: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, text)
}

impl<R: Read> DataReader<R> {
    /// Reads the header.
    ///
    /// Errors: `InvalidData` when the input does not start with [`MAGIC`] and a variant name;
    /// the read error.
    pub fn new(mut input: R) -> io::Result<DataReader<R>> {
        let mut head = [0u8; 5];
        if !read_full(&mut input, &mut head)? || &head[..4] != MAGIC {
            return Err(invalid("not a menagerie data file (no MDG1 header)".into()));
        }
        let mut name = vec![0u8; usize::from(head[4])];
        if !read_full(&mut input, &mut name)? && !name.is_empty() {
            return Err(invalid("header cut short".into()));
        }
        let variant =
            String::from_utf8(name).map_err(|_| invalid("variant name is not UTF-8".into()))?;
        let offset = 5 + variant.len() as u64;
        Ok(DataReader {
            input,
            variant,
            offset,
        })
    }

    /// The variant's protocol name, from the header.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The next record, `None` at the end of the file.
    ///
    /// Errors: `UnexpectedEof` for a file cut inside a record, `InvalidData` for a result above
    /// 2 or a FEN that is not UTF-8, each naming the record's byte offset; the read error.
    pub fn next_sample(&mut self) -> io::Result<Option<Sample>> {
        let at = self.offset;
        let located = |e: io::Error| io::Error::new(e.kind(), format!("at byte {at}: {e}"));
        let mut head = [0u8; 11];
        if !read_full(&mut self.input, &mut head).map_err(located)? {
            return Ok(None);
        }
        let m = usize::from(u16::from_le_bytes([head[9], head[10]]));
        let mut fen = vec![0u8; m];
        if m > 0 && !read_full(&mut self.input, &mut fen).map_err(located)? {
            return Err(located(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "cut before the FEN",
            )));
        }
        self.offset += 11 + m as u64;
        let result = head[8];
        if result > 2 {
            return Err(located(invalid(format!("result {result} above 2"))));
        }
        let fen =
            String::from_utf8(fen).map_err(|_| located(invalid("FEN is not UTF-8".into())))?;
        Ok(Some(Sample {
            game: u32::from_le_bytes([head[0], head[1], head[2], head[3]]),
            ply: u16::from_le_bytes([head[4], head[5]]),
            score: i16::from_le_bytes([head[6], head[7]]),
            result,
            fen,
        }))
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = io::Result<Sample>;

    fn next(&mut self) -> Option<io::Result<Sample>> {
        self.next_sample().transpose()
    }
}

/// Reads a whole data file: its variant name and its records.
///
/// Errors: the file cannot be opened or read, or is not a data file, as a message naming it.
pub fn read_file(path: &std::path::Path) -> Result<(String, Vec<Sample>), String> {
    let named = |e: io::Error| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(named)?;
    let mut reader = DataReader::new(io::BufReader::new(file)).map_err(named)?;
    let variant = reader.variant().to_string();
    let mut samples = Vec::new();
    while let Some(s) = reader.next_sample().map_err(named)? {
        samples.push(s);
    }
    Ok((variant, samples))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u32, fen: &str) -> Sample {
        Sample {
            game,
            ply: 17,
            score: -321,
            result: 2,
            fen: fen.into(),
        }
    }

    fn file(samples: &[Sample]) -> Vec<u8> {
        let mut w = DataWriter::new(Vec::new(), "mitosis").unwrap();
        for s in samples {
            w.write(s).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn records_round_trip() {
        let samples = [sample(3, "8/8/8/8/8/8/8/K6k w - - 0 1"), sample(4, "")];
        let bytes = file(&samples);
        assert_eq!(&bytes[..4], MAGIC);
        // header 4+1+7, records 11+n each
        assert_eq!(bytes.len(), 12 + 11 + samples[0].fen.len() + 11);
        let r = DataReader::new(&bytes[..]).unwrap();
        assert_eq!(r.variant(), "mitosis");
        let back: Vec<Sample> = r.map(|s| s.unwrap()).collect();
        assert_eq!(back, samples);
        assert_eq!(back[0].white_points(), 1.0);
    }

    #[test]
    fn a_cut_or_foreign_file_is_refused() {
        let bytes = file(&[sample(1, "k7/8/8/8/8/8/8/7K b - - 0 1")]);
        for cut in 13..bytes.len() {
            let mut r = DataReader::new(&bytes[..cut]).unwrap();
            let e = r.next_sample().unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "cut at {cut}");
            assert!(e.to_string().contains("at byte 12"), "{e}");
        }
        assert!(DataReader::new(&b"FEN | 1 | 0\n"[..]).is_err());
        assert!(DataReader::new(&b""[..]).is_err());
        let mut bad = bytes.clone();
        bad[12 + 8] = 3;
        let e = DataReader::new(&bad[..])
            .unwrap()
            .next_sample()
            .unwrap_err();
        assert!(e.to_string().contains("result 3"), "{e}");
    }

    #[test]
    fn bad_records_are_not_written() {
        let mut w = DataWriter::new(Vec::new(), "chess").unwrap();
        let mut s = sample(0, "x");
        s.result = 3;
        assert!(w.write(&s).is_err());
        s.result = 0;
        s.fen = "x".repeat(70_000);
        assert!(w.write(&s).is_err());
        // Nothing of the refused records reached the output.
        assert_eq!(w.finish().unwrap().len(), 4 + 1 + 5);
    }
}
