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
//! - `<FEN>`: the variant's canonical FEN ([`Notation::fen`](crate::variants::Notation::fen));
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
//! [`Rules::random_setup`](crate::variants::Rules::random_setup), then 0-2 random plies) or from
//! its start position after 6-9 random legal plies (without ending the game). Each ply is then
//! chosen by a single-threaded search of `nodes` nodes with the game's own TT, cleared at the start
//! of the game. The position before the ply is kept when it is quiet: the side to move is not in
//! check, the best ply is not tactical
//! ([`Evaluation::is_tactical`](crate::variants::Evaluation::is_tactical)), the search score is not
//! a mate and below [`DECIDED_CP`], and the position is not decided by rule.
//!
//! A game ends by rule ([`Rules::outcome`](crate::variants::Rules::outcome)), on a mate score (the
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

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::core::zobrist::SplitMix64;
use crate::core::MoveBuffer;
use crate::search::{search, Limits, Score, SearchControl, SearchOptions, Tt};
use crate::variants::{Game, GameResult, PlyList, Terminal};

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
}

/// One finished game: its id, result, and the lines of the data format (comment first).
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// The game id.
    pub id: u64,
    /// The result (`None`: the opening could not be drawn, nothing recorded).
    pub result: Option<GameResult>,
    /// Number of positions recorded.
    pub positions: usize,
    /// The text of the game: its `# game` line and one line per recorded position.
    pub text: String,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
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
        if list.is_empty() || pos.outcome().is_some() {
            return false;
        }
        pos.make(list[rng.below(list.len() as u64) as usize]);
    }
    let mut list = PlyList::<G::Move>::default();
    pos.legal_moves(&mut list);
    // (outcome() covers every rule that ends the game, Mitosis's clock adjudication included)
    !list.is_empty() && pos.outcome().is_none()
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
            positions: 0,
            text: format!("# game {id} no opening\n"),
        };
    };
    tt.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes.max(1)),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let mut kept: Vec<(String, i32)> = Vec::new();
    let (mut win_run, mut win_side, mut draw_run) = (0u32, 0i32, 0u32);
    let mut plies = 0u32;
    let result = loop {
        if let Some(o) = pos.outcome() {
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
            kept.push((pos.fen(), white_cp));
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
    let r = white_score(result);
    let mut text = format!(
        "# game {id} result {} plies {plies} opening {opening_plies}\n",
        result.as_str()
    );
    for (fen, cp) in &kept {
        text.push_str(&format!("{fen} | {cp} | {r}\n"));
    }
    GameData {
        id,
        result: Some(result),
        positions: kept.len(),
        text,
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
                if error.is_none() {
                    if let Err(e) = out.write_all(game.text.as_bytes()) {
                        error = Some(format!("writing the data: {e}"));
                        // Stop the workers: they see the closed channel.
                        next.store(ids.len(), Ordering::Relaxed);
                    }
                }
                summary.games += 1;
                summary.positions += game.positions as u64;
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
    out.flush().map_err(|e| format!("writing the data: {e}"))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::mulligan_stew::Stew;
    use crate::variants::Notation;

    fn cfg(games: u64, threads: usize, shard: Shard) -> DatagenConfig {
        DatagenConfig {
            games,
            nodes: 300,
            threads,
            shard,
            seed: 7,
            max_plies: 60,
        }
    }

    fn text(c: &DatagenConfig) -> String {
        let mut out = Vec::new();
        run::<Stew>(c, &mut out, &mut |_| {}).unwrap();
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
            assert!(Stew::from_fen(f[0]).is_ok(), "{line}");
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
}
