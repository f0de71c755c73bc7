//! The driver's search engine: its place waited for without holding up the game's other
//! requests, the process started when a place is got, set to the variant and the strength
//! wanted, restarted when it dies or hangs, released when idle; its searches started and
//! stopped; and the reports of positions, asked of the shared query engines.

use std::sync::Arc;
use std::time::Instant;

use super::{Driver, Search, STOP_TIMEOUT};
use crate::client::{parse_report, report_commands, AsyncEngine, EngineFault, PositionReport};
use crate::gui::error::ApiError;

impl Driver {
    /// The game's search engine, started (and set to the variant) if needed, in the place
    /// got by [`Driver::want_place`] or, if there is none, one waited for here.
    pub(super) async fn engine(&mut self) -> Result<&mut AsyncEngine, EngineFault> {
        if self.engine.is_none() {
            let permit = match self.place.take() {
                Some(p) => p,
                None => self.ctx.engines.search_place().await?,
            };
            let mut e = AsyncEngine::spawn_niced(
                self.ctx.engines.program(),
                crate::gui::engines::SEARCH_NICENESS,
            )
            .await?;
            let variant = self.slot.lock().variant.clone();
            e.select(&variant).await?;
            e.query_ok(&["setoption name UCI_ShowWDL value true".to_string()])
                .await?;
            self.strength = None;
            self.engine = Some((e, permit));
        }
        Ok(&mut self.engine.as_mut().expect("started above").0)
    }

    /// Ends the engine process and frees its place.
    pub(super) async fn release(&mut self) {
        if let Some((e, _)) = self.engine.take() {
            e.quit().await;
        }
        self.search = None;
    }

    /// Whether a search can start now: the game has its engine or a place for one. If not,
    /// the game waits for a place (and its page says so) without holding up its other
    /// requests; [`Driver::place_got`] goes on when one is free. `received` is when the turn
    /// that needs the search arrived.
    pub(super) fn want_place(&mut self, received: Option<Instant>) -> bool {
        if self.engine.is_some() || self.place.is_some() {
            return true;
        }
        if let Some(p) = self.ctx.engines.try_place() {
            self.place = Some(p);
            return true;
        }
        if self.place_wait.is_none() {
            let ctx = Arc::clone(&self.ctx);
            self.place_wait = Some(Box::pin(async move { ctx.engines.search_place().await }));
            self.waiting_since = Some(received);
            self.slot.lock().engine_waiting = true;
            self.changed();
        }
        false
    }

    /// A search place was got (or the server stops): the search waited for starts.
    pub(super) async fn place_got(
        &mut self,
        place: Result<tokio::sync::OwnedSemaphorePermit, EngineFault>,
    ) {
        self.place_wait = None;
        let received = self.waiting_since.take().flatten();
        self.slot.lock().engine_waiting = false;
        match place {
            Ok(p) => {
                self.place = Some(p);
                self.changed();
                self.resume_timed(received).await;
                // Nothing to search any more: the place goes back at once.
                self.place = None;
            }
            Err(_) => {
                self.changed();
            }
        }
    }

    /// Gives up the wait for a place when the game no longer needs a search (it ended, was
    /// taken back, its analysis stopped).
    pub(super) fn drop_unneeded_wait(&mut self) {
        if self.place_wait.is_some() && !self.needs_search() {
            self.place_wait = None;
            self.waiting_since = None;
            self.slot.lock().engine_waiting = false;
            self.changed();
        }
    }

    /// Sets the engine's strength for a turn of its own (`analysis` false: the game's level)
    /// or for an analysis (full strength, `multipv` lines).
    pub(super) async fn set_strength(
        &mut self,
        analysis: bool,
        multipv: u32,
    ) -> Result<(), EngineFault> {
        if self.strength == Some((analysis, multipv)) {
            return Ok(());
        }
        let (level, elo) = {
            let st = self.slot.lock();
            (st.level, st.elo)
        };
        let mut lines = vec![format!("setoption name MultiPV value {multipv}")];
        match (analysis, elo) {
            (false, Some(elo)) => {
                lines.push("setoption name UCI_LimitStrength value true".into());
                lines.push(format!("setoption name UCI_Elo value {elo}"));
            }
            (false, None) => {
                lines.push("setoption name UCI_LimitStrength value false".into());
                lines.push(format!("setoption name Skill Level value {level}"));
            }
            (true, _) => {
                lines.push("setoption name UCI_LimitStrength value false".into());
                lines.push("setoption name Skill Level value 20".into());
            }
        }
        self.engine().await?.query_ok(&lines).await?;
        self.strength = Some((analysis, multipv));
        Ok(())
    }

