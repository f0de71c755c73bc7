//! Setting a game up: its start position from a FEN, from the variant's start, or from the
//! pre-game steps its description names (`info string pregame <kind>`, protocol.md 8):
//! `seed` draws a random setup, `army` runs the muster dialogue of protocol.md's `muster`
//! commands; then a loaded record's turns are replayed through the engine.

use std::time::Instant;

use serde_json::Value;

use super::Driver;
use crate::client::{AsyncEngine, EngineFault, PositionReport, Pregame};
use crate::gui::error::ApiError;
use crate::gui::record::{Clock, Colour, Outcome, Player};
use crate::gui::slot::{ArmySpec, StartSpec};
use crate::tools::pgn::normalize_pgn;

impl Driver {
    pub(super) async fn init(&mut self, spec: StartSpec) -> Result<Value, ApiError> {
        let (restored, start_known) = {
            let st = self.slot.lock();
            (st.restored, !st.start_fen.is_empty())
        };
        if restored {
            return Ok(self.ctx.state_json(self.slot.json()));
        }
        if !start_known {
            let fen = self
                .with_retry(|d| Box::pin(d.start_fen(spec.clone())))
                .await?;
            self.slot.lock().start_fen = fen;
        }
        // The start, then every pending word (a loaded or imported game) through the engine.
        let start = self.position_line(0, &[]);
        let report = self.report_api(start.clone()).await?;
        let words = {
            let mut st = self.slot.lock();
            st.fens = vec![report.fen.clone()];
            st.evals = vec![None];
            st.moves.clear();
            st.notation.clear();
            st.report = report;
            std::mem::take(&mut st.pending_words)
        };
        for (i, word) in words.iter().enumerate() {
            let token = {
                let st = self.slot.lock();
                resolve_word(&st.report, word)
            };
            let Some(token) = token else {
                let mut st = self.slot.lock();
                st.notice = Some(format!(
                    "The record's turn {} '{word}' is not legal here; the game stops before it.",
                    i + 1
                ));
                break;
            };
            let time = self.slot.lock().times.get(i).copied().flatten();
            self.apply(&token, time).await?;
        }
        {
            let mut st = self.slot.lock();
            let n = st.moves.len();
            st.times.resize(n, None);
            st.restored = true;
            if st.result.is_none() {
                if let Some((score, reason)) = st.report.result.clone() {
                    st.result = Some(Outcome { score, reason });
                }
            }
            let side = Colour::to_move(&st.report.fen);
            let over = st.result.is_some();
            if let Some(c) = st.clock.as_mut() {
                // The clock runs from the first turn of each side; a loaded game's runs again
                // from now.
                if n > 0 && !over {
                    c.running = Some((side, Instant::now()));
                }
            }
        }
        Ok(self.changed())
    }

    /// The start FEN of a new game: the person's FEN if there is one, else what the variant's
    /// pre-game step makes of the request (a seeded setup, mustered armies), else the
    /// variant's start position.
    pub(super) async fn start_fen(&mut self, spec: StartSpec) -> Result<String, EngineFault> {
        let variant = self.slot.lock().variant.clone();
        if let Some(fen) = spec.fen {
            let r = self.report(format!("position fen {fen}")).await?;
            return Ok(r.fen);
        }
        let desc = self
            .ctx
            .variant(&variant)
            .cloned()
            .ok_or_else(|| EngineFault::Refused(format!("unknown variant '{variant}'")))?;
        let steps = desc.pregame_steps().map_err(EngineFault::Refused)?;
        // The steps that make a start position; a variant names at most one of them.
        match steps.first() {
            None => Ok(desc.startpos),
            Some(Pregame::Seed) => {
                let seed = spec.seed.ok_or_else(|| {
                    EngineFault::Refused(format!("{variant} starts from a seeded setup: no seed"))
                })?;
                let out = self.query(&[format!("setup {seed}")], true).await?;
                out.iter()
                    .find_map(|l| l.strip_prefix("info string setup "))
                    .map(str::to_string)
                    .ok_or_else(|| EngineFault::Refused("the engine printed no setup".into()))
            }
            // Without armies the game starts from the variant's start position (its
            // description's `startpos`).
            Some(Pregame::Army) => match spec.army {
                Some(army) => self.army(army).await,
                None => Ok(desc.startpos),
            },
        }
    }

