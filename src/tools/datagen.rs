//! `menagerie datagen`: self-play games at a fixed node budget, recording quiet positions with
//! the search score and the game's result, as training data for Texel tuning
//! (`menagerie-tuning`).
//!
//! # The data format
//!
//! Plain text, one position per line:
//!
//! ```text
//! # game 17 result 1-0 plies 83 opening 8
//! <FEN> | <score> | <result>
//! ```
//!
//! - `<FEN>`: the variant's canonical FEN ([`Notation::fen`]);
//! - `<score>`: the search score in centipawns from White's point of view;
//! - `<result>`: the game's result for White: `1` (White won), `0.5` (draw) or `0`.
//!
//! Lines starting with `#` are comments; each game starts with one (`# game <id> ...`), so
//! readers can split the data by game (the tuner's validation set holds out whole games).
//! Blank lines are ignored.
//!
//! # What is recorded
//!
//! A game starts from the variant's random setup (when it has them,
//! [`Rules::random_setup`], then 0-2 random plies) or from
//! its start position after 6-9 random legal plies (without ending the game). Each ply is then
//! chosen by a single-threaded search of `nodes` nodes with the game's own TT, cleared at the start
//! of the game. The position before the ply is kept when it is quiet: the side to move is not in
//! check, the best ply is not tactical
//! ([`StagedGeneration::is_tactical`](crate::variants::StagedGeneration::is_tactical)), the search score is not
//! a mate and below [`DECIDED_CP`], and the position is not decided by rule.
//!
//! A game ends by rule ([`game_outcome`]), on a mate score (the
//! side the search sees mated loses), by win adjudication (the score beyond [`WIN_CP`] for the same
//! side for [`WIN_PLIES`] plies), by draw adjudication (from ply [`DRAW_FROM_PLY`], the score
//! within [`DRAW_CP`] of 0 for [`DRAW_PLIES`] plies) or at `max_plies` (a draw).
//!
//! # Determinism
//!
//! Game `id` depends on nothing but the seed, the id, the node budget and the build: its
//! random numbers come from `(seed, id)`, its search is single-threaded with a fresh TT. Games
//! are written in id order whatever the number of threads, so a run's file is the same for a
//! given seed, shard and node budget. Shard `K/N` plays the games `K-1, K-1+N, K-1+2N, ...`
//! below `games` (the games of the whole run), so shards of one run never repeat a game.

use crate::variants::game_outcome;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::core::zobrist::SplitMix64;
use crate::core::MoveBuffer;
use crate::search::{search, Limits, Score, SearchControl, SearchOptions, Tt};
use crate::variants::{Game, GameResult, Notation, PlyList, Rules, Terminal};

use super::datafile::{DataWriter, Sample};

/// A search score (centipawns) at or beyond which a position counts as decided and is not
/// recorded.
pub const DECIDED_CP: i32 = 2500;
/// Win adjudication: the score (centipawns) one side must keep...
pub const WIN_CP: i32 = 1500;
/// ... for this many consecutive plies.
pub const WIN_PLIES: u32 = 8;
/// Draw adjudication: from this ply on ...
pub const DRAW_FROM_PLY: u32 = 120;
/// ... a score within this many centipawns of 0 ...
pub const DRAW_CP: i32 = 15;
/// ... for this many consecutive plies.
pub const DRAW_PLIES: u32 = 20;
/// TT size of each game, in MiB.
const TT_MB: usize = 2;

/// The K-th of N disjoint slices of a run (`K/N`, 1-based).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1..=`count`.
    pub index: u64,
    /// Number of slices.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with 1 <= K <= N.
    ///
    /// Errors: a message naming the text and what is wrong with it.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("bad shard '{text}': {why} (expected K/N, 1 <= K <= N)");
        let (k, n) = text.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: u64 = k.trim().parse().map_err(|_| bad("K is not a number"))?;
        let count: u64 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(bad("K out of range"));
        }
        Ok(Shard { index, count })
    }

    /// The game ids of this shard among `games` games.
    pub fn ids(self, games: u64) -> Vec<u64> {
        (self.index - 1..games)
            .step_by(self.count as usize)
            .collect()
    }
}

