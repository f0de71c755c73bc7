// The start page: the new-game form (with the Mutatis Mutandis seed and the Muster army
// builder when the variant's `pregame` asks for them), PGN import and the saved games.

import { get, post, rememberGame } from './api.js';
import { parseFen, squareName } from './fen.js';
import { pieceSvg, pieceIcon, esc } from './pieces.js';

function el(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

export async function showHome(app, vs) {
  document.title = 'menagerie';
  app.innerHTML = '';
  const page = el(`<div class="home">
    <section class="card new-game">
      <h2>New game</h2>
      <form id="new-game-form" autocomplete="off">
        <label class="row"><span>Variant</span>
          <select id="variant-select" name="variant">${vs.map((v) => `<option value="${esc(v.name)}">${esc(v.name)}</option>`).join('')}</select>
          <a id="variant-rules" class="small" href="#">rules</a>
        </label>
        <label class="row"><span>Opponent</span>
          <select id="opponent-select">
            <option value="engine">The engine</option>
            <option value="friend">A friend (send them a link)</option>
            <option value="device">Both sides on this device</option>
            <option value="watch">Engine against engine (watch)</option>
          </select>
        </label>
        <label class="row" id="side-row"><span id="side-label">You play</span>
          <select id="side-select">
            <option value="white">White</option>
            <option value="black">Black</option>
            <option value="random">Random</option>
          </select>
        </label>
        <div class="row engine-only"><span>Strength</span>
          <select id="strength-mode"><option value="level">Level</option><option value="elo">Elo</option></select>
          <input id="level" type="number" min="0" max="20" value="20" title="Skill Level 0-20">
          <input id="elo" type="number" min="500" max="3200" step="50" value="1500" hidden title="UCI_Elo">
        </div>
        <div class="row"><span>Time</span>
          <select id="clock-mode">
            <option value="movetime">Engine time per move</option>
            <option value="clock">Clock</option>
          </select>
          <span class="clock-fields" id="movetime-fields"><input id="movetime" type="number" min="0.1" step="0.1" value="1"> s</span>
          <span class="clock-fields" id="clock-fields" hidden><input id="clock-base" type="number" min="0.5" step="0.5" value="5"> min +
            <input id="clock-inc" type="number" min="0" step="1" value="3"> s</span>
        </div>
        <label class="row" id="seed-row" hidden><span>Setup seed</span>
          <input id="seed" type="text" inputmode="numeric" placeholder="random" pattern="[0-9]*">
        </label>
        <label class="row"><span>Start FEN</span>
          <input id="start-fen" type="text" placeholder="optional: start from this position">
          <a id="open-editor" class="small" href="/editor">set up</a>
        </label>
        <div id="army-section" hidden>
          <h3 id="army-title">Your army</h3>
          <label class="row" id="army-edit-row" hidden><span>Editing</span>
            <select id="army-edit-colour"><option value="white">White's army</option><option value="black">Black's army</option></select></label>
          <p class="hint">Pick a piece from the palette, then click squares to place it. The eraser removes pieces.</p>
          <div class="army-tools">
            <div id="army-palette" class="palette"></div>
            <button type="button" id="army-reset" class="small-btn">Regular army</button>
            <button type="button" id="army-clear" class="small-btn">Clear</button>
          </div>
          <div id="army-editor" class="army-board"></div>
          <code id="army-half" class="half-fen"></code>
        </div>
        <div id="army-choice" hidden>
          <h3>Pick an army</h3>
          <p class="hint">Both armies are shown. Pick one; the engine picks at the same moment, and the rules' table decides who plays which.</p>
          <div class="army-pair">
            <figure><figcaption>Your army (<span id="army-own-colour"></span>)</figcaption><div id="army-own" class="army-board small"></div>
              <button type="button" class="pick-btn" id="army-pick-own">Pick this army</button></figure>
            <figure><figcaption>Engine's army (<span id="army-engine-colour"></span>)</figcaption><div id="army-engine" class="army-board small"></div>
              <button type="button" class="pick-btn" id="army-pick-engine">Pick this army</button></figure>
          </div>
          <button type="button" id="army-back" class="small-btn">Back to the editor</button>
        </div>
        <div id="army-choice-2" hidden>
          <h3>Pick the armies</h3>
          <p class="hint">Each builder picks one of the two armies; the rules' table decides who plays which.</p>
          <div class="army-pair">
            <figure><figcaption>White's army</figcaption><div id="army-view-white" class="army-board small"></div></figure>
            <figure><figcaption>Black's army</figcaption><div id="army-view-black" class="army-board small"></div></figure>
          </div>
          <label class="row"><span>White's builder picks</span><select id="army-pick-by-white"><option value="white">White's army</option><option value="black">Black's army</option></select></label>
          <label class="row"><span>Black's builder picks</span><select id="army-pick-by-black"><option value="white">White's army</option><option value="black" selected>Black's army</option></select></label>
          <button type="button" id="army-start" class="primary">Start</button>
          <button type="button" id="army-back-2" class="small-btn">Back to the editor</button>
        </div>
        <p class="error" id="new-game-error" role="alert"></p>
        <button type="submit" id="new-game" class="primary">Play</button>
      </form>
    </section>
    <section class="card games">
      <h2>Saved games</h2>
      <div id="games-list" class="games-list"><p class="muted">Loading…</p></div>
    </section>
    <section class="card import">
      <h2>Import PGN</h2>
      <textarea id="pgn-text" rows="6" placeholder="Paste PGN text (the dialect menagerie match writes)"></textarea>
      <button type="button" id="pgn-import">Import and open</button>
      <p class="error" id="pgn-error" role="alert"></p>
    </section>
  </div>`);
  app.appendChild(page);

  const $ = (id) => page.querySelector('#' + id);
  const byName = new Map(vs.map((v) => [v.name, v]));
  const saved = JSON.parse(localStorage.getItem('menagerie-new-game') || '{}');
  if (saved.variant && byName.has(saved.variant)) $('variant-select').value = saved.variant;
  const params = new URLSearchParams(location.search);
  if (params.get('variant') && byName.has(params.get('variant'))) $('variant-select').value = params.get('variant');
  if (params.get('fen')) $('start-fen').value = params.get('fen');
  // The board editor opens on the chosen variant and on the FEN typed, if any.
  $('open-editor').addEventListener('click', (e) => {
    e.preventDefault();
    const q = new URLSearchParams({ variant: $('variant-select').value });
    if ($('start-fen').value.trim()) q.set('fen', $('start-fen').value.trim());
    location.href = `/editor?${q}`;
  });
  // A form saved before the opponent choice had "both" among the sides.
  if (saved['side-select'] === 'both') {
    saved['side-select'] = 'white';
    saved['opponent-select'] = 'device';
  }
  for (const k of ['opponent-select', 'side-select', 'strength-mode', 'level', 'elo', 'clock-mode', 'movetime', 'clock-base', 'clock-inc']) {
    if (saved[k] !== undefined) $(k).value = saved[k];
    if (!$(k).value) $(k).selectedIndex = 0;
  }

  // ---- army builder state ----
  // boards: the armies per colour; editing: the colour shown in the editor.
  const army = { boards: { white: null, black: null }, tool: null, engineHalf: null, buildColour: 'white', editing: 'white' };

  const variant = () => byName.get($('variant-select').value);
  const pregame = () => variant().pregame || [];
  const infoOf = (code) => variant().pieces.find((p) => p.code === code.toUpperCase());

  function buildColour() {
    const s = $('side-select').value;
    if (s === 'random') return army.randomColour || (army.randomColour = Math.random() < 0.5 ? 'white' : 'black');
    return s === 'black' ? 'black' : 'white';
  }

  /** The ranks of a colour's half of the board, top down (as a half-FEN lists them). */
  function halfRanks(colour) {
    const v = variant();
    const half = Math.floor(v.ranks / 2);
    const low = colour === 'white' ? v.first_rank : v.first_rank + v.ranks - half;
    return Array.from({ length: half }, (_, i) => low + half - 1 - i);
  }

  /** The regular army of a colour: its half of the variant's start position. */
  function regularArmy(colour) {
    const v = variant();
    const pos = parseFen(v.startpos, v);
    const m = new Map();
    const ranks = halfRanks(colour);
    for (const [sq, code] of pos.board) {
      const r = parseInt(sq.slice(1), 10);
      if (ranks.includes(r)) m.set(sq, code);
    }
    return m;
  }
  const boardOf = (colour) => army.boards[colour] || (army.boards[colour] = regularArmy(colour));

  function halfFen(board, colour) {
    return halfRanks(colour)
      .map((r) => {
        let s = '';
        let e = 0;
        for (let f = 0; f < 8; f++) {
          const c = board.get(squareName(f, r));
          if (c) {
            if (e) s += e;
            e = 0;
            s += c.length > 1 ? `[${c}]` : c;
          } else e++;
        }
        return s + (e ? e : '');
      })
      .join('/');
  }

  function parseHalf(half, colour) {
    const ranks = halfRanks(colour);
    const m = new Map();
    half.split('/').forEach((row, k) => {
      let f = 0;
      for (let i = 0; i < row.length; i++) {
        const c = row[i];
        if (c >= '0' && c <= '9') {
          let j = i;
          while (j + 1 < row.length && row[j + 1] >= '0' && row[j + 1] <= '9') j++;
          f += parseInt(row.slice(i, j + 1), 10);
          i = j;
        } else if (c === '[') {
          const j = row.indexOf(']', i);
          m.set(squareName(f++, ranks[k]), row.slice(i + 1, j));
          i = j;
        } else m.set(squareName(f++, ranks[k]), c);
      }
    });
    return m;
  }

  function armySvg(board, colour, editable) {
    const ranks = halfRanks(colour);
    let s = `<svg viewBox="0 0 826 426" class="army-svg">`;
    ranks.forEach((r, row) => {
      s += `<text class="coord" x="13" y="${row * 100 + 50}">${r}</text>`;
      for (let f = 0; f < 8; f++) {
        const sq = squareName(f, r);
        const dark = (f + r) % 2 === 1;
        const code = board.get(sq);
        s += `<g class="sq ${dark ? 'dark' : 'light'}" ${editable ? 'data-army-square' : 'data-army-view'}="${sq}" transform="translate(${26 + f * 100} ${row * 100})"><rect class="bg" width="100" height="100"/>`;
        if (code) {
          const info = infoOf(code);
          s += `<g class="pc" data-piece="${esc(code)}"><title>${esc(info ? info.name : code)}</title>${pieceSvg(code, info)}</g>`;
        }
        s += `</g>`;
      }
    });
    for (let f = 0; f < 8; f++) s += `<text class="coord" x="${26 + f * 100 + 50}" y="413">${String.fromCharCode(97 + f)}</text>`;
    return s + `</svg>`;
  }

  function renderArmy() {
    const colour = army.editing;
    const c = colour === 'white' ? 'w' : 'b';
    const pal = $('army-palette');
    const codes = variant().pieces.map((p) => p.code);
    pal.innerHTML =
      codes
        .map((code) => {
          const cc = c === 'w' ? code : code.toLowerCase();
          const info = infoOf(code);
          return `<button type="button" class="palette-item${army.tool === code ? ' active' : ''}" data-palette="${esc(code)}" title="${esc(info.name)}">${pieceIcon(cc, info, 34)}</button>`;
        })
        .join('') +
      `<button type="button" class="palette-item eraser${army.tool === 'eraser' ? ' active' : ''}" id="army-eraser" data-palette="eraser" title="Eraser">⌫</button>`;
    $('army-editor').innerHTML = armySvg(boardOf(colour), colour, true);
    $('army-half').textContent = halfFen(boardOf(colour), colour);
  }

  $('army-palette').addEventListener('click', (e) => {
    const b = e.target.closest('[data-palette]');
    if (!b) return;
    army.tool = b.dataset.palette;
    renderArmy();
  });
  $('army-editor').addEventListener('click', (e) => {
    const g = e.target.closest('[data-army-square]');
    if (!g || !army.tool) return;
    const sq = g.dataset.armySquare;
    const board = boardOf(army.editing);
    if (army.tool === 'eraser') board.delete(sq);
    else {
      const code = army.editing === 'white' ? army.tool : army.tool.toLowerCase();
      if (board.get(sq) === code) board.delete(sq);
      else board.set(sq, code);
    }
    renderArmy();
  });
  $('army-reset').addEventListener('click', () => {
    army.boards[army.editing] = regularArmy(army.editing);
    renderArmy();
  });
  $('army-clear').addEventListener('click', () => {
    army.boards[army.editing] = new Map();
    renderArmy();
  });
  $('army-edit-colour').addEventListener('change', (e) => {
    army.editing = e.target.value;
    renderArmy();
  });
  for (const id of ['army-back', 'army-back-2']) {
    $(id).addEventListener('click', () => {
      $('army-choice').hidden = true;
      $('army-choice-2').hidden = true;
      $('army-section').hidden = false;
      $('new-game').hidden = false;
    });
  }

  function syncForm() {
    const v = variant();
    const pg = pregame();
    $('variant-rules').href = `/rules/${encodeURIComponent(v.name)}`;
    $('seed-row').hidden = !pg.includes('seed');
    const opponent = $('opponent-select').value;
    // The armies are built here for both sides unless one person plays the engine.
    const both = opponent !== 'engine';
    const armyGame = pg.includes('army');
    $('side-row').hidden = opponent === 'device' || opponent === 'watch' || (armyGame && opponent === 'friend');
    $('side-label').textContent = armyGame && !both ? 'You build the army of' : 'You play';
    for (const e of page.querySelectorAll('.engine-only')) e.hidden = opponent !== 'engine' && opponent !== 'watch';
    $('elo').hidden = $('strength-mode').value !== 'elo';
    $('level').hidden = $('strength-mode').value === 'elo';
    $('movetime-fields').hidden = $('clock-mode').value !== 'movetime';
    $('clock-fields').hidden = $('clock-mode').value !== 'clock';
    $('army-section').hidden = !armyGame || !$('army-choice').hidden || !$('army-choice-2').hidden;
    if (armyGame) {
      if (army.variant !== v.name) {
        army.variant = v.name;
        army.boards = { white: null, black: null };
      }
      $('army-edit-row').hidden = !both;
      $('army-title').textContent = both ? 'The armies' : 'Your army';
      if (!both) {
        army.buildColour = buildColour();
        army.editing = army.buildColour;
      } else army.editing = $('army-edit-colour').value;
      renderArmy();
    } else {
      $('army-choice').hidden = true;
      $('army-choice-2').hidden = true;
      $('new-game').hidden = false;
    }
  }
  for (const id of ['variant-select', 'opponent-select', 'side-select', 'strength-mode', 'clock-mode']) {
    $(id).addEventListener('change', () => {
      army.randomColour = null;
      syncForm();
    });
  }
  syncForm();

  function gameBody() {
    const v = variant();
    const side = $('side-select').value;
    const opponent = $('opponent-select').value;
    const body = { variant: v.name };
    const me = side === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : side;
    // The seats this page plays: the creator's colour against the engine or a friend, both
    // on one device, none when two engines play.
    // (With armies built here for a friend, the creator takes White's seat.)
    const friendSide = pregame().includes('army') ? 'white' : me;
    gameBody.mine = { engine: [me], friend: [friendSide], device: ['white', 'black'], watch: [] }[opponent];
    const seat = (c) => (opponent === 'watch' || (opponent === 'engine' && c !== me) ? 'engine' : 'human');
    body.white = seat('white');
    body.black = seat('black');
    const engine = opponent === 'engine' || opponent === 'watch';
    if (engine) {
      if ($('strength-mode').value === 'elo') body.elo = parseInt($('elo').value, 10);
      else body.level = Math.max(0, Math.min(20, parseInt($('level').value, 10) || 0));
    }
    if ($('clock-mode').value === 'clock') {
      body.clock = {
        base_ms: Math.round(parseFloat($('clock-base').value) * 60000),
        inc_ms: Math.round(parseFloat($('clock-inc').value || '0') * 1000),
      };
    } else if (engine) {
      body.movetime_ms = Math.max(50, Math.round(parseFloat($('movetime').value) * 1000));
    }
    const seed = $('seed').value.trim();
    if (pregame().includes('seed') && seed !== '') {
      if (!/^\d+$/.test(seed)) throw new Error('The seed is a whole number (0 to 2^64-1).');
      // Kept exact beyond 2^53: the number is written into the JSON text as it was typed.
      body.seed = seed;
    }
    const fen = $('start-fen').value.trim();
    if (fen) body.fen = fen;
    return body;
  }

  function saveForm() {
    const s = { variant: $('variant-select').value };
    for (const k of ['opponent-select', 'side-select', 'strength-mode', 'level', 'elo', 'clock-mode', 'movetime', 'clock-base', 'clock-inc']) s[k] = $(k).value;
    localStorage.setItem('menagerie-new-game', JSON.stringify(s));
  }

  async function create(body) {
    // A seed may not fit a JavaScript number: it is written as a bare integer.
    let json = JSON.stringify(body);
    if (body.seed !== undefined) json = json.replace(`"seed":"${body.seed}"`, `"seed":${body.seed}`);
    const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || `${r.status} ${r.statusText}`);
    // Against the engine the page holds the person's seat, whichever colour the muster gave.
    rememberGame(data, data.engine === 'none' ? gameBody.mine : undefined);
    location.href = `/game/${encodeURIComponent(data.id)}`;
  }

  async function pickArmy(pick) {
    const err = $('new-game-error');
    err.textContent = '';
    try {
      const body = gameBody();
      body.army = { build: army.buildColour, half: halfFen(boardOf(army.buildColour), army.buildColour), pick, engine_half: army.engineHalf };
      delete body.white;
      delete body.black;
      body.engine = army.buildColour === 'white' ? 'black' : 'white';
      for (const b of page.querySelectorAll('.pick-btn')) b.disabled = true;
      await create(body);
    } catch (e) {
      err.textContent = e.message;
      for (const b of page.querySelectorAll('.pick-btn')) b.disabled = false;
    }
  }

  $('new-game-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const err = $('new-game-error');
    err.textContent = '';
    saveForm();
    const btn = $('new-game');
    btn.disabled = true;
    try {
      const pg = pregame();
      if (pg.includes('army') && $('opponent-select').value !== 'engine' && !$('start-fen').value.trim()) {
        $('army-view-white').innerHTML = armySvg(boardOf('white'), 'white', false);
        $('army-view-black').innerHTML = armySvg(boardOf('black'), 'black', false);
        $('army-section').hidden = true;
        $('army-choice-2').hidden = false;
        btn.hidden = true;
        btn.disabled = false;
        return;
      }
      if (pg.includes('army') && $('opponent-select').value === 'engine' && !$('start-fen').value.trim()) {
        const other = army.buildColour === 'white' ? 'black' : 'white';
        btn.textContent = 'The engine builds its army…';
        const r = await post('/api/muster/propose', { colour: other, variant: variant().name });
        const half = typeof r === 'string' ? r : r.army || r.half || r.fen;
        army.engineHalf = half;
        $('army-own-colour').textContent = army.buildColour;
        $('army-engine-colour').textContent = other;
        $('army-own').innerHTML = armySvg(boardOf(army.buildColour), army.buildColour, false);
        $('army-engine').innerHTML = armySvg(parseHalf(half, other), other, false);
        $('army-pick-own').dataset.pick = army.buildColour;
        $('army-pick-engine').dataset.pick = other;
        $('army-section').hidden = true;
        $('army-choice').hidden = false;
        btn.hidden = true;
        btn.disabled = false;
        btn.textContent = 'Play';
        return;
      }
      await create(gameBody());
    } catch (ex) {
      err.textContent = ex.message;
    }
    btn.disabled = false;
    btn.textContent = 'Play';
  });
  for (const b of page.querySelectorAll('.pick-btn')) b.addEventListener('click', () => pickArmy(b.dataset.pick));
  $('army-start').addEventListener('click', async () => {
    const err = $('new-game-error');
    err.textContent = '';
    try {
      const body = gameBody();
      body.army = {
        white: halfFen(boardOf('white'), 'white'),
        black: halfFen(boardOf('black'), 'black'),
        picks: [$('army-pick-by-white').value, $('army-pick-by-black').value],
      };
      $('army-start').disabled = true;
      await create(body);
    } catch (e) {
      err.textContent = e.message;
      $('army-start').disabled = false;
    }
  });

  // ---- import ----
  $('pgn-import').addEventListener('click', async () => {
    $('pgn-error').textContent = '';
    try {
      const r = await post('/api/import', { pgn: $('pgn-text').value });
      if (!r || !r.length) throw new Error('no game found in the text');
      for (const g of r) rememberGame(g);
      location.href = `/game/${encodeURIComponent(r[0].id)}`;
    } catch (e) {
      $('pgn-error').textContent = e.message;
    }
  });

  // ---- saved games ----
  try {
    const games = await get('/api/games');
    const list = $('games-list');
    if (!games.length) list.innerHTML = '<p class="muted">No games yet.</p>';
    else {
      list.innerHTML = `<table><thead><tr><th>Variant</th><th>White</th><th>Black</th><th>Result</th><th>Plies</th><th>Updated</th></tr></thead><tbody>${games
        .map(
          (g) =>
            `<tr data-game="${esc(g.id)}"><td><a href="/game/${encodeURIComponent(g.id)}">${esc(g.variant)}</a></td><td>${esc(g.white ?? '')}</td><td>${esc(g.black ?? '')}</td><td>${esc(
              typeof g.result === 'object' && g.result ? g.result.score : g.result ?? '*',
            )}</td><td>${esc(g.plies ?? '')}</td><td>${esc(fmtDate(g.updated))}</td></tr>`,
        )
        .join('')}</tbody></table>`;
      list.addEventListener('click', (e) => {
        const tr = e.target.closest('tr[data-game]');
        if (tr && !e.target.closest('a')) location.href = `/game/${encodeURIComponent(tr.dataset.game)}`;
      });
    }
  } catch (e) {
    $('games-list').innerHTML = `<p class="error">${esc(e.message)}</p>`;
  }
}

function fmtDate(u) {
  if (u === undefined || u === null) return '';
  const d = typeof u === 'number' ? new Date(u > 1e12 ? u : u * 1000) : new Date(u);
  if (isNaN(d)) return String(u);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
