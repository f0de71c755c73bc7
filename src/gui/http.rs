//! The server's HTTP connections (docs/gui.md "Connections"): an accept loop over hyper's
//! HTTP/1 server, with time limits on what a client sends, so that a client that opens a
//! connection and sends nothing, or half a request, does not hold it forever.
//!
//! - A request's head (its request line and headers) must be complete within
//!   [`HEADER_TIMEOUT_SECS`]: from the connection's opening for its first request, from the
//!   head's first byte for the next ones. Otherwise the connection is closed without an answer.
//! - A kept-alive connection may wait [`IDLE_TIMEOUT_SECS`] for its next request; then it is
//!   closed.
//! - A request's body must be in within [`BODY_TIMEOUT_SECS`] of its head (`408` otherwise,
//!   [`crate::gui::api`]).
//! - A stop closes the idle connections and those still sending a head at once, and waits at
//!   most [`SHUTDOWN_GRACE_SECS`] for the others to finish their requests.
//!
//! Nothing limits the answers: an event stream (`GET /api/games/{id}/events`) is one long
//! answer, written for as long as the page reads it.
//!
//! The head and idle limits are hyper's `header_read_timeout`, whose timer hyper arms when it
//! starts reading a head (at once on a new connection, and as soon as an answer is done on a
//! kept-alive one). Its one timer here (`HeadTimer`) sees the connection's reads
//! (`Watched`), so that the same timer gives the idle limit until the next head's first
//! byte arrives and the head limit from then on.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;

/// How long a request's head may take, seconds: from the connection's opening for its first
/// request, from the head's first byte for the later requests of a kept-alive connection.
pub const HEADER_TIMEOUT_SECS: u64 = 10;
/// How long a kept-alive connection may stay idle between two requests, seconds (until the
/// next head's first byte).
pub const IDLE_TIMEOUT_SECS: u64 = 60;
/// How long a request's body may take to arrive once its head is in, seconds.
pub const BODY_TIMEOUT_SECS: u64 = 10;
/// The most bytes a request's head (request line and headers) may take; a longer one gets
/// `431 Request Header Fields Too Large` (hyper's answer) and the connection is closed.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// How long a stop (Ctrl-C, SIGTERM) waits for the open connections to finish their
/// requests, seconds; the connections still open then are dropped.
pub const SHUTDOWN_GRACE_SECS: u64 = 5;

/// The time limits of one launch: the constants above, or for the tests the hidden
/// environment variables `MENAGERIE_GUI_HEADER_TIMEOUT_MS`, `MENAGERIE_GUI_IDLE_TIMEOUT_MS`
/// and `MENAGERIE_GUI_BODY_TIMEOUT_MS` (milliseconds), read at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// [`HEADER_TIMEOUT_SECS`].
    pub header: Duration,
    /// [`IDLE_TIMEOUT_SECS`].
    pub idle: Duration,
    /// [`BODY_TIMEOUT_SECS`].
    pub body: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            header: Duration::from_secs(HEADER_TIMEOUT_SECS),
            idle: Duration::from_secs(IDLE_TIMEOUT_SECS),
            body: Duration::from_secs(BODY_TIMEOUT_SECS),
        }
    }
}

impl Timeouts {
    /// The limits, with those the environment gives (for the tests, which need short ones)
    /// in place of the defaults.
    ///
    /// Errors: a variable that is not a positive number of milliseconds.
    pub fn from_env() -> Result<Timeouts, String> {
        let mut t = Timeouts::default();
        for (name, slot) in [
            ("MENAGERIE_GUI_HEADER_TIMEOUT_MS", &mut t.header),
            ("MENAGERIE_GUI_IDLE_TIMEOUT_MS", &mut t.idle),
            ("MENAGERIE_GUI_BODY_TIMEOUT_MS", &mut t.body),
        ] {
            if let Some(v) = std::env::var_os(name) {
                let ms = v
                    .to_str()
                    .and_then(|s| s.trim().parse::<u64>().ok())
                    .filter(|&ms| ms > 0)
                    .ok_or_else(|| format!("{name}: give a positive number of milliseconds"))?;
                *slot = Duration::from_millis(ms);
            }
        }
        Ok(t)
    }
}

/// What a connection's reads tell its head timer.
#[derive(Debug)]
struct Marks {
    /// When hyper last started reading a head.
    armed_at: Instant,
    /// How many heads hyper started reading (1: the connection's first request).
    heads: u32,
    /// When the first byte arrived since then.
    first_byte: Option<Instant>,
}

impl Marks {
    /// When the head being read must be complete.
    fn deadline(&self, t: &Timeouts) -> Instant {
        if self.heads <= 1 {
            return self.armed_at + t.header;
        }
        match self.first_byte {
            Some(at) => at + t.header,
            None => self.armed_at + t.idle,
        }
    }
}

/// The marks shared by a connection's reader and its timer.
type Shared = Arc<Mutex<Marks>>;

