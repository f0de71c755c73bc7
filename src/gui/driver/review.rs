//! A game's review (docs/gui.md "Review"): every position searched in turn at a fixed number of
//! nodes, its progress sent over the event stream, the turns then judged
//! ([`crate::gui::review`]) and the review saved beside the game.

use std::time::Instant;

use serde_json::{json, Value};

use super::{Driver, Search};
use crate::gui::error::ApiError;
use crate::gui::record::Colour;
use crate::gui::review::{review, GameLine, PositionEval};
use crate::gui::slot::Event;

/// The nodes a review searches at each position unless the page asks for another number.
pub const DEFAULT_NODES: u64 = 100_000;
/// The fewest and the most nodes a page may ask for.
pub const NODES_RANGE: (u64, u64) = (1_000, 50_000_000);

/// A review under way.
pub(super) struct ReviewJob {
    /// Nodes a position.
    pub nodes: u64,
    /// The turns it reviews.
    moves: Vec<String>,
    /// The engine's word on the positions searched so far, in order.
    done: Vec<PositionEval>,
}

impl Driver {
    /// Starts a review at `nodes` a position (replacing one under way), or cancels it
    /// (`None`).
    ///
    /// Errors: 422 for a game without turns, a game against the engine that goes on, or a
    /// number of nodes out of [`NODES_RANGE`].
    pub(super) async fn review(&mut self, nodes: Option<u64>) -> Result<Value, ApiError> {
        let Some(nodes) = nodes else {
            let had = self.review_job.take().is_some();
            if matches!(self.search, Some((Search::Review(_), _))) {
                self.stop_search().await;
            }
            self.slot.lock().review_progress = None;
            if had {
                self.publish(Event::Review(json!({"cancelled": true})));
            }
            self.changed();
            self.resume().await;
            return Ok(json!({"cancelled": had}));
        };
        let (n, engine_game) = {
            let st = self.slot.lock();
            (st.moves.len(), st.has_engine() && st.result.is_none())
        };
        if n == 0 {
            return Err(ApiError::unprocessable("the game has no turns to review"));
        }
        if engine_game {
            return Err(ApiError::unprocessable(
                "the game is reviewed once it is over (no analysis while you play the engine)",
            ));
        }
        if !(NODES_RANGE.0..=NODES_RANGE.1).contains(&nodes) {
            return Err(ApiError::unprocessable(format!(
                "nodes: give {} to {}",
                NODES_RANGE.0, NODES_RANGE.1
            )));
        }
        // The review takes the engine: an analysis or a scoring under way stops.
        if self.search.is_some() {
            self.stop_search().await;
        }
        self.eval_queue.clear();
        let moves = {
            let mut st = self.slot.lock();
            st.analysis = None;
            st.review_progress = Some((0, n + 1));
            st.moves.clone()
        };
        self.review_job = Some(ReviewJob {
            nodes,
            moves,
            done: Vec::with_capacity(n + 1),
        });
        self.publish(Event::Review(json!({"done": 0, "total": n + 1})));
        self.resume().await;
        self.changed();
        Ok(json!({"started": true, "nodes": nodes, "total": n + 1}))
    }

    /// Searches the next position of the review, once the game has a search place.
    pub(super) async fn start_review_search(&mut self) -> Result<(), ApiError> {
        let Some(job) = &self.review_job else {
            return Ok(());
        };
        let (ply, nodes) = (job.done.len(), job.nodes);
        if !self.want_place(None) {
            return Ok(());
        }
        self.with_retry(|d| Box::pin(d.set_strength(true, 1)))
            .await?;
        let position = self.position_line(ply, &[]);
        self.last_info.clear();
        self.send_search(&position, &format!("go nodes {nodes}"))
            .await?;
        self.search = Some((Search::Review(ply), Instant::now()));
        Ok(())
    }

    /// The review's search of position `ply` ended with `token` as its best turn.
    pub(super) async fn reviewed(&mut self, ply: usize, token: &str) {
        let stale = {
            let st = self.slot.lock();
            self.review_job
                .as_ref()
                .is_none_or(|j| j.moves != st.moves || j.done.len() != ply)
        };
        if stale {
            // The game changed under the review (a turn, a takeback): it is dropped.
            if self.review_job.take().is_some() {
                self.slot.lock().review_progress = None;
                self.publish(Event::Review(json!({"cancelled": true})));
                self.changed();
            }
            self.resume().await;
            return;
        }
        let line = self.last_info.first().cloned().unwrap_or_default();
        let best = (token != "(none)" && token != "0000").then(|| token.to_string());
        let best_notation = match &best {
            Some(b) => self
                .pv_notation(ply, std::slice::from_ref(b))
                .await
                .and_then(|w| w.into_iter().next()),
            None => None,
        };
        let total = {
            let job = self.review_job.as_mut().expect("checked above");
            job.done.push(PositionEval {
                score: line.score,
                wdl: line.wdl,
                best,
                best_notation,
            });
            job.moves.len() + 1
        };
        let done = ply + 1;
        self.slot.lock().review_progress = Some((done, total));
        self.publish(Event::Review(json!({"done": done, "total": total})));
        if done == total {
            self.finish_review();
        }
        self.resume().await;
    }

    /// Judges the turns, keeps the review with the game and saves it.
    fn finish_review(&mut self) {
        let Some(job) = self.review_job.take() else {
            return;
        };
        let (text, id) = {
            let mut st = self.slot.lock();
            let movers: Vec<usize> = st
                .fens
                .iter()
                .map(|f| usize::from(Colour::to_move(f) == Colour::Black))
                .collect();
            let result = st.result.as_ref().map(|r| r.score.clone());
            let r = review(
                job.nodes,
                &GameLine {
                    movers: &movers,
                    moves: &st.moves,
                    notation: &st.notation,
                    result: result.as_deref(),
                },
                job.done,
            );
            let text = serde_json::to_string(&r).unwrap_or_default();
            st.review = Some(r);
            st.review_progress = None;
            (text, st.id.clone())
        };
        self.ctx.writer.save_review(id, text);
        self.publish(Event::Review(json!({"finished": true})));
        self.changed();
    }
}
