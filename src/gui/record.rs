//! One game's record, as the GUI keeps it: variant, start, turns, clocks, scores, result, and
//! the state the API returns of it (docs/gui.md). Nothing here talks to an engine or a disk.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::client::{PositionReport, ScoreValue};

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `white` or `black`.
    pub fn word(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    /// The side to move of a FEN (its second field, `w` or `b`).
    pub fn to_move(fen: &str) -> Colour {
        match fen.split_whitespace().nth(1) {
            Some("b") => Colour::Black,
            _ => Colour::White,
        }
    }

    /// The result in which this colour wins.
    pub fn wins(self) -> &'static str {
        match self {
            Colour::White => "1-0",
            Colour::Black => "0-1",
        }
    }
}

/// A clock for both sides: base and increment, and the time each side has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time at the start, milliseconds.
    pub base_ms: u64,
    /// Added after each turn, milliseconds.
    pub inc_ms: u64,
    /// Time left, milliseconds, at the moment `since` (for the running side).
    pub left_ms: [i64; 2],
    /// The side whose clock runs, and since when.
    pub running: Option<(Colour, Instant)>,
}

impl Clock {
    /// The index of `c` in [`Clock::left_ms`]: 0 for White, 1 for Black.
    pub fn idx(c: Colour) -> usize {
        match c {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    /// The time `c` has left now, milliseconds (negative once the flag fell).
    pub fn left_now(&self, c: Colour) -> i64 {
        let mut t = self.left_ms[Self::idx(c)];
        if let Some((r, since)) = self.running {
            if r == c {
                t -= since.elapsed().as_millis() as i64;
            }
        }
        t
    }

    /// Stops `mover`'s clock after its turn, adds the increment and starts the other's.
    /// Returns the milliseconds the turn took.
    pub fn press(&mut self, mover: Colour) -> u64 {
        let spent = match self.running {
            Some((r, since)) if r == mover => since.elapsed().as_millis() as u64,
            _ => 0,
        };
        let i = Self::idx(mover);
        self.left_ms[i] = self.left_ms[i] - spent as i64 + self.inc_ms as i64;
        self.running = Some((mover.other(), Instant::now()));
        spent
    }

    /// When the running side's flag falls.
    pub fn deadline(&self) -> Option<Instant> {
        let (r, since) = self.running?;
        let left = self.left_ms[Self::idx(r)].max(0) as u64;
        Some(since + Duration::from_millis(left))
    }

    fn json(&self) -> Value {
        json!({
            "base_ms": self.base_ms,
            "inc_ms": self.inc_ms,
            "white_ms": self.left_now(Colour::White).max(0),
            "black_ms": self.left_now(Colour::Black).max(0),
            "running": self.running.map(|(c, _)| c.word()),
        })
    }
}

/// The engine's score of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Eval {
    /// The score.
    #[serde(flatten)]
    pub score: ScoreValue,
    /// The depth it comes from, plies.
    pub depth: u32,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// Why (`checkmate`, `resignation`, `time forfeit`, ...).
    pub reason: String,
}

/// Who sits in a seat: a person (through the seat's secret link) or the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person.
    Human,
    /// The engine.
    Engine,
}

impl Player {
    /// `human` or `engine`.
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

/// The colours a request may act for: `[white, black]` (docs/gui.md "Seats").
pub type Held = [bool; 2];

/// An offer of one side, waiting for the other's answer (docs/gui.md "Seats").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// A draw by agreement.
    Draw,
    /// Taking back the offerer's last turn.
    Takeback,
    /// A new game with the colours swapped (once this one is over).
    Rematch,
}

impl OfferKind {
    /// `draw`, `takeback` or `rematch`.
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
            OfferKind::Rematch => "rematch",
        }
    }

    /// The kind named `w`.
    pub fn from_word(w: &str) -> Option<OfferKind> {
        match w {
            "draw" => Some(OfferKind::Draw),
            "takeback" => Some(OfferKind::Takeback),
            "rematch" => Some(OfferKind::Rematch),
            _ => None,
        }
    }

    fn idx(self) -> usize {
        self as usize
    }
}

