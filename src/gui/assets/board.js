// The board: an SVG built once per geometry (variant, orientation), then updated square by
// square. Click-click and drag-and-drop with pointer events.

import { squareName, colourOf } from './fen.js';
import { pieceSvg, pieceTitle, esc } from './pieces.js';

const S = 100; // square size in SVG units
const M = 26; // margin for the coordinates

export class Board {
  /**
   * hooks: movable(sq) -> bool; targets(sel) -> Set of squares, sel = {sq} | {drop: code};
   * play(sel, to); changed() (selection changed); pieceInfo(code) -> {name, movement};
   * idle() (optional: a click or right click that selected nothing, with nothing selected).
   */
  constructor(container, hooks) {
    this.el = container;
    this.hooks = hooks;
    this.variant = null;
    this.flipped = false;
    this.squares = new Map(); // square -> {g, code, cls}
    this.selected = null;
    this.drag = null;
    this.interactive = false;
    this.lastRenderMs = 0;
  }

  /** Builds the SVG for a variant's geometry. */
  setGeometry(variant, flipped) {
    this.variant = variant;
    this.flipped = !!flipped;
    const v = variant;
    const W = v.files * S + M;
    const H = v.ranks * S + M;
    this.W = W;
    this.H = H;
    const holes = new Set(v.holes || []);
    // Rows that are not full (Mitosis's bases) get their own colour.
    const partialRanks = new Set();
    for (const h of holes) partialRanks.add(parseInt(h.slice(1), 10));
    let sq = '';
    let coords = '';
    for (let j = 0; j < v.ranks; j++) {
      const rank = v.first_rank + j;
      const row = this.flipped ? j : v.ranks - 1 - j; // row from the top
      coords += `<text class="coord" x="${M / 2}" y="${row * S + S / 2}">${rank}</text>`;
      for (let i = 0; i < v.files; i++) {
        const name = squareName(i, rank);
        if (holes.has(name)) continue;
        const col = this.flipped ? v.files - 1 - i : i;
        const dark = (i + rank) % 2 === 1;
        const cls = `sq ${dark ? 'dark' : 'light'}${partialRanks.has(rank) ? ' base' : ''}`;
        sq += `<g class="${cls}" data-square="${name}" transform="translate(${M + col * S} ${row * S})">` +
          `<rect class="bg" width="${S}" height="${S}"/><rect class="hl" width="${S}" height="${S}"/>` +
          `<g class="pcs"></g><circle class="mk-dot" cx="50" cy="50" r="15"/>` +
          `<circle class="mk-ring" cx="50" cy="50" r="45"/><circle class="mk-self" cx="50" cy="50" r="45"/></g>`;
      }
    }
    for (let i = 0; i < v.files; i++) {
      const col = this.flipped ? v.files - 1 - i : i;
      coords += `<text class="coord" x="${M + col * S + S / 2}" y="${v.ranks * S + M / 2 + 1}">${String.fromCharCode(97 + i)}</text>`;
    }
    this.el.innerHTML =
      `<svg class="board-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="board">` +
      `<defs><radialGradient id="check-glow"><stop offset="0" stop-color="#ff0000" stop-opacity="1"/><stop offset="0.3" stop-color="#e70000" stop-opacity="1"/><stop offset="0.75" stop-color="#a90000" stop-opacity="0"/></radialGradient><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z"/></marker><marker id="arrowhead-review" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>` +
      `<g class="coords">${coords}</g><g class="squares">${sq}</g><g class="arrows"></g><g class="ghost"></g></svg>`;
    this.svg = this.el.firstChild;
    this.squares.clear();
    for (const g of this.svg.querySelectorAll('g.sq')) {
      this.squares.set(g.dataset.square, { g, pcs: g.querySelector('g.pcs'), code: null, cls: '', base: g.getAttribute('class') });
    }
    this.arrowLayer = this.svg.querySelector('g.arrows');
    this.ghost = this.svg.querySelector('g.ghost');
    this.svg.addEventListener('pointerdown', (e) => this.onDown(e));
    this.svg.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      if (!this.selected && this.hooks.idle) this.hooks.idle();
      this.select(null);
    });
    this.lastView = null;
  }

  /** Centre of a square in SVG units. */
  centre(name) {
    const v = this.variant;
    const m = /^([a-z])(\d+)$/.exec(name);
    const i = m[1].charCodeAt(0) - 97;
    const j = parseInt(m[2], 10) - v.first_rank;
    const col = this.flipped ? v.files - 1 - i : i;
    const row = this.flipped ? j : v.ranks - 1 - j;
    return [M + col * S + S / 2, row * S + S / 2];
  }

  /** The square under a client point, or null. */
  squareAt(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const x = ((clientX - r.left) / r.width) * this.W - M;
    const y = ((clientY - r.top) / r.height) * this.H;
    if (x < 0 || y < 0) return null;
    const col = Math.floor(x / S);
    const row = Math.floor(y / S);
    const v = this.variant;
    if (col >= v.files || row >= v.ranks) return null;
    const i = this.flipped ? v.files - 1 - col : col;
    const j = this.flipped ? row : v.ranks - 1 - row;
    const name = squareName(i, v.first_rank + j);
    return this.squares.has(name) ? name : null;
  }

  /**
   * Updates the board to a view: {board: Map sq->code, last: [sq], check: [sq], arrows:
   * [{from, to}|{at}], interactive}. Only the squares that change are touched.
   */
  render(view) {
    const t0 = performance.now();
    this.view = view;
    this.interactive = !!view.interactive;
    const last = new Set(view.last || []);
    const check = new Set(view.check || []);
    const pre = new Set(view.premove || []);
    const sel = this.selected;
    const targets = sel && this.interactive ? this.hooks.targets(sel) : new Set();
    const selfTarget = sel && sel.sq && targets.has(sel.sq);
    for (const [name, s] of this.squares) {
      const code = view.board.get(name) || null;
      if (code !== s.code) {
        const pcs = s.pcs;
        if (code) {
          const info = this.hooks.pieceInfo(code);
          const title = pieceTitle(code, info);
          pcs.innerHTML = `<g class="pc" data-piece="${esc(code)}"><title>${esc(title)}</title>${pieceSvg(code, info)}</g>`;
        } else pcs.textContent = '';
        s.code = code;
      }
      let cls = '';
      if (last.has(name)) cls += ' last';
      if (check.has(name)) cls += ' check';
      if (pre.has(name)) cls += ' pre';
      if (sel && sel.sq === name) cls += ' sel';
      if (targets.has(name) && !(sel && sel.sq === name)) cls += code ? ' tgt occ' : ' tgt';
      if (selfTarget && sel.sq === name) cls += ' self';
      if (this.interactive && !sel && this.hooks.movable(name)) cls += ' movable';
      if (this.drag && this.drag.moved && this.drag.sel.sq === name) cls += ' dragging';
      if (this.drag && this.drag.moved && this.drag.over === name && targets.has(name)) cls += ' over';
      if (cls !== s.cls) {
        s.g.setAttribute('class', s.base + cls);
        s.cls = cls;
      }
    }
    this.renderArrows(view.arrows || []);
    this.lastRenderMs = performance.now() - t0;
    if (window.__menagerie) window.__menagerie.lastRenderMs = this.lastRenderMs;
  }

  renderArrows(arrows) {
    const key = JSON.stringify(arrows);
    if (key === this.arrowKey) return;
    this.arrowKey = key;
    let s = '';
    for (const a of arrows) {
      if (!this.squares.has(a.from || a.at) || (a.to && !this.squares.has(a.to))) continue;
      if (a.to && a.to !== a.from) {
        const [x1, y1] = this.centre(a.from);
        const [x2, y2] = this.centre(a.to);
        const d = Math.hypot(x2 - x1, y2 - y1);
        const k = (d - 28) / d;
        s += `<line class="arrow ${a.cls || ''}" x1="${x1}" y1="${y1}" x2="${x1 + (x2 - x1) * k}" y2="${y1 + (y2 - y1) * k}" marker-end="url(#${a.cls === 'review-best' ? 'arrowhead-review' : 'arrowhead'})"/>`;
      } else {
        const [x, y] = this.centre(a.at || a.from);
        s += `<circle class="arrow-at ${a.cls || ''}" cx="${x}" cy="${y}" r="40"/>`;
      }
    }
    this.arrowLayer.innerHTML = s;
  }

  rerender() {
    if (this.view) this.render(this.view);
  }

  select(sel) {
    this.selected = sel;
    this.hooks.changed();
  }

  // ---- pointer handling ----

  onDown(e) {
    if (e.button !== 0 || !this.interactive) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) {
      if (!this.selected && this.hooks.idle) this.hooks.idle();
      this.select(null);
      return;
    }
    const sel = this.selected;
    if (sel && !(sel.sq && sel.sq === sq)) {
      const targets = this.hooks.targets(sel);
      if (targets.has(sq)) {
        e.preventDefault();
        this.selected = null;
        this.hooks.play(sel, sq);
        return;
      }
    }
    if (this.hooks.movable(sq)) {
      e.preventDefault();
      const again = sel && sel.sq === sq;
      if (!again) this.select({ sq });
      this.beginDrag(e, { sq }, again);
      return;
    }
    if (!sel && this.hooks.idle) this.hooks.idle();
    this.select(null);
  }

  /** Starts following the pointer with the piece of `sel` (a square or a pocket piece). */
  beginDrag(e, sel, again = false, code = null) {
    const pid = e.pointerId;
    const pieceCode = code || this.view.board.get(sel.sq);
    this.drag = { sel, again, moved: false, x0: e.clientX, y0: e.clientY, over: null, code: pieceCode };
    const move = (ev) => {
      if (ev.pointerId !== pid || !this.drag) return;
      const d = this.drag;
      if (!d.moved && Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) < 5) return;
      if (!d.moved) {
        d.moved = true;
        if (d.code) {
          const info = this.hooks.pieceInfo(d.code);
          this.ghost.innerHTML = `<g class="ghost-pc">${pieceSvg(d.code, info)}</g>`;
        }
      }
      const r = this.svg.getBoundingClientRect();
      const x = ((ev.clientX - r.left) / r.width) * this.W;
      const y = ((ev.clientY - r.top) / r.height) * this.H;
      this.ghost.firstChild && this.ghost.firstChild.setAttribute('transform', `translate(${x - 55} ${y - 55}) scale(1.1)`);
      const over = this.squareAt(ev.clientX, ev.clientY);
      if (over !== d.over) {
        d.over = over;
        this.rerender();
      }
    };
    const up = (ev) => {
      if (ev.pointerId !== pid) return;
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      const d = this.drag;
      this.drag = null;
      this.ghost.textContent = '';
      if (!d) return;
      const to = ev.type === 'pointerup' ? this.squareAt(ev.clientX, ev.clientY) : null;
      if (d.moved) {
        if (to && this.selected && this.hooks.targets(this.selected).has(to) && !(d.sel.sq && to === d.sel.sq && !d.again)) {
          const s = this.selected;
          this.selected = null;
          this.hooks.play(s, to);
          return;
        }
        this.rerender();
        return;
      }
      // A click on the piece that was already selected: its in-place leg, else deselect.
      if (d.again && d.sel.sq && to === d.sel.sq) {
        const s = this.selected;
        if (s && this.hooks.targets(s).has(to)) {
          this.selected = null;
          this.hooks.play(s, to);
        } else this.select(null);
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }
}

export { colourOf };
