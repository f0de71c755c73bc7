// Entry point: the page shell serves `/` (games and new-game form) and `/game/{id}`.

import { variants } from './api.js';
import { installDefs } from './pieces.js';
import { showHome } from './home.js';
import { showGame } from './game.js';

window.__menagerie = window.__menagerie || { lastRenderMs: 0, ready: false };

function applyTheme() {
  const t = localStorage.getItem('menagerie-theme');
  document.documentElement.dataset.theme = t || 'light';
}

async function main() {
  applyTheme();
  document.getElementById('theme-toggle').addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem('menagerie-theme', next);
    applyTheme();
  });
  installDefs();
  const app = document.getElementById('app');
  let vs = [];
  try {
    vs = await variants();
  } catch (e) {
    app.innerHTML = `<p class="error">Cannot reach the server: ${e.message}</p>`;
    return;
  }
  const links = document.getElementById('rules-links');
  links.innerHTML = 'Rules: ' + vs.map((v) => `<a href="/rules/${encodeURIComponent(v.name)}">${v.name}</a>`).join(' ');
  const m = /^\/game\/([^/]+)\/?$/.exec(location.pathname);
  if (m) await showGame(app, decodeURIComponent(m[1]), vs);
  else await showHome(app, vs);
  window.__menagerie.ready = true;
}

main();
