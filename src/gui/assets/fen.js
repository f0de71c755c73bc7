// The shared FEN grammar and the turn-token grammar of docs/protocol.md, sections 4 and 5.
// No rules here: only the shapes of the strings.

/** Square name of file index `f` (0-based) and rank number `r`. */
export function squareName(f, r) {
  return String.fromCharCode(97 + f) + r;
}

/** [file index, rank number] of a square name, or null. */
export function parseSquare(sq) {
  const m = /^([a-z])(\d+)$/.exec(sq);
  return m ? [m[1].charCodeAt(0) - 97, parseInt(m[2], 10)] : null;
}

/** Colour of a piece code by its case: 'w' for upper case, 'b' for lower case. */
export function colourOf(code) {
  return code === code.toUpperCase() ? 'w' : 'b';
}

/** Reads one piece code at s[i]: a letter, or a bracketed code `[AM]`. Returns [code, next]. */
function readCode(s, i) {
  if (s[i] === '[') {
    const j = s.indexOf(']', i);
    if (j < 0) throw new Error('unclosed bracket');
    return [s.slice(i + 1, j), j + 1];
  }
  return [s[i], i + 1];
}

/**
 * Parses a FEN for a variant description `v` ({files, ranks, first_rank, pocket}).
 * Returns {board: Map square -> code, holes: Set, hand: [codes] | null, side: 'w'|'b',
 * fields: [...rest], fullmove}.
 */
export function parseFen(fen, v) {
  const sp = fen.trim().indexOf(' ');
  const boardField = sp < 0 ? fen.trim() : fen.trim().slice(0, sp);
  const rest = sp < 0 ? [] : fen.trim().slice(sp + 1).split(/\s+/);
  const board = new Map();
  const holes = new Set();
  let i = 0;
  let hand = null;
  const top = v.first_rank + v.ranks - 1;
  for (let row = 0; row < v.ranks; row++) {
    const rank = top - row;
    let f = 0;
    while (f < v.files && i < boardField.length) {
      const c = boardField[i];
      if (c >= '0' && c <= '9') {
        let j = i;
        while (j < boardField.length && boardField[j] >= '0' && boardField[j] <= '9') j++;
        f += parseInt(boardField.slice(i, j), 10);
        i = j;
      } else if (c === '*') {
        holes.add(squareName(f, rank));
        f++;
        i++;
      } else if (c === '/') {
        i++; // tolerate a short rank
        break;
      } else {
        const [code, j] = readCode(boardField, i);
        board.set(squareName(f, rank), code);
        f++;
        i = j;
      }
    }
    if (row < v.ranks - 1 && boardField[i] === '/') i++;
  }
  const tail = boardField.slice(i);
  if (tail.startsWith('[')) {
    const inner = tail.slice(1, tail.lastIndexOf(']') < 0 ? tail.length : tail.lastIndexOf(']'));
    hand = [];
    if (inner !== '-') {
      let k = 0;
      while (k < inner.length) {
        const [code, j] = readCode(inner, k);
        if (code !== '-') hand.push(code);
        k = j;
      }
    }
  } else if (v.pocket) {
    hand = [];
  }
  const side = rest[0] === 'b' ? 'b' : 'w';
  const fullmove = parseInt(rest[4], 10) || 1;
  return { board, holes, hand, side, fields: rest, fullmove };
}

/** Writes a board map back as a FEN board field (used only for the naive preview). */
export function boardToFen(pos, v) {
  const top = v.first_rank + v.ranks - 1;
  const rows = [];
  for (let row = 0; row < v.ranks; row++) {
    const rank = top - row;
    let s = '';
    let empty = 0;
    for (let f = 0; f < v.files; f++) {
      const sq = squareName(f, rank);
      const code = pos.board.get(sq);
      if (pos.holes.has(sq) || code) {
        if (empty) s += empty;
        empty = 0;
        s += pos.holes.has(sq) ? '*' : code.length > 1 ? `[${code}]` : code;
      } else empty++;
    }
    if (empty) s += empty;
    rows.push(s);
  }
  let out = rows.join('/');
  if (pos.hand) {
    out += '[' + (pos.hand.length ? pos.hand.map((c) => (c.length > 1 ? `[${c}]` : c)).join('') : '-') + ']';
  }
  return [out, ...pos.fields].join(' ');
}

/**
 * Parses one leg: {kind: 'pass'} | {kind: 'drop', code, to} | {kind: 'move', from, to, suffix}.
 * Returns null for a string of no known shape.
 */
export function parseLeg(leg) {
  if (leg === '0000') return { kind: 'pass', text: leg };
  let m = /^([A-Z][A-Z0-9]*)@([a-z]\d+)$/.exec(leg);
  if (m) return { kind: 'drop', code: m[1], to: m[2], text: leg };
  m = /^([a-z]\d+)([a-z]\d+)([a-z][a-z0-9]*)?$/.exec(leg);
  if (m) return { kind: 'move', from: m[1], to: m[2], suffix: m[3] || '', text: leg };
  return null;
}

/** Splits a token into portions of legs (strings). */
export function splitToken(token) {
  return token.split(';').map((p) => p.split(','));
}

/** The squares a token touches, for the last-move highlight. */
export function tokenSquares(token) {
  const out = [];
  if (!token) return out;
  for (const portion of splitToken(token)) {
    for (const leg of portion) {
      const l = parseLeg(leg);
      if (!l) continue;
      if (l.kind === 'move') out.push(l.from, l.to);
      else if (l.kind === 'drop') out.push(l.to);
    }
  }
  return out;
}
