//! The answers of an engine, parsed: `option` lines, `bestmove`, `info` lines with a score,
//! the `variant` description, and the report of a position (`d`, `moves`, `moves pgn`,
//! `check`, `result`), as docs/protocol.md gives them. Nothing here knows a rule of any
//! variant.

use serde::{Serialize, Serializer};

/// One `option name <Name> type <type> ... [var <v>]...` line of an engine's `uci` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name (may hold spaces).
    pub name: String,
    /// The type (`spin`, `combo`, `check`, `string`, `button`).
    pub kind: String,
    /// The `var` values of a combo option, in order (empty for other types).
    pub vars: Vec<String>,
    /// The `min` and `max` of a spin option.
    pub range: Option<(i64, i64)>,
}

impl EngineOption {
    /// Reads an `option` line; `None` for any other line or one without `name ... type`.
    pub fn parse(line: &str) -> Option<EngineOption> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        let type_at = words.iter().position(|w| *w == "type")?;
        if type_at <= 2 {
            return None;
        }
        let after = &words[type_at..];
        let vars = after
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect();
        let value = |key: &str| {
            after
                .windows(2)
                .find(|w| w[0] == key)
                .and_then(|w| w[1].parse::<i64>().ok())
        };
        Some(EngineOption {
            name: words[2..type_at].join(" "),
            kind: after.get(1).unwrap_or(&"").to_string(),
            vars,
            range: value("min").zip(value("max")),
        })
    }
}

/// The token of a `bestmove <token> [ponder <token>]` line.
pub fn parse_bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("0000").to_string())
}

/// One piece type of a variant (an `info string piece` line).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PieceDesc {
    /// The FEN code of the White piece.
    pub code: String,
    /// The piece's name.
    pub name: String,
    /// Its movement in Betza notation and words (what a morphing piece becomes included).
    pub movement: String,
}

/// One FEN field as the `variant` command describes it (`info string field <key> <kind>
/// [sep <c>] | <label>`, protocol.md 8).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FieldDesc {
    /// `castling`, `ep`, `halfmove`, `fullmove`, or `tag:<key>`.
    pub key: String,
    /// `text`, `number`, `pair` (`W/B` counts) or `pieces` (`W/B` piece codes).
    pub kind: String,
    /// For `pieces`: the separator between codes, or `None` when they are written one after
    /// the other.
    pub sep: Option<String>,
    /// What the field holds, for a person.
    pub label: String,
}

/// A variant as the `variant` command describes it (protocol.md 8): `GET /api/variants`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VariantDesc {
    /// The `UCI_Variant` name.
    pub name: String,
    /// Files of the board's box.
    pub files: u32,
    /// Rank rows of the board's box.
    pub ranks: u32,
    /// The label of the bottom rank.
    pub first_rank: u32,
    /// Cells of the box that are not squares.
    pub holes: Vec<String>,
    /// Whether the FEN carries a hand in `[...]` after the board.
    pub pocket: bool,
    /// The most `;`-separated portions of a turn token.
    pub portions: u32,
    /// The start position's FEN.
    pub startpos: String,
    /// Other names of the variant (`info string aliases`), lower case, as the engine's
    /// registry keeps them: a PGN's `Variant` tag may use them.
    pub aliases: Vec<String>,
    /// What a game needs before its first turn (`seed`, `army`).
    pub pregame: Vec<String>,
    /// The FEN fields a position sets beside its board and hand, in FEN order (`info string
    /// field` lines): what a board editor offers.
    pub fields: Vec<FieldDesc>,
    /// The piece types.
    pub pieces: Vec<PieceDesc>,
}

/// A step a game of a variant needs before its first turn, as the variant's description
/// names it (`info string pregame <kind>`, protocol.md 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pregame {
    /// `seed`: the game starts from a random setup that `setup <seed>` draws.
    Seed,
    /// `army`: the players build and choose armies (`muster propose`, `muster choose`,
    /// `muster assign`).
    Army,
}

impl Pregame {
    /// The step a `pregame` word names; `None` for a word this client does not know.
    pub fn parse(kind: &str) -> Option<Pregame> {
        match kind {
            "seed" => Some(Pregame::Seed),
            "army" => Some(Pregame::Army),
            _ => None,
        }
    }
}

