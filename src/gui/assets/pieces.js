// Piece pictures. The six orthodox pieces are simple silhouettes drawn for this project, chosen
// by the piece's NAME from /api/variants. Every other piece type is a round token with its code,
// so a new variant needs no new art.

const NS = 'http://www.w3.org/2000/svg';

// Shapes in a 100x100 box. `body` is filled with the piece colour and outlined; `detail` is
// drawn as lines in the contrast colour.
const ART = {
  Pawn: {
    body: `<circle cx="50" cy="31" r="12"/>
      <path d="M41 44 H59 Q61 44 60 47 L57 52 Q66 62 69 75 H31 Q34 62 43 52 L40 47 Q39 44 41 44 Z"/>
      <path d="M24 87 V82 Q24 76 30 76 H70 Q76 76 76 82 V87 Z"/>`,
    detail: '',
  },
  Rook: {
    body: `<path d="M29 20 H38 V27 H45 V20 H55 V27 H62 V20 H71 V40 L65 45 V70 L69 75 H31 L35 70 V45 L29 40 Z"/>
      <path d="M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z"/>`,
    detail: `<path d="M33 40 H67 M37 69 H63"/>`,
  },
  Bishop: {
    body: `<circle cx="50" cy="15" r="6"/>
      <path d="M50 21 Q67 33 64 47 Q62 53 57 54 H43 Q38 53 36 47 Q33 33 50 21 Z"/>
      <path d="M41 55 H59 L60 61 H40 Z"/>
      <path d="M42 61 H58 Q60 68 66 75 H34 Q40 68 42 61 Z"/>
      <path d="M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z"/>`,
    detail: `<path d="M54 31 L45 43 M46 37 H54"/>`,
  },
  Knight: {
    body: `<path d="M31 75 Q30 63 38 55 Q44 50 45 45 Q39 49 32 50 Q26 52 22 48 Q18 44 21 39
        L35 25 L36 16 L42 21 L47 16 L49 22 Q63 25 69 39 Q74 52 71 75 Z"/>
      <path d="M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z"/>`,
    detail: `<circle cx="40" cy="32" r="2.6"/><path d="M26 43 L29 42 M50 27 Q60 32 63 44"/>`,
  },
  Queen: {
    body: `<circle cx="18" cy="30" r="5"/><circle cx="34" cy="22" r="5"/><circle cx="50" cy="18" r="5"/>
      <circle cx="66" cy="22" r="5"/><circle cx="82" cy="30" r="5"/>
      <path d="M29 75 L19 35 L34 54 L35 27 L45 51 L50 23 L55 51 L65 27 L66 54 L81 35 L71 75 Z"/>
      <path d="M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z"/>`,
    detail: `<path d="M30 66 Q50 60 70 66"/>`,
  },
  King: {
    body: `<path d="M46 9 H54 V17 H61 V24 H54 V34 H46 V24 H39 V17 H46 Z"/>
      <path d="M50 40 Q57 30 67 33 Q82 38 76 55 L70 75 H30 L24 55 Q18 38 33 33 Q43 30 50 40 Z"/>
      <path d="M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z"/>`,
    detail: `<path d="M50 42 V68 M31 64 Q50 57 69 64"/>`,
  },
};

export const ORTHODOX = Object.keys(ART);

/** <defs> content with one <symbol> per orthodox piece and colour. */
export function pieceDefs() {
  let s = '';
  for (const [name, a] of Object.entries(ART)) {
    for (const c of ['w', 'b']) {
      s += `<symbol id="pc-${name}-${c}" viewBox="0 0 100 100">
        <g class="pc-body pc-${c}">${a.body}</g><g class="pc-detail pc-${c}">${a.detail}</g></symbol>`;
    }
  }
  return s;
}

function hash(s) {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  // Final mixing, so that one-letter codes spread over the colour wheel.
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  return h >>> 0;
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * The SVG markup (in a 100x100 box) of a piece. `code` has its case (colour); `info` is the
 * variant's entry for the piece ({code, name, movement}) or undefined.
 */
export function pieceSvg(code, info) {
  const c = code === code.toUpperCase() ? 'w' : 'b';
  const name = info && info.name;
  if (name && ART[name]) return `<use href="#pc-${name}-${c}" width="100" height="100"/>`;
  const up = code.toUpperCase();
  const hue = hash(up) % 360;
  const size = up.length <= 1 ? 44 : up.length === 2 ? 36 : 28;
  // A small mark on the rim, placed by the code's hash, tells apart codes that look alike.
  const ang = ((hash(up + '#') % 12) / 12) * Math.PI * 2;
  const mx = 50 + 34 * Math.cos(ang);
  const my = 50 + 34 * Math.sin(ang);
  return `<g class="tok tok-${c}">
    <circle cx="50" cy="50" r="38" class="tok-disc" style="stroke:hsl(${hue} 60% 45%)"/>
    <circle cx="${mx.toFixed(1)}" cy="${my.toFixed(1)}" r="4.5" style="fill:hsl(${hue} 65% 50%)"/>
    <text x="50" y="50" class="tok-text" font-size="${size}">${esc(up)}</text></g>`;
}

/** The picture of a piece as a standalone <svg> element (for lists, pockets, dialogs). */
export function pieceIcon(code, info, size = 36) {
  return `<svg class="pc-icon" viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true">${pieceSvg(code, info)}</svg>`;
}

/** A hidden <svg> holding the symbols, to put once in the page for icons outside the board. */
export function installDefs() {
  if (document.getElementById('piece-defs')) return;
  const svg = document.createElementNS(NS, 'svg');
  svg.id = 'piece-defs';
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  svg.style.position = 'absolute';
  svg.innerHTML = `<defs>${pieceDefs()}</defs>`;
  document.body.prepend(svg);
}

export { esc };
