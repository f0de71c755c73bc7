// The board editor (`/editor?variant=V&fen=F`, docs/gui.md "Board editor"): any position of
// any variant, set up on the board, in the hand and in the fields the engine describes (the
// `field` lines of the `variant` command), and checked by the engine's own FEN reader. Nothing
// here knows a variant's rules: the shapes come from fen.js, the fields from the description.

import { post, rememberGame } from './api.js';
import { parseFen, boardToFen } from './fen.js';
import { Board } from './board.js';
import { pieceIcon, esc } from './pieces.js';

function el(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

const POSITIONAL = ['castling', 'ep', 'halfmove', 'fullmove'];
const upper = (c) => c.toUpperCase();
const lower = (c) => c.toLowerCase();

/** A `pieces` value (`W/B`, `-` for none) as two lists of codes, each in its colour's case. */
function readPieces(value, sep) {
  const [w = '-', b = '-'] = (value || '-/-').split('/');
  const list = (s) => {
    if (!s || s === '-') return [];
    if (sep) return s.split(sep).filter(Boolean);
    const out = [];
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '[') {
        const j = s.indexOf(']', i);
        out.push(s.slice(i + 1, j < 0 ? s.length : j));
        i = j < 0 ? s.length : j;
      } else out.push(s[i]);
    }
    return out;
  };
  return [list(w).map(upper), list(b).map(lower)];
}

function writePieces(lists, sep) {
  const one = (l) => (l.length ? (sep ? l.join(sep) : l.map((c) => (c.length > 1 ? `[${c}]` : c)).join('')) : '-');
  return `${one(lists[0])}/${one(lists[1])}`;
}

/**
 * The editor's position: board and hand as fen.js reads them, the side to move, the positional
 * fields by key and the tags by key (in the order they came, the described ones first when
 * written back).
 */
function readPosition(fen, v) {
  const p = parseFen(fen, v);
  const rest = p.fields;
  const values = new Map();
  POSITIONAL.forEach((k, i) => values.set(k, rest[i + 1] ?? (k === 'fullmove' ? '1' : k === 'halfmove' ? '0' : '-')));
  const tags = new Map();
  for (const w of rest.slice(5)) {
    const i = w.indexOf(':');
    if (i > 0) tags.set(w.slice(0, i), w.slice(i + 1));
  }
  return { board: p.board, holes: p.holes, hand: p.hand, side: p.side, values, tags };
}

function writePosition(pos, v) {
  const fields = [pos.side];
  for (const k of POSITIONAL) {
    const x = (pos.values.get(k) || '').trim();
    fields.push(x || (k === 'fullmove' ? '1' : k === 'halfmove' ? '0' : '-'));
  }
  const described = (v.fields || []).filter((f) => f.key.startsWith('tag:')).map((f) => f.key.slice(4));
  const keys = [...described.filter((k) => pos.tags.has(k)), ...[...pos.tags.keys()].filter((k) => !described.includes(k))];
  for (const k of keys) {
    const x = (pos.tags.get(k) || '').trim();
    if (x) fields.push(`${k}:${x}`);
  }
  return boardToFen({ board: pos.board, holes: pos.holes, hand: pos.hand, fields }, v);
}

