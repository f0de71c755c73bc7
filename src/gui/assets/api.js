// Small helpers for the HTTP API of docs/gui.md.

import { registerVariants } from './pieces.js';

// ---- seats (docs/gui.md "Seats") ----
// The secrets of the seats this browser holds, by game id, and the links its creator may
// hand on, kept in localStorage so that a closed tab comes back to its seat.
const SEATS_KEY = 'menagerie-seats';
const INVITES_KEY = 'menagerie-invites';

function readStore(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || '{}') || {};
  } catch {
    return {};
  }
}

/** The seat secrets this browser holds for game `id`. */
export function seatsOf(id) {
  const s = readStore(SEATS_KEY)[id];
  return Array.isArray(s) ? s : [];
}

/** Keeps `secret` as one of game `id`'s seats held here. */
export function holdSeat(id, secret) {
  if (!/^[0-9a-f]{32,128}$/.test(secret || '')) return;
  const all = readStore(SEATS_KEY);
  const mine = new Set(all[id] || []);
  mine.add(secret);
  all[id] = [...mine];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** The secret of a seat link (`/game/ID?seat=SECRET`), or null. */
export function linkSecret(link) {
  if (!link) return null;
  const q = link.split('?')[1] || '';
  return new URLSearchParams(q).get('seat');
}

/**
 * Keeps what a new game's answer gives: the seats this browser plays (`colours`, default every
 * link given) and, for a game against a friend, the other links to hand on.
 */
export function rememberGame(answer, colours) {
  const links = answer.seats || {};
  const mine = colours || ['white', 'black'].filter((c) => links[c]);
  for (const c of mine) holdSeat(answer.id, linkSecret(links[c]));
  const others = ['white', 'black'].filter((c) => links[c] && !mine.includes(c));
  if (others.length) {
    const all = readStore(INVITES_KEY);
    all[answer.id] = { watch: links.watch, ...Object.fromEntries(others.map((c) => [c, links[c]])) };
    localStorage.setItem(INVITES_KEY, JSON.stringify(all));
  }
}

/** The links this browser's creator may hand on for game `id` (`{white?, black?, watch}`), or null. */
export function invitesOf(id) {
  return readStore(INVITES_KEY)[id] || null;
}

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  const game = /^\/api\/games\/([^/?]+)/.exec(path);
  if (game) {
    const seats = seatsOf(decodeURIComponent(game[1]));
    if (seats.length) opts.headers['X-Menagerie-Seat'] = seats.join(',');
  }
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const text = await r.text();
  let data = null;
  try {
    data = text ? parseJson(text) : null;
  } catch {
    data = text;
  }
  if (!r.ok) {
    const msg = data && data.error ? data.error : `${r.status} ${r.statusText}`;
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return data;
}

export const get = (p) => api('GET', p);
export const post = (p, b = {}) => api('POST', p, b);

let variantsPromise = null;
/** The variants, fetched once. */
export function variants() {
  if (!variantsPromise) {
    variantsPromise = get('/api/variants').then((vs) => {
      // The figures learn which pieces belong together ("becomes X" in Mutatis Mutandis).
      registerVariants(vs);
      return vs;
    });
  }
  return variantsPromise;
}

/** JSON.parse, keeping a seed (an integer up to 2^64-1) exact as a string. */
export function parseJson(text) {
  return JSON.parse(text.replace(/"seed":(\d{16,})/g, '"seed":"$1"'));
}
