// Piece pictures, drawn for this project (docs/gui.md, "Piece figures"; MIT like the rest of
// it). A piece's figure is chosen from what the engine says of it in /api/variants: its NAME
// first (the figures below), else its MOVEMENT in Betza notation (a compound of drawn parts,
// else a glyph generated from the Betza: leaps as dots, rides as rays around a centre). The
// variant's own name is never looked at. A piece whose words say "becomes X" (Mutatis
// Mutandis) carries a badge with the mini-figure of X.
//
// Every figure is a <symbol> made once per colour in a hidden <svg> of the page (lazily, the
// first time it is drawn), and a piece on the board is one or two <use> of it: redrawing a
// board costs a few small elements per square.

const NS = 'http://www.w3.org/2000/svg';
const STYLE_KEY = 'menagerie-piece-style';

/** 'figures' (the default) or 'letters', as the person chose (kept in localStorage). */
export function pieceStyle() {
  try {
    return localStorage.getItem(STYLE_KEY) === 'letters' ? 'letters' : 'figures';
  } catch {
    return 'figures';
  }
}

export function setPieceStyle(style) {
  try {
    localStorage.setItem(STYLE_KEY, style === 'letters' ? 'letters' : 'figures');
  } catch {
    /* private mode: the choice lasts for the page */
  }
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function hash(s) {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  return h >>> 0;
}

const f1 = (x) => (Math.round(x * 10) / 10).toString();

// ---------------------------------------------------------------------------------------------
// The parts: shapes in a 100x100 box, standing on y = 76 (the pedestal below is added by the
// figure). `b`: filled with the piece's colour and outlined; `d`: lines (and dots) in the
// contrast colour; `t`: thick outlined lines ("tubes", [path, width]) drawn over the body, `tb`
// under it.
// ---------------------------------------------------------------------------------------------

const BASE = 'M23 88 V82 Q23 76 29 76 H71 Q77 76 77 82 V88 Z';
const WIDE_BASE = 'M12 88 V82 Q12 76 18 76 H82 Q88 76 88 82 V88 Z';
const KING_BODY = 'M50 40 Q57 30 67 33 Q82 38 76 55 L70 75 H30 L24 55 Q18 38 33 33 Q43 30 50 40 Z';
const KING_DETAIL = 'M50 42 V68 M31 64 Q50 57 69 64';
const KNIGHT_BODY = `M31 75 Q30 63 38 55 Q44 50 45 45 Q39 49 32 50 Q26 52 22 48 Q18 44 21 39
  L35 25 L36 16 L42 21 L47 16 L49 22 Q63 25 69 39 Q74 52 71 75 Z`;
const KNIGHT_DETAIL = '<circle cx="40" cy="32" r="2.6"/><path d="M26 43 L29 42 M50 27 Q60 32 63 44"/>';
const BISHOP_BODY = `<circle cx="50" cy="15" r="6"/>
  <path d="M50 21 Q67 33 64 47 Q62 53 57 54 H43 Q38 53 36 47 Q33 33 50 21 Z"/>
  <path d="M41 55 H59 L60 61 H40 Z"/><path d="M42 61 H58 Q60 68 66 75 H34 Q40 68 42 61 Z"/>`;
const ROOK_BODY = 'M29 20 H38 V27 H45 V20 H55 V27 H62 V20 H71 V40 L65 45 V70 L69 75 H31 L35 70 V45 L29 40 Z';
const PAWN_BODY = `<circle cx="50" cy="31" r="12"/>
  <path d="M41 44 H59 Q61 44 60 47 L57 52 Q66 62 69 75 H31 Q34 62 43 52 L40 47 Q39 44 41 44 Z"/>`;
const STAR = (x, y, r) => {
  let d = '';
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const q = i % 2 ? r * 0.45 : r;
    d += `${i ? 'L' : 'M'}${f1(x + q * Math.cos(a))} ${f1(y + q * Math.sin(a))} `;
  }
  return d + 'Z';
};