    /// The `army` pre-game step (protocol.md's `muster` commands): the engine's army and
    /// pick, the table applied by the engine (`muster assign`); sets who plays which colour.
    pub(super) async fn army(&mut self, army: ArmySpec) -> Result<String, EngineFault> {
        let refused = |m: &str| EngineFault::Refused(m.to_string());
        // One person against the engine: the person builds one army, the engine the other.
        let against_engine = {
            let st = self.slot.lock();
            st.has_engine() && st.humans().contains(&true)
        };
        let (white, black, picks, person_built) = match against_engine {
            false => {
                let white = army
                    .white
                    .ok_or_else(|| refused("army: 'white' is missing"))?;
                let black = army
                    .black
                    .ok_or_else(|| refused("army: 'black' is missing"))?;
                let picks = army
                    .picks
                    .ok_or_else(|| refused("army: 'picks' is missing"))?;
                (white, black, picks, None)
            }
            true => {
                let build = army
                    .build
                    .ok_or_else(|| refused("army: 'build' is missing"))?;
                let half = army
                    .half
                    .ok_or_else(|| refused("army: 'half' is missing"))?;
                let pick = army
                    .pick
                    .ok_or_else(|| refused("army: 'pick' is missing"))?;
                let theirs = match army.engine_half {
                    Some(h) => h,
                    None => propose(self.engine().await?, build.other()).await?,
                };
                let (white, black) = match build {
                    Colour::White => (half, theirs),
                    Colour::Black => (theirs, half),
                };
                let line = format!(
                    "muster choose white {white} black {black} mustered {} movetime 1000",
                    build.other().word()
                );
                let out = self.engine().await?.query_ok(&[line]).await?;
                let engine_pick = out
                    .iter()
                    .find_map(|l| l.strip_prefix("muster choice "))
                    .map(|w| {
                        if w.trim() == "black" {
                            Colour::Black
                        } else {
                            Colour::White
                        }
                    })
                    .ok_or_else(|| refused("the engine made no choice"))?;
                let picks = match build {
                    Colour::White => [pick, engine_pick],
                    Colour::Black => [engine_pick, pick],
                };
                (white, black, picks, Some(build))
            }
        };
        let line = format!(
            "muster assign white {white} black {black} picks {} {}",
            picks[0].word(),
            picks[1].word()
        );
        let out = self.query(&[line], true).await?;
        let start = out
            .iter()
            .find_map(|l| l.strip_prefix("muster start "))
            .ok_or_else(|| refused("the engine did not assign the armies"))?;
        let (pw_plays, fen) = start
            .split_once(' ')
            .ok_or_else(|| refused("bad 'muster start' line"))?;
        let pw_plays = if pw_plays == "black" {
            Colour::Black
        } else {
            Colour::White
        };
        if let Some(build) = person_built {
            // The person is P_W when they built White's army.
            let person_plays = if build == Colour::White {
                pw_plays
            } else {
                pw_plays.other()
            };
            let mut st = self.slot.lock();
            // The person's seat (and its secret) goes with the colour they play.
            let secret = st.seats.iter().flatten().next().cloned();
            st.players = [Player::Engine; 2];
            st.players[Clock::idx(person_plays)] = Player::Human;
            st.seats = [None, None];
            st.seats[Clock::idx(person_plays)] = secret;
            let name = st.engine_name();
            st.names = match person_plays {
                Colour::White => ["Player".into(), name],
                Colour::Black => [name, "Player".into()],
            };
            st.notice = Some(format!(
                "Muster: you picked {}, the engine picked {}; you play {}.",
                if build == Colour::White {
                    picks[0].word()
                } else {
                    picks[1].word()
                },
                if build == Colour::White {
                    picks[1].word()
                } else {
                    picks[0].word()
                },
                person_plays.word()
            ));
        }
        Ok(fen.to_string())
    }
}

/// The engine's army of `colour` (`muster propose`).
///
/// Errors: as [`AsyncEngine::query_ok`], or when the engine printed no army.
pub async fn propose(engine: &mut AsyncEngine, colour: Colour) -> Result<String, EngineFault> {
    let out = engine
        .query_ok(&[format!("muster propose {} movetime 1000", colour.word())])
        .await?;
    out.iter()
        .find_map(|l| l.strip_prefix("muster army "))
        .map(|s| s.trim().to_string())
        .ok_or_else(|| EngineFault::Refused("the engine proposed no army".into()))
}

/// The legal token a PGN move word names: the token itself, or the one whose PGN notation
/// equals the word up to check and annotation marks.
pub fn resolve_word(report: &PositionReport, word: &str) -> Option<String> {
    if report.legal.iter().any(|t| t == word) {
        return Some(word.to_string());
    }
    let w = normalize_pgn(word);
    let mut found = report
        .legal
        .iter()
        .zip(&report.legal_notation)
        .filter(|(_, n)| normalize_pgn(n) == w)
        .map(|(t, _)| t.clone());
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_resolve_to_tokens() {
        let r = PositionReport {
            legal: vec!["e1g1".into(), "e7e8q".into(), "g1f3".into()],
            legal_notation: vec!["O-O".into(), "e8=Q+".into(), "Nf3".into()],
            ..PositionReport::default()
        };
        assert_eq!(resolve_word(&r, "0-0").as_deref(), Some("e1g1"));
        assert_eq!(resolve_word(&r, "e8=Q").as_deref(), Some("e7e8q"));
        assert_eq!(resolve_word(&r, "Nf3!").as_deref(), Some("g1f3"));
        assert_eq!(resolve_word(&r, "g1f3").as_deref(), Some("g1f3"));
        assert_eq!(resolve_word(&r, "Nc3"), None);
    }
}
