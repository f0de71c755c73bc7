//! Turns and the end of a game: a turn played by the person or the engine, a turn at an
//! earlier position (a new line), the legal turns of a position, the engine's search for its
//! turn and the lines it prints, the clock's flag, takeback, resignation, a claimed draw, and
//! the preview of a turn's first portions.

use std::time::Instant;

use serde_json::{json, Value};

use super::seats::seat_of;
use super::{Driver, Search};
use crate::client::{parse_bestmove, parse_info, InfoLine};
use crate::gui::error::ApiError;
use crate::gui::record::{Clock, Colour, Eval, Held, OfferKind};
use crate::gui::slot::Event;

impl Driver {
    /// Plays `token` (legal now) and asks the engine for the new position.
    pub(super) async fn apply(
        &mut self,
        token: &str,
        time_ms: Option<u64>,
    ) -> Result<(), ApiError> {
        let (ply, notation) = {
            let st = self.slot.lock();
            let i = st
                .report
                .legal
                .iter()
                .position(|t| t == token)
                .ok_or_else(|| ApiError::unprocessable(format!("illegal turn '{token}'")))?;
            (st.moves.len(), st.report.legal_notation[i].clone())
        };
        let extra = [token.to_string()];
        let position = self.position_line(ply, &extra);
        let report = self.report_api(position.clone()).await?;
        let mut st = self.slot.lock();
        // A turn answers the other side's draw or takeback offer with a no.
        let waiting = st.to_move().other();
        for kind in [OfferKind::Draw, OfferKind::Takeback] {
            if st.offer(kind) == Some(waiting) {
                st.set_offer(kind, None);
            }
        }
        st.moves.push(token.to_string());
        st.notation.push(notation);
        st.times.truncate(ply);
        st.times.push(time_ms);
        st.fens.truncate(ply + 1);
        st.fens.push(report.fen.clone());
        st.evals.resize(ply + 1, None);
        st.evals.push(None);
        if let Some((score, reason)) = report.result.clone() {
            st.end(&score, &reason);
        }
        st.report = report;
        Ok(())
    }

    /// Makes the position after `ply` turns the current one, dropping the turns after it
    /// (games without the engine only; the caller has checked the turn to be played there).
    pub(super) async fn branch(&mut self, ply: usize) -> Result<(), ApiError> {
        let (n, engine) = {
            let st = self.slot.lock();
            (st.moves.len(), st.has_engine())
        };
        if ply > n {
            return Err(ApiError::unprocessable(format!(
                "ply {ply}: the game has {n} turns"
            )));
        }
        if ply == n {
            return Ok(());
        }
        if engine {
            return Err(ApiError::unprocessable(
                "a game against the engine goes on from its last position",
            ));
        }
        if self.search.is_some() {
            self.stop_search().await;
        }
        let position = self.position_line(ply, &[]);
        let report = self.report_api(position.clone()).await?;
        let mut st = self.slot.lock();
        st.moves.truncate(ply);
        st.notation.truncate(ply);
        st.times.truncate(ply);
        st.fens.truncate(ply + 1);
        st.evals.truncate(ply + 1);
        st.result = None;
        st.report = report;
        if let Some((p, k)) = st.analysis {
            st.analysis = Some((p.min(ply), k));
        }
        Ok(())
    }

    /// The legal turns of the position after `ply` turns.
    pub(super) async fn legal_at(&mut self, ply: usize) -> Result<Value, ApiError> {
        let n = self.slot.lock().moves.len();
        if ply > n {
            return Err(ApiError::unprocessable(format!(
                "ply {ply}: the game has {n} turns"
            )));
        }
        let report = if ply == n {
            self.slot.lock().report.clone()
        } else {
            // A query engine answers: a running search goes on.
            let position = self.position_line(ply, &[]);
            self.report_api(position).await?
        };
        Ok(json!({
            "ply": ply,
            "fen": report.fen,
            "legal": report.legal,
            "legal_notation": report.legal_notation,
        }))
    }