export async function showEditor(app, vs) {
  const params = new URLSearchParams(location.search);
  const byName = new Map(vs.map((v) => [v.name, v]));
  let v = byName.get(params.get('variant')) || vs[0];
  let pos = null;
  let tool = null; // a piece code in its case, 'eraser', or null (move pieces)
  let colour = 'w'; // the palette's colour
  let picked = null; // the square whose piece a click moves
  let flipped = false;
  let check = { seq: 0, ok: null, fen: null }; // the engine's last word on the position

  document.title = 'Board editor · menagerie';
  app.innerHTML = '';
  const page = el(`<div class="editor-page">
    <div class="board-col">
      <div class="editor-bar">
        <label>Variant <select id="editor-variant">${vs.map((x) => `<option value="${esc(x.name)}">${esc(x.name)}</option>`).join('')}</select></label>
        <a id="editor-rules" class="small" href="#">rules</a>
      </div>
      <div id="editor-palette" class="palette editor-palette" role="toolbar" aria-label="Pieces to place"></div>
      <div class="board-wrap" id="editor-board-wrap"><div id="editor-board" class="board"></div></div>
      <div id="editor-hand-row" class="editor-hand" hidden>
        <span class="small">In hand</span><div id="editor-hand" class="pocket"></div>
        <button type="button" id="editor-hand-add" class="small-btn" title="Put the palette's piece in hand">+ hand</button>
      </div>
    </div>
    <aside class="side">
      <div class="card">
        <h3>Position</h3>
        <div class="row"><span>To move</span>
          <select id="editor-side"><option value="w">White</option><option value="b">Black</option></select></div>
        <div id="editor-fields" class="editor-fields"></div>
        <div class="row editor-buttons">
          <button type="button" id="editor-start" class="small-btn">Start position</button>
          <button type="button" id="editor-clear" class="small-btn">Clear board</button>
          <button type="button" id="editor-flip" class="small-btn">Flip</button>
        </div>
      </div>
      <div class="card">
        <h3>FEN</h3>
        <div class="row"><input id="editor-fen" type="text" spellcheck="false" aria-label="FEN"></div>
        <div class="row"><button type="button" id="editor-copy" class="small-btn">Copy FEN</button></div>
        <p id="editor-status" class="editor-status" role="status" aria-live="polite"></p>
        <div class="row">
          <button type="button" id="editor-play" class="primary" disabled>Play from here</button>
          <button type="button" id="editor-analyse" disabled>Analyse</button>
        </div>
      </div>
    </aside>
  </div>`);
  app.appendChild(page);
  const $ = (id) => page.querySelector('#' + id);
  const info = (code) => v.pieces.find((p) => p.code === upper(code));

  const board = new Board($('editor-board'), {
    movable: () => false,
    targets: () => new Set(),
    play: () => {},
    changed: () => {},
    pieceInfo: (code) => info(code),
  });

  function setVariant(name, fen) {
    v = byName.get(name) || v;
    $('editor-variant').value = v.name;
    $('editor-rules').href = `/rules/${encodeURIComponent(v.name)}`;
    tool = null;
    picked = null;
    board.setGeometry(v, flipped);
    $('editor-board-wrap').style.setProperty('--aspect', (board.W / board.H).toFixed(4));
    load(fen || v.startpos);
    renderFields();
  }

  /** Reads a FEN into the editor; a FEN fen.js cannot read is shown as the error. */
  function load(fen) {
    try {
      pos = readPosition(fen, v);
    } catch (e) {
      showStatus(false, `bad FEN: ${e.message}`);
      return false;
    }
    renderFields();
    changed(fen);
    return true;
  }

  // ---- the palette ----
  function renderPalette() {
    const items = v.pieces
      .map((p) => {
        const code = colour === 'w' ? p.code : lower(p.code);
        return `<button type="button" class="palette-item${tool === code ? ' active' : ''}" data-tool="${esc(code)}" title="${esc(p.name)} (${esc(code)})" aria-pressed="${tool === code}">${pieceIcon(code, p, 34)}</button>`;
      })
      .join('');
    $('editor-palette').innerHTML =
      `<button type="button" class="palette-item colour-pick" id="editor-colour" title="Pieces of ${colour === 'w' ? 'White (click for Black)' : 'Black (click for White)'}">${colour === 'w' ? '○' : '●'}</button>` +
      `<button type="button" class="palette-item${tool === null ? ' active' : ''}" data-tool="" id="editor-move" title="Move pieces (drag, or click one then a square)" aria-pressed="${tool === null}">✥</button>` +
      items +
      `<button type="button" class="palette-item eraser${tool === 'eraser' ? ' active' : ''}" data-tool="eraser" id="editor-eraser" title="Eraser" aria-pressed="${tool === 'eraser'}">⌫</button>`;
    $('editor-hand-add').disabled = !tool || tool === 'eraser';
  }
  let paletteDrag = null;
  $('editor-palette').addEventListener('pointerdown', (e) => {
    const b = e.target.closest('[data-tool]');
    if (b && b.dataset.tool && b.dataset.tool !== 'eraser') paletteDrag = b.dataset.tool;
  });
  window.addEventListener('pointerup', (e) => {
    const code = paletteDrag;
    paletteDrag = null;
    if (!code || !page.isConnected) return;
    const sq = board.squareAt(e.clientX, e.clientY);
    if (sq) {
      pos.board.set(sq, code);
      changed();
    }
  });
  $('editor-palette').addEventListener('click', (e) => {
    if (e.target.closest('#editor-colour')) {
      colour = colour === 'w' ? 'b' : 'w';
      if (tool && tool !== 'eraser') tool = colour === 'w' ? upper(tool) : lower(tool);
      renderPalette();
      return;
    }
    const b = e.target.closest('[data-tool]');
    if (!b) return;
    tool = b.dataset.tool || null;
    picked = null;
    renderPalette();
    renderBoard();
  });

  // ---- the board ----
  function renderBoard() {
    board.render({ board: pos.board, interactive: false, last: picked ? [picked] : [], arrows: [] });
  }
  board.el.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const sq = board.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    if (tool === 'eraser') {
      pos.board.delete(sq);
      changed();
      return;
    }
    if (tool) {
      if (pos.board.get(sq) === tool) pos.board.delete(sq);
      else pos.board.set(sq, tool);
      changed();
      return;
    }
    // Moving: a click on a piece picks it, a click elsewhere puts it there; a drag does both,
    // and a drag off the board removes the piece.
    if (picked && picked !== sq) {
      pos.board.set(sq, pos.board.get(picked));
      pos.board.delete(picked);
      picked = null;
      changed();
      return;
    }
    if (!pos.board.has(sq)) {
      picked = null;
      renderBoard();
      return;
    }
    picked = sq;
    renderBoard();
    const from = sq;
    const up = (ev) => {
      window.removeEventListener('pointerup', up);
      const to = board.squareAt(ev.clientX, ev.clientY);
      if (to === from) return; // a click: the piece stays picked
      const r = board.svg.getBoundingClientRect();
      const inside = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
      if (to) pos.board.set(to, pos.board.get(from));
      if (to || !inside) {
        pos.board.delete(from);
        picked = null;
        changed();
      }
    };
    window.addEventListener('pointerup', up);
  });
  board.el.addEventListener('contextmenu', (e) => {
    e.preventDefault();
    const sq = board.squareAt(e.clientX, e.clientY);
    if (sq && pos.board.has(sq)) {
      pos.board.delete(sq);
      changed();
    }
  });

  // ---- the hand ----
  function renderHand() {
    $('editor-hand-row').hidden = !pos.hand;
    if (!pos.hand) return;
    $('editor-hand').innerHTML = pos.hand.length
      ? pos.hand.map((c, i) => `<button type="button" class="pocket-item droppable" data-hand="${i}" title="${esc((info(c) || { name: c }).name)} (${esc(c)}): click to take it out">${pieceIcon(c, info(c), 34)}</button>`).join('')
      : '<span class="muted small">empty</span>';
  }
  $('editor-hand').addEventListener('click', (e) => {
    const b = e.target.closest('[data-hand]');
    if (!b) return;
    pos.hand.splice(parseInt(b.dataset.hand, 10), 1);
    changed();
  });
  $('editor-hand-add').addEventListener('click', () => {
    if (!tool || tool === 'eraser' || !pos.hand) return;
    pos.hand.push(tool);
    changed();
  });

  // ---- the fields the engine describes ----
  function renderFields() {
    $('editor-side').value = pos.side;
    const box = $('editor-fields');
    box.innerHTML = (v.fields || [])
      .map((f, i) => {
        const id = `editor-field-${i}`;
        const label = `<span title="${esc(f.key)}">${esc(f.label)}</span>`;
        if (f.kind === 'pair') {
          return `<div class="row field" data-field="${i}" data-key="${esc(f.key)}">${label}<span class="pair">` +
            `<input id="${id}-w" type="number" min="0" aria-label="${esc(f.label)}, White" data-part="0">` +
            ` / <input id="${id}-b" type="number" min="0" aria-label="${esc(f.label)}, Black" data-part="1"></span></div>`;
        }
        if (f.kind === 'pieces') {
          const strip = (c, name) =>
            `<div class="field-pieces"><span class="small">${name}</span><div class="pocket" data-pieces="${c}"></div>` +
            `<button type="button" class="small-btn" data-add="${c}" title="Add the palette's piece">+</button></div>`;
          return `<div class="row field field-wide" data-field="${i}" data-key="${esc(f.key)}">${label}${strip(0, 'White')}${strip(1, 'Black')}</div>`;
        }
        const type = f.kind === 'number' ? 'number' : 'text';
        return `<label class="row field" data-field="${i}" data-key="${esc(f.key)}">${label}<input id="${id}" type="${type}" ${type === 'number' ? 'min="0"' : 'spellcheck="false"'}></label>`;
      })
      .join('');
    fillFields();
  }
  const valueOf = (f) => (f.key.startsWith('tag:') ? pos.tags.get(f.key.slice(4)) : pos.values.get(f.key)) || '';
  function setValue(f, x) {
    if (f.key.startsWith('tag:')) {
      if (x) pos.tags.set(f.key.slice(4), x);
      else pos.tags.delete(f.key.slice(4));
    } else pos.values.set(f.key, x);
  }
  function fillFields() {
    (v.fields || []).forEach((f, i) => {
      const row = $('editor-fields').querySelector(`[data-field="${i}"]`);
      const x = valueOf(f);
      if (f.kind === 'pair') {
        const [w, b] = x ? x.split('/') : ['', ''];
        for (const [inp, val] of [[row.querySelector('[data-part="0"]'), w], [row.querySelector('[data-part="1"]'), b]]) {
          if (document.activeElement !== inp) inp.value = val ?? '';
        }
      } else if (f.kind === 'pieces') {
        const lists = readPieces(x, f.sep);
        row.querySelectorAll('[data-pieces]').forEach((strip) => {
          const side = parseInt(strip.dataset.pieces, 10);
          strip.innerHTML = lists[side].length
            ? lists[side].map((c, k) => `<button type="button" class="pocket-item droppable" data-piece-at="${k}" title="${esc((info(c) || { name: c }).name)}: click to take it out">${pieceIcon(c, info(c), 30)}</button>`).join('')
            : '<span class="muted small">none</span>';
        });
      } else {
        const inp = row.querySelector('input');
        if (document.activeElement !== inp) inp.value = x === '-' ? '' : x;
      }
    });
  }
  $('editor-fields').addEventListener('input', (e) => {
    const row = e.target.closest('[data-field]');
    if (!row) return;
    const f = v.fields[parseInt(row.dataset.field, 10)];
    if (f.kind === 'pair') {
      const w = row.querySelector('[data-part="0"]').value.trim();
      const b = row.querySelector('[data-part="1"]').value.trim();
      setValue(f, w || b ? `${w || 0}/${b || 0}` : '');
    } else setValue(f, e.target.value.trim());
    changed();
  });
  $('editor-fields').addEventListener('click', (e) => {
    const row = e.target.closest('[data-field]');
    if (!row) return;
    const f = v.fields[parseInt(row.dataset.field, 10)];
    if (f.kind !== 'pieces') return;
    const lists = readPieces(valueOf(f), f.sep);
    const add = e.target.closest('[data-add]');
    const at = e.target.closest('[data-piece-at]');
    if (add) {
      if (!tool || tool === 'eraser') return;
      const side = parseInt(add.dataset.add, 10);
      lists[side].push(side === 0 ? upper(tool) : lower(tool));
    } else if (at) {
      const side = parseInt(at.closest('[data-pieces]').dataset.pieces, 10);
      lists[side].splice(parseInt(at.dataset.pieceAt, 10), 1);
    } else return;
    setValue(f, writePieces(lists, f.sep));
    changed();
  });
  $('editor-side').addEventListener('change', (e) => {
    pos.side = e.target.value;
    changed();
  });

  // ---- the FEN, its check by the engine, and what starts from it ----
  function showStatus(ok, text) {
    const s = $('editor-status');
    s.textContent = text;
    s.classList.toggle('error', ok === false);
    s.classList.toggle('valid', ok === true);
    const usable = ok === true;
    $('editor-play').disabled = !usable;
    $('editor-analyse').disabled = !usable;
  }
  let timer = null;
  /** The position changed: draw it, write its FEN (unless `typed` is the FEN the person typed), ask the engine. */
  function changed(typed) {
    const fen = writePosition(pos, v);
    const f = $('editor-fen');
    if (typed === undefined || document.activeElement !== f) f.value = fen;
    renderPalette();
    renderBoard();
    renderHand();
    fillFields();
    const q = new URLSearchParams({ variant: v.name, fen });
    history.replaceState(null, '', `/editor?${q}`);
    const seq = ++check.seq;
    check.ok = null;
    showStatus(null, 'Checking…');
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const r = await post(`/api/variants/${encodeURIComponent(v.name)}/fen`, { fen });
        if (seq !== check.seq) return;
        if (!r.valid) throw new Error(r.error);
        check = { seq, ok: true, fen: r.fen };
        let text = `Legal position: ${r.legal} legal turn${r.legal === 1 ? '' : 's'}`;
        if (r.check && r.check.length) text += `, in check on ${r.check.join(', ')}`;
        if (r.result) text = `Legal position, over by rule: ${r.result.score} (${r.result.reason})`;
        showStatus(true, text);
      } catch (e) {
        if (seq !== check.seq) return;
        check = { seq, ok: false, fen: null };
        showStatus(false, e.message);
      }
      window.__menagerie.editorChecked = seq;
    }, 150);
  }

  $('editor-fen').addEventListener('input', (e) => {
    const text = e.target.value.trim();
    if (!text) return;
    load(text);
  });
  $('editor-copy').addEventListener('click', async () => {
    const text = $('editor-fen').value;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      $('editor-fen').select();
      document.execCommand('copy');
    }
    $('editor-copy').textContent = 'Copied';
    setTimeout(() => ($('editor-copy').textContent = 'Copy FEN'), 1200);
  });
  $('editor-variant').addEventListener('change', (e) => setVariant(e.target.value));
  $('editor-start').addEventListener('click', () => load(v.startpos));
  $('editor-clear').addEventListener('click', () => {
    pos.board.clear();
    if (pos.hand) pos.hand.length = 0;
    for (const k of ['castling', 'ep']) pos.values.set(k, '-');
    renderFields();
    changed();
  });
  $('editor-flip').addEventListener('click', () => {
    flipped = !flipped;
    board.setGeometry(v, flipped);
    renderBoard();
  });
  $('editor-play').addEventListener('click', () => {
    if (!check.ok) return;
    location.href = `/?${new URLSearchParams({ variant: v.name, fen: check.fen })}`;
  });
  $('editor-analyse').addEventListener('click', async () => {
    if (!check.ok) return;
    try {
      const s = await post('/api/games', { variant: v.name, fen: check.fen, white: 'human', black: 'human' });
      rememberGame(s);
      location.href = `/game/${encodeURIComponent(s.id)}`;
    } catch (e) {
      showStatus(false, e.message);
    }
  });

  setVariant(v.name, params.get('fen') || undefined);
}
