// Entering a turn by matching what the user entered against the legal tokens
// (docs/gui.md, "Entering a turn"). The page never decides what is legal: every leg it offers
// comes from a token of the state's `legal` list.

import { parseLeg } from './fen.js';

function parseToken(text) {
  const portions = text.split(';').map((p) => {
    const legs = p.split(',');
    const parsed = legs.map(parseLeg);
    return { legs, parsed, dropOnly: parsed.every((l) => l && l.kind === 'drop') };
  });
  return { text, portions };
}

/** Removes the legs of `sub` from `legs` (a multiset difference, keeping the order of `legs`); null if `sub` is not contained. */
function multisetRest(legs, sub) {
  const rest = legs.slice();
  for (const s of sub) {
    const i = rest.indexOf(s);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return rest;
}

/** True when a user leg (move without suffix, drop or pass) is the leg `leg` up to its suffix. */
function legMatches(user, leg) {
  if (!leg) return false;
  if (user.kind !== leg.kind) return false;
  if (user.kind === 'move') return user.from === leg.from && user.to === leg.to;
  if (user.kind === 'drop') return user.code === leg.code && user.to === leg.to;
  return true;
}

export class TurnEntry {
  constructor(legal) {
    this.tokens = (legal || []).map(parseToken);
    this.entered = [[]]; // portions of full leg texts; the last one is being entered
  }

  reset() {
    this.entered = [[]];
  }

  /** The remaining legs of a token after `entered`, or null if it does not match. */
  remainder(tok, entered = this.entered) {
    const k = entered.length - 1;
    if (tok.portions.length < entered.length) return null;
    for (let i = 0; i < k; i++) {
      const p = tok.portions[i];
      const e = entered[i];
      if (p.legs.length !== e.length) return null;
      if (p.dropOnly) {
        if (!multisetRest(p.legs, e)) return null;
      } else if (p.legs.some((l, j) => l !== e[j])) return null;
    }
    const p = tok.portions[k];
    const cur = entered[k];
    let rest;
    if (p.dropOnly) {
      rest = multisetRest(p.legs, cur);
      if (!rest) return null;
    } else {
      if (cur.length > p.legs.length) return null;
      if (cur.some((l, j) => l !== p.legs[j])) return null;
      rest = p.legs.slice(cur.length);
    }
    return { rest, dropOnly: p.dropOnly, later: tok.portions.slice(k + 1), tok };
  }

  candidates(entered = this.entered) {
    const out = [];
    for (const t of this.tokens) {
      const r = this.remainder(t, entered);
      if (r) out.push(r);
    }
    return out;
  }

  /** The legs that may be entered next (parsed), each with the candidates it keeps. */
  nextLegs() {
    const seen = new Map();
    for (const r of this.candidates()) {
      let opts;
      if (r.rest.length === 0) {
        // The current portion is complete for this token; its next portion starts only once
        // the user has closed this one (that happens by itself, see resolve()).
        continue;
      } else if (r.dropOnly) opts = r.rest;
      else opts = [r.rest[0]];
      for (const o of opts) if (!seen.has(o)) seen.set(o, parseLeg(o));
    }
    return [...seen.values()].filter(Boolean);
  }

  /** Squares holding a piece that can make the next move leg. */
  fromSquares() {
    const s = new Set();
    for (const l of this.nextLegs()) if (l.kind === 'move') s.add(l.from);
    return s;
  }

  /** Target squares of the next move legs from `from`. */
  targetsFrom(from) {
    const s = new Set();
    for (const l of this.nextLegs()) if (l.kind === 'move' && l.from === from) s.add(l.to);
    return s;
  }

  /** Drop codes that can be dropped next, and their squares. */
  dropTargets(code) {
    const s = new Set();
    for (const l of this.nextLegs()) if (l.kind === 'drop' && l.code === code) s.add(l.to);
    return s;
  }

  dropCodes() {
    const s = new Set();
    for (const l of this.nextLegs()) if (l.kind === 'drop') s.add(l.code);
    return s;
  }

  canPass() {
    return this.nextLegs().some((l) => l.kind === 'pass');
  }

  /** Completed portions as canonical texts (from the first candidate). */
  completedPortions() {
    const c = this.candidates();
    if (!c.length) return [];
    return c[0].tok.portions.slice(0, this.entered.length - 1).map((p) => p.legs.join(','));
  }

  /** The legs entered in the portion being entered now. */
  currentLegs() {
    return this.entered[this.entered.length - 1];
  }

  isEmpty() {
    return this.entered.length === 1 && this.entered[0].length === 0;
  }

  /**
   * Enters a user leg: {kind: 'move', from, to} | {kind: 'drop', code, to} | {kind: 'pass'}.
   * Returns the outcome (see resolve), or {type: 'none'} when no candidate has such a leg.
   */
  enter(user) {
    const full = new Set();
    for (const l of this.nextLegs()) if (legMatches(user, l)) full.add(l.text);
    if (full.size === 0) return { type: 'none' };
    const only = full.size === 1 ? parseLeg([...full][0]) : null;
    // A change in place (an upgrade, a piece removing itself) is confirmed even when it is the only one.
    if (full.size > 1 || (only && only.kind === 'move' && only.from === only.to && only.suffix)) {
      // Differ by the suffix (promotion, in-place change): ask.
      const options = [...full].map((text) => {
        const leg = parseLeg(text);
        return { text: leg.suffix, kind: 'suffix', leg: text, suffix: leg.suffix };
      });
      options.sort((a, b) => suffixOrder(a.suffix) - suffixOrder(b.suffix));
      return { type: 'choice', reason: 'suffix', user, options };
    }
    this.currentLegs().push([...full][0]);
    return this.resolve();
  }

  /** Applies an option of a choice returned by enter() or resolve(). */
  choose(option) {
    if (option.kind === 'suffix') {
      this.currentLegs().push(option.leg);
      return this.resolve();
    }
    if (option.kind === 'end') {
      const c = this.candidates();
      const ended = c.filter((r) => r.rest.length === 0 && r.later.length === 0);
      if (ended.length === 1) return { type: 'submit', token: ended[0].tok.text };
      this.entered.push([]);
      return { type: 'pending' };
    }
    if (option.kind === 'leg') {
      this.currentLegs().push(option.leg);
      return this.resolve();
    }
    if (option.kind === 'next') {
      this.entered.push([]);
      if (option.leg) this.currentLegs().push(option.leg);
      return this.resolve();
    }
    return { type: 'wait' };
  }

  /** Takes back the last leg entered (used by a cancelled choice). */
  popLeg() {
    while (this.entered.length > 1 && this.currentLegs().length === 0) this.entered.pop();
    this.currentLegs().pop();
  }

  /**
   * After a leg: adds the legs every candidate continues with, closes a complete portion, and
   * says what happens next: {type: 'submit', token} | {type: 'choice', options} |
   * {type: 'pending'} | {type: 'wait'}.
   */
  resolve() {
    for (let guard = 0; guard < 64; guard++) {
      const c = this.candidates();
      if (c.length === 0) return { type: 'none' };
      const ended = c.filter((r) => r.rest.length === 0 && r.later.length === 0);
      const done = c.filter((r) => r.rest.length === 0 && r.later.length > 0);
      const cont = c.filter((r) => r.rest.length > 0);
      if (c.length === 1 && ended.length === 1) return { type: 'submit', token: ended[0].tok.text };
      const mixed = (ended.length > 0) + (done.length > 0) + (cont.length > 0);
      if (mixed > 1) return { type: 'choice', reason: 'continue', options: continuationOptions(ended, done, cont) };
      if (done.length) {
        this.entered.push([]);
        return { type: 'pending' };
      }
      // Every candidate goes on within this portion.
      const cur = this.currentLegs();
      if (cur.length === 0) return { type: 'wait' };
      if (cont[0].dropOnly) {
        const key = (r) => r.rest.slice().sort().join(',');
        const k0 = key(cont[0]);
        if (cont.every((r) => key(r) === k0)) {
          cur.push(...cont[0].rest);
          continue;
        }
        return { type: 'wait' };
      }
      const next = cont[0].rest[0];
      if (cont.every((r) => r.rest[0] === next)) {
        cur.push(next);
        continue;
      }
      return { type: 'wait' };
    }
    return { type: 'wait' };
  }
}

function suffixOrder(s) {
  const order = ['', 'q', 'r', 'b', 'n'];
  const i = order.indexOf(s);
  return i < 0 ? 10 + s.length : i;
}

const MAX_LISTED = 16;

function continuationOptions(ended, done, cont) {
  const options = [];
  if (ended.length) options.push({ text: '', kind: 'end', ends: 'turn' });
  if (done.length) {
    const firsts = [...new Set(done.map((r) => r.later[0].legs[0]))];
    if (ended.length && firsts.length <= MAX_LISTED) {
      for (const f of firsts) options.push({ text: ';' + f, kind: 'next', leg: f });
    } else {
      options.push({ text: ended.length ? ';' : '', kind: ended.length ? 'next' : 'end', ends: 'portion', leg: null });
    }
  }
  if (cont.length) {
    const nexts = [];
    for (const r of cont) {
      if (r.dropOnly) nexts.push(...r.rest);
      else nexts.push(r.rest[0]);
    }
    for (const n of [...new Set(nexts)]) options.push({ text: ',' + n, kind: 'leg', leg: n });
  }
  return options;
}
