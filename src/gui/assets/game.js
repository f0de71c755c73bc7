// The game page: board, pockets, clocks, move list, analysis, chart and tools.

import { get, post, parseJson, holdSeat, seatsOf, invitesOf, rememberGame } from './api.js';
import { parseFen, parseLeg, tokenSquares, splitToken, colourOf } from './fen.js';
import { Board } from './board.js';
import { TurnEntry } from './turn.js';
import { pieceIcon, esc } from './pieces.js';
import { showDiagram } from './diagram.js';
import { playSound } from './sounds.js';

function el(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

const icon = (d) => `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
const ICON = {
  first: icon('M3 3h2.5v14H3z M17 3v14L7 10z'),
  prev: icon('M15 3v14L5 10z'),
  next: icon('M5 3v14l10-7z'),
  last: icon('M14.5 3H17v14h-2.5z M3 3v14l10-7z'),
};

const sideOfFen = (fen) => (fen && fen.trim().split(/\s+/)[1] === 'b' ? 'b' : 'w');
const colourName = (c) => (c === 'w' || c === 'white' ? 'White' : 'Black');

/** Score text from White's point of view: "+0.35", "-1.20", "#3", "#-2". */
function scoreText(score, side) {
  if (!score) return '';
  const sign = side === 'b' ? -1 : 1;
  if (score.mate !== undefined && score.mate !== null) {
    const m = score.mate * sign;
    return m > 0 ? `#${m}` : `#-${Math.abs(m)}`;
  }
  const cp = (score.cp || 0) * sign;
  return (cp > 0 ? '+' : cp < 0 ? '−' : '') + (Math.abs(cp) / 100).toFixed(2);
}

/** A score as White's centipawns, mates as ±10000 (minus the distance). */
function whiteCp(score, side) {
  if (!score) return null;
  const sign = side === 'b' ? -1 : 1;
  if (score.mate !== undefined && score.mate !== null) {
    const m = score.mate * sign;
    return m > 0 ? 10000 - m : m < 0 ? -10000 - m : side === 'b' ? 10000 : -10000;
  }
  return (score.cp || 0) * sign;
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (h) return `${h}:${String(m % 60).padStart(2, '0')}:${ss}`;
  if (ms < 10000) return `${m}:${ss}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${ss}`;
}

/** The review's classes as the summary shows them, best first. */
const REVIEW_CLASSES = [
  ['best', 'Best', 'Best'],
  ['good', 'Good', 'Good'],
  ['inaccuracy', 'Inaccuracy', '?!'],
  ['mistake', 'Mistake', '?'],
  ['blunder', 'Blunder', '??'],
];
/** The move list's marks of the review's classes (lichess's). */
const REVIEW_GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export async function showGame(app, id, vs) {
  // A seat's link (`?seat=SECRET`): this browser holds that seat from now on.
  const params = new URLSearchParams(location.search);
  const seat = params.get('seat');
  if (seat) {
    holdSeat(id, seat);
    // Kept by the browser from now on: out of the address bar (and a screen shared).
    params.delete('seat');
    const q = params.toString();
    history.replaceState(history.state, '', location.pathname + (q ? `?${q}` : ''));
  }
  let st;
  try {
    st = await get(`/api/games/${encodeURIComponent(id)}`);
  } catch (e) {
    app.innerHTML = `<div class="card"><p class="error">Game ${esc(id)}: ${esc(e.message)}</p><p><a href="/">Back to the games</a></p></div>`;
    return;
  }
  const v = vs.find((x) => x.name === st.variant);
  if (!v) {
    app.innerHTML = `<p class="error">Unknown variant ${esc(st.variant)}</p>`;
    return;
  }
  new GamePage(app, id, v, st);
}

class GamePage {
  constructor(app, id, v, st) {
    this.id = id;
    this.v = v;
    this.pieces = new Map(v.pieces.map((p) => [p.code.toUpperCase(), p]));
    this.st = null;
    this.viewPly = 0;
    // The colours this page plays (`you` of the state): none for a spectator.
    this.you = Array.isArray(st.you) ? st.you : [];
    this.flipped = this.you.length === 1 ? this.you[0] === 'black' : st.engine === 'white';
    // A rematch made before this page opened is a link; one made while it is open is followed.
    this.followed = !!st.rematch;
    this.entry = new TurnEntry([]);
    this.entryKey = null;
    this.previews = new Map();
    this.submitting = false;
    this.analysis = { on: false, multipv: 1, lines: new Map(), ply: null, bestmove: null };
    this.clockAt = performance.now();
    this.choice = null;
    this.snapshot = null;
    document.title = `${v.name} · menagerie`;
    this.build(app);
    this.applyState(st);
    // `?ply=N` opens the game at that turn; the browser's back and forward follow the plies
    // viewed.
    const ply = parseInt(new URLSearchParams(location.search).get('ply'), 10);
    if (Number.isInteger(ply)) this.goto(ply, 'none');
    window.addEventListener('popstate', () => {
      const p = parseInt(new URLSearchParams(location.search).get('ply'), 10);
      this.goto(Number.isInteger(p) ? p : this.st.moves.length, 'none');
    });
    this.listen();
    this.tick = setInterval(() => this.renderClocks(), 100);
    window.__menagerie.game = this;
  }

  $(id) {
    return this.root.querySelector('#' + id);
  }