impl VariantDesc {
    /// The variant's pre-game steps, in the order the engine named them.
    ///
    /// Errors: a message naming a step this client cannot carry out.
    pub fn pregame_steps(&self) -> Result<Vec<Pregame>, String> {
        self.pregame
            .iter()
            .map(|k| {
                Pregame::parse(k)
                    .ok_or_else(|| format!("{}: unknown pre-game step '{k}'", self.name))
            })
            .collect()
    }

    /// Whether `tag` names this variant: its name or one of its aliases, compared without
    /// case, spaces, dashes and underscores (a PGN `Variant` tag: `From Position`, `Mulligan
    /// Stew`).
    pub fn is_named(&self, tag: &str) -> bool {
        let t: String = tag
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .collect::<String>()
            .to_ascii_lowercase();
        self.name == t || self.aliases.contains(&t)
    }

    /// Whether the variant has the pre-game step `step`.
    pub fn has_pregame(&self, step: Pregame) -> bool {
        self.pregame_steps().is_ok_and(|s| s.contains(&step))
    }
}

/// Parses the answer of the `variant` command.
///
/// Errors: a message when the first line is not an `info string variant` line.
pub fn parse_variant(lines: &[String]) -> Result<VariantDesc, String> {
    let head = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string variant "))
        .ok_or("no 'info string variant' line")?;
    let (before, startpos) = head
        .split_once(" startpos ")
        .ok_or("the variant line has no startpos")?;
    let words: Vec<&str> = before.split_whitespace().collect();
    let name = words
        .first()
        .ok_or("the variant line has no name")?
        .to_string();
    let field = |key: &str| -> u32 {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let mut desc = VariantDesc {
        name,
        files: field("files"),
        ranks: field("ranks"),
        first_rank: 1,
        holes: Vec::new(),
        pocket: field("pocket") == 1,
        portions: field("portions").max(1),
        startpos: startpos.to_string(),
        aliases: Vec::new(),
        pregame: Vec::new(),
        fields: Vec::new(),
        pieces: Vec::new(),
    };
    for line in lines {
        if let Some(rest) = line.strip_prefix("info string board ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            if let Some(i) = w.iter().position(|x| *x == "firstrank") {
                desc.first_rank = w.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(1);
            }
            if let Some(i) = w.iter().position(|x| *x == "holes") {
                desc.holes = w[i + 1..]
                    .iter()
                    .filter(|h| **h != "-")
                    .map(|h| h.to_string())
                    .collect();
            }
        } else if let Some(rest) = line.strip_prefix("info string aliases ") {
            desc.aliases = rest
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect();
        } else if let Some(rest) = line.strip_prefix("info string field ") {
            let (head, label) = rest.split_once(" | ").unwrap_or((rest, ""));
            let w: Vec<&str> = head.split_whitespace().collect();
            if let [key, kind, more @ ..] = w.as_slice() {
                desc.fields.push(FieldDesc {
                    key: key.to_string(),
                    kind: kind.to_string(),
                    sep: match more {
                        ["sep", c] => Some(c.to_string()),
                        _ => None,
                    },
                    label: label.to_string(),
                });
            }
        } else if let Some(kind) = line.strip_prefix("info string pregame ") {
            desc.pregame.push(kind.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("info string piece code ") {
            let Some((code, rest)) = rest.split_once(" name ") else {
                continue;
            };
            let (name, movement) = rest.split_once(" | ").unwrap_or((rest, ""));
            desc.pieces.push(PieceDesc {
                code: code.to_string(),
                name: name.to_string(),
                movement: movement.to_string(),
            });
        }
    }
    if desc.files == 0 || desc.ranks == 0 {
        return Err("the variant line has no board size".into());
    }
    Ok(desc)
}

/// A score as the engine reports it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreValue {
    /// Centipawns.
    Cp(i32),
    /// Turns to mate (negative: the side to move is mated).
    Mate(i32),
}

/// One `info` line with a score and a PV (`info` events of docs/gui.md).
#[derive(Clone, Debug, Serialize, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// The line's rank (1 = best).
    pub multipv: u32,
    /// Search depth, plies (`None` when the line has none; written as 0 in JSON).
    #[serde(serialize_with = "zero_if_none")]
    pub depth: Option<u32>,
    /// Selective depth, plies.
    pub seldepth: u32,
    /// The score.
    pub score: Option<ScoreValue>,
    /// `lowerbound` / `upperbound` when the score is a bound.
    pub bound: Option<String>,
    /// Win, draw and loss chances of the side to move, permille.
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// The principal variation, turn tokens.
    pub pv: Vec<String>,
}