    /// The `position` command of the game's position after `ply` turns, followed by `extra`
    /// portions.
    pub(super) fn position_line(&self, ply: usize, extra: &[String]) -> String {
        let st = self.slot.lock();
        let mut line = format!("position fen {}", st.start_fen);
        let moves: Vec<&str> = st.moves[..ply.min(st.moves.len())]
            .iter()
            .map(String::as_str)
            .chain(extra.iter().map(String::as_str))
            .collect();
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }

    /// The report of the position `position` names, from a shared query engine.
    pub(super) async fn report(&mut self, position: String) -> Result<PositionReport, EngineFault> {
        let mut cmds = vec![position];
        cmds.extend(report_commands());
        let lines = self.query(&cmds, true).await?;
        parse_report(&lines).map_err(EngineFault::Refused)
    }

    /// [`Driver::report`], as the API's error: 422 for a position the engine refuses, else
    /// the engine's fault (the query engines have tried twice already).
    pub(super) async fn report_api(
        &mut self,
        position: String,
    ) -> Result<PositionReport, ApiError> {
        self.report(position).await.map_err(|e| match e {
            EngineFault::Refused(why) => ApiError::unprocessable(why),
            e => ApiError::engine(&e),
        })
    }

    /// Asks a shared query engine `commands` in the game's variant
    /// ([`crate::gui::engines::Engines::query`]).
    pub(super) async fn query(
        &mut self,
        commands: &[String],
        ok: bool,
    ) -> Result<Vec<String>, EngineFault> {
        let variant = self.slot.lock().variant.clone();
        self.ctx.engines.query(&variant, commands, ok).await
    }

    /// Runs `f` on the engine; when the engine dies or hangs, starts a new one, says so in
    /// the notice, and tries once more.
    pub(super) async fn with_retry<T, F>(&mut self, mut f: F) -> Result<T, ApiError>
    where
        F: for<'a> FnMut(
            &'a mut Driver,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, EngineFault>> + Send + 'a>,
        >,
    {
        match f(self).await {
            Ok(v) => Ok(v),
            Err(EngineFault::Refused(why)) => Err(ApiError::unprocessable(why)),
            Err(_) => {
                self.replace_engine();
                f(self).await.map_err(|e| ApiError::engine(&e))
            }
        }
    }

    /// Drops a dead or hung engine; the next use starts a new one.
    pub(super) fn replace_engine(&mut self) {
        self.engine = None;
        self.strength = None;
        self.search = None;
        let mut st = self.slot.lock();
        st.engine_thinking = false;
        st.notice = Some(
            "The engine stopped unexpectedly and was restarted; the game was restored from its moves."
                .into(),
        );
    }

    pub(super) async fn engine_died(&mut self) {
        self.replace_engine();
        self.changed();
        self.resume().await;
    }

    pub(super) async fn send_search(&mut self, position: &str, go: &str) -> Result<(), ApiError> {
        let p = position.to_string();
        let g = go.to_string();
        self.with_retry(move |d| {
            let (p, g) = (p.clone(), g.clone());
            Box::pin(async move {
                let e = d.engine().await?;
                e.send(&p).await?;
                e.send(&g).await
            })
        })
        .await
    }

    /// Stops the running search and waits for its `bestmove`, which is dropped.
    pub(super) async fn stop_search(&mut self) {
        let Some((search, _)) = self.search.take() else {
            return;
        };
        let ok = match self.engine.as_mut() {
            Some((e, _)) => {
                e.send("stop").await.is_ok() && e.wait_bestmove(STOP_TIMEOUT).await.is_ok()
            }
            None => true,
        };
        if !ok {
            self.replace_engine();
        }
        if let Search::Move(_) = search {
            self.slot.lock().engine_thinking = false;
        }
    }
}