/// The settings of a datagen run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    /// Games of the whole run (all shards).
    pub games: u64,
    /// Node budget of each search.
    pub nodes: u64,
    /// Worker threads (each plays whole games with a single-threaded search).
    pub threads: usize,
    /// The slice of the run played here.
    pub shard: Shard,
    /// Seed of the openings.
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// The file format written.
    pub format: Format,
}

/// One recorded position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The position's FEN.
    pub fen: String,
    /// Its Zobrist key ([`Rules::key`]), for deduplication.
    pub key: u64,
    /// Search score, centipawns, White's point of view.
    pub white_cp: i32,
    /// Plies played in the game before it (the opening's included).
    pub ply: u32,
}

/// One finished game: its id, result and recorded positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// The game id.
    pub id: u64,
    /// The result (`None`: the opening could not be drawn, nothing recorded).
    pub result: Option<GameResult>,
    /// Plies played after the opening.
    pub plies: u32,
    /// Random plies of the opening.
    pub opening_plies: u64,
    /// The recorded positions, in the order played.
    pub kept: Vec<Recorded>,
}

impl GameData {
    /// The game in the text format: its `# game` line and one line per position.
    pub fn text(&self) -> String {
        let id = self.id;
        let Some(result) = self.result else {
            return format!("# game {id} no opening\n");
        };
        let mut text = format!(
            "# game {id} result {} plies {} opening {}\n",
            result.as_str(),
            self.plies,
            self.opening_plies
        );
        let r = white_score(result);
        for k in &self.kept {
            text.push_str(&format!("{} | {} | {r}\n", k.fen, k.white_cp));
        }
        text
    }
}

/// The file format of a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// The text lines of the module documentation (Texel tuning, Stockfish relabelling).
    Text,
    /// The binary format of [`super::datafile`], deduplicated (the network trainer).
    Binary,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions not written because the run already held them (binary format only).
    pub duplicates: u64,
    /// Wins of White, draws, wins of Black.
    pub wdl: [u64; 3],
}

/// Mixes the run seed and a game id into the seed of that game's random numbers.
fn game_seed(seed: u64, id: u64) -> u64 {
    let mut rng = SplitMix64::new(seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64()
}

/// Plays `n` random legal plies; false when the game ended (or had no ply) on the way.
fn random_plies<G: Game>(pos: &mut G, n: u64, rng: &mut SplitMix64) -> bool {
    let mut list = PlyList::<G::Move>::default();
    for _ in 0..n {
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() || game_outcome(pos).is_some() {
            return false;
        }
        pos.make(list[rng.below(list.len() as u64) as usize]);
    }
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    // (outcome() covers every rule that ends the game, Mitosis's clock adjudication included)
    !list.is_empty() && game_outcome(pos).is_none()
}

/// The opening of game `id`: a random setup and 0-2 random plies, or the start position and
/// 6-9 random plies. `None` when 20 draws all ended the game.
fn opening<G: Game>(rng: &mut SplitMix64) -> Option<(G, u64)> {
    for _ in 0..20 {
        let setup_seed = rng.next_u64();
        let (mut pos, n) = match G::random_setup(setup_seed) {
            Some(p) => (p, rng.below(3)),
            None => (G::startpos(), 6 + rng.below(4)),
        };
        if random_plies(&mut pos, n, rng) {
            return Some((pos, n));
        }
    }
    None
}

/// The result as White's score: `1`, `0.5` or `0`.
fn white_score(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "1",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0",
    }
}

/// The result of a decision seen from the side to move `pos`.
fn terminal_result<G: Game>(pos: &G, t: Terminal) -> GameResult {
    let us = pos.side_to_move();
    match t {
        Terminal::Win => GameResult::win_for(us),
        Terminal::Loss => GameResult::win_for(!us),
        Terminal::Draw => GameResult::Draw,
    }
}