/// Parses an `info` line that has a score (`cp` or `mate` with a number); `None` for other
/// lines. A line without `multipv` is the first line.
pub fn parse_info(line: &str) -> Option<InfoLine> {
    let rest = line.strip_prefix("info ")?;
    if rest.starts_with("string") {
        return None;
    }
    let w: Vec<&str> = rest.split_whitespace().collect();
    let mut info = InfoLine {
        multipv: 1,
        ..InfoLine::default()
    };
    let num = |i: usize| w.get(i).and_then(|v| v.parse::<i64>().ok());
    let mut i = 0;
    while i < w.len() {
        match w[i] {
            "depth" => info.depth = num(i + 1).map(|d| d.max(0) as u32),
            "seldepth" => info.seldepth = num(i + 1).unwrap_or(0).max(0) as u32,
            "multipv" => info.multipv = num(i + 1).unwrap_or(1).max(1) as u32,
            "nodes" => info.nodes = num(i + 1).unwrap_or(0).max(0) as u64,
            "nps" => info.nps = num(i + 1).unwrap_or(0).max(0) as u64,
            "time" => info.time_ms = num(i + 1).unwrap_or(0).max(0) as u64,
            "score" => {
                let v = w.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                info.score = match (w.get(i + 1), v) {
                    (Some(&"cp"), Some(v)) => Some(ScoreValue::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(ScoreValue::Mate(v)),
                    _ => None,
                };
                i += 3;
                continue;
            }
            "lowerbound" | "upperbound" => {
                // A flag without a value.
                info.bound = Some(w[i].to_string());
                i += 1;
                continue;
            }
            "wdl" => {
                if let (Some(a), Some(b), Some(c)) = (num(i + 1), num(i + 2), num(i + 3)) {
                    info.wdl = Some([a.max(0) as u32, b.max(0) as u32, c.max(0) as u32]);
                }
                i += 4;
                continue;
            }
            "pv" => {
                info.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info.score?;
    Some(info)
}

/// What the GUI shows of a position: the answers to `d`, `moves`, `moves pgn`, `check` and
/// `result` after a `position` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionReport {
    /// The FEN (`Fen:` line of `d`).
    pub fen: String,
    /// The labelled lines the variant prints under its board, but the FEN, key, checkers
    /// and result.
    pub details: Vec<String>,
    /// The legal turn tokens.
    pub legal: Vec<String>,
    /// Their PGN notation, in the same order.
    pub legal_notation: Vec<String>,
    /// Squares of royal pieces in check.
    pub check: Vec<String>,
    /// `(score, reason)` when the game is over by rule.
    pub result: Option<(String, String)>,
    /// The reason of a draw the side to move may claim.
    pub claimable: Option<String>,
}

/// The commands whose answers make a [`PositionReport`] (after a `position` command).
pub fn report_commands() -> [String; 5] {
    [
        "d".into(),
        "moves".into(),
        "moves pgn".into(),
        "check".into(),
        "result".into(),
    ]
}

/// Parses the answers to [`report_commands`].
///
/// Errors: a message when the `d` output has no `Fen:` line.
pub fn parse_report(lines: &[String]) -> Result<PositionReport, String> {
    let mut r = PositionReport::default();
    for line in lines {
        if let Some(fen) = line.strip_prefix("Fen: ") {
            r.fen = fen.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("info string moves pgn") {
            r.legal_notation = rest.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("info string moves") {
            r.legal = rest.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("info string check") {
            r.check = rest
                .split_whitespace()
                .filter(|s| *s != "-")
                .map(str::to_string)
                .collect();
        } else if let Some(rest) = line.strip_prefix("info string result ") {
            let rest = rest.trim();
            if rest != "none" {
                let (score, reason) = rest.split_once(' ').unwrap_or((rest, ""));
                let reason = reason.trim().trim_start_matches('{').trim_end_matches('}');
                r.result = Some((score.to_string(), reason.to_string()));
            }
        } else if let Some(rest) = line.strip_prefix("info string draw claimable ") {
            r.claimable = Some(
                rest.trim()
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .into(),
            );
        } else if is_detail(line) {
            r.details.push(line.trim().to_string());
        }
    }
    if r.fen.is_empty() {
        return Err("the engine's 'd' printed no FEN".into());
    }
    if r.legal_notation.len() != r.legal.len() {
        r.legal_notation = r.legal.clone();
    }
    Ok(r)
}

/// A labelled line of `d` worth showing: `Label: text`, not the FEN, key, checkers or result.
fn is_detail(line: &str) -> bool {
    let Some((label, _)) = line.split_once(": ") else {
        return false;
    };
    let first = label.chars().next().unwrap_or(' ');
    first.is_ascii_uppercase()
        && label.len() <= 48
        && !matches!(label, "Fen" | "Key" | "Checkers" | "Result")
        && !line.starts_with("info ")
}

/// Writes a missing number as 0 (the GUI's `info` events always have a depth).
fn zero_if_none<S: Serializer>(v: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(v.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_answer_is_parsed() {
        let lines: Vec<String> = [
            "info string variant mitosis files 9 ranks 11 pocket 1 portions 2 startpos ***3***/9 w - - 0 1",
            "info string board firstrank 0 holes a0 b0",
            "info string aliases standard normal",
            "info string pregame seed",
            "info string piece code K name King | K; not royal (2)",
            "info string piece code N11 name Hydra NN11 | crooked nightrider; becomes N02",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let d = parse_variant(&lines).unwrap();
        assert_eq!(
            (d.files, d.ranks, d.first_rank, d.pocket, d.portions),
            (9, 11, 0, true, 2)
        );
        assert_eq!(d.holes, vec!["a0", "b0"]);
        assert_eq!(d.startpos, "***3***/9 w - - 0 1");
        assert_eq!(d.pregame, vec!["seed"]);
        assert_eq!(d.pregame_steps(), Ok(vec![Pregame::Seed]));
        assert_eq!(d.aliases, vec!["standard", "normal"]);
        assert!(d.is_named("Mitosis") && d.is_named("Standard") && !d.is_named("chess"));
        assert!(d.has_pregame(Pregame::Seed) && !d.has_pregame(Pregame::Army));
        let odd = VariantDesc {
            pregame: vec!["auction".into()],
            ..d.clone()
        };
        assert!(odd.pregame_steps().unwrap_err().contains("'auction'"));
        assert_eq!(d.pieces[1].code, "N11");
        assert_eq!(d.pieces[1].movement, "crooked nightrider; becomes N02");
        assert!(parse_variant(&["readyok".to_string()]).is_err());
    }

    #[test]
    fn info_lines_are_parsed() {
        let i = parse_info(
            "info depth 12 seldepth 18 multipv 2 score mate -3 wdl 0 10 990 upperbound nodes 1234 nps 5000 hashfull 3 time 250 pv e2e4 e7e5;M@b3",
        )
        .unwrap();
        assert_eq!(i.multipv, 2);
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(ScoreValue::Mate(-3)));
        assert_eq!(i.wdl, Some([0, 10, 990]));
        assert_eq!(i.bound.as_deref(), Some("upperbound"));
        assert_eq!((i.nodes, i.nps, i.time_ms), (1234, 5000, 250));
        assert_eq!(i.pv, vec!["e2e4", "e7e5;M@b3"]);
        assert!(parse_info("info string hello").is_none());
        assert!(parse_info("info depth 3 nodes 4").is_none());
        // The score needs a number; a line without depth has none.
        assert!(parse_info("info depth 4 score cp x").is_none());
        assert_eq!(parse_info("info score cp 7").unwrap().depth, None);
        let json = serde_json::to_value(parse_info("info score cp 7").unwrap()).unwrap();
        assert_eq!(json["depth"], 0);
    }

    #[test]
    fn position_report_is_parsed() {
        let lines: Vec<String> = [
            " 7  r a k k a c",
            "Fen: rakkac/6/6/6/6/6/RAKKAC[Mm] w - - 0 1 pool:Q/q",
            "Key: A5693A72FD1EA24B",
            "Turn: white portion L (light)",
            "Hand: white M black M",
            "Result: none",
            "info string moves M@b3;c1c3 0000;b2b3",
            "info string moves pgn M@b3;c1c3 0000;b2b3",
            "info string check -",
            "info string result 1/2-1/2 {threefold repetition}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = parse_report(&lines).unwrap();
        assert_eq!(r.fen, "rakkac/6/6/6/6/6/RAKKAC[Mm] w - - 0 1 pool:Q/q");
        assert_eq!(
            r.details,
            vec!["Turn: white portion L (light)", "Hand: white M black M"]
        );
        assert_eq!(r.legal, vec!["M@b3;c1c3", "0000;b2b3"]);
        assert!(r.check.is_empty());
        assert_eq!(
            r.result,
            Some(("1/2-1/2".to_string(), "threefold repetition".to_string()))
        );
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(
            parse_bestmove("bestmove e2e4 ponder e7e5").as_deref(),
            Some("e2e4")
        );
        assert_eq!(parse_bestmove("info depth 1"), None);
        assert_eq!(parse_bestmove("bestmove").as_deref(), Some("0000"));
    }

    #[test]
    fn option_lines() {
        let o = EngineOption::parse(
            "option name UCI_Variant type combo default chess var chess var mystic",
        )
        .unwrap();
        assert_eq!(o.name, "UCI_Variant");
        assert_eq!(o.vars, ["chess", "mystic"]);
        let o = EngineOption::parse("option name Move Overhead type spin default 10").unwrap();
        assert_eq!(
            (o.name.as_str(), o.kind.as_str()),
            ("Move Overhead", "spin")
        );
        let o = EngineOption::parse("option name UCI_Elo type spin default 1350 min 1320 max 3190")
            .unwrap();
        assert_eq!(o.range, Some((1320, 3190)));
        assert!(EngineOption::parse("option name type spin").is_none());
        assert!(EngineOption::parse("id name x").is_none());
    }
}

/// A piece's moves from one square of an empty board, as the `diagram` command answers
/// (protocol.md 8): `GET /api/variants/{variant}/pieces/{code}/diagram`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DiagramDesc {
    /// The square the piece stands on.
    pub square: String,
    /// The squares it moves to without capturing.
    pub moves: Vec<String>,
    /// The squares on which it captures a lone enemy piece (or one behind a screen).
    pub captures: Vec<String>,
    /// The squares of `moves` and `captures` it reaches by riding (a piece between would cut
    /// them off); the others are leaps.
    pub rides: Vec<String>,
    /// The squares of `captures` that need a screen to hop.
    pub hops: Vec<String>,
    /// The code of the piece it becomes after it acts, if it morphs.
    pub becomes: Option<String>,
}

/// Parses the answer of `diagram <code> <square>`: its `info string diagram` line.
///
/// Errors: the engine's `info string error` reason, or a message when no diagram line came.
pub fn parse_diagram(lines: &[String]) -> Result<DiagramDesc, String> {
    if let Some(e) = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string error "))
    {
        return Err(e.to_string());
    }
    let rest = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string diagram "))
        .ok_or("no 'info string diagram' line")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    const KEYS: [&str; 7] = [
        "piece", "square", "moves", "captures", "rides", "hops", "becomes",
    ];
    let field = |key: &str| -> Vec<String> {
        let Some(i) = words.iter().position(|w| *w == key) else {
            return Vec::new();
        };
        words[i + 1..]
            .iter()
            .take_while(|w| !KEYS.contains(w))
            .filter(|w| **w != "-")
            .map(|w| w.to_string())
            .collect()
    };
    let square = field("square")
        .into_iter()
        .next()
        .ok_or("the diagram line has no square")?;
    Ok(DiagramDesc {
        square,
        moves: field("moves"),
        captures: field("captures"),
        rides: field("rides"),
        hops: field("hops"),
        becomes: field("becomes").into_iter().next(),
    })
}
