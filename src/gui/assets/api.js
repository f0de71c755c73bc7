// Small helpers for the HTTP API of docs/gui.md.

import { registerVariants } from './pieces.js';

export async function api(method, path, body) {
  const opts = { method, headers: {} };
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