/// Plays game `id` of a run (see the module documentation), with `tt` (cleared first).
pub fn play_game<G: Game>(id: u64, cfg: &DatagenConfig, tt: &Tt) -> GameData {
    let mut rng = SplitMix64::new(game_seed(cfg.seed, id));
    let Some((mut pos, opening_plies)) = opening::<G>(&mut rng) else {
        return GameData {
            id,
            result: None,
            plies: 0,
            opening_plies: 0,
            kept: Vec::new(),
        };
    };
    tt.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes.max(1)),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let mut kept: Vec<Recorded> = Vec::new();
    let (mut win_run, mut win_side, mut draw_run) = (0u32, 0i32, 0u32);
    let mut plies = 0u32;
    let result = loop {
        if let Some(o) = game_outcome(&pos) {
            break o.result;
        }
        if plies >= cfg.max_plies {
            break GameResult::Draw;
        }
        let control = SearchControl::default();
        let found = search(&pos, &limits, &options, tt, &control, &mut |_| {});
        let Some(best) = found.best else {
            let mut list = PlyList::<G::Move>::default();
            pos.legal_moves(&mut list);
            break if list.is_empty() {
                terminal_result(&pos, pos.no_moves_verdict().terminal)
            } else {
                GameResult::Draw
            };
        };
        let sign = pos.side_to_move().sign();
        let cp = match found.score {
            Score::Mate(n) if n > 0 => break GameResult::win_for(pos.side_to_move()),
            Score::Mate(_) => break GameResult::win_for(!pos.side_to_move()),
            Score::Cp(cp) => cp,
        };
        let white_cp = cp * sign;
        if cp.abs() < DECIDED_CP && !pos.in_check() && !pos.is_tactical(best) {
            kept.push(Recorded {
                fen: pos.fen(),
                key: pos.key(),
                white_cp,
                ply: plies + opening_plies as u32,
            });
        }
        // Adjudication.
        if white_cp.abs() >= WIN_CP && white_cp.signum() == win_side {
            win_run += 1;
        } else if white_cp.abs() >= WIN_CP {
            win_side = white_cp.signum();
            win_run = 1;
        } else {
            win_run = 0;
        }
        if win_run >= WIN_PLIES {
            break if win_side > 0 {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
        }
        draw_run = if plies >= DRAW_FROM_PLY && white_cp.abs() <= DRAW_CP {
            draw_run + 1
        } else {
            0
        };
        if draw_run >= DRAW_PLIES {
            break GameResult::Draw;
        }
        pos.make(best);
        plies += 1;
    };
    GameData {
        id,
        result: Some(result),
        plies,
        opening_plies,
        kept,
    }
}