fn lock(m: &Shared) -> std::sync::MutexGuard<'_, Marks> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A connection's socket, noting when bytes arrive.
struct Watched<S> {
    inner: S,
    marks: Shared,
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let mut m = lock(&self.marks);
            if m.first_byte.is_none() {
                m.first_byte = Some(Instant::now());
            }
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// A connection's timer for hyper: hyper asks it for one sleep per head it reads (its
/// `header_read_timeout`), and the sleep ends at [`Marks::deadline`].
struct HeadTimer {
    marks: Shared,
    timeouts: Timeouts,
    /// Set when the server stops: a head not yet in is not waited for.
    stopping: Arc<AtomicBool>,
}

impl hyper::rt::Timer for HeadTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(Plain(Box::pin(tokio::time::sleep(duration))))
    }

    fn sleep_until(&self, _deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        let deadline = {
            let mut m = lock(&self.marks);
            m.armed_at = Instant::now();
            m.heads = m.heads.saturating_add(1);
            m.first_byte = None;
            m.deadline(&self.timeouts)
        };
        Box::pin(HeadSleep {
            marks: Arc::clone(&self.marks),
            timeouts: self.timeouts,
            stopping: Arc::clone(&self.stopping),
            sleep: Box::pin(tokio::time::sleep_until(deadline.into())),
        })
    }
}

/// A plain sleep (hyper's HTTP/1 server asks for none but the head's).
struct Plain(Pin<Box<tokio::time::Sleep>>);

impl Future for Plain {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for Plain {}

/// The sleep of one head: it ends at the deadline of the marks as they are when it is polled
/// (hyper polls it each time the head is still incomplete, so after every read), or at once
/// when the server stops (a stop polls every connection).
struct HeadSleep {
    marks: Shared,
    timeouts: Timeouts,
    stopping: Arc<AtomicBool>,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl Future for HeadSleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.stopping.load(Ordering::Relaxed) {
            return Poll::Ready(());
        }
        let deadline: tokio::time::Instant = lock(&self.marks).deadline(&self.timeouts).into();
        if self.sleep.deadline() != deadline {
            self.sleep.as_mut().reset(deadline);
        }
        self.sleep.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for HeadSleep {}

/// Serves `router` on `listener` until `stop` is ready, then lets the open connections finish
/// the requests whose heads are in (at most [`SHUTDOWN_GRACE_SECS`]); the idle connections
/// and those still sending a head are closed at once.
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    timeouts: Timeouts,
    stop: impl Future<Output = ()>,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let stopping = Arc::new(AtomicBool::new(false));
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Small writes go out at once: an event stream's events would otherwise wait for the
        // page's delayed ACK of the one before (Nagle), some 40 ms each.
        let _ = stream.set_nodelay(true);
        let marks = Arc::new(Mutex::new(Marks {
            armed_at: Instant::now(),
            heads: 0,
            first_byte: None,
        }));
        let io = TokioIo::new(Watched {
            inner: stream,
            marks: Arc::clone(&marks),
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(HeadTimer {
                marks,
                timeouts,
                stopping: Arc::clone(&stopping),
            })
            .header_read_timeout(timeouts.header)
            .max_buf_size(MAX_HEAD_BYTES);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let conn = graceful.watch(builder.serve_connection(io, service));
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset, a malformed request) ends only it.
            let _ = conn.await;
        });
    }
    drop(listener);
    // Before the connections are told (which polls each): their head sleeps then end.
    stopping.store(true, Ordering::Relaxed);
    let _ = tokio::time::timeout(
        Duration::from_secs(SHUTDOWN_GRACE_SECS),
        graceful.shutdown(),
    )
    .await;
}

/// After a failed `accept`: nothing for an error of that one connection; a pause of a second
/// for the others (too many open files), as hyper's own server did, instead of spinning.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        eprintln!("menagerie gui: cannot accept a connection: {e}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_of_heads() {
        let t = Timeouts {
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            body: Duration::from_secs(10),
        };
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let marks = |heads, first_byte| Marks {
            armed_at: t0,
            heads,
            first_byte,
        };
        // The first head: from the connection's opening, bytes or not.
        assert_eq!(marks(1, None).deadline(&t), t0 + s(10));
        assert_eq!(marks(1, Some(t0 + s(5))).deadline(&t), t0 + s(10));
        // A later one: idle until its first byte, then the head's limit from that byte.
        assert_eq!(marks(2, None).deadline(&t), t0 + s(60));
        assert_eq!(marks(3, Some(t0 + s(30))).deadline(&t), t0 + s(40));
    }

    #[test]
    fn timeouts_default_to_the_constants() {
        let t = Timeouts::default();
        assert_eq!(t.header, Duration::from_secs(HEADER_TIMEOUT_SECS));
        assert_eq!(t.idle, Duration::from_secs(IDLE_TIMEOUT_SECS));
        assert_eq!(t.body, Duration::from_secs(BODY_TIMEOUT_SECS));
    }
}