const PARTS = {
  // The six orthodox figures (the project's first drawings).
  King: {
    b: `<path d="M46 9 H54 V17 H61 V24 H54 V34 H46 V24 H39 V17 H46 Z"/><path d="${KING_BODY}"/>`,
    d: `<path d="${KING_DETAIL}"/>`,
  },
  Queen: {
    b: `<circle cx="18" cy="30" r="5"/><circle cx="34" cy="22" r="5"/><circle cx="50" cy="18" r="5"/>
      <circle cx="66" cy="22" r="5"/><circle cx="82" cy="30" r="5"/>
      <path d="M29 75 L19 35 L34 54 L35 27 L45 51 L50 23 L55 51 L65 27 L66 54 L81 35 L71 75 Z"/>`,
    d: `<path d="M30 66 Q50 60 70 66"/>`,
  },
  Rook: { b: `<path d="${ROOK_BODY}"/>`, d: `<path d="M33 40 H67 M37 69 H63"/>` },
  Bishop: { b: BISHOP_BODY, d: `<path d="M54 31 L45 43 M46 37 H54"/>` },
  Knight: { b: `<path d="${KNIGHT_BODY}"/>`, d: KNIGHT_DETAIL },
  Pawn: { b: PAWN_BODY, d: '' },

  // Kings' kin: the Maoking (a King that converts: a turning disc on its crown), the Wuss (a
  // royal that never captures: a white flag), the Mamra (a non-royal King step: a bust).
  Maoking: {
    b: `<path d="M46 30 H54 V36 H46 Z"/><circle cx="50" cy="20" r="11"/><path d="${KING_BODY}"/>`,
    d: `<path d="${KING_DETAIL}"/><path d="M50 9 Q42 14.5 50 20 Q58 25.5 50 31"/><circle cx="50" cy="15" r="2"/>`,
  },
  Wuss: {
    b: `<path d="M44 10 Q56 4 70 11 Q62 16 70 22 Q56 17 44 24 Z"/><path d="${KING_BODY}"/>`,
    tb: [['M43 36 V8', 4]],
    d: `<path d="${KING_DETAIL}"/>`,
  },
  Mamra: {
    b: `<circle cx="50" cy="24" r="12"/><path d="M22 75 L27 50 Q30 40 42 38 H58 Q70 40 73 50 L78 75 Z"/>`,
    d: `<path d="M42 39 L50 52 L58 39 M50 52 V72 M34 56 L32 72 M66 56 L68 72"/>`,
  },

  // Queens' kin: the Sissa (a sage in a turban).
  Sissa: {
    b: `<circle cx="50" cy="13" r="5"/><path d="M29 40 Q29 18 50 17 Q71 18 71 40 Q71 50 61 52 H39 Q29 50 29 40 Z"/>
      <path d="M37 52 H63 Q65 63 72 75 H28 Q35 63 37 52 Z"/>`,
    d: `<path d="M32 33 Q50 26 68 33 M31 43 Q50 35 69 43 M40 62 H60"/>`,
  },

  // Knights' kin.
  Unicorn: {
    b: `<path d="M30 27 L8 6 L36 22 Z"/><path d="${KNIGHT_BODY}"/>`,
    d: `${KNIGHT_DETAIL}<path d="M16 12 L20 10 M22 17 L26 14"/>`,
  },

  Zebra: {
    b: `<path d="${KNIGHT_BODY}"/>`,
    d: `${KNIGHT_DETAIL}<path d="M44 30 Q47 38 43 46 M52 34 Q56 44 50 54 M58 44 Q62 54 56 64 M62 58 Q66 66 62 73"/>`,
  },
  Camel: {
    b: `<path d="M30 75 Q33 58 40 48 Q45 40 41 33 Q37 28 29 29 L18 31 Q13 28 18 23 Q26 15 39 16 Q52 18 55 30
      Q57 40 54 48 Q60 38 67 40 Q77 44 76 58 L74 75 Z"/>`,
    d: `<circle cx="33" cy="22" r="2.4"/><path d="M18 27 L22 27 M56 52 Q62 48 68 52"/>`,
  },
  Grasshopper: {
    b: `<path d="M22 52 Q24 42 36 40 L70 34 Q80 34 80 42 Q80 48 70 50 L36 58 Q24 60 22 52 Z"/><circle cx="22" cy="46" r="8"/>`,
    tb: [['M24 40 Q20 24 8 18', 2.5], ['M28 40 Q30 24 22 10', 2.5]],
    t: [['M58 44 L74 18 L86 74', 5], ['M40 56 L34 74', 3.5], ['M50 54 L52 74', 3.5]],
    d: `<circle cx="19" cy="45" r="2.4"/>`,
  },

  // Bishops' and Rooks' kin are drawn from those parts (see FIGURES).

  // The Rococo pieces and other queen-movers with odd captures.
  Advancer: {
    b: `<circle cx="50" cy="11" r="7.5"/><path d="M41 75 V44 H28 L50 22 L72 44 H59 V75 Z"/>`,
    d: `<path d="M50 36 V68"/>`,
  },
  Withdrawer: {
    b: `<circle cx="50" cy="13" r="7.5"/><path d="M41 28 V52 H28 L50 75 L72 52 H59 V28 Z"/>`,
    d: `<path d="M50 32 V60"/>`,
  },
  LongLeaper: {
    b: `<circle cx="36" cy="68" r="7"/><circle cx="56" cy="68" r="7"/><path d="M80 72 L66 58 L84 54 Z"/>`,
    t: [['M18 74 Q28 10 76 58', 6]],
    d: '',
  },
  Chameleon: {
    b: `<path d="M18 50 Q18 36 32 32 Q46 26 60 32 Q72 38 72 50 Q72 60 62 64 L60 75 H52 L52 64 H40 L38 75 H30 L31 62 Q18 60 18 50 Z"/>`,
    t: [['M70 54 Q86 56 86 44 Q86 34 78 34 Q71 35 72 42 Q73 47 78 45', 5]],
    d: `<circle cx="31" cy="45" r="5.5" class="hollow"/><circle cx="31" cy="45" r="2"/><path d="M18 52 Q24 55 30 53 M40 34 Q50 40 62 36"/>`,
  },
  Swapper: {
    b: `<path d="M22 40 L36 16 L50 40 H41 V75 H31 V40 Z"/><path d="M50 52 L64 76 L78 52 H69 V17 H59 V52 Z"/>`,
    d: '',
  },
  Immobilizer: {
    b: `<path d="M26 44 H74 Q76 44 76 47 V72 Q76 75 73 75 H27 Q24 75 24 72 V47 Q24 44 26 44 Z"/>`,
    tb: [['M37 44 V33 Q37 17 50 17 Q63 17 63 33 V44', 7]],
    d: `<circle cx="50" cy="56" r="4.5"/><path d="M50 58 V67"/>`,
  },
  Shield: {
    b: `<path d="M27 18 Q50 27 73 18 V44 Q73 64 50 76 Q27 64 27 44 Z"/>`,
    d: `<path d="M50 29 V64 M36 40 H64"/>`,
  },
  Archer: {
    b: `<path d="M38 9 Q86 40 38 71 L38 63 Q74 40 38 17 Z"/><path d="M33 68 H43 V75 H33 Z"/>`,
    t: [['M22 40 H76', 3.5]],
    d: `<path d="M38 13 V67"/><path d="M84 40 L74 34 V46 Z" class="filled"/><path d="M22 40 L16 34 M22 40 L16 46 M28 40 L22 34 M28 40 L22 46"/>`,
  },
  Octopus: {
    b: `<path d="M29 44 Q27 12 50 12 Q73 12 71 44 Q71 54 62 56 H38 Q29 54 29 44 Z"/>`,
    tb: [
      ['M37 50 Q24 60 30 68 Q34 74 24 76', 6],
      ['M45 52 Q40 64 46 70 Q50 75 42 78', 6],
      ['M55 52 Q60 64 54 70 Q50 75 58 78', 6],
      ['M63 50 Q76 60 70 68 Q66 74 76 76', 6],
    ],
    d: `<circle cx="42" cy="38" r="3.5"/><circle cx="58" cy="38" r="3.5"/>`,
  },
  Cannon: {
    b: `<path d="M24 60 L68 28 Q73 25 77 30 L80 34 Q83 39 78 43 L36 74 Z"/><circle cx="40" cy="62" r="13"/>`,
    d: `<circle cx="40" cy="62" r="3"/><path d="M40 50 V74 M28 62 H52 M62 34 L72 48"/>`,
  },
  Secutor: {
    b: `<path d="M44 24 Q50 4 56 24 Z"/><path d="M29 75 V50 Q29 23 50 23 Q71 23 71 50 V75 Z"/>`,
    d: `<circle cx="42" cy="50" r="3.5"/><circle cx="58" cy="50" r="3.5"/><path d="M50 27 V42 M34 66 H66"/>`,
  },
  Oxybeles: {
    b: `<path d="M29 75 L45 44 H55 L71 75 H62 L50 54 L38 75 Z"/><path d="M45 16 H55 V48 H45 Z"/>
      <path d="M16 36 Q50 14 84 36 L82 42 Q50 22 18 42 Z"/><path d="M50 3 L57 14 H43 Z"/>`,
    d: `<path d="M19 40 L50 50 L81 40"/>`,
  },
  Mage: {
    b: `<path d="M66 5 Q52 10 48 24 Q42 42 32 60 H68 Q61 42 60 28 Q59 15 66 5 Z"/>
      <path d="M20 64 Q50 52 80 64 Q50 74 20 64 Z"/><path d="M37 68 Q50 92 63 68 Q50 73 37 68 Z"/>`,
    d: `<path d="${STAR(50, 42, 8)}"/>`,
  },
  Assassin: {
    b: `<path d="M50 5 L59 19 V50 H41 V19 Z"/><path d="M28 50 H72 Q74 55 72 59 H28 Q26 55 28 50 Z"/>
      <path d="M45 59 H55 V68 H45 Z"/><circle cx="50" cy="71" r="5"/>`,
    d: `<path d="M50 14 V46"/>`,
  },
  Gryphon: {
    b: `<path d="M66 75 Q62 58 68 44 Q73 30 64 22 L68 10 L58 17 L56 8 L50 16 Q38 15 30 24 L17 29 Q20 36 30 36
      Q26 42 31 46 Q38 47 43 41 Q50 50 43 62 Q40 70 42 75 Z"/>`,
    d: `<circle cx="43" cy="27" r="3"/><path d="M30 36 Q36 34 40 36 M56 40 Q60 50 58 62"/>`,
  },
  Aanca: {
    b: `<path d="M34 75 Q38 58 32 44 Q27 30 38 21 Q48 13 62 18 Q72 22 76 30 L86 36 Q80 40 72 38
      Q75 44 69 47 Q62 47 58 41 Q51 50 57 62 Q60 70 58 75 Z"/>`,
    tb: [['M40 20 Q30 8 16 10', 5], ['M44 18 Q38 4 24 2', 4]],
    d: `<circle cx="60" cy="28" r="3"/><path d="M72 38 Q66 36 61 38 M44 40 Q40 50 42 62"/>`,
  },
  Hydra: {
    b: `<path d="M24 75 Q22 56 40 54 H60 Q78 56 76 75 Z"/>`,
    d: `<path d="M34 66 Q50 60 66 66"/>`,
  },
};