/// A new seat secret: 16 bytes (128 bits) from the operating system's random source, as 32
/// hex digits.
///
/// Errors: the operating system gives no random bytes.
pub fn new_secret() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes for a seat: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The whole record of one game.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The game's id (also its file name without `.pgn`).
    pub id: String,
    /// The variant's `UCI_Variant` name.
    pub variant: String,
    /// Who plays each colour, `[white, black]`.
    pub players: [Player; 2],
    /// The secret of each person's seat, `[white, black]` (`None` for the engine's, and for
    /// both seats of a game loaded without its `.seats` file: such a game is open to every
    /// page). Never written to the PGN or logged.
    pub seats: [Option<String>; 2],
    /// The offers waiting for an answer, by [`OfferKind`]: who made each.
    pub offers: [Option<Colour>; 3],
    /// The id of the rematch, once it is made.
    pub rematch: Option<String>,
    /// The engine's `Skill Level` (0-20).
    pub level: u8,
    /// `UCI_Elo` when the strength is limited by Elo.
    pub elo: Option<u32>,
    /// The engine's time per turn without a clock, milliseconds.
    pub movetime_ms: u64,
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The seed of a random setup.
    pub seed: Option<u64>,
    /// The start position.
    pub start_fen: String,
    /// The turns played, tokens.
    pub moves: Vec<String>,
    /// The same turns in PGN notation.
    pub notation: Vec<String>,
    /// The milliseconds each turn took, when known.
    pub times: Vec<Option<u64>>,
    /// The FEN after each number of turns (`fens[0]` is the start).
    pub fens: Vec<String>,
    /// The engine's score of each position, when it has one.
    pub evals: Vec<Option<Eval>>,
    /// What the engine says of the current position.
    pub report: PositionReport,
    /// The end of the game.
    pub result: Option<Outcome>,
    /// True while the engine searches for its turn.
    pub engine_thinking: bool,
    /// The game's review, when one was made (of these turns or of others: see
    /// [`GameState::review_of_game`]).
    pub review: Option<crate::gui::review::Review>,
    /// A review under way: positions searched, positions in all.
    pub review_progress: Option<(usize, usize)>,
    /// True while the game waits for a search place (every one of `--max-engines` is in
    /// use): its engine's turn, analysis or scoring starts when one is free.
    pub engine_waiting: bool,
    /// True while an analysis runs, with its position (turns from the start) and MultiPV.
    pub analysis: Option<(usize, u32)>,
    /// A message for the player.
    pub notice: Option<String>,
    /// The PGN `Date` tag.
    pub date: String,
    /// Seconds since 1970 of the last change.
    pub updated: u64,
    /// The players' names.
    pub names: [String; 2],
    /// Move words read from a PGN file and not yet replayed through the engine.
    pub pending_words: Vec<String>,
    /// Whether the record has been replayed through the engine since it was loaded.
    pub restored: bool,
}

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl GameState {
    /// A new game record (not yet set up by the engine).
    pub fn new(id: String, variant: String) -> GameState {
        GameState {
            id,
            variant,
            players: [Player::Human; 2],
            seats: [None, None],
            offers: [None; 3],
            rematch: None,
            level: 20,
            elo: None,
            movetime_ms: 1000,
            clock: None,
            seed: None,
            start_fen: String::new(),
            moves: Vec::new(),
            notation: Vec::new(),
            times: Vec::new(),
            fens: Vec::new(),
            evals: Vec::new(),
            report: PositionReport::default(),
            result: None,
            engine_thinking: false,
            engine_waiting: false,
            review: None,
            review_progress: None,
            analysis: None,
            notice: None,
            date: crate::tools::pgn::today(),
            updated: unix_now(),
            names: ["Player".into(), "Player".into()],
            pending_words: Vec::new(),
            restored: false,
        }
    }

    /// The side to move now.
    pub fn to_move(&self) -> Colour {
        Colour::to_move(&self.report.fen)
    }

    /// The review, if it is of the game's turns as they are now (a takeback or a new line
    /// makes it another game's).
    pub fn review_of_game(&self) -> Option<&crate::gui::review::Review> {
        self.review.as_ref().filter(|r| r.moves == self.moves)
    }

    /// Whether the engine plays `c`.
    pub fn is_engine(&self, c: Colour) -> bool {
        self.players[Clock::idx(c)] == Player::Engine
    }

    /// Whether the engine plays either colour.
    pub fn has_engine(&self) -> bool {
        self.players.contains(&Player::Engine)
    }

    /// The colours the engine plays as one word: `white`, `black`, `both` or `none` (the
    /// state's `engine` field and the PGN's `GuiEngine` tag).
    pub fn engine_word(&self) -> &'static str {
        match self.players {
            [Player::Engine, Player::Engine] => "both",
            [Player::Engine, Player::Human] => "white",
            [Player::Human, Player::Engine] => "black",
            [Player::Human, Player::Human] => "none",
        }
    }

    /// Sets who plays from an `engine` word as [`GameState::engine_word`] writes it
    /// (anything else: two people).
    pub fn set_engine_word(&mut self, w: &str) {
        self.players = match w {
            "both" => [Player::Engine, Player::Engine],
            "white" => [Player::Engine, Player::Human],
            "black" => [Player::Human, Player::Engine],
            _ => [Player::Human, Player::Human],
        };
    }

    /// The colours a person plays, `[white, black]`.
    pub fn humans(&self) -> Held {
        [
            self.players[0] == Player::Human,
            self.players[1] == Player::Human,
        ]
    }

    /// Whether the people's seats have secrets (every game made by this server; a game file
    /// without its `.seats` file is open to every page).
    pub fn seated(&self) -> bool {
        self.seats.iter().any(Option::is_some)
    }

    /// The colours the secrets `given` open, compared in constant time: in an open game,
    /// every person's colour; in a seated one, the colour of each secret that matches.
    pub fn held(&self, given: &[String]) -> Held {
        use subtle::ConstantTimeEq;
        if !self.seated() {
            return self.humans();
        }
        let mut held = [false; 2];
        for (i, secret) in self.seats.iter().enumerate() {
            if let Some(secret) = secret {
                held[i] = given
                    .iter()
                    .any(|g| bool::from(g.as_bytes().ct_eq(secret.as_bytes())));
            }
        }
        held
    }

    /// Whether `held` covers every person's seat (one page plays the whole game: against
    /// the engine, or both sides on one device).
    pub fn holds_all(&self, held: Held) -> bool {
        let h = self.humans();
        (h[0] || h[1]) && (!h[0] || held[0]) && (!h[1] || held[1])
    }

    /// The offer of `kind` waiting, and who made it.
    pub fn offer(&self, kind: OfferKind) -> Option<Colour> {
        self.offers[kind.idx()]
    }

    /// Makes (`Some`) or clears (`None`) the offer of `kind`.
    pub fn set_offer(&mut self, kind: OfferKind, by: Option<Colour>) {
        self.offers[kind.idx()] = by;
    }

    /// Ends the game with `score` (`1-0`, `0-1`, `1/2-1/2`) for `reason`: stops the clocks
    /// and drops the draw and takeback offers.
    pub fn end(&mut self, score: &str, reason: &str) {
        self.result = Some(Outcome {
            score: score.into(),
            reason: reason.into(),
        });
        if let Some(c) = self.clock.as_mut() {
            let left = [c.left_now(Colour::White), c.left_now(Colour::Black)];
            c.left_ms = left;
            c.running = None;
        }
        self.set_offer(OfferKind::Draw, None);
        self.set_offer(OfferKind::Takeback, None);
    }

    /// The engine's name in the PGN tags.
    pub fn engine_name(&self) -> String {
        match self.elo {
            Some(elo) => format!("menagerie (Elo {elo})"),
            None => format!("menagerie (level {})", self.level),
        }
    }

    /// The state as `GET /api/games/{id}` returns it (docs/gui.md).
    pub fn json(&self) -> Value {
        let claimable = if self.result.is_none() {
            self.report.claimable.clone()
        } else {
            None
        };
        json!({
            "id": self.id,
            "variant": self.variant,
            "engine": self.engine_word(),
            "players": {
                "white": self.players[0].word(),
                "black": self.players[1].word(),
            },
            "seated": self.seated(),
            "offers": {
                "draw": self.offer(OfferKind::Draw).map(Colour::word),
                "takeback": self.offer(OfferKind::Takeback).map(Colour::word),
                "rematch": self.offer(OfferKind::Rematch).map(Colour::word),
            },
            "rematch": self.rematch,
            "white": self.names[0],
            "black": self.names[1],
            "start_fen": self.start_fen,
            "fen": self.report.fen,
            "moves": self.moves,
            "notation": self.notation,
            "fens": self.fens,
            "evals": self.evals,
            "legal": if self.result.is_some() { Vec::new() } else { self.report.legal.clone() },
            "legal_notation": if self.result.is_some() { Vec::new() } else { self.report.legal_notation.clone() },
            "to_move": self.to_move().word(),
            "check": self.report.check,
            "details": self.report.details,
            "result": self.result,
            "claimable": claimable,
            "engine_thinking": self.engine_thinking,
            "engine_waiting": self.engine_waiting,
            "reviewed": self.review_of_game().is_some(),
            "review_progress": self.review_progress.map(|(done, total)| serde_json::json!({"done": done, "total": total})),
            "analysis": self.analysis.map(|(ply, multipv)| json!({"ply": ply, "multipv": multipv})),
            "notice": self.notice,
            "level": self.level,
            "elo": self.elo,
            "movetime_ms": self.movetime_ms,
            "seed": self.seed,
            "clock": self.clock.as_ref().map(Clock::json),
            "restored": self.restored,
        })
    }

    /// The summary line of `GET /api/games`.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "variant": self.variant,
            "white": self.names[0],
            "black": self.names[1],
            "result": self.result.as_ref().map_or("*", |r| r.score.as_str()),
            "plies": self.moves.len() + self.pending_words.len(),
            "updated": self.updated,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_opens_only_its_own_colour() {
        let mut g = GameState::new("g".into(), "chess".into());
        assert_eq!(
            g.held(&[]),
            [true, true],
            "an open game: every person's colour"
        );
        let (w, b) = (new_secret().unwrap(), new_secret().unwrap());
        assert_eq!(w.len(), 32);
        assert_ne!(w, b);
        g.seats = [Some(w.clone()), Some(b.clone())];
        assert_eq!(g.held(&[]), [false, false]);
        assert_eq!(g.held(std::slice::from_ref(&w)), [true, false]);
        assert_eq!(g.held(&[b.clone(), w.clone()]), [true, true]);
        assert_eq!(
            g.held(&[w[..31].to_string()]),
            [false, false],
            "a prefix opens nothing"
        );
        assert!(g.holds_all([true, true]) && !g.holds_all([true, false]));
        g.set_engine_word("black");
        g.seats[1] = None;
        assert!(
            g.holds_all([true, false]),
            "against the engine one seat is all"
        );
        assert_eq!(g.engine_word(), "black");
    }

    #[test]
    fn clock_presses_add_the_increment() {
        let mut c = Clock {
            base_ms: 1000,
            inc_ms: 100,
            left_ms: [1000, 1000],
            running: Some((Colour::White, Instant::now())),
        };
        c.press(Colour::White);
        assert!(c.left_ms[0] > 1000 && c.left_ms[0] <= 1100);
        assert_eq!(c.running.map(|r| r.0), Some(Colour::Black));
        assert!(c.deadline().is_some());
    }
}