    pub(super) async fn play_person(
        &mut self,
        token: &str,
        held: Held,
        received: Instant,
    ) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if !st.restored {
                return Err(ApiError::unprocessable("the game is not loaded yet"));
            }
            if let Some(r) = &st.result {
                return Err(ApiError::unprocessable(format!(
                    "the game is over ({} {})",
                    r.score, r.reason
                )));
            }
            if st.is_engine(st.to_move()) {
                return Err(ApiError::unprocessable("it is the engine's turn"));
            }
            if !held[Clock::idx(st.to_move())] {
                return Err(ApiError::forbidden(format!(
                    "it is {}'s turn, and this page does not hold {}'s seat",
                    st.to_move().word(),
                    st.to_move().word()
                )));
            }
            if !st.report.legal.iter().any(|t| t == token) {
                return Err(ApiError::unprocessable(format!(
                    "illegal turn '{token}' (not in legal)"
                )));
            }
        }
        // An analysis of the old position ends first.
        if self.search.is_some() {
            self.stop_search().await;
        }
        let spent = {
            let mut st = self.slot.lock();
            let mover = st.to_move();
            let ply = st.moves.len();
            match st.clock.as_mut() {
                Some(c) if c.running.is_some() => Some(c.press(mover)),
                Some(c) => {
                    // The first turn of each side starts the clocks.
                    if ply >= 1 {
                        c.running = Some((mover.other(), Instant::now()));
                    }
                    None
                }
                None => None,
            }
        };
        self.apply(token, spent).await?;
        self.changed();
        self.resume_timed(Some(received)).await;
        Ok(self.ctx.state_json(self.slot.json()))
    }

    /// After a change: the engine moves if it is its turn, or the analysis goes on at the
    /// new position.
    pub(super) async fn resume(&mut self) {
        self.resume_timed(None).await;
    }

    pub(super) async fn resume_timed(&mut self, received: Option<Instant>) {
        if self.search.is_some() {
            return;
        }
        let (engine_turn, analysis, ply, over) = {
            let st = self.slot.lock();
            (
                st.restored && st.result.is_none() && st.is_engine(st.to_move()),
                st.analysis,
                st.moves.len(),
                st.result.is_some(),
            )
        };
        if engine_turn {
            if let Err(e) = self.start_move_search(ply, received).await {
                self.slot.lock().notice = Some(format!("The engine could not move: {}", e.message));
                self.changed();
            }
        } else if let Some((aply, multipv)) = analysis {
            let _ = over;
            let _ = self.start_analysis(aply.min(ply), multipv).await;
        } else if !self.eval_queue.is_empty() {
            let _ = self.start_evaluate().await;
        } else if self.review_job.is_some() {
            let _ = self.start_review_search().await;
        }
    }

    /// Whether [`Driver::resume_timed`] would start a search now.
    pub(super) fn needs_search(&self) -> bool {
        if self.search.is_some() {
            return false;
        }
        let st = self.slot.lock();
        (st.restored && st.result.is_none() && st.is_engine(st.to_move()))
            || st.analysis.is_some()
            || !self.eval_queue.is_empty()
            || self.review_job.is_some()
    }

    pub(super) async fn start_move_search(
        &mut self,
        ply: usize,
        received: Option<Instant>,
    ) -> Result<(), ApiError> {
        if !self.want_place(received) {
            return Ok(());
        }
        self.with_retry(|d| Box::pin(d.set_strength(false, 1)))
            .await?;
        let position = self.position_line(ply, &[]);
        let go = {
            let st = self.slot.lock();
            match &st.clock {
                Some(c) => format!(
                    "go wtime {} btime {} winc {} binc {}",
                    c.left_now(Colour::White).max(0),
                    c.left_now(Colour::Black).max(0),
                    c.inc_ms,
                    c.inc_ms
                ),
                None => format!("go movetime {}", st.movetime_ms),
            }
        };
        self.send_search(&position, &go).await?;
        if let Some(at) = received {
            self.ctx
                .metrics
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .record_move_to_go(at.elapsed());
        }
        self.search = Some((Search::Move(ply), Instant::now()));
        self.last_info.clear();
        self.slot.lock().engine_thinking = true;
        self.changed();
        Ok(())
    }

    /// The game's notation of `pv`, a line from the position after `ply` turns, as the
    /// describing engine writes it (`notation`, protocol.md 8); `None` when it cannot.
    pub(super) async fn pv_notation(&mut self, ply: usize, pv: &[String]) -> Option<Vec<String>> {
        if pv.is_empty() {
            return None;
        }
        let (variant, fen) = {
            let st = self.slot.lock();
            (st.variant.clone(), st.fens.get(ply)?.clone())
        };
        let commands = [
            format!("position fen {fen}"),
            format!("notation {}", pv.join(" ")),
        ];
        let lines = self
            .ctx
            .engines
            .query(&variant, &commands, false)
            .await
            .ok()?;
        let words = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string notation"))?
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>();
        (words.len() == pv.len()).then_some(words)
    }

    pub(super) async fn on_line(&mut self, line: String) {
        let Some((search, _)) = self.search else {
            return;
        };
        if let Some(info) = parse_info(&line) {
            let ply = search.ply();
            let k = info.multipv as usize;
            if self.last_info.len() < k {
                self.last_info.resize(k, InfoLine::default());
            }
            self.last_info[k - 1] = info.clone();
            if info.multipv == 1 && info.bound.is_none() {
                let mut st = self.slot.lock();
                if let (Some(score), Some(slot)) = (info.score, st.evals.get_mut(ply)) {
                    if slot.is_none_or(|e| e.depth <= info.depth.unwrap_or(0)) {
                        *slot = Some(Eval {
                            score,
                            depth: info.depth.unwrap_or(0),
                        });
                    }
                }
            }
            let pv_notation = match search {
                Search::Evaluate(_) | Search::Review(_) => None,
                _ => self.pv_notation(ply, &info.pv).await,
            };
            let mut v = serde_json::to_value(&info).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("ply".into(), json!(ply));
                if let Some(words) = pv_notation {
                    o.insert("pv_notation".into(), json!(words));
                }
                o.insert(
                    "kind".into(),
                    json!(match search {
                        Search::Move(_) => "move",
                        Search::Analysis(_) => "analysis",
                        Search::Evaluate(_) => "evaluate",
                        Search::Review(_) => "review",
                    }),
                );
            }
            self.publish(Event::Info(v));
            return;
        }
        let Some(token) = parse_bestmove(&line) else {
            return;
        };
        self.search = None;
        self.publish(Event::BestMove(
            json!({"token": token, "ply": search.ply()}),
        ));
        match search {
            Search::Move(ply) => self.engine_moved(ply, &token).await,
            Search::Evaluate(_) => {
                self.changed();
                self.resume().await;
            }
            Search::Review(ply) => self.reviewed(ply, &token).await,
            Search::Analysis(_) => {
                // An infinite analysis ends only when stopped; nothing to do.
            }
        }
    }

    pub(super) async fn engine_moved(&mut self, ply: usize, token: &str) {
        let valid = {
            let mut st = self.slot.lock();
            st.engine_thinking = false;
            st.moves.len() == ply
                && st.result.is_none()
                && st.report.legal.iter().any(|t| t == token)
        };
        if !valid {
            if self.slot.lock().result.is_none() && self.slot.lock().moves.len() == ply {
                self.slot.lock().notice = Some(format!(
                    "The engine played '{token}', which is not legal here."
                ));
                let mut st = self.slot.lock();
                let side = st.to_move();
                st.end(side.other().wins(), "illegal move by the engine");
            }
            self.changed();
            return;
        }
        let spent = {
            let mut st = self.slot.lock();
            let mover = st.to_move();
            let moves = st.moves.len();
            match st.clock.as_mut() {
                Some(c) if c.running.is_some() => Some(c.press(mover)),
                Some(c) => {
                    if moves >= 1 {
                        c.running = Some((mover.other(), Instant::now()));
                    }
                    None
                }
                None => None,
            }
        };
        if let Err(e) = self.apply(token, spent).await {
            self.slot.lock().notice = Some(format!(
                "The engine's turn could not be played: {}",
                e.message
            ));
        }
        self.changed();
        self.resume().await;
    }

    pub(super) async fn flag_fell(&mut self) {
        {
            let mut st = self.slot.lock();
            if st.result.is_some() {
                return;
            }
            let Some(c) = st.clock.as_mut() else {
                return;
            };
            let Some((side, _)) = c.running else {
                return;
            };
            if c.left_now(side) > 0 {
                return;
            }
            let i = Clock::idx(side);
            c.left_ms[i] = 0;
            c.running = None;
            st.end(side.other().wins(), "time forfeit");
        }
        if matches!(self.search, Some((Search::Move(_), _))) {
            self.stop_search().await;
        }
        self.changed();
    }

    /// A takeback asked by a page holding `held`: at once where the page holds every
    /// person's seat (back to the person's last turn against the engine, one turn on one
    /// device); between two people, an offer, or the acceptance of the other's (back to the
    /// position before the offerer's last turn).
    pub(super) async fn takeback(&mut self, held: Held) -> Result<Value, ApiError> {
        let target = {
            let st = self.slot.lock();
            let me = seat_of(&st, held)?;
            if st
                .result
                .as_ref()
                .is_some_and(|r| matches!(r.reason.as_str(), "resignation" | "time forfeit"))
            {
                return Err(ApiError::unprocessable(
                    "a resigned or lost-on-time game cannot be taken back",
                ));
            }
            let n = st.moves.len();
            let before_turn_of =
                |c: Colour| (0..n).rev().find(|&p| Colour::to_move(&st.fens[p]) == c);
            let none = || ApiError::unprocessable("there is no turn of yours to take back");
            if st.holds_all(held) {
                match st.humans() {
                    [true, true] => n.checked_sub(1).ok_or_else(none)?,
                    [w, _] => before_turn_of(if w { Colour::White } else { Colour::Black })
                        .ok_or_else(none)?,
                }
            } else if st.offer(OfferKind::Takeback) == Some(me.other()) {
                before_turn_of(me.other()).ok_or_else(none)?
            } else {
                before_turn_of(me).ok_or_else(none)?;
                drop(st);
                self.slot.lock().set_offer(OfferKind::Takeback, Some(me));
                return Ok(self.changed());
            }
        };
        self.take_back_to(target).await
    }

    /// Makes the position after `target` turns the current one (a takeback).
    async fn take_back_to(&mut self, target: usize) -> Result<Value, ApiError> {
        if self.search.is_some() {
            self.stop_search().await;
        }
        let position = self.position_line(target, &[]);
        let report = self.report_api(position.clone()).await?;
        {
            let mut st = self.slot.lock();
            st.moves.truncate(target);
            st.notation.truncate(target);
            st.times.truncate(target);
            st.fens.truncate(target + 1);
            st.evals.truncate(target + 1);
            st.result = None;
            st.offers = [None; 3];
            st.report = report;
            if let Some((p, k)) = st.analysis {
                st.analysis = Some((p.min(target), k));
            }
            let side = st.to_move();
            if let Some(c) = st.clock.as_mut() {
                if c.running.is_some() {
                    c.running = Some((side, Instant::now()));
                }
            }
        }
        Ok(self.changed())
    }

    /// The seat's side resigns; where the page holds both sides, the side to move.
    pub(super) async fn resign(&mut self, held: Held) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            let me = seat_of(&st, held)?;
            if st.result.is_some() {
                return Err(ApiError::unprocessable("the game is over"));
            }
            let loser = if held == [true, true] {
                st.to_move()
            } else {
                me
            };
            st.end(loser.other().wins(), "resignation");
        }
        if matches!(self.search, Some((Search::Move(_), _))) {
            self.stop_search().await;
        }
        Ok(self.changed())
    }

    pub(super) async fn claim(&mut self, held: Held) -> Result<Value, ApiError> {
        {
            let mut st = self.slot.lock();
            seat_of(&st, held)?;
            if st.result.is_some() {
                return Err(ApiError::unprocessable("the game is over"));
            }
            if st.is_engine(st.to_move()) || !held[Clock::idx(st.to_move())] {
                return Err(ApiError::unprocessable(
                    "a draw is claimed on your own turn",
                ));
            }
            let Some(reason) = st.report.claimable.clone() else {
                return Err(ApiError::unprocessable("no draw can be claimed here"));
            };
            st.end("1/2-1/2", &reason);
        }
        Ok(self.changed())
    }

    pub(super) async fn preview(
        &mut self,
        portions: &[String],
    ) -> Result<Option<String>, ApiError> {
        if self.search.is_some() && !matches!(self.search, Some((Search::Analysis(_), _))) {
            return Ok(None);
        }
        let ply = self.slot.lock().moves.len();
        let position = self.position_line(ply, portions);
        let cmds = vec![position, "d".to_string()];
        let fen = match self.query(&cmds, false).await {
            Ok(lines) if !lines.iter().any(|l| l.starts_with("info string error")) => lines
                .iter()
                .find_map(|l| l.strip_prefix("Fen: "))
                .map(|s| s.trim().to_string()),
            _ => None,
        };
        Ok(fen)
    }
}