/// Runs datagen for variant `G`: plays the shard's games on `cfg.threads` threads, writes them
/// to `out` in id order, and reports progress lines through `progress`.
///
/// Errors: a write error on `out`, as a message.
pub fn run<G: Game>(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&str),
) -> Result<DatagenSummary, String> {
    let ids = cfg.shard.ids(cfg.games);
    let next = AtomicUsize::new(0);
    let threads = cfg.threads.clamp(1, 256).min(ids.len().max(1));
    let (tx, rx) = mpsc::channel::<GameData>();
    let mut summary = DatagenSummary::default();
    let mut error = None;
    let mut sink = match cfg.format {
        Format::Text => Sink::Text(out),
        Format::Binary => Sink::Binary(
            DataWriter::new(out, G::INFO.name).map_err(|e| format!("writing the data: {e}"))?,
        ),
    };
    let mut seen = ahash::AHashSet::<u64>::new();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (ids, next) = (&ids, &next);
            s.spawn(move || {
                let tt = Tt::new(TT_MB);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = ids.get(i) else { break };
                    if tx.send(play_game::<G>(id, cfg, &tt)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Written in id order: games that finish early wait in `pending`.
        let mut pending = BTreeMap::new();
        let mut written = 0usize;
        for game in rx {
            pending.insert(game.id, game);
            while let Some(game) = ids.get(written).and_then(|id| pending.remove(id)) {
                written += 1;
                let written_game = match &mut sink {
                    Sink::Text(out) => {
                        summary.positions += game.kept.len() as u64;
                        out.write_all(game.text().as_bytes())
                    }
                    Sink::Binary(w) => write_binary(w, &game, &mut seen, &mut summary),
                };
                if error.is_none() {
                    if let Err(e) = written_game {
                        error = Some(format!("writing the data: {e}"));
                        // Stop the workers: they see the closed channel.
                        next.store(ids.len(), Ordering::Relaxed);
                    }
                }
                summary.games += 1;
                match game.result {
                    Some(GameResult::WhiteWins) => summary.wdl[0] += 1,
                    Some(GameResult::Draw) => summary.wdl[1] += 1,
                    Some(GameResult::BlackWins) => summary.wdl[2] += 1,
                    None => {}
                }
                if written.is_multiple_of(10) || written == ids.len() {
                    progress(&format!(
                        "games {written}/{}  positions {}  +{} ={} -{}",
                        ids.len(),
                        summary.positions,
                        summary.wdl[0],
                        summary.wdl[1],
                        summary.wdl[2]
                    ));
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    match sink {
        Sink::Text(out) => out.flush(),
        Sink::Binary(w) => w.finish().map(|_| ()),
    }
    .map_err(|e| format!("writing the data: {e}"))?;
    Ok(summary)
}

/// What [`merge`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// The variant of the files.
    pub variant: String,
    /// Positions written.
    pub positions: u64,
    /// Positions left out because an earlier one (in this or an earlier file) had their key.
    pub duplicates: u64,
    /// Games written (renumbered from 0).
    pub games: u64,
}

/// Merges binary data files ([`super::datafile`]) of one variant into `out`: the records are
/// taken in order of their game ids (the files' order for equal ids), each position kept at
/// its first occurrence (by Zobrist key, the FEN read back with [`Notation::from_fen`]), and the
/// games renumbered 0, 1, 2, ... in that order, so runs with overlapping game ids keep their
/// games apart. The merge of a run's shards is therefore the unsharded run, record for record
/// (the game ids aside).
///
/// Errors: a file that cannot be read, is not a data file, holds another variant than the
/// first, or holds a FEN the engine refuses; a write error. Each as a message naming the file.
/// The output is written only after every input was read and checked.
pub fn merge(inputs: &[std::path::PathBuf], out: &mut dyn Write) -> Result<MergeSummary, String> {
    let mut files = Vec::with_capacity(inputs.len());
    for path in inputs {
        files.push((path, super::datafile::read_file(path)?));
    }
    let Some((_, (variant, _))) = files.first() else {
        return Err("no input files".into());
    };
    let variant = variant.clone();
    let v = crate::variants::Variant::from_name(&variant)
        .ok_or_else(|| format!("{}: unknown variant '{variant}'", inputs[0].display()))?;
    let mut summary = MergeSummary {
        variant: variant.clone(),
        ..MergeSummary::default()
    };
    // In order of the games' ids (stable: a file's order within a game stays), so that the
    // merge of a run's shards is the unsharded run, record for record.
    let mut all = Vec::new();
    for (i, (path, (name, samples))) in files.into_iter().enumerate() {
        if *name != variant {
            return Err(format!(
                "{}: variant '{name}', but {} holds '{variant}'",
                path.display(),
                inputs[0].display()
            ));
        }
        all.extend(samples.into_iter().map(|s| (i, path, s)));
    }
    all.sort_by_key(|(_, _, s)| s.game);
    let mut seen = ahash::AHashSet::<u64>::new();
    let mut ids = ahash::AHashMap::<(usize, u32), u32>::new();
    let mut kept = Vec::new();
    for (i, path, mut s) in all {
        let key = crate::with_variant!(v, G => G::from_fen(&s.fen).map(|p| p.key()))
            .map_err(|e| format!("{}: game {}: {e}", path.display(), s.game))?;
        if !seen.insert(key) {
            summary.duplicates += 1;
            continue;
        }
        let next = ids.len() as u32;
        s.game = *ids.entry((i, s.game)).or_insert(next);
        kept.push(s);
    }
    let mut w = DataWriter::new(out, &variant).map_err(|e| format!("writing: {e}"))?;
    for s in &kept {
        w.write(s).map_err(|e| format!("writing: {e}"))?;
    }
    w.finish().map_err(|e| format!("writing: {e}"))?;
    summary.positions = kept.len() as u64;
    summary.games = ids.len() as u64;
    Ok(summary)
}

/// Where a run's games go.
enum Sink<'a> {
    Text(&'a mut dyn Write),
    Binary(DataWriter<&'a mut dyn Write>),
}

/// Writes a game's positions not yet in `seen` as binary records; counts them in `summary`.
fn write_binary(
    w: &mut DataWriter<&mut dyn Write>,
    game: &GameData,
    seen: &mut ahash::AHashSet<u64>,
    summary: &mut DatagenSummary,
) -> std::io::Result<()> {
    let Some(result) = game.result else {
        return Ok(());
    };
    let result = match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    };
    for k in &game.kept {
        if !seen.insert(k.key) {
            summary.duplicates += 1;
            continue;
        }
        summary.positions += 1;
        w.write(&Sample {
            game: game.id as u32,
            ply: k.ply.min(u32::from(u16::MAX)) as u16,
            score: k.white_cp.clamp(-DECIDED_CP, DECIDED_CP) as i16,
            result,
            fen: k.fen.clone(),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mulligan_stew::MulliganStew;
    use crate::variants::Notation;

    fn cfg(games: u64, threads: usize, shard: Shard) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes: 300,
            threads,
            shard,
            seed: 7,
            max_plies: 60,
            format: Format::Text,
        }
    }

    fn text(c: &DatagenConfig) -> String {
        let mut out = Vec::new();
        run::<MulliganStew>(c, &mut out, &mut |_| {}).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn shards_split_the_games() {
        assert_eq!(Shard::parse("2/3").unwrap().ids(8), vec![1, 4, 7]);
        assert_eq!(Shard::ALL.ids(3), vec![0, 1, 2]);
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().contains(bad), "{bad}");
        }
    }

    #[test]
    fn deterministic_for_a_seed_whatever_the_threads() {
        let one = text(&cfg(4, 1, Shard::ALL));
        let two = text(&cfg(4, 2, Shard::ALL));
        assert_eq!(one, two);
        // The shards of a run are its games.
        let a = text(&cfg(4, 1, Shard::parse("1/2").unwrap()));
        let b = text(&cfg(4, 1, Shard::parse("2/2").unwrap()));
        let games = |t: &str| t.matches("# game").count();
        assert_eq!(games(&a) + games(&b), 4);
        assert!(one.contains(a.lines().next().unwrap()));
        // Lines parse: FEN | cp | result.
        let mut n = 0;
        for line in one.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split(" | ").collect();
            assert_eq!(f.len(), 3, "{line}");
            assert!(MulliganStew::from_fen(f[0]).is_ok(), "{line}");
            assert!(f[1].parse::<i32>().unwrap().abs() < DECIDED_CP);
            assert!(["1", "0.5", "0"].contains(&f[2]), "{line}");
            n += 1;
        }
        assert!(n > 10, "{one}");
        // Another seed, other games.
        let mut c = cfg(4, 1, Shard::ALL);
        c.seed = 8;
        assert_ne!(text(&c), one);
    }

    fn binary(c: &DatagenConfig) -> (Vec<u8>, DatagenSummary) {
        let mut c = c.clone();
        c.format = Format::Binary;
        let mut out = Vec::new();
        let summary = run::<MulliganStew>(&c, &mut out, &mut |_| {}).unwrap();
        (out, summary)
    }

    #[test]
    fn the_binary_format_holds_the_text_positions_once_each() {
        let c = cfg(4, 2, Shard::ALL);
        let text = text(&c);
        let (bytes, summary) = binary(&c);
        let reader = super::super::datafile::DataReader::new(&bytes[..]).unwrap();
        assert_eq!(reader.variant(), "mulliganstew");
        let samples: Vec<Sample> = reader.map(|s| s.unwrap()).collect();
        assert_eq!(samples.len() as u64, summary.positions);
        // Every text line is a record, unless its position came earlier (then counted as a
        // duplicate), with the same score and result.
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len() as u64, summary.positions + summary.duplicates);
        let mut keys = ahash::AHashSet::new();
        let mut at = 0;
        for line in lines {
            let f: Vec<&str> = line.split(" | ").collect();
            let key = MulliganStew::from_fen(f[0]).unwrap().key();
            if !keys.insert(key) {
                continue;
            }
            let s = &samples[at];
            at += 1;
            assert_eq!(s.fen, f[0]);
            assert_eq!(s.score.to_string(), f[1]);
            assert_eq!(s.white_points().to_string(), f[2]);
        }
        assert_eq!(at, samples.len());
        // Plies rise within a game; game ids are the run's.
        for w in samples.windows(2) {
            if w[0].game == w[1].game {
                assert!(w[0].ply < w[1].ply, "{w:?}");
            }
            assert!(w[1].game < 4);
        }
    }

    #[test]
    fn merging_the_shards_gives_the_whole_run() {
        let dir = std::env::temp_dir().join(format!("menagerie-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut paths = Vec::new();
        for k in 1..=2 {
            let (bytes, _) = binary(&cfg(4, 1, Shard { index: k, count: 2 }));
            let p = dir.join(format!("shard{k}.bin"));
            std::fs::write(&p, bytes).unwrap();
            paths.push(p);
        }
        let mut merged = Vec::new();
        let summary = merge(&paths, &mut merged).unwrap();
        let (whole, whole_summary) = binary(&cfg(4, 1, Shard::ALL));
        let records = |b: &[u8]| -> Vec<(u16, i16, u8, String)> {
            super::super::datafile::DataReader::new(b)
                .unwrap()
                .map(|s| s.unwrap())
                .map(|s| (s.ply, s.score, s.result, s.fen))
                .collect()
        };
        assert_eq!(records(&merged), records(&whole));
        assert_eq!(summary.positions, whole_summary.positions);
        // A file merged with itself adds nothing; renumbered games start at 0.
        let twice = [paths[0].clone(), paths[0].clone()];
        let mut again = Vec::new();
        let s2 = merge(&twice, &mut again).unwrap();
        assert_eq!(s2.duplicates, s2.positions);
        let first = super::super::datafile::DataReader::new(&again[..])
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(first.game, 0);
        // Another variant's file, a text file, or no file: one clear error, nothing written.
        let other = dir.join("other.bin");
        let w = super::super::datafile::DataWriter::new(Vec::new(), "chess").unwrap();
        std::fs::write(&other, w.finish().unwrap()).unwrap();
        let text_file = dir.join("text.txt");
        std::fs::write(&text_file, "x | 1 | 0\n").unwrap();
        for (bad, why) in [
            (vec![paths[0].clone(), other], "variant 'chess'"),
            (vec![text_file], "no MDG1 header"),
            (vec![dir.join("absent.bin")], "absent.bin"),
        ] {
            let mut out = Vec::new();
            let e = merge(&bad, &mut out).unwrap_err();
            assert!(e.contains(why), "{e}");
            assert!(out.is_empty());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