/** The heads of a Hydra, by its name: it grows one with each state (Mutatis Mutandis). */
const HYDRA_HEADS = {
  'hydra knight': 1,
  'hydra nn11': 2,
  'hydra nn02': 3,
  'hydra quintessence': 4,
  'hydra nn33': 5,
  'hydra nn04': 6,
};

function hydraPart(n) {
  const tubes = [];
  let heads = '';
  let eyes = '';
  for (let i = 0; i < n; i++) {
    const a = n === 1 ? 0 : -1.05 + (2.1 * i) / (n - 1);
    const len = n === 1 ? 44 : 38 - 6 * Math.abs(a);
    const hx = 50 + len * Math.sin(a);
    const hy = 56 - len * Math.cos(a);
    const mx = 50 + (len / 2) * Math.sin(a) + 6 * Math.cos(a);
    const my = 56 - (len / 2) * Math.cos(a) + 6 * Math.sin(a);
    tubes.push([`M50 58 Q${f1(mx)} ${f1(my)} ${f1(hx)} ${f1(hy)}`, 5]);
    const dir = hx < 50 ? -1 : 1;
    heads += `<ellipse cx="${f1(hx + dir * 2)}" cy="${f1(hy)}" rx="8" ry="6.5"/>`;
    eyes += `<circle cx="${f1(hx + dir * 3.5)}" cy="${f1(hy - 1.5)}" r="1.6"/>`;
  }
  return { b: PARTS.Hydra.b + heads, tb: tubes, d: PARTS.Hydra.d + eyes };
}