  build(app) {
    const v = this.v;
    app.innerHTML = '';
    this.root = el(`<div class="game-page">
      <div class="board-col">
        <div class="player-bar" id="bar-top"></div>
        <div class="board-area">
          <div class="evalbar" id="evalbar" title="Evaluation (White's view)"><div class="evalbar-fill" id="evalbar-fill"></div><span class="evalbar-text" id="evalbar-text"></span></div>
          <div class="board-wrap" id="board-wrap">
            <div id="board" class="board"></div>
            <div id="choice-dialog" class="choice-dialog" hidden></div>
          </div>
        </div>
        <div class="player-bar" id="bar-bottom"></div>
        <div class="entry-bar" id="entry-bar">
          <span id="pending" class="pending" hidden></span>
          <button type="button" id="pending-undo" hidden title="Take back the part entered">Undo part</button>
          <button type="button" id="pass" hidden title="Skip this part (0000)">Pass</button>
          <span id="premove" class="premove" hidden></span>
          <button type="button" id="premove-cancel" hidden title="Cancel the premove (or click the board)">Cancel premove</button>
          <form id="turn-form" class="turn-form" autocomplete="off"><input id="turn-input" list="turn-options" aria-label="Type a turn" placeholder="Type a turn, Enter plays it" spellcheck="false"><datalist id="turn-options"></datalist></form>
          <span id="entry-error" class="error"></span>
        </div>
      </div>
      <aside class="side">
        <div class="card game-head">
          <div class="title-row"><h2 id="game-title">${esc(v.name)}</h2>
            <a id="rules-link" href="/rules/${encodeURIComponent(v.name)}" target="_blank" rel="noopener">rules</a></div>
          <div id="game-sub" class="muted"></div>
          <div id="seat-line" class="seat-line small"></div>
          <div id="status" class="status"></div>
          <div id="invite" class="invite" hidden></div>
          <div id="result-banner" class="result-banner" hidden></div>
          <div id="notice" class="notice" hidden></div>
        </div>
        <div class="card moves-card">
          <div id="move-list" class="move-list" tabindex="0" aria-label="moves"></div>
          <div class="nav-row">
            <button type="button" id="nav-first" title="Start (Home)">${ICON.first}</button>
            <button type="button" id="nav-prev" title="Back (←)">${ICON.prev}</button>
            <button type="button" id="nav-next" title="Forward (→)">${ICON.next}</button>
            <button type="button" id="nav-last" title="Last (End)">${ICON.last}</button>
            <button type="button" id="flip" title="Flip the board">⇅ Flip</button>
          </div>
          <div class="action-row">
            <button type="button" id="takeback">Takeback</button>
            <button type="button" id="draw" hidden>Offer draw</button>
            <button type="button" id="resign">Resign</button>
            <button type="button" id="claim" hidden>Claim draw</button>
            <button type="button" id="rematch" hidden>Rematch</button>
            <a id="new-game-link" class="btn" href="/?variant=${encodeURIComponent(v.name)}">New game</a>
          </div>
          <div id="offer-bar" class="offer-bar" role="status" hidden></div>
          <p class="error" id="action-error" role="alert"></p>
        </div>
        <div class="card analysis-card">
          <div class="row">
            <label class="switch"><input type="checkbox" id="analysis-toggle"> Analysis</label>
            <label>Lines <select id="multipv">${[1, 2, 3, 4, 5].map((n) => `<option value="${n}">${n}</option>`).join('')}</select></label>
            <span id="analysis-stats" class="muted small"></span>
          </div>
          <div id="analysis-lines" class="analysis-lines"></div>
          <p class="error" id="analysis-error" role="alert"></p>
        </div>
        <div class="card chart-card">
          <div class="row"><strong>Evaluation</strong><button type="button" id="evaluate" class="small-btn">Evaluate the game</button></div>
          <div id="eval-chart" class="eval-chart"></div>
          <div class="row review-row">
            <button type="button" id="review" class="small-btn">Review the game</button>
            <label class="small">Nodes <select id="review-nodes">${[20000, 100000, 500000, 2000000].map((n) => `<option value="${n}"${n === 100000 ? ' selected' : ''}>${n.toLocaleString('en')}</option>`).join('')}</select></label>
          </div>
          <div id="review-progress" class="review-progress" hidden><progress id="review-bar" max="1" value="0"></progress><span id="review-count" class="small muted"></span><button type="button" id="review-cancel" class="small-btn">Cancel</button></div>
          <p id="review-note" class="review-note small" hidden></p>
          <div id="review-summary" class="review-summary" hidden></div>
        </div>
      </aside>
      <div class="lower">
        <div class="card details-card"><h3>Position</h3><ul id="details" class="details"></ul></div>
        <div class="card pieces-card"><h3>Pieces in play</h3><div id="pieces-list" class="pieces-list"></div>
          <details><summary>All pieces of ${esc(v.name)}</summary><div id="pieces-all" class="pieces-list"></div></details></div>
        <div class="card tools-card"><h3>FEN and PGN</h3>
          <div class="row"><input id="fen-field" type="text" spellcheck="false" aria-label="FEN"></div>
          <div class="row"><button type="button" id="fen-copy">Copy FEN</button>
            <button type="button" id="fen-load" title="Start an analysis game from the FEN in the field">Analyse from this FEN</button>
            <button type="button" id="fen-edit" title="Open the board editor on this position">Edit position</button>
            <a id="pgn-export" class="btn" href="/api/games/${encodeURIComponent(this.id)}/pgn" download="${esc(this.id)}.pgn">Download PGN</a></div>
          <details><summary>Import PGN</summary>
            <textarea id="pgn-text" rows="5" placeholder="Paste PGN text"></textarea>
            <button type="button" id="pgn-import">Import and open</button></details>
          <p class="error" id="tools-error" role="alert"></p>
        </div>
      </div>
    </div>`);
    app.appendChild(this.root);

    this.board = new Board(this.$('board'), {
      movable: (sq) => (this.premoving() ? this.ownPieceAt(sq) : this.cache().from.has(sq)),
      targets: (sel) => {
        if (this.premoving()) return new Set([...this.board.squares.keys()].filter((q) => q !== sel.sq));
        return sel.sq ? this.entry.targetsFrom(sel.sq) : this.entry.dropTargets(sel.drop);
      },
      play: (sel, to) => (this.premoving() ? this.addPremove(sel, to) : this.play(sel, to)),
      idle: () => this.cancelPremove(),
      changed: () => {
        this.renderBoard();
        this.renderPockets();
      },
      pieceInfo: (code) => this.pieces.get(code.toUpperCase()),
    });
    this.setGeometry();
    this.$('pieces-all').innerHTML = v.pieces.map((p) => this.pieceRow(p.code, null)).join('');
    // A click (or Enter) on a piece opens its diagram below it; a second one closes it.
    for (const list of [this.$('pieces-list'), this.$('pieces-all')]) {
      const toggle = (ev) => {
        const row = ev.target.closest('.piece-row');
        if (!row || ev.target.closest('.piece-diagram')) return;
        if (ev.type === 'keydown' && ev.key !== 'Enter' && ev.key !== ' ') return;
        ev.preventDefault();
        const code = row.dataset.pieceType.toUpperCase();
        const open = list.dataset.diagram === code;
        list.dataset.diagram = open ? '' : code;
        this.placeDiagram(list);
      };
      list.addEventListener('click', toggle);
      list.addEventListener('keydown', toggle);
    }

    // ---- controls ----
    this.$('flip').addEventListener('click', () => {
      this.flipped = !this.flipped;
      this.setGeometry();
      this.renderAll();
    });
    this.$('nav-first').addEventListener('click', () => this.goto(0));
    this.$('nav-prev').addEventListener('click', () => this.goto(this.viewPly - 1));
    this.$('nav-next').addEventListener('click', () => this.goto(this.viewPly + 1));
    this.$('nav-last').addEventListener('click', () => this.goto(this.st.moves.length));
    this.$('move-list').addEventListener('click', (e) => {
      const m = e.target.closest('[data-ply]');
      if (m) this.goto(parseInt(m.dataset.ply, 10));
    });
    document.addEventListener('keydown', (e) => this.onKey(e));
    this.$('turn-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.typed();
    });
    this.$('turn-input').addEventListener('input', () => {
      this.$('entry-error').textContent = '';
    });
    this.$('takeback').addEventListener('click', () => this.action('takeback'));
    this.$('resign').addEventListener('click', () => this.action('resign'));
    this.$('claim').addEventListener('click', () => this.action('claim'));
    this.$('draw').addEventListener('click', () => this.action('draw'));
    this.$('rematch').addEventListener('click', () => this.action('rematch'));
    this.$('offer-bar').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-answer]');
      if (!b) return;
      if (b.dataset.answer === 'accept') this.action(b.dataset.offer);
      else this.decline(b.dataset.offer);
    });
    this.$('invite').addEventListener('click', async (e) => {
      const b = e.target.closest('button[data-link]');
      if (!b) return;
      const url = new URL(b.dataset.link, location.origin).href;
      try {
        await navigator.clipboard.writeText(url);
        b.textContent = 'Copied';
      } catch {
        // No clipboard (an insecure origin): the field is selected for a manual copy.
        const field = b.previousElementSibling;
        field.focus();
        field.select();
      }
    });
    this.$('premove-cancel').addEventListener('click', () => this.cancelPremove());
    this.$('pending-undo').addEventListener('click', () => {
      this.entry.reset();
      this.board.selected = null;
      this.entryChanged();
    });
    this.$('pass').addEventListener('click', () => this.userLeg({ kind: 'pass' }));
    this.$('analysis-toggle').addEventListener('change', (e) => this.setAnalysis(e.target.checked));
    this.$('multipv').addEventListener('change', (e) => {
      this.analysis.multipv = parseInt(e.target.value, 10);
      if (this.analysis.on) this.setAnalysis(true);
    });
    this.$('evaluate').addEventListener('click', async () => {
      this.$('evaluate').disabled = true;
      try {
        const r = await post(`/api/games/${encodeURIComponent(this.id)}/evaluate`);
        if (r && r.moves) this.applyState(r);
      } catch (e) {
        this.$('action-error').textContent = e.message;
      }
      this.$('evaluate').disabled = false;
    });
    this.$('review').addEventListener('click', async () => {
      this.$('action-error').textContent = '';
      try {
        await post(`/api/games/${encodeURIComponent(this.id)}/review`, { nodes: parseInt(this.$('review-nodes').value, 10) });
      } catch (e) {
        this.$('action-error').textContent = e.message;
      }
    });
    this.$('review-cancel').addEventListener('click', async () => {
      try {
        await post(`/api/games/${encodeURIComponent(this.id)}/review`, { cancel: true });
      } catch (e) {
        this.$('action-error').textContent = e.message;
      }
    });
    this.$('eval-chart').addEventListener('click', (e) => {
      const svg = this.$('eval-chart').querySelector('svg');
      if (!svg) return;
      const r = svg.getBoundingClientRect();
      const n = this.st.moves.length;
      this.goto(Math.round(((e.clientX - r.left) / r.width) * n));
    });
    this.$('fen-copy').addEventListener('click', async () => {
      const f = this.$('fen-field');
      try {
        await navigator.clipboard.writeText(f.value);
      } catch {
        f.select();
        document.execCommand('copy');
      }
      this.$('fen-copy').textContent = 'Copied';
      setTimeout(() => (this.$('fen-copy').textContent = 'Copy FEN'), 1200);
    });
    this.$('fen-load').addEventListener('click', () => this.analyseFen(this.$('fen-field').value.trim()));
    this.$('fen-edit').addEventListener('click', () => {
      const fen = this.$('fen-field').value.trim() || this.st.fen;
      location.href = `/editor?${new URLSearchParams({ variant: this.v.name, fen })}`;
    });
    this.$('fen-field').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.analyseFen(e.target.value.trim());
    });
    this.$('fen-field').addEventListener('paste', (e) => {
      const text = (e.clipboardData || window.clipboardData).getData('text').trim();
      if (text && text !== this.st.fens[this.viewPly]) {
        e.preventDefault();
        e.target.value = text;
        this.analyseFen(text);
      }
    });
    this.$('pgn-import').addEventListener('click', async () => {
      this.$('tools-error').textContent = '';
      try {
        const r = await post('/api/import', { pgn: this.$('pgn-text').value });
        if (!r || !r.length) throw new Error('no game found in the text');
        location.href = `/game/${encodeURIComponent(r[0].id)}`;
      } catch (e) {
        this.$('tools-error').textContent = e.message;
      }
    });
    for (const bar of [this.$('bar-top'), this.$('bar-bottom')]) {
      bar.addEventListener('pointerdown', (e) => this.onPocketDown(e));
    }
    window.addEventListener('resize', () => this.sizeBoard());
  }

  setGeometry() {
    this.board.setGeometry(this.v, this.flipped);
    this.sizeBoard();
    this.$('evalbar').classList.toggle('flipped', this.flipped);
  }

  sizeBoard() {
    const aspect = this.board.W / this.board.H;
    this.$('board-wrap').style.setProperty('--aspect', aspect.toFixed(4));
    this.root.style.setProperty('--aspect', aspect.toFixed(4));
  }

  listen() {
    const es = new EventSource(`/api/games/${encodeURIComponent(this.id)}/events`);
    this.es = es;
    es.addEventListener('state', (e) => this.applyState(parseJson(e.data)));
    es.addEventListener('info', (e) => this.onInfo(JSON.parse(e.data)));
    es.addEventListener('review', (e) => this.onReview(JSON.parse(e.data)));
    es.addEventListener('bestmove', (e) => {
      const d = JSON.parse(e.data);
      this.analysis.bestmove = d;
      this.renderAnalysis();
    });
    window.addEventListener('beforeunload', () => es.close());
  }

  // ---- state ----

  applyState(s, fromPost = false, branched = false) {
    const old = this.st;
    if (fromPost && old && s.moves.length < old.moves.length && !branched) return;
    if (branched) this.viewPly = s.moves.length;
    // A new line started at an earlier position, for games without the engine.
    if (this.branch && (this.branch.ply >= s.moves.length || this.viewPly !== this.branch.ply)) this.branch = null;
    const oldLast = old ? old.moves.length : -1;
    const atEnd = !old || this.viewPly === oldLast;
    this.st = s;
    this.clockAt = performance.now();
    if (atEnd || this.viewPly > s.moves.length) this.viewPly = s.moves.length;
    const key = `${s.fen}|${(s.legal || []).join(' ')}|${this.canEnterState()}`;
    if (key !== this.entryKey && !this.branch) {
      this.entryKey = key;
      this.entry = new TurnEntry(this.canEnterState() ? s.legal : []);
      this.board.selected = null;
      this.previews.clear();
      this.closeChoice();
      this.entryCache = null;
    }
    this.syncAnalysis(s);
    if (this.analysis.on && this.analysis.ply !== this.viewPly) this.requestAnalysis();
    this.syncReview(s);
    if (old) this.sounds(old, s);
    // A premove lasts until the page's turn comes, or the game ends or is taken back.
    if (this.premove && (s.result || s.moves.length < this.premove.base)) this.premove = null;
    const fire = this.premove && this.canEnter() && this.entry.isEmpty();
    this.renderAll();
    if (fire) this.firePremove();
  }

  // ---- premoves (docs/gui.md "Premoves") ----

  /** Whether a turn entered now is a premove: the engine's turn in a game against it, at the
   * last position, with this page holding the other seat. */
  premoving() {
    const s = this.st;
    if (!s || s.result || this.canEnter() || this.viewPly !== s.moves.length) return false;
    if (!s.engine || s.engine === 'none' || s.engine === 'both') return false;
    const mine = s.engine === 'white' ? 'black' : 'white';
    return this.you.includes(mine) && (s.to_move === s.engine || this.submitting || !!this.pendingToken);
  }

  /** The page's own colour in a game against the engine ('w' or 'b'). */
  ownColour() {
    return this.st.engine === 'white' ? 'b' : 'w';
  }

  ownPieceAt(sq) {
    const code = this.shown && this.shown.board.get(sq);
    return !!code && colourOf(code) === this.ownColour();
  }

  /** Queues a leg of the premove (at most eight legs: one whole turn of any variant here). */
  addPremove(sel, to) {
    const leg = sel.sq ? { kind: 'move', from: sel.sq, to } : { kind: 'drop', code: sel.drop, to };
    if (!this.premove) this.premove = { legs: [], base: this.st.moves.length };
    if (this.premove.legs.length >= 8) return;
    this.premove.legs.push(leg);
    this.board.selected = null;
    this.renderAll();
  }

  cancelPremove() {
    if (!this.premove) return;
    this.premove = null;
    this.renderAll();
  }

  /** The premove's words: `e2e4`, `M@b3, c1c3`. */
  premoveText(p = this.premove) {
    return p.legs.map((l) => (l.kind === 'move' ? l.from + l.to : `${l.code}@${l.to}`)).join(', ');
  }

  /**
   * Plays the queued premove now that it is the page's turn: its legs go through the turn
   * entry as if clicked, so only a legal turn can come of them. A leg that no legal turn has
   * drops the premove (and says so); a promotion takes the first choice listed; a turn the
   * legs leave open waits for the person, as a turn entered by hand does.
   */
  firePremove() {
    const p = this.premove;
    this.premove = null;
    if (!p || !this.canEnter()) return;
    const same = (text, leg) => {
      const l = text && parseLeg(text);
      if (!l || l.kind !== leg.kind) return false;
      return leg.kind === 'move' ? l.from === leg.from && l.to === leg.to : l.code === leg.code && l.to === leg.to;
    };
    let out = { type: 'wait' };
    for (let i = 0; i < p.legs.length; i++) {
      const leg = p.legs[i];
      if (out.type === 'submit') break;
      if (out.type === 'choice') {
        const o = out.options.find((x) => same(x.leg, leg));
        if (!o) break;
        out = this.entry.choose(o);
      } else out = this.entry.enter(leg);
      while (out.type === 'choice' && out.reason === 'suffix') out = this.entry.choose(out.options[0]);
      if (out.type === 'none') {
        this.entry.reset();
        this.$('entry-error').textContent = `Premove ${this.premoveText(p)} dropped: not legal now`;
        window.__menagerie.premoves = (window.__menagerie.premoves || 0) + 1;
        this.renderAll();
        return;
      }
    }
    window.__menagerie.premoves = (window.__menagerie.premoves || 0) + 1;
    this.outcome(out);
  }

  /** The sounds of a new state: a turn (a capture, a check), the end of the game. */
  sounds(old, s) {
    if (s.moves.length === old.moves.length + 1) {
      const n = (s.notation && s.notation[s.moves.length - 1]) || '';
      if (s.check && s.check.length) playSound('check');
      else if (n.includes('x')) playSound('capture');
      else playSound('move');
    }
    if (s.result && !old.result) playSound('end');
  }

  // ---- review ----

  /** Fetches the game's review when the state says there is one not yet here (or drops one
   * that is no longer of the game's turns). */
  syncReview(s) {
    const key = s.moves.join(' ');
    if (!s.reviewed) {
      this.review = null;
      return;
    }
    if (this.review && this.review.key === key) return;
    if (this.reviewFetch === key) return;
    this.reviewFetch = key;
    get(`/api/games/${encodeURIComponent(this.id)}/review`)
      .then((r) => {
        this.review = { ...r, key: r.moves.join(' ') };
        this.renderAll();
      })
      .catch(() => {})
      .finally(() => {
        this.reviewFetch = null;
      });
  }

  onReview(d) {
    if (d.finished || d.cancelled) {
      this.reviewProgress = null;
      this.renderReview();
      return;
    }
    this.reviewProgress = d;
    this.renderReview();
  }

  /** The review's verdict on turn `i` (0-based), if there is one. */
  reviewed(i) {
    const r = this.review;
    return r && r.plies ? r.plies[i] : null;
  }

  renderReview() {
    const s = this.st;
    const p = this.reviewProgress || (s.review_progress ? s.review_progress : null);
    const prog = this.$('review-progress');
    prog.hidden = !p;
    if (p) {
      this.$('review-bar').max = p.total;
      this.$('review-bar').value = p.done;
      this.$('review-count').textContent = `${p.done} of ${p.total} positions`;
    }
    const locked = this.$('evaluate').disabled;
    this.$('review').disabled = locked || !!p || !s.moves.length;
    this.$('review').title = !s.moves.length ? 'A game without turns has nothing to review' : this.$('evaluate').title;
    this.$('review').textContent = this.review ? 'Review again' : 'Review the game';
    const sum = this.$('review-summary');
    const r = this.review;
    if (!r) {
      sum.hidden = true;
      this.$('review-note').hidden = true;
      return;
    }
    const row = (c) => {
      const n = r.counts[c] || {};
      const acc = r.accuracy[c];
      return `<tr><th>${c === 'white' ? 'White' : 'Black'}</th><td class="acc">${acc === null || acc === undefined ? '—' : `${Math.round(acc)}%`}</td>${REVIEW_CLASSES.map(([k]) => `<td class="rv-${k}">${n[k] ?? 0}</td>`).join('')}</tr>`;
    };
    const html = `<table><thead><tr><th></th><th>Accuracy</th>${REVIEW_CLASSES.map(([k, label, short]) => `<th class="rv-${k}" title="${label}">${short}</th>`).join('')}</tr></thead>
      <tbody>${row('white')}${row('black')}</tbody></table><p class="muted small">${r.nodes.toLocaleString('en')} nodes a position</p>`;
    if (sum.dataset.html !== html) {
      sum.innerHTML = html;
      sum.dataset.html = html;
    }
    sum.hidden = false;
    const t = this.viewPly > 0 ? this.reviewed(this.viewPly - 1) : null;
    const note = this.$('review-note');
    if (t && t.class !== 'best' && t.class !== 'good' && t.best_notation) {
      note.innerHTML = `<span class="rv-${t.class}">${esc(t.played_notation || t.played)} is ${t.class === 'inaccuracy' ? 'an inaccuracy' : `a ${t.class}`}</span>; best was <strong>${esc(t.best_notation)}</strong>.`;
      note.hidden = false;
    } else note.hidden = true;
  }

  /** The analysis as the server runs it (`analysis` of the state). */
  syncAnalysis(s) {
    const a = this.analysis;
    const sa = s.analysis;
    if (sa) {
      if (!a.on || a.ply !== sa.ply || a.multipv !== sa.multipv) {
        a.lines = new Map();
        a.bestmove = null;
      }
      a.on = true;
      a.ply = sa.ply;
      a.multipv = sa.multipv || 1;
    } else if (!this.analysisRequested) {
      a.on = false;
      a.ply = null;
    }
    this.$('analysis-toggle').checked = a.on || !!this.analysisRequested;
    this.$('multipv').value = String(a.multipv);
    const engineGame = s.engine && s.engine !== 'none' && !s.result;
    const opponent = !s.result && !this.holdsAll();
    const locked = engineGame || opponent || !this.you.length;
    this.$('analysis-toggle').disabled = locked;
    this.$('evaluate').disabled = locked;
    const why = !this.you.length
      ? 'A spectator cannot start the analysis'
      : engineGame
        ? 'Analysis and scoring are available once the game against the engine is over'
        : opponent
          ? 'Analysis is available once the game against your opponent is over'
          : '';
    this.$('analysis-toggle').parentElement.title = why;
    this.$('evaluate').title = why;
  }

  /** True when the person may enter a turn in the current state (at the last ply). */
  canEnterState() {
    const s = this.st;
    if (!s || s.result || this.submitting || s.engine_thinking) return false;
    if (!s.legal || !s.legal.length) return false;
    if (!this.you.includes(s.to_move)) return false;
    return !(s.engine && s.engine !== 'none' && s.engine === s.to_move);
  }

  /** Whether this page holds every person's seat (against the engine, or both sides here). */
  holdsAll() {
    const s = this.st;
    const humans = ['white', 'black'].filter((c) => !s.players || s.players[c] === 'human');
    return humans.length > 0 && humans.every((c) => this.you.includes(c));
  }

  canEnter() {
    if (this.branch && this.branch.ply === this.viewPly) return !this.submitting;
    return this.canEnterState() && this.viewPly === this.st.moves.length;
  }

  /** Whether a new line may start at an earlier position: games without the engine. */
  canBranch() {
    const s = this.st;
    return !!s && (!s.engine || s.engine === 'none') && this.you.length === 2 && this.viewPly < s.moves.length;
  }

  /** Asks for the legal turns of the position shown, so that a new line can start there. */
  async loadBranch() {
    const ply = this.viewPly;
    if (!this.canBranch()) return;
    try {
      const r = await get(`/api/games/${encodeURIComponent(this.id)}/legal?ply=${ply}`);
      if (this.viewPly !== ply || !this.canBranch()) return;
      this.branch = { ply, legal: r.legal, notation: r.legal_notation };
      this.entry = new TurnEntry(r.legal);
      this.entryKey = null;
      this.entryCache = null;
      this.renderAll();
    } catch (e) {
      // Viewing still works; entering a turn there does not.
    }
  }

  cache() {
    if (!this.entryCache) {
      this.entryCache = {
        from: this.canEnter() ? this.entry.fromSquares() : new Set(),
        drops: this.canEnter() ? this.entry.dropCodes() : new Set(),
        pass: this.canEnter() && this.entry.canPass(),
      };
    }
    return this.entryCache;
  }

  entryChanged() {
    this.entryCache = null;
    this.renderBoard();
    this.renderPockets();
    this.renderEntryBar();
  }

  /** Shows the position after `ply` turns; `history` says how the address follows: `push` (a
   * new entry, so that Back returns), or `none` (it already names the ply). */
  goto(ply, history = 'push') {
    const n = this.st.moves.length;
    ply = Math.max(0, Math.min(n, ply));
    if (ply === this.viewPly) return;
    this.viewPly = ply;
    if (history === 'push') this.markAddress();
    this.board.selected = null;
    this.entryCache = null;
    this.closeChoice();
    if (this.branch) {
      // Back to the game's own turn entry.
      this.branch = null;
      this.entryKey = null;
      this.entry = new TurnEntry(this.canEnterState() ? this.st.legal : []);
    }
    if (this.canBranch()) this.loadBranch();
    if (this.analysis.on) this.requestAnalysis();
    this.renderAll();
  }

  /** Puts the ply viewed in the address (`?ply=N`; none at the game's last position), as a new
   * entry of the browser's history, or in place of the last one when that was made within a
   * second (holding an arrow key makes one entry). */
  markAddress() {
    const params = new URLSearchParams(location.search);
    if (this.viewPly === this.st.moves.length) params.delete('ply');
    else params.set('ply', String(this.viewPly));
    const q = params.toString();
    const url = location.pathname + (q ? `?${q}` : '');
    if (url === location.pathname + location.search) return;
    const now = performance.now();
    if (this.lastPush && now - this.lastPush < 1000) history.replaceState({ ply: this.viewPly }, '', url);
    else history.pushState({ ply: this.viewPly }, '', url);
    this.lastPush = now;
  }

  /** The legal turn a typed text names: a token, or a turn's notation up to check and
   * annotation marks (`0-0` for `O-O`); `{token}` or `{error}`. */
  typedTurn(text) {
    const t = text.trim();
    if (!t) return { error: '' };
    const legal = this.branch && this.branch.ply === this.viewPly ? this.branch.legal : this.st.legal || [];
    const notation = this.branch && this.branch.ply === this.viewPly ? this.branch.notation || [] : this.st.legal_notation || [];
    if (legal.includes(t)) return { token: t };
    const lower = legal.filter((x) => x.toLowerCase() === t.toLowerCase());
    if (lower.length === 1) return { token: lower[0] };
    const norm = (x) => x.replace(/[+#!?]/g, '').replace(/0-0-0/g, 'O-O-O').replace(/0-0/g, 'O-O').replace(/\s+/g, '');
    const want = norm(t);
    const hits = legal.filter((_, i) => notation[i] && norm(notation[i]) === want);
    if (hits.length === 1) return { token: hits[0] };
    if (hits.length > 1) return { error: `'${t}' is ambiguous: ${hits.join(', ')}` };
    return { error: `'${t}' is not a legal turn here` };
  }

  /** The keyboard's turn: played when it names one legal turn. */
  typed() {
    const input = this.$('turn-input');
    const r = this.typedTurn(input.value);
    if (r.token) {
      if (!this.canEnter()) return;
      input.value = '';
      this.entry.reset();
      this.submit(r.token);
    } else this.$('entry-error').textContent = r.error;
  }

  /** Moves the running analysis to the ply shown (a little later, so that holding an arrow key does not flood the engine). */
  requestAnalysis() {
    clearTimeout(this.analysisTimer);
    this.analysisTimer = setTimeout(() => {
      if (this.analysis.on && this.analysis.ply !== this.viewPly) this.setAnalysis(true);
    }, 120);
  }

  onKey(e) {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const n = this.st.moves.length;
    const map = { ArrowLeft: this.viewPly - 1, ArrowRight: this.viewPly + 1, Home: 0, End: n, ArrowUp: 0, ArrowDown: n };
    if (e.key in map) {
      e.preventDefault();
      this.goto(map[e.key]);
    } else if (e.key === 'Escape') {
      this.board.select(null);
      this.closeChoice();
    } else if (e.key === 'f') {
      this.$('flip').click();
    }
  }

  // ---- entering a turn ----

  play(sel, to) {
    if (sel.sq) this.userLeg({ kind: 'move', from: sel.sq, to });
    else this.userLeg({ kind: 'drop', code: sel.drop, to });
  }

  userLeg(leg) {
    if (!this.canEnter()) return;
    this.$('entry-error').textContent = '';
    this.snapshot = this.entry.entered.map((p) => p.slice());
    const out = this.entry.enter(leg);
    this.board.selected = null;
    this.outcome(out);
  }

  outcome(out) {
    this.entryCache = null;
    if (out.type === 'submit') {
      this.submit(out.token);
    } else if (out.type === 'choice') {
      this.showChoice(out);
    } else if (out.type === 'pending') {
      this.requestPreview();
    }
    this.renderBoard();
    this.renderPockets();
    this.renderEntryBar();
  }

  async submit(token) {
    this.submitting = true;
    this.pendingToken = token;
    this.pendingAt = this.st.moves.length;
    this.entryCache = null;
    const branchPly = this.branch && this.branch.ply === this.viewPly ? this.branch.ply : null;
    try {
      const body = branchPly === null ? { token } : { token, ply: branchPly };
      const s = await post(`/api/games/${encodeURIComponent(this.id)}/moves`, body);
      this.submitting = false;
      this.pendingToken = null;
      this.entryKey = null;
      this.branch = null;
      // The engine's reply may have come over the event stream before this answer: then the
      // newer state stays, and is drawn again with the entry rebuilt.
      const newer = branchPly === null && s.moves.length < this.st.moves.length;
      this.applyState(newer ? this.st : s, false, branchPly !== null);
    } catch (e) {
      this.submitting = false;
      this.pendingToken = null;
      this.entry.reset();
      this.entryCache = null;
      this.$('entry-error').textContent = `${token}: ${e.message}`;
      this.renderAll();
    }
  }

  requestPreview() {
    if (this.branch) return; // the engine previews only at the game's last position
    const tokens = this.entry.completedPortions();
    const key = JSON.stringify(tokens);
    if (!tokens.length || this.previews.has(key)) return;
    this.previews.set(key, undefined);
    const fenAt = this.st.fen;
    post(`/api/games/${encodeURIComponent(this.id)}/preview`, { tokens })
      .then((r) => {
        if (this.st.fen !== fenAt) return;
        this.previews.set(key, r && r.fen ? r.fen : null);
        this.renderBoard();
        this.renderPockets();
      })
      .catch(() => this.previews.set(key, null));
  }

  /** The position shown at the last ply: the state's, or the turn entered so far. */
  shownPosition() {
    const v = this.v;
    const s = this.st;
    const branching = this.branch && this.branch.ply === this.viewPly;
    if (this.viewPly !== s.moves.length && !branching) return parseFen(s.fens[this.viewPly] || s.fen, v);
    let pos = parseFen(branching ? s.fens[this.viewPly] : s.fen, v);
    if (this.pendingToken) {
      // Shown until the server's answer; a state that already has the turn shows it itself.
      return s.moves.length === this.pendingAt ? naive(pos, splitToken(this.pendingToken), pos.side) : pos;
    }
    if (this.entry.isEmpty()) return pos;
    const done = this.entry.completedPortions();
    const side = pos.side;
    if (done.length) {
      const f = this.previews.get(JSON.stringify(done));
      if (f) pos = parseFen(f, v);
      else pos = naive(pos, done.map((p) => p.split(',')), side);
    }
    const cur = this.entry.currentLegs();
    if (cur.length) pos = naive(pos, [cur], side);
    return pos;
  }

  showChoice(out) {
    this.choice = out;
    const dlg = this.$('choice-dialog');
    const side = sideOfFen(this.st.fen);
    const pos = this.shownPosition();
    const cur = this.entry.currentLegs();
    const lastLeg = cur.length ? parseLeg(cur[cur.length - 1]) : null;
    let title = 'Choose';
    const items = out.options.map((o) => {
      let icon = '';
      let label = '';
      if (o.kind === 'suffix') {
        const mover = pos.board.get(out.user.from);
        const mname = mover ? this.pieceName(mover) : '';
        title = out.user.from === out.user.to ? `Change the ${mname} on ${out.user.from}` : `${mname} ${out.user.from} → ${out.user.to}`;
        if (o.suffix === '') {
          label = mover ? `keep the ${this.pieceName(mover)}` : 'no change';
          if (mover) icon = pieceIcon(mover, this.pieces.get(mover.toUpperCase()), 40);
        } else if (o.suffix === 'x') {
          label = 'remove itself';
          icon = '<span class="x-icon">✕</span>';
        } else {
          const code = side === 'w' ? o.suffix.toUpperCase() : o.suffix.toLowerCase();
          const info = this.pieces.get(o.suffix.toUpperCase());
          icon = pieceIcon(code, info, 40);
          label = info ? info.name : o.suffix.toUpperCase();
        }
      } else if (o.kind === 'end') {
        title = 'How does the turn go on?';
        const target = lastLeg && lastLeg.kind === 'move' ? this.st && parseFen(this.st.fen, this.v).board.get(lastLeg.to) : null;
        const onlyDrops = out.options.every((x) => x === o || (x.kind === 'next' && x.leg && x.leg.includes('@')));
        if (o.ends === 'turn' && onlyDrops) label = 'no drop: end the turn here';
        else if (o.ends === 'turn') label = 'end the turn here';
        else label = 'end this part here';
        if (onlyDrops) {
          // nothing to add
        } else if (lastLeg && lastLeg.kind === 'move' && target && colourOf(target) !== side) label += ` (take the ${this.pieceName(target)} on ${lastLeg.to})`;
        else if (lastLeg && lastLeg.kind === 'move') label += ` (${lastLeg.from} → ${lastLeg.to} only)`;
      } else if (o.kind === 'leg') {
        title = 'How does the turn go on?';
        const l = parseLeg(o.leg);
        if (l.kind === 'move' && lastLeg && lastLeg.kind === 'move' && l.from === lastLeg.to && l.to === lastLeg.from) {
          label = `exchange places (${l.from} → ${l.to})`;
        } else if (l.kind === 'move') label = `and ${l.from} → ${l.to}${l.suffix ? ' (' + l.suffix + ')' : ''}`;
        else if (l.kind === 'drop') label = `and drop ${this.pieceName(l.code)} on ${l.to}`;
        else label = 'and pass';
        const p = l.kind === 'move' ? parseFen(this.st.fen, this.v).board.get(l.from) : l.kind === 'drop' ? (side === 'w' ? l.code : l.code.toLowerCase()) : null;
        if (p) icon = pieceIcon(p, this.pieces.get(p.toUpperCase()), 40);
      } else if (o.kind === 'next') {
        title = 'How does the turn go on?';
        if (o.leg) {
          const l = parseLeg(o.leg);
          if (l.kind === 'drop') {
            const code = side === 'w' ? l.code : l.code.toLowerCase();
            icon = pieceIcon(code, this.pieces.get(l.code), 40);
            label = `then drop ${this.pieceName(l.code)} on ${l.to}`;
          } else if (l.kind === 'move') label = `then ${l.from} → ${l.to}`;
          else label = 'then pass';
        } else label = 'go on with the next part';
      }
      return `<button type="button" class="choice-btn" data-choice="${esc(o.text)}">${icon}<span>${esc(label)}</span></button>`;
    });
    dlg.innerHTML = `<div class="choice-box" role="dialog" aria-label="${esc(title)}"><div class="choice-title">${esc(title)}</div>${items.join('')}
      <button type="button" id="choice-cancel" class="choice-cancel">Cancel</button></div>`;
    dlg.hidden = false;
    dlg.querySelectorAll('.choice-btn').forEach((b, i) =>
      b.addEventListener('click', () => {
        const o = out.options[i];
        this.closeChoice();
        this.outcome(this.entry.choose(o));
      }),
    );
    dlg.querySelector('#choice-cancel').addEventListener('click', () => {
      this.closeChoice();
      if (this.snapshot) this.entry.entered = this.snapshot.map((p) => p.slice());
      this.entryChanged();
    });
  }

  closeChoice() {
    this.choice = null;
    const d = this.root && this.$('choice-dialog');
    if (d) {
      d.hidden = true;
      d.innerHTML = '';
    }
  }

  pieceName(code) {
    const p = this.pieces.get(code.toUpperCase());
    return p ? p.name : code;
  }

  // ---- actions ----

  async action(name) {
    this.$('action-error').textContent = '';
    try {
      const s = await post(`/api/games/${encodeURIComponent(this.id)}/${name}`);
      if (name === 'rematch' && s && s.id && s.id !== this.id) {
        rememberGame(s);
        this.followed = true;
        this.follow(s.id);
        return;
      }
      if (s && s.moves) {
        this.entryKey = null;
        this.applyState(s);
      }
    } catch (e) {
      this.$('action-error').textContent = e.message;
    }
  }

  async decline(offer) {
    this.$('action-error').textContent = '';
    try {
      const s = await post(`/api/games/${encodeURIComponent(this.id)}/decline`, { offer });
      if (s && s.moves) this.applyState(s);
    } catch (e) {
      this.$('action-error').textContent = e.message;
    }
  }

  async analyseFen(fen) {
    if (!fen) return;
    this.$('tools-error').textContent = '';
    try {
      const s = await post('/api/games', { variant: this.v.name, fen, engine: 'none' });
      rememberGame(s);
      location.href = `/game/${encodeURIComponent(s.id)}`;
    } catch (e) {
      this.$('tools-error').textContent = e.message;
    }
  }

  async setAnalysis(on) {
    const a = this.analysis;
    a.lines = new Map();
    a.bestmove = null;
    a.on = on;
    a.ply = on ? this.viewPly : null;
    this.analysisRequested = on;
    this.$('analysis-error').textContent = '';
    this.renderAnalysis();
    this.renderBoard();
    try {
      const s = await post(`/api/games/${encodeURIComponent(this.id)}/analysis`, on ? { on, multipv: a.multipv, ply: this.viewPly } : { on: false });
      this.analysisRequested = false;
      if (s && s.moves) this.applyState(s);
    } catch (e) {
      this.analysisRequested = false;
      a.on = false;
      this.$('analysis-toggle').checked = false;
      this.$('analysis-error').textContent = e.message;
      this.renderAnalysis();
    }
  }

  onInfo(d) {
    // The server keeps the best line's score of each position it searched (the state's
    // `evals`); keep the chart current between states.
    if ((d.multipv || 1) === 1 && !d.bound && d.score && this.st && this.st.evals && d.ply < this.st.evals.length) {
      const old = this.st.evals[d.ply];
      if (!old || old.depth <= d.depth) {
        this.st.evals[d.ply] = { ...d.score, depth: d.depth };
        if (!this.chartTimer) {
          this.chartTimer = setTimeout(() => {
            this.chartTimer = null;
            this.renderChart();
          }, 250);
        }
      }
    }
    if (d.kind === 'evaluate') return;
    if (d.kind === 'move' || !this.analysis.on) {
      if (d.kind === 'analysis') return;
      // The engine's own search while it plays: show it as a line when no analysis runs.
      this.engineInfo = d;
      this.renderAnalysis();
      return;
    }
    if (d.ply !== undefined && d.ply !== null && d.ply !== this.analysis.ply) return;
    this.analysis.lines.set(d.multipv || 1, d);
    // Info lines can come many times a second: draw at most every 150 ms.
    if (!this.infoTimer) {
      this.infoTimer = setTimeout(() => {
        this.infoTimer = null;
        this.renderAnalysis();
        this.renderEvalBar();
        this.renderBoard();
      }, 150);
    }
  }

  // ---- rendering ----

  renderAll() {
    this.renderHead();
    this.renderBoard();
    this.renderPockets();
    this.renderPlayers();
    this.renderClocks();
    this.renderEntryBar();
    this.renderMoves();
    this.renderAnalysis();
    this.renderEvalBar();
    this.renderChart();
    this.renderReview();
    this.renderDetails();
    this.renderFen();
  }

  renderHead() {
    const s = this.st;
    const who = (c) => (s.engine === c || s.engine === 'both' ? 'Engine' : this.you.includes(c) ? 'You' : 'Opponent');
    let sub = s.engine === 'none' ? (this.you.length === 2 ? 'Two players or analysis (no engine opponent)' : `${who('white')} (White) vs ${who('black')} (Black)`) : `${who('white')} (White) vs ${who('black')} (Black)`;
    if (s.engine !== 'none') sub += s.elo ? ` · Elo ${s.elo}` : ` · level ${s.level ?? 20}`;
    if (s.clock) sub += ` · ${s.clock.base_ms / 60000}+${s.clock.inc_ms / 1000}`;
    else if (s.engine !== 'none' && s.movetime_ms) sub += ` · ${s.movetime_ms / 1000} s per move`;
    if (s.seed !== undefined && s.seed !== null) sub += ` · seed ${s.seed}`;
    this.$('game-sub').textContent = sub;
    let status = '';
    if (s.result) status = 'Game over';
    else if (s.engine_thinking) status = 'The engine is thinking…';
    else if (s.engine_waiting) status = 'Waiting for a free engine: every search place is in use; the engine starts as soon as one is free…';
    else if (this.viewPly !== s.moves.length && this.canBranch()) status = `Viewing ply ${this.viewPly} of ${s.moves.length}: a turn here starts a new line (End returns to the game)`;
    else if (this.viewPly !== s.moves.length) status = `Viewing ply ${this.viewPly} of ${s.moves.length} (End returns to the game)`;
    else if (this.you.length === 1 && this.you[0] === s.to_move) status = `Your turn (${colourName(s.to_move)})`;
    else if (this.you.length === 1 && s.engine === 'none') status = `Your opponent's turn (${colourName(s.to_move)})`;
    else if (s.engine !== 'none' && s.engine !== 'both' && s.engine !== s.to_move) status = `Your turn (${colourName(s.to_move)})`;
    else status = `${colourName(s.to_move)} to move`;
    const st = this.$('status');
    st.textContent = status;
    st.classList.toggle('thinking', !!s.engine_thinking || !!s.engine_waiting);
    const rb = this.$('result-banner');
    if (s.result) {
      const sc = s.result.score;
      const winner = sc === '1-0' ? 'White wins' : sc === '0-1' ? 'Black wins' : 'Draw';
      rb.innerHTML = `<div class="score">${esc(sc)}</div><div>${esc(winner)} · ${esc(s.result.reason || '')}</div>`;
      rb.hidden = false;
    } else rb.hidden = true;
    const n = this.$('notice');
    // A game file the disk did not take is said here until it does (the game goes on).
    const notice = [s.notice, s.save_error].filter(Boolean).join(' · ');
    n.textContent = notice;
    n.hidden = !notice;
    this.$('claim').hidden = !s.claimable || !!s.result;
    this.$('claim').textContent = s.claimable ? `Claim draw (${s.claimable})` : 'Claim draw';
    this.$('resign').disabled = !!s.result;
    this.$('takeback').disabled = !s.moves.length;
    this.renderSeats();
  }

  /** Whose seat this page is, the links to hand on, the offers and the seat's buttons. */
  renderSeats() {
    const s = this.st;
    const you = this.you;
    const watching = !you.length;
    const two = s.engine === 'none' && you.length === 1;
    this.$('seat-line').textContent = watching
      ? (s.engine === 'both' ? 'The engine plays both sides: you are watching.' : 'You are watching: this page plays no side.')
      : you.length === 2
        ? 'You play both sides on this device.'
        : `You play ${colourName(you[0])}.`;
    this.$('seat-line').classList.toggle('watching', watching);
    for (const b of ['takeback', 'resign']) this.$(b).hidden = watching;
    if (watching) this.$('claim').hidden = true;
    this.$('takeback').textContent = two ? 'Ask takeback' : 'Takeback';
    this.$('draw').hidden = watching || !!s.result || s.engine !== 'none';
    const offers = s.offers || {};
    const mineOffer = (k) => offers[k] && you.includes(offers[k]);
    this.$('draw').textContent = mineOffer('draw') ? 'Draw offered' : you.length === 2 ? 'Agree draw' : 'Offer draw';
    this.$('draw').disabled = mineOffer('draw');
    this.$('rematch').hidden = watching || !s.result || !!s.rematch;
    this.$('rematch').textContent = mineOffer('rematch') ? 'Rematch offered' : offers.rematch ? 'Accept rematch' : 'Rematch';
    this.$('rematch').disabled = mineOffer('rematch');
    // The other side's offers, to accept or decline; one's own, to withdraw.
    const bar = this.$('offer-bar');
    const words = { draw: 'a draw', takeback: 'a takeback', rematch: 'a rematch' };
    const rows = [];
    for (const k of ['draw', 'takeback', 'rematch']) {
      const by = offers[k];
      if (!by) continue;
      if (watching) rows.push(`<span>${esc(colourName(by))} offers ${words[k]}.</span>`);
      else if (!you.includes(by)) {
        rows.push(`<span>${esc(colourName(by))} offers ${words[k]}.</span>
          <button type="button" data-answer="accept" data-offer="${k}">Accept</button>
          <button type="button" data-answer="decline" data-offer="${k}">Decline</button>`);
      } else rows.push(`<span>You offered ${words[k]}.</span> <button type="button" data-answer="decline" data-offer="${k}">Withdraw</button>`);
    }
    const html = rows.map((r) => `<div class="offer">${r}</div>`).join('');
    if (bar.dataset.html !== html) {
      bar.dataset.html = html;
      bar.innerHTML = html;
    }
    bar.hidden = !rows.length;
    // The creator of a game against a friend hands on the friend's link and the watch link.
    const inv = invitesOf(this.id);
    const box = this.$('invite');
    if (inv && !s.result && !box.dataset.shown) {
      box.dataset.shown = '1';
      const row = (label, link) => `<div class="invite-row"><span>${esc(label)}</span>
        <input type="text" readonly value="${esc(new URL(link, location.origin).href)}" aria-label="${esc(label)}">
        <button type="button" data-link="${esc(link)}">Copy</button></div>`;
      box.innerHTML = '<div class="muted small">Send your friend their link; anyone may watch.</div>'
        + ['white', 'black'].filter((c) => inv[c]).map((c) => row(`${colourName(c)}'s seat`, inv[c])).join('')
        + (inv.watch ? row('Watch', inv.watch) : '');
    }
    box.hidden = !inv || !!s.result;
    // A rematch made: every page of this game follows it.
    if (s.rematch && !this.followed) {
      this.followed = true;
      this.follow(s.rematch);
    }
    const rb = this.$('result-banner');
    if (s.rematch && !rb.querySelector('.rematch-link')) {
      rb.insertAdjacentHTML('beforeend', `<div><a class="rematch-link" href="/game/${encodeURIComponent(s.rematch)}">Rematch →</a></div>`);
    }
  }

  /** Opens the rematch `id`, holding there the seats held here (each keeps its secret). */
  follow(id) {
    for (const secret of seatsOf(this.id)) holdSeat(id, secret);
    location.href = `/game/${encodeURIComponent(id)}`;
  }

  renderBoard() {
    const s = this.st;
    if (!s) return;
    const pos = this.shownPosition();
    this.shown = pos;
    const atEnd = this.viewPly === s.moves.length;
    let last = [];
    if (atEnd && this.pendingToken && s.moves.length === this.pendingAt) last = tokenSquares(this.pendingToken);
    else if (atEnd && !this.entry.isEmpty()) last = tokenSquares(this.entry.entered.map((p) => p.join(',')).filter(Boolean).join(';'));
    else if (this.viewPly > 0) last = tokenSquares(s.moves[this.viewPly - 1]);
    const arrows = [];
    const best = this.analysis.on && this.analysis.lines.get(1);
    if (best && best.pv && best.pv.length && this.analysis.ply === this.viewPly && (atEnd ? this.entry.isEmpty() : true)) {
      const l = parseLeg(splitToken(best.pv[0])[0][0]);
      if (l && l.kind === 'move') arrows.push({ from: l.from, to: l.to, cls: 'best' });
      else if (l && l.kind === 'drop') arrows.push({ at: l.to, cls: 'best' });
    }
    // The review's better turn, shown at the position after a mistake or a blunder.
    const rv = this.viewPly > 0 && !best ? this.reviewed(this.viewPly - 1) : null;
    if (rv && (rv.class === 'mistake' || rv.class === 'blunder') && rv.best) {
      const l = parseLeg(splitToken(rv.best)[0][0]);
      if (l && l.kind === 'move') arrows.push({ from: l.from, to: l.to, cls: 'review-best' });
      else if (l && l.kind === 'drop') arrows.push({ at: l.to, cls: 'review-best' });
    }
    let board = pos.board;
    const premove = [];
    if (atEnd && this.premove) {
      board = new Map(board);
      for (const l of this.premove.legs) {
        const code = l.kind === 'move' ? board.get(l.from) : this.ownColour() === 'w' ? l.code : l.code.toLowerCase();
        if (l.kind === 'move') board.delete(l.from);
        if (code) board.set(l.to, code);
        premove.push(...(l.kind === 'move' ? [l.from, l.to] : [l.to]));
      }
      this.shown = { ...pos, board };
    }
    this.board.render({
      board,
      last,
      check: atEnd && this.entry.isEmpty() ? s.check || [] : [],
      arrows,
      premove,
      interactive: this.canEnter() || this.premoving(),
    });
  }

  /** Pocket items per colour: hand pieces with counts, and pieces that can be dropped now. */
  renderPockets() {
    const s = this.st;
    const pos = this.shown || this.shownPosition();
    const side = pos.side;
    const can = this.canEnter();
    const premoving = this.premoving();
    let drops = can ? this.cache().drops : new Set();
    if (premoving) drops = new Set((pos.hand || []).filter((c) => colourOf(c) === this.ownColour()).map((c) => c.toUpperCase()));
    const dropSide = premoving ? this.ownColour() : side;
    const sel = this.board.selected;
    const html = {};
    for (const c of ['w', 'b']) {
      const counts = new Map();
      for (const code of pos.hand || []) {
        if (colourOf(code) !== c) continue;
        const up = code.toUpperCase();
        counts.set(up, (counts.get(up) || 0) + 1);
      }
      if (c === dropSide) for (const code of drops) if (!counts.has(code)) counts.set(code, 0);
      let items = '';
      for (const [code, n] of counts) {
        const droppable = c === dropSide && drops.has(code);
        const shown = c === 'w' ? code : code.toLowerCase();
        const info = this.pieces.get(code);
        const title = `${info ? info.name : code}${n ? ` ×${n} in hand` : ' (can be dropped)'}${info ? ': ' + info.movement : ''}`;
        items += `<button type="button" class="pocket-item${droppable ? ' droppable' : ''}${sel && sel.drop === code && droppable ? ' selected' : ''}" data-drop="${esc(code)}" data-colour="${c}" title="${esc(title)}" ${droppable ? '' : 'aria-disabled="true"'}>${pieceIcon(shown, info, 38)}${n > 1 ? `<span class="count">${n}</span>` : ''}</button>`;
      }
      html[c] = items;
    }
    void s;
    for (const c of ['w', 'b']) {
      const p = this.root.querySelector(`#pocket-${c === 'w' ? 'white' : 'black'}`);
      if (p && p.dataset.html !== html[c]) {
        p.innerHTML = html[c];
        p.dataset.html = html[c];
      }
      if (p) p.classList.toggle('empty', !html[c]);
    }
  }

  onPocketDown(e) {
    const b = e.target.closest('.pocket-item');
    if (!b || !b.classList.contains('droppable') || e.button !== 0) return;
    e.preventDefault();
    const code = b.dataset.drop;
    const sel = this.board.selected;
    if (sel && sel.drop === code) {
      this.board.select(null);
      return;
    }
    this.board.select({ drop: code });
    const shown = b.dataset.colour === 'w' ? code : code.toLowerCase();
    this.board.beginDrag(e, { drop: code }, false, shown);
  }

  renderPlayers() {
    const s = this.st;
    const bottom = this.flipped ? 'black' : 'white';
    const top = bottom === 'white' ? 'black' : 'white';
    const name = (c) => {
      const given = s[c];
      if (s.engine === c || s.engine === 'both') return given || `Engine${s.elo ? ` (Elo ${s.elo})` : ` (level ${s.level ?? 20})`}`;
      if (given && given !== 'Player') return given;
      if (this.you.length === 1) return this.you[0] === c ? 'You' : 'Opponent';
      if (s.engine === 'none') return '';
      return 'You';
    };
    for (const [bar, c] of [
      [this.$('bar-top'), top],
      [this.$('bar-bottom'), bottom],
    ]) {
      const key = `${c}|${name(c)}|${!!s.clock}`;
      if (bar.dataset.key !== key) {
        bar.dataset.key = key;
        bar.innerHTML = `<span class="side-dot ${c}"></span><span class="player-name">${esc(colourName(c))}${name(c) ? ' · ' + esc(name(c)) : ''}</span>
          <div class="pocket" id="pocket-${c}"></div>
          ${s.clock ? `<span class="clock" id="clock-${c}"></span>` : ''}`;
      }
      bar.classList.toggle('to-move', !s.result && s.to_move === c);
    }
    this.renderPockets();
  }

  renderClocks() {
    const s = this.st;
    if (!s || !s.clock) return;
    const el = performance.now() - this.clockAt;
    for (const c of ['white', 'black']) {
      const e = this.root.querySelector(`#clock-${c}`);
      if (!e) continue;
      let ms = s.clock[`${c}_ms`];
      const running = s.clock.running === c && !s.result;
      if (running) ms -= el;
      const t = fmtClock(ms);
      if (e.textContent !== t) e.textContent = t;
      e.classList.toggle('running', running);
      e.classList.toggle('low', ms < 20000);
      // Low time: one warning when this page's own running clock passes 10 s.
      if (running && this.you.includes(c) && ms < 10000 && ms > 0) {
        if (!this.lowWarned) this.lowWarned = new Set();
        if (!this.lowWarned.has(c)) {
          this.lowWarned.add(c);
          playSound('lowtime');
        }
      }
    }
  }

  renderEntryBar() {
    const can = this.canEnter();
    const pend = this.$('pending');
    const empty = this.entry.isEmpty();
    if (!empty && can) {
      const parts = this.entry.entered.map((p) => p.join(',')).filter(Boolean);
      let waiting = ' …';
      if (this.entry.currentLegs().length === 0) {
        const kinds = new Set(this.entry.nextLegs().map((l) => l.kind));
        if (kinds.size === 1 && kinds.has('drop')) waiting = ' — now drop a piece from the pocket';
        else if (kinds.size === 1 && kinds.has('pass')) waiting = ' — now pass';
        else waiting = ' — now the next part';
      }
      pend.textContent = `Entered: ${parts.join(' ; ')}${waiting}`;
      pend.hidden = false;
    } else pend.hidden = true;
    this.$('pending-undo').hidden = empty || !can;
    const pm = this.$('premove');
    pm.hidden = !this.premove;
    this.$('premove-cancel').hidden = !this.premove;
    if (this.premove) pm.textContent = `Premove: ${this.premoveText()}`;
    this.$('pass').hidden = !(can && this.cache().pass);
    // The keyboard's completions: each legal turn in the game's notation and as its token.
    this.$('turn-form').hidden = !can;
    const branch = this.branch && this.branch.ply === this.viewPly;
    const legal = can ? (branch ? this.branch.legal : this.st.legal || []) : [];
    const notation = branch ? this.branch.notation || [] : this.st.legal_notation || [];
    const key = legal.join(' ');
    if (this.optionsKey !== key) {
      this.optionsKey = key;
      const words = [];
      legal.forEach((tok, i) => {
        if (notation[i] && notation[i] !== tok) words.push([notation[i], tok]);
        words.push([tok, notation[i] || '']);
      });
      this.$('turn-options').innerHTML = words.map(([w, label]) => `<option value="${esc(w)}">${esc(label)}</option>`).join('');
    }
    if (this.pendingToken) {
      pend.textContent = `Sending ${this.pendingToken}…`;
      pend.hidden = false;
    }
  }

  renderMoves() {
    const s = this.st;
    const list = this.$('move-list');
    const start = parseFen(s.start_fen || s.fens[0], this.v);
    let num = start.fullmove;
    let side = start.side;
    let html = '';
    for (let i = 0; i < s.moves.length; i++) {
      const san = (s.notation && s.notation[i]) || s.moves[i];
      if (side === 'w') html += `<span class="num">${num}.</span>`;
      else if (i === 0) html += `<span class="num">${num}…</span><span class="mv empty"></span>`;
      const rv = this.reviewed(i);
      const cls = (i + 1 === this.viewPly ? ' current' : '') + (rv ? ` rv-${rv.class}` : '');
      const glyph = rv ? REVIEW_GLYPH[rv.class] || '' : '';
      html += `<span class="mv${cls}" data-ply="${i + 1}" title="${esc(s.moves[i])}${rv ? ` · ${rv.class}` : ''}">${esc(san)}${glyph ? `<span class="glyph">${glyph}</span>` : ''}</span>`;
      if (side === 'b') num++;
      side = side === 'w' ? 'b' : 'w';
    }
    if (s.result) html += `<span class="mv-result">${esc(s.result.score)}</span>`;
    if (!s.moves.length) html = '<span class="muted">No moves yet.</span>' + (s.result ? `<span class="mv-result">${esc(s.result.score)}</span>` : '');
    if (list.dataset.html !== html) {
      list.innerHTML = html;
      list.dataset.html = html;
    }
    const cur = list.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - list.clientHeight / 2;
    } else if (this.viewPly === s.moves.length) list.scrollTop = list.scrollHeight;
  }

  pvText(info) {
    const fen = this.st.fens[info.ply ?? this.viewPly] || this.st.fen;
    const pos = parseFen(fen, this.v);
    const moves = info.pv_notation && info.pv_notation.length ? info.pv_notation : info.pv || [];
    let side = pos.side;
    let num = pos.fullmove;
    const out = [];
    moves.forEach((m, i) => {
      if (side === 'w') out.push(`${num}.`);
      else if (i === 0) out.push(`${num}…`);
      out.push(m);
      if (side === 'b') num++;
      side = side === 'w' ? 'b' : 'w';
    });
    return out.join(' ');
  }

  renderAnalysis() {
    const a = this.analysis;
    const box = this.$('analysis-lines');
    const stats = this.$('analysis-stats');
    if (!a.on) {
      const d = this.engineInfo;
      if (d && this.st.engine_thinking) {
        const side = sideOfFen(this.st.fens[d.ply ?? this.st.moves.length] || this.st.fen);
        box.innerHTML = `<div class="pv-line engine-line"><span class="score">${esc(scoreText(d.score, side))}</span><span class="pv">${esc(this.pvText(d))}</span></div>`;
        stats.textContent = `engine: depth ${d.depth ?? ''}`;
      } else {
        const s = this.st;
        const locked = s.engine && s.engine !== 'none' && !s.result;
        box.innerHTML = locked
          ? '<p class="muted small">Analysis is available once the game against the engine is over.</p>'
          : '<p class="muted small">Turn analysis on to see the engine\'s lines for the position shown.</p>';
        stats.textContent = '';
      }
      return;
    }
    const fen = this.st.fens[a.ply] || this.st.fen;
    const side = sideOfFen(fen);
    const lines = [...a.lines.values()].filter((d) => (d.multipv || 1) <= a.multipv).sort((x, y) => (x.multipv || 1) - (y.multipv || 1));
    if (!lines.length) {
      box.innerHTML = '<p class="muted small">Analysing…</p>';
      stats.textContent = '';
      return;
    }
    box.innerHTML = lines
      .map((d) => {
        let wdl = '';
        if (d.wdl) {
          let [w, dr, l] = d.wdl;
          if (side === 'b') [w, l] = [l, w];
          wdl = `<span class="wdl" title="win / draw / loss for White, per mille">W ${(w / 10).toFixed(0)}% D ${(dr / 10).toFixed(0)}% L ${(l / 10).toFixed(0)}%</span>`;
        }
        return `<div class="pv-line" data-multipv="${d.multipv || 1}"><span class="score">${esc(scoreText(d.score, side))}</span>${wdl}<span class="pv" title="${esc(this.pvText(d))}">${esc(this.pvText(d))}</span></div>`;
      })
      .join('');
    const d = lines[0];
    const nps = d.nps ? (d.nps >= 1e6 ? `${(d.nps / 1e6).toFixed(1)} Mnps` : `${Math.round(d.nps / 1e3)} knps`) : '';
    stats.textContent = `depth ${d.depth ?? ''}${d.seldepth ? '/' + d.seldepth : ''} ${nps}${a.bestmove && a.bestmove.ply === a.ply ? ' · done' : ''}`;
  }

  currentEval() {
    const a = this.analysis;
    if (a.on && a.ply === this.viewPly && a.lines.get(1)) {
      const d = a.lines.get(1);
      return whiteCp(d.score, sideOfFen(this.st.fens[a.ply] || this.st.fen));
    }
    const e = this.st.evals && this.st.evals[this.viewPly];
    if (e) return whiteCp(e, sideOfFen(this.st.fens[this.viewPly]));
    return null;
  }

  renderEvalBar() {
    const cp = this.currentEval();
    const fill = this.$('evalbar-fill');
    const text = this.$('evalbar-text');
    if (cp === null) {
      fill.style.height = '50%';
      text.textContent = '';
      return;
    }
    const pct = Math.abs(cp) >= 9000 ? (cp > 0 ? 100 : 0) : 100 / (1 + Math.exp(-0.0045 * cp));
    fill.style.height = `${pct.toFixed(1)}%`;
    text.textContent = Math.abs(cp) >= 9000 ? `#${10000 - Math.abs(cp)}` : (Math.abs(cp) / 100).toFixed(1);
    text.classList.toggle('black-side', cp < 0);
  }

  renderChart() {
    const s = this.st;
    const n = s.moves.length;
    const W = 600;
    const H = 120;
    const vals = (s.evals || []).map((e, i) => (e ? whiteCp(e, sideOfFen(s.fens[i])) : null));
    const y = (cp) => {
      const c = Math.max(-1000, Math.min(1000, Math.abs(cp) >= 9000 ? Math.sign(cp) * 1000 : cp));
      return H / 2 - (c / 1000) * (H / 2 - 4);
    };
    const x = (i) => (n ? (i / n) * W : W / 2);
    let pts = [];
    let path = '';
    let segs = [];
    vals.forEach((c, i) => {
      if (c === null) {
        if (pts.length) segs.push(pts);
        pts = [];
      } else pts.push([x(i), y(c)]);
    });
    if (pts.length) segs.push(pts);
    for (const seg of segs) {
      const line = seg.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
      path += `<polygon class="area" points="${seg[0][0].toFixed(1)},${H / 2} ${line} ${seg[seg.length - 1][0].toFixed(1)},${H / 2}"/>`;
      path += `<polyline class="line" points="${line}"/>`;
      for (const [a, b] of seg) path += `<circle class="pt" cx="${a.toFixed(1)}" cy="${b.toFixed(1)}" r="2.2"/>`;
    }
    const known = vals.filter((c) => c !== null).length;
    // The review's inaccuracies, mistakes and blunders, at the position after the turn.
    if (this.review && this.review.plies) {
      for (const t of this.review.plies) {
        if (!REVIEW_GLYPH[t.class]) continue;
        const c = vals[t.ply + 1];
        const yy = c === null || c === undefined ? H / 2 : y(c);
        path += `<circle class="mark rv-${t.class}" data-ply="${t.ply + 1}" cx="${x(t.ply + 1).toFixed(1)}" cy="${yy.toFixed(1)}" r="4.5"/>`;
      }
    }
    const html = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" class="chart-svg">
      <rect class="bg-black" x="0" y="${H / 2}" width="${W}" height="${H / 2}"/><rect class="bg-white" x="0" y="0" width="${W}" height="${H / 2}"/>
      <line class="mid" x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}"/>${path}
      <line class="cursor" x1="${x(this.viewPly)}" y1="0" x2="${x(this.viewPly)}" y2="${H}"/></svg>
      ${known ? '' : '<p class="muted small">No scores yet: "Evaluate the game" scores every position.</p>'}`;
    const c = this.$('eval-chart');
    if (c.dataset.html !== html) {
      c.innerHTML = html;
      c.dataset.html = html;
    }
  }

  renderDetails() {
    const s = this.st;
    const d = this.$('details');
    const lines = this.viewPly === s.moves.length ? s.details || [] : [];
    let html = lines.map((l) => `<li>${esc(l)}</li>`).join('');
    if (this.viewPly !== s.moves.length) html = `<li class="muted">The details are shown for the last position.</li>`;
    if (d.dataset.html !== html) {
      d.innerHTML = html || '<li class="muted">—</li>';
      d.dataset.html = html;
    }
    // Pieces in play: every type on the board or in hand in the position shown.
    const pos = this.shown || this.shownPosition();
    const count = new Map();
    const add = (code) => {
      const up = code.toUpperCase();
      const e = count.get(up) || { w: 0, b: 0 };
      e[colourOf(code)]++;
      count.set(up, e);
    };
    for (const code of pos.board.values()) add(code);
    for (const code of pos.hand || []) add(code);
    const order = this.v.pieces.map((p) => p.code.toUpperCase());
    const codes = [...count.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const ph = codes.map((c) => this.pieceRow(c, count.get(c))).join('');
    const pl = this.$('pieces-list');
    if (pl.dataset.html !== ph) {
      pl.innerHTML = ph;
      pl.dataset.html = ph;
      this.placeDiagram(pl);
    }
  }

  /** Puts the diagram of the list's chosen piece (`data-diagram`) below its row, alone. */
  placeDiagram(list) {
    const code = list.dataset.diagram || '';
    for (const d of list.querySelectorAll('.piece-diagram')) {
      if (d.dataset.for !== code) d.remove();
    }
    for (const r of list.querySelectorAll('.piece-row')) {
      r.setAttribute('aria-expanded', String(r.dataset.pieceType.toUpperCase() === code));
    }
    if (!code) return;
    const row = [...list.querySelectorAll('.piece-row')].find((r) => r.dataset.pieceType.toUpperCase() === code);
    if (!row) return;
    let box = row.nextElementSibling;
    if (!box || !box.classList.contains('piece-diagram')) {
      box = document.createElement('div');
      box.className = 'piece-diagram';
      box.dataset.for = code;
      row.after(box);
      showDiagram(box, this.v, code, this.pieces.get(code));
    }
  }

  pieceRow(code, n) {
    const info = this.pieces.get(code.toUpperCase());
    const cnt = n ? `<span class="cnt" title="White / Black">${n.w} / ${n.b}</span>` : '';
    return `<div class="piece-row" data-piece-type="${esc(code)}" role="button" tabindex="0" aria-expanded="false" title="Show its moves">${pieceIcon(code, info, 34)}${pieceIcon(code.toLowerCase(), info, 34)}
      <div class="piece-text"><div><strong>${esc(info ? info.name : code)}</strong> <code>${esc(code)}</code> ${cnt}</div>
      <div class="movement">${esc(info ? info.movement : '')}</div></div></div>`;
  }

  renderFen() {
    const f = this.$('fen-field');
    if (document.activeElement === f) return;
    const fen = this.st.fens[this.viewPly] || this.st.fen;
    if (f.value !== fen) f.value = fen;
  }
}

/** The naive preview: each portion's move legs lift their pieces and put them down together; drops are placed. */
function naive(pos, portions, side) {
  const board = new Map(pos.board);
  const hand = pos.hand ? pos.hand.slice() : null;
  for (const legs of portions) {
    const lifted = [];
    for (const t of legs) {
      const l = parseLeg(t);
      if (l && l.kind === 'move') lifted.push([l, board.get(l.from)]);
    }
    for (const [l] of lifted) board.delete(l.from);
    for (const [l, code] of lifted) {
      if (!code) continue;
      if (l.suffix === 'x') continue;
      let c = code;
      if (l.suffix) c = colourOf(code) === 'w' ? l.suffix.toUpperCase() : l.suffix.toLowerCase();
      board.set(l.to, c);
    }
    for (const t of legs) {
      const l = parseLeg(t);
      if (l && l.kind === 'drop') {
        const c = side === 'w' ? l.code : l.code.toLowerCase();
        board.set(l.to, c);
        if (hand) {
          const i = hand.indexOf(c);
          if (i >= 0) hand.splice(i, 1);
        }
      }
    }
  }
  return { ...pos, board, hand };
}
