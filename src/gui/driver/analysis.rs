//! Analysis (an infinite search of a position with several lines) and the evaluation chart
//! (every position of the game scored in turn).

use std::time::Instant;

use serde_json::Value;

use super::{Driver, Search, EVALUATE_MS};
use crate::gui::error::ApiError;

impl Driver {
    pub(super) async fn analysis(
        &mut self,
        what: Option<(Option<usize>, u32)>,
    ) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if what.is_some() && st.has_engine() && st.result.is_none() {
                return Err(ApiError::unprocessable(
                    "no analysis while you play the engine (it is on once the game is over)",
                ));
            }
        }
        if matches!(
            self.search,
            Some((Search::Analysis(_), _))
                | Some((Search::Evaluate(_), _))
                | Some((Search::Review(_), _))
        ) {
            self.stop_search().await;
        }
        self.eval_queue.clear();
        // An analysis takes the engine from a review under way, which ends.
        if what.is_some() && self.review_job.take().is_some() {
            self.slot.lock().review_progress = None;
            self.publish(crate::gui::slot::Event::Review(
                serde_json::json!({"cancelled": true}),
            ));
        }
        match what {
            None => {
                self.slot.lock().analysis = None;
            }
            Some((ply, multipv)) => {
                let multipv = multipv.clamp(1, 5);
                let n = self.slot.lock().moves.len();
                let ply = ply.unwrap_or(n).min(n);
                self.slot.lock().analysis = Some((ply, multipv));
                self.start_analysis(ply, multipv).await?;
            }
        }
        Ok(self.changed())
    }

    pub(super) async fn start_analysis(
        &mut self,
        ply: usize,
        multipv: u32,
    ) -> Result<(), ApiError> {
        if self.slot.lock().fens.len() <= ply || !self.want_place(None) {
            return Ok(());
        }
        self.with_retry(move |d| Box::pin(d.set_strength(true, multipv)))
            .await?;
        let position = self.position_line(ply, &[]);
        self.send_search(&position, "go infinite").await?;
        self.search = Some((Search::Analysis(ply), Instant::now()));
        self.last_info.clear();
        Ok(())
    }

    pub(super) async fn evaluate(&mut self) -> Result<Value, ApiError> {
        {
            let st = self.slot.lock();
            if st.has_engine() && st.result.is_none() {
                return Err(ApiError::unprocessable(
                    "the game is scored once it is over (no analysis while you play the engine)",
                ));
            }
        }
        if self.search.is_some() {
            self.stop_search().await;
        }
        let n = self.slot.lock().fens.len();
        self.eval_queue = (0..n).collect();
        self.slot.lock().analysis = None;
        self.resume().await;
        Ok(self.changed())
    }

    /// Scores the first position of the evaluation queue, once the game has a search place.
    pub(super) async fn start_evaluate(&mut self) -> Result<(), ApiError> {
        if self.eval_queue.is_empty() || !self.want_place(None) {
            return Ok(());
        }
        let Some(ply) = self.eval_queue.pop_front() else {
            return Ok(());
        };
        self.with_retry(|d| Box::pin(d.set_strength(true, 1)))
            .await?;
        let position = self.position_line(ply, &[]);
        self.send_search(&position, &format!("go movetime {EVALUATE_MS}"))
            .await?;
        self.search = Some((Search::Evaluate(ply), Instant::now()));
        Ok(())
    }
}