// ---------------------------------------------------------------------------------------------
// Betza notation: the atoms, the parser, and the glyph drawn from it
// ---------------------------------------------------------------------------------------------

const LEAPS = { W: [1, 0], F: [1, 1], D: [2, 0], N: [2, 1], A: [2, 2], H: [3, 0], C: [3, 1], L: [3, 1], Z: [3, 2], G: [3, 3], J: [4, 1] };
const RIDERS = { R: 'W', B: 'F', Q: 'WF' };

/** The leading Betza of a movement text: "mfWcfF, mfnD from ..." -> "mfWcfF mfnD"; or ''. */
export function betzaOf(movement) {
  const head = String(movement || '').split(/[;:(]/)[0];
  const out = [];
  for (const part of head.split(/,|\+/)) {
    const t = part.trim();
    if (/^(?:[a-z]*[A-Z]\d*)+$/.test(t)) out.push(t);
    else break;
  }
  return out.join(' ');
}

/** The eight (or fewer) images of a leap (a, b) under the board's symmetries. */
function images(a, b) {
  const out = [];
  const seen = new Set();
  for (const [x, y] of [[a, b], [b, a]]) {
    for (const sx of [1, -1]) {
      for (const sy of [1, -1]) {
        const v = [x * sx, y * sy];
        const k = v.join(',');
        if (!seen.has(k)) {
          seen.add(k);
          out.push(v);
        }
      }
    }
  }
  return out;
}

/** Does the vector [dx, dy] (dy > 0 is forward) pass the direction modifiers `dirs`? */
function passes([dx, dy], dirs) {
  if (!dirs) return true;
  const one = (ch, v) => {
    const [x, y] = v;
    switch (ch) {
      case 'f': return y > 0;
      case 'b': return y < 0;
      case 'l': return x < 0;
      case 'r': return x > 0;
      case 'v': return Math.abs(y) > Math.abs(x) || x === 0;
      case 's': return Math.abs(x) > Math.abs(y) || y === 0;
      default: return true;
    }
  };
  // Adjacent vertical + horizontal letters (fs, bl, fr, ...) are one direction (both hold);
  // other letters add directions.
  const groups = [];
  for (let i = 0; i < dirs.length; i++) {
    const a = dirs[i];
    const b = dirs[i + 1];
    if (b && 'fbv'.includes(a) && 'lrs'.includes(b)) {
      groups.push([a, b]);
      i++;
    } else groups.push([a]);
  }
  return groups.some((g) => g.every((ch) => one(ch, [dx, dy])));
}

/**
 * The moves of a Betza string as marks: [{v: [dx, dy], ride: bool, range, mode: 'mc'|'m'|'c',
 * hop, lame, initial}].
 */
export function parseBetza(betza) {
  const marks = [];
  const re = /([a-z]*)([A-Z])(\2?)(\d*)/g;
  let m;
  while ((m = re.exec(betza))) {
    const [, mods, atom, doubled, num] = m;
    let bases;
    let ride = !!doubled;
    if (RIDERS[atom]) {
      bases = [...RIDERS[atom]].map((x) => LEAPS[x]);
      ride = true;
    } else if (atom === 'K') bases = [LEAPS.W, LEAPS.F];
    else if (LEAPS[atom]) bases = [LEAPS[atom]];
    else continue;
    const range = num ? parseInt(num, 10) : 0;
    if (range > 1) ride = true;
    const mode = mods.includes('m') && !mods.includes('c') ? 'm' : mods.includes('c') && !mods.includes('m') ? 'c' : 'mc';
    const dirs = mods.replace(/[^fblrvs]/g, '');
    for (const [a, b] of bases) {
      for (const v of images(a, b)) {
        if (!passes(v, dirs)) continue;
        marks.push({ v, ride, range, mode, hop: mods.includes('p') || mods.includes('g'), lame: mods.includes('n'), initial: mods.includes('i') });
      }
    }
  }
  return marks;
}

/**
 * The marks of a Betza string drawn around (cx, cy) within radius `r` (in the contrast
 * colour): leaps as dots, rides as rays; move-only hollow, capture-only as diamonds.
 */
function betzaMarks(marks, cx, cy, r, scale = 1) {
  if (!marks.length) return '';
  let far = 1;
  for (const k of marks) if (!k.ride) far = Math.max(far, Math.hypot(k.v[0], k.v[1]));
  const u = r / (far + 0.45);
  const dot = 3.8 * scale;
  let lines = '';
  let dots = '';
  const at = (x, y, mode, small) => {
    const s = small ? dot * 0.7 : dot;
    if (mode === 'c') return `<path d="M${f1(x)} ${f1(y - s * 1.3)} L${f1(x + s * 1.3)} ${f1(y)} L${f1(x)} ${f1(y + s * 1.3)} L${f1(x - s * 1.3)} ${f1(y)} Z"/>`;
    return `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(s)}"${mode === 'm' ? ' class="hollow"' : ''}/>`;
  };
  for (const k of marks) {
    const [dx, dy] = k.v;
    const x1 = cx + dx * u;
    const y1 = cy - dy * u;
    const dash = k.mode === 'm' ? ' class="dash"' : '';
    if (k.ride) {
      const len = Math.hypot(dx, dy);
      const reach = k.range > 1 ? Math.min(r, len * u * k.range) : r;
      const ex = cx + (dx / len) * reach;
      const ey = cy - (dy / len) * reach;
      lines += `<path d="M${f1(cx)} ${f1(cy)} L${f1(ex)} ${f1(ey)}"${dash}/>`;
      if (k.hop) {
        // A screen: a bar across the ray halfway.
        const hx = cx + (ex - cx) * 0.55;
        const hy = cy + (ey - cy) * 0.55;
        const px = (-(ey - cy) / reach) * 5 * scale;
        const py = ((ex - cx) / reach) * 5 * scale;
        lines += `<path d="M${f1(hx - px)} ${f1(hy - py)} L${f1(hx + px)} ${f1(hy + py)}"/>`;
      }
      // A leaper's rider shows its leaps along the ray; a slider its end.
      if (Math.abs(dx) > 1 || Math.abs(dy) > 1) {
        for (let i = 1; i * len * u <= reach + 0.1; i++) dots += at(cx + dx * u * i, cy - dy * u * i, k.mode, false);
      } else if (k.mode === 'c') dots += at(ex, ey, 'c', true);
    } else {
      if (k.lame) lines += `<path d="M${f1(cx)} ${f1(cy)} L${f1(x1)} ${f1(y1)}" class="thin"/>`;
      dots += at(x1, y1, k.mode, k.initial);
    }
  }
  const hub = 3.2 * scale;
  return `${lines}<path d="M${f1(cx - hub)} ${f1(cy - hub)} h${f1(2 * hub)} v${f1(2 * hub)} h${f1(-2 * hub)} Z"/>${dots}`;
}

/** The glyph of a piece no figure is drawn for: a medallion showing its Betza. */
function glyphPart(marks, seed) {
  let extra = '';
  if (!marks.length) {
    // Words only: a ring of dots placed by the name, so that such pieces still differ.
    const h = hash(seed);
    const n = 3 + (h % 5);
    for (let i = 0; i < n; i++) {
      const a = ((h >>> 3) % 12) * 0.52 + (i * 2 * Math.PI) / n;
      extra += `<circle cx="${f1(50 + 18 * Math.cos(a))}" cy="${f1(40 + 18 * Math.sin(a))}" r="${3 + ((h >>> (5 + i)) & 1) * 2}"/>`;
    }
  }
  return {
    b: `<path d="M41 68 H59 L62 75 H38 Z"/><circle cx="50" cy="40" r="31"/>`,
    d: `<g class="pc-marks">${betzaMarks(marks, 50, 40, 26)}${extra}</g>`,
  };
}

// ---------------------------------------------------------------------------------------------
// Figures: what is drawn for a piece, by name, else by Betza
// ---------------------------------------------------------------------------------------------

// A figure is a recipe: {part} (one part), {left, right} (a compound: two parts on a wide
// pedestal), plus optional `chip` (Betza of extra leaps, shown in a small disc at the top
// right), `tilt` (degrees: a crooked piece leans), `ring` (a Cylindrical piece wears one),
// `wings`, `flower`, `note`, `double` (a rider: the part twice, one behind).
const FIGURES = {
  king: { part: 'King' },
  queen: { part: 'Queen' },
  rook: { part: 'Rook' },
  bishop: { part: 'Bishop' },
  knight: { part: 'Knight' },
  pawn: { part: 'Pawn' },
  maoking: { part: 'Maoking' },
  wuss: { part: 'Wuss' },
  mamra: { part: 'Mamra' },
  man: { part: 'Mamra' },
  commoner: { part: 'Mamra' },
  sissa: { part: 'Sissa' },
  squeen: { left: 'Sissa', right: 'Queen' },
  amazon: { left: 'Knight', right: 'Queen' },
  general: { left: 'Knight', right: 'Queen' },
  chancellor: { left: 'Knight', right: 'Rook' },
  marshal: { left: 'Knight', right: 'Rook' },
  empress: { left: 'Knight', right: 'Rook' },
  archbishop: { left: 'Knight', right: 'Bishop' },
  cardinal: { left: 'Knight', right: 'Bishop' },
  princess: { left: 'Knight', right: 'Bishop' },
  unicorn: { part: 'Unicorn' },
  nightrider: { part: 'Knight', double: true },
  rose: { part: 'Knight', flower: true },
  'dancing horse': { part: 'Knight', note: true },
  'knight-guard': { part: 'Knight', chip: 'K' },
  centaur: { part: 'Knight', chip: 'K' },
  'knight-wazir': { part: 'Knight', chip: 'W' },
  'knight-ferz': { part: 'Knight', chip: 'F' },
  'dragon king': { part: 'Rook', chip: 'F' },
  'dragon horse': { part: 'Bishop', chip: 'W' },
  dragon: { part: 'Rook', wings: true },
  'crooked rook': { part: 'Rook', tilt: -13, zigzag: true },
  'crooked bishop': { part: 'Bishop', tilt: 13, zigzag: true },
  boyscout: { part: 'Bishop', tilt: 13, zigzag: true },
  'cylindrical bishop': { part: 'Bishop', ring: true },
  'cylindrical rook': { part: 'Rook', ring: true },
  octopus: { part: 'Octopus' },
  gryphon: { part: 'Gryphon' },
  griffin: { part: 'Gryphon' },
  aanca: { part: 'Aanca' },
  paovao: { part: 'Cannon' },
  cannon: { part: 'Cannon' },
  'cannon pawn': { left: 'Pawn', right: 'Cannon' },
  chameleon: { part: 'Chameleon' },
  swapper: { part: 'Swapper' },
  'long leaper': { part: 'LongLeaper' },
  archer: { part: 'Archer' },
  withdrawer: { part: 'Withdrawer' },
  advancer: { part: 'Advancer' },
  'coordinator': { part: 'Advancer', chip: 'K' },
  immobilizer: { part: 'Immobilizer' },
  shield: { part: 'Shield' },
  oxybeles: { part: 'Oxybeles' },
  secutor: { part: 'Secutor' },
  mage: { part: 'Mage' },
  wizard: { part: 'Mage' },
  assassin: { part: 'Assassin' },
  'berolina pawn': { part: 'Pawn', spike: true },
  'scorpion pawn': { part: 'Pawn', tail: true },
  zebra: { part: 'Zebra' },
  camel: { part: 'Camel' },
  grasshopper: { part: 'Grasshopper' },
};

// The parts that stand for Betza atoms in a compound found in the Betza alone (e.g. "RN" of
// a piece whose name has no figure).
const ATOM_PART = { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight' };

/** The recipe for a piece (its entry of /api/variants), with a key naming it. */
function recipeOf(info, code) {
  const name = String((info && info.name) || '').trim().toLowerCase();
  if (FIGURES[name]) return { key: 'n-' + name.replace(/[^a-z0-9]+/g, '_'), ...FIGURES[name] };
  if (name in HYDRA_HEADS || name.startsWith('hydra')) {
    const n = HYDRA_HEADS[name] || 2 + (hash(name) % 5);
    return { key: `hydra${n}`, hydra: n };
  }
  const betza = betzaOf(info && info.movement);
  // A plain compound of drawn parts and leaps: "RN", "BNN", "QN", "NK", "RF".
  if (betza && /^[A-Z]+$/.test(betza)) {
    const atoms = betza.match(/([A-Z])\1?/g);
    const parts = atoms.filter((a) => ATOM_PART[a] && a !== 'K').map((a) => ATOM_PART[a]);
    const rest = atoms.filter((a) => !(ATOM_PART[a] && a !== 'K'));
    if (atoms.length === 1 && ATOM_PART[betza]) return { key: 'b-' + betza, part: ATOM_PART[betza] };
    if (parts.length >= 1 && parts.length <= 2 && rest.every((a) => a.length === 1 && (LEAPS[a] || a === 'K'))) {
      const r = { key: 'b-' + betza };
      if (parts.length === 2) {
        const [l, rr] = parts.includes('Knight') ? ['Knight', parts.find((p) => p !== 'Knight') || 'Knight'] : parts;
        r.left = l;
        r.right = rr;
      } else r.part = parts[0];
      if (rest.length) r.chip = rest.join('');
      return r;
    }
  }
  return { key: 'g-' + (betza ? betza.replace(/[^A-Za-z0-9]/g, '_') : 'w' + hash(name || code || '?').toString(36)), glyph: betza, seed: name || code || '?' };
}

// ---------------------------------------------------------------------------------------------
// Markup
// ---------------------------------------------------------------------------------------------

function tubes(list, c) {
  if (!list || !list.length) return '';
  const o = list.map(([d, w]) => `<path class="tb-o" d="${d}" stroke-width="${w + 6}"/>`).join('');
  const f = list.map(([d, w]) => `<path class="tb-f" d="${d}" stroke-width="${w}"/>`).join('');
  return `<g class="pc-tube pc-${c}">${o}${f}</g>`;
}

function partMarkup(p, c) {
  return `${tubes(p.tb, c)}<g class="pc-body pc-${c}">${p.b}</g>${tubes(p.t, c)}<g class="pc-detail pc-${c}">${p.d || ''}</g>`;
}

/** A part (no pedestal) as a <symbol> `pp-<name>-<c>`, for compounds and decorations. */
function partSymbol(name, c) {
  const id = `pp-${name}-${c}`;
  ensure(id, () => partMarkup(PARTS[name], c));
  return id;
}

const usePart = (name, c, transform = '') =>
  `<use href="#${partSymbol(name, c)}" width="100" height="100"${transform ? ` transform="${transform}"` : ''}/>`;

/** The inner markup of a figure's symbol. */
function figureMarkup(r, c) {
  const body = (d) => `<g class="pc-body pc-${c}">${d}</g>`;
  const detail = (d) => `<g class="pc-detail pc-${c}">${d}</g>`;
  let s = '';
  if (r.hydra) return partMarkup(hydraPart(r.hydra), c) + body(`<path d="${BASE}"/>`);
  if (r.glyph !== undefined) return partMarkup(glyphPart(parseBetza(r.glyph), r.seed), c) + body(`<path d="${BASE}"/>`);
  if (r.left) {
    // Two parts on a wide pedestal: the left one in front.
    s += usePart(r.right, c, 'translate(25 10.64) scale(0.86)');
    s += usePart(r.left, c, 'translate(-15 10.64) scale(0.86)');
    s += body(`<path d="${WIDE_BASE}"/>`);
  } else {
    if (r.wings) {
      s += body(`<path d="M35 44 Q22 26 6 30 Q13 37 9 44 Q17 43 17 51 Q24 48 27 56 Q31 52 35 58 Z"/>
        <path d="M65 44 Q78 26 94 30 Q87 37 91 44 Q83 43 83 51 Q76 48 73 56 Q69 52 65 58 Z"/>`);
      s += detail(`<path d="M33 46 Q22 38 12 36 M67 46 Q78 38 88 36"/>`);
    }
    if (r.ring) s += tubes([['M17 46 A33 9 0 0 1 83 46', 3.5]], c);
    if (r.double) s += usePart(r.part, c, 'translate(14 -6) scale(0.94)');
    const tilt = r.tilt ? `rotate(${r.tilt} 50 76)` : '';
    s += usePart(r.part, c, tilt);
    if (r.zigzag) s += `<g transform="${tilt}">${detail('<path d="M38 56 L44 50 L50 56 L56 50 L62 56"/>')}</g>`;
    if (r.ring) s += tubes([['M17 46 A33 9 0 0 0 83 46', 3.5]], c);
    if (r.spike) s += body('<path d="M45 21 L50 5 L55 21 Z"/>') + detail('<path d="M39 26 Q50 22 61 26"/>');
    if (r.tail) {
      s += tubes([['M62 62 Q82 52 76 30 Q70 12 54 12', 5]], c);
      s += body('<path d="M56 5 L43 12 L56 19 Z"/>');
    }
    if (r.flower) {
      let petals = '';
      for (let i = 0; i < 5; i++) {
        const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
        petals += `<circle cx="${f1(80 + 8 * Math.cos(a))}" cy="${f1(20 + 8 * Math.sin(a))}" r="6.5"/>`;
      }
      s += body(petals + '<circle cx="80" cy="20" r="5"/>') + detail('<circle cx="80" cy="20" r="2.2"/>');
    }
    if (r.note) {
      s += tubes([['M86 30 V6 Q94 10 94 20', 3]], c);
      s += body('<ellipse cx="80" cy="31" rx="7.5" ry="5.5" transform="rotate(-20 80 31)"/>');
    }
    s += body(`<path d="${BASE}"/>`);
  }
  if (r.chip) {
    s += body('<circle cx="84" cy="16" r="15"/>');
    s += detail(`<g class="pc-marks chip">${betzaMarks(parseBetza(r.chip), 84, 16, 11.5, 0.6)}</g>`);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// The symbols in the page
// ---------------------------------------------------------------------------------------------

const defined = new Set();
let defsEl = null;

function ensure(id, make) {
  if (defined.has(id)) return;
  installDefs();
  defined.add(id);
  defsEl.insertAdjacentHTML('beforeend', `<symbol id="${id}" viewBox="0 0 100 100" overflow="visible">${make()}</symbol>`);
}

const recipes = new WeakMap();
const siblings = new WeakMap();

/** Tells the figures which pieces belong together (for "becomes X"): call with /api/variants. */
export function registerVariants(vs) {
  for (const v of vs || []) for (const p of v.pieces || []) siblings.set(p, v.pieces);
}

function recipe(info, code) {
  if (info && typeof info === 'object') {
    let r = recipes.get(info);
    if (!r) {
      r = recipeOf(info, code);
      recipes.set(info, r);
    }
    return r;
  }
  return recipeOf(undefined, code);
}

/** The symbol id of a piece's figure (without badge), made if needed. */
function figureId(info, code, c) {
  const r = recipe(info, code);
  const id = `pf-${r.key}-${c}`;
  ensure(id, () => figureMarkup(r, c));
  return id;
}

/**
 * The piece a piece becomes after it acts ("...; becomes MK"), as its entry, or null. The
 * last "becomes" counts: the words before it may use the verb too (the Mamra's "as it becomes
 * a Wuss [D 11]; becomes WU").
 */
export function becomesOf(info) {
  const all = info ? [...(info.movement || '').matchAll(/\bbecomes ([A-Za-z0-9]+)/g)] : [];
  const m = all[all.length - 1];
  if (!m) return null;
  const list = siblings.get(info) || [];
  return list.find((p) => p.code.toUpperCase() === m[1].toUpperCase()) || { code: m[1], name: m[1], movement: '' };
}

/** Words for a piece, for a `<title>`: "Knight (N): N; becomes NG. After it acts: Knight-Guard (NG)." */
export function pieceTitle(code, info) {
  if (!info) return code;
  let t = `${info.name} (${code}): ${info.movement}`;
  const next = becomesOf(info);
  if (next) t += `. After it acts it becomes: ${next.name} (${next.code})`;
  return t;
}

function coin(code, c) {
  const up = code.toUpperCase();
  const hue = hash(up) % 360;
  const size = up.length <= 1 ? 44 : up.length === 2 ? 36 : 28;
  return `<g class="tok tok-${c}">
    <circle cx="50" cy="50" r="38" class="tok-disc" style="stroke:hsl(${hue} 60% 45%)"/>
    <text x="50" y="50" class="tok-text" font-size="${size}">${esc(up)}</text></g>`;
}

/**
 * The SVG markup (in a 100x100 box) of a piece. `code` has its case (colour); `info` is the
 * variant's entry for the piece ({code, name, movement}) or undefined.
 */
export function pieceSvg(code, info) {
  const c = code === code.toUpperCase() ? 'w' : 'b';
  const next = becomesOf(info);
  if (pieceStyle() === 'letters') {
    let s = coin(code, c);
    if (next) s += `<g class="pc-badge"><circle cx="84" cy="84" r="15" class="pc-badge-disc"/><text x="84" y="84" class="tok-text badge-text" font-size="${next.code.length > 2 ? 11 : 14}">${esc(next.code.toUpperCase())}</text></g>`;
    return s;
  }
  let s = `<use href="#${figureId(info, code, c)}" width="100" height="100"/>`;
  if (next) {
    const title = `After it acts it becomes: ${next.name} (${next.code})`;
    s += `<g class="pc-badge"><title>${esc(title)}</title><circle cx="84" cy="84" r="16" class="pc-badge-disc"/>` +
      `<use href="#${figureId(next, next.code, c)}" x="71" y="70" width="26" height="26"/></g>`;
  }
  return s;
}

/** The picture of a piece as a standalone <svg> element (for lists, pockets, dialogs). */
export function pieceIcon(code, info, size = 36) {
  return `<svg class="pc-icon" viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true">${pieceSvg(code, info)}</svg>`;
}

/** The hidden <svg> holding the symbols, put once in the page (figures are added as drawn). */
export function installDefs() {
  if (defsEl && defsEl.isConnected) return;
  let svg = document.getElementById('piece-defs');
  if (!svg) {
    svg = document.createElementNS(NS, 'svg');
    svg.id = 'piece-defs';
    svg.setAttribute('width', '0');
    svg.setAttribute('height', '0');
    svg.setAttribute('aria-hidden', 'true');
    svg.style.position = 'absolute';
    svg.innerHTML = '<defs></defs>';
    document.body.prepend(svg);
  }
  defsEl = svg.querySelector('defs');
  defined.clear();
  for (const s of defsEl.querySelectorAll('symbol')) defined.add(s.id);
}

/** The names that have a drawn figure (lower case). */
export const FIGURE_NAMES = Object.keys(FIGURES);

export { esc };
