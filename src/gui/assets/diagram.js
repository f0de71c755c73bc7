// A piece's moves on an empty board, as the engine computes them
// (GET /api/variants/{variant}/pieces/{code}/diagram?square=, the protocol's `diagram`).
// No rules here: the page draws the squares the engine names. A click on a square of the
// diagram moves the piece there.

import { get } from './api.js';
import { pieceSvg, esc, becomesOf } from './pieces.js';
import { squareName } from './fen.js';

/** The square a diagram starts from: the middle of the board, a little below it on an even board. */
export function centreSquare(v) {
  const f = Math.floor((v.files - 1) / 2);
  const row = Math.floor((v.ranks - 1) / 2);
  return squareName(f, row + v.first_rank);
}

const cache = new Map();

/** The engine's diagram of `code` on `square` of variant `v`, asked once per page. */
export function fetchDiagram(v, code, square) {
  const key = `${v.name}/${code}/${square}`;
  if (!cache.has(key)) {
    const path = `/api/variants/${encodeURIComponent(v.name)}/pieces/${encodeURIComponent(code)}/diagram?square=${encodeURIComponent(square)}`;
    const p = get(path);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return cache.get(key);
}

/** The marks of a square: its class names from the engine's lists. */
function markOf(d, sq) {
  const move = d.moves.includes(sq);
  const capture = d.captures.includes(sq);
  if (!move && !capture) return null;
  const kind = move && capture ? 'both' : move ? 'move' : 'capture';
  const how = d.hops.includes(sq) ? 'hop' : d.rides.includes(sq) ? 'ride' : 'leap';
  return { kind, how };
}

/** The SVG of one mark in a unit square at (x, y): round for a leap, square for a ride, ringed over a screen. */
function markSvg(x, y, m) {
  const cx = x + 0.5;
  const cy = y + 0.5;
  const cls = `dg-mark dg-${m.kind} dg-${m.how}`;
  if (m.how === 'ride') {
    return `<rect class="${cls}" x="${cx - 0.17}" y="${cy - 0.17}" width="0.34" height="0.34" rx="0.04"/>`;
  }
  if (m.how === 'hop') {
    return `<g class="${cls}"><circle cx="${cx}" cy="${cy}" r="0.3" class="dg-hop-ring"/><circle cx="${cx}" cy="${cy}" r="0.13"/></g>`;
  }
  return `<circle class="${cls}" cx="${cx}" cy="${cy}" r="0.19"/>`;
}

/** The legend under a diagram: only the kinds of mark it shows. */
function legend(d) {
  const seen = new Set();
  for (const sq of new Set([...d.moves, ...d.captures])) {
    const m = markOf(d, sq);
    seen.add(m.kind);
    seen.add(m.how);
  }
  const item = (m, words) => `<span class="dg-key"><svg viewBox="0 0 1 1" width="16" height="16">${markSvg(0, 0, m)}</svg>${words}</span>`;
  const parts = [];
  if (seen.has('both')) parts.push(item({ kind: 'both', how: 'leap' }, 'moves or captures'));
  if (seen.has('move')) parts.push(item({ kind: 'move', how: 'leap' }, 'moves only'));
  if (seen.has('capture')) parts.push(item({ kind: 'capture', how: 'leap' }, 'captures only'));
  if (seen.has('leap') && (seen.has('ride') || seen.has('hop'))) parts.push(item({ kind: 'both', how: 'leap' }, 'round: a leap'));
  if (seen.has('ride')) parts.push(item({ kind: 'both', how: 'ride' }, 'square: a ride (a piece between stops it)'));
  if (seen.has('hop')) parts.push(item({ kind: 'capture', how: 'hop' }, 'ringed: a capture over a screen'));
  if (!parts.length) parts.push('<span class="dg-key">no move from here on an empty board</span>');
  return parts.join('');
}

/**
 * Draws piece `code` (upper case, White) of variant `v` on `square` of an empty board into
 * `el`, with its moves as the engine answers them; `info` is the piece's entry. Clicking a
 * square moves the piece there. Resolves when drawn; an error is shown in `el`.
 */
export async function showDiagram(el, v, code, info, square = centreSquare(v)) {
  el.classList.add('diagram');
  el.dataset.square = square;
  let d;
  try {
    d = await fetchDiagram(v, code, square);
  } catch (e) {
    el.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  if (el.dataset.square !== square) return; // a later click won
  const holes = new Set(v.holes || []);
  let cells = '';
  for (let row = 0; row < v.ranks; row++) {
    const rank = row + v.first_rank;
    const y = v.ranks - 1 - row;
    for (let f = 0; f < v.files; f++) {
      const sq = squareName(f, rank);
      if (holes.has(sq)) continue;
      const dark = (f + rank) % 2 === 1;
      cells += `<g class="dg-sq" data-square="${sq}"><rect x="${f}" y="${y}" width="1" height="1" class="${dark ? 'dg-dark' : 'dg-light'}"/>`;
      if (sq === d.square) {
        cells += `<svg x="${f}" y="${y}" width="1" height="1" viewBox="0 0 100 100">${pieceSvg(code, info)}</svg>`;
      } else {
        const m = markOf(d, sq);
        if (m) cells += markSvg(f, y, m);
      }
      cells += '</g>';
    }
  }
  const next = becomesOf(info);
  const becomes = d.becomes
    ? `<p class="dg-becomes">After it acts it becomes <strong>${esc(next ? next.name : d.becomes)}</strong> <code>${esc(d.becomes)}</code>.</p>`
    : '';
  el.innerHTML = `<svg class="dg-board" viewBox="0 0 ${v.files} ${v.ranks}" role="img"
      aria-label="${esc(`${info ? info.name : code} on ${d.square}: ${d.moves.length} moves, ${d.captures.length} captures`)}">${cells}</svg>
    <div class="dg-legend">${legend(d)}</div>${becomes}
    <p class="hint">On ${esc(d.square)} of an empty board; click a square to move it there.</p>`;
  for (const g of el.querySelectorAll('.dg-sq')) {
    g.addEventListener('click', (ev) => {
      ev.stopPropagation();
      showDiagram(el, v, code, info, g.dataset.square);
    });
  }
}
