// Entry point: the page shell serves `/` (games and new-game form), `/game/{id}` and
// `/editor` (the board editor).

import { variants } from './api.js';
import { installDefs, pieceStyle, setPieceStyle } from './pieces.js';
import { showHome } from './home.js';
import { showGame } from './game.js';
import { showEditor } from './editor.js';
import { soundOn, setSound } from './sounds.js';

window.__menagerie = window.__menagerie || { lastRenderMs: 0, ready: false };

function applyTheme() {
  const t = localStorage.getItem('menagerie-theme');
  document.documentElement.dataset.theme = t || 'light';
  document.documentElement.dataset.board = boardColours();
}

/** The board's colours, kept in localStorage ('menagerie-board'). */
const BOARDS = ['brown', 'blue', 'green', 'grey'];
function boardColours() {
  const b = localStorage.getItem('menagerie-board');
  return BOARDS.includes(b) ? b : 'brown';
}

async function main() {
  applyTheme();
  document.getElementById('theme-toggle').addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem('menagerie-theme', next);
    applyTheme();
  });
  // The board's colours: the button goes to the next palette.
  const board = document.getElementById('board-toggle');
  const showBoard = () => {
    const b = boardColours();
    const next = BOARDS[(BOARDS.indexOf(b) + 1) % BOARDS.length];
    board.title = `Board: ${b} (click for ${next})`;
    board.dataset.board = b;
  };
  showBoard();
  board.addEventListener('click', () => {
    const b = boardColours();
    localStorage.setItem('menagerie-board', BOARDS[(BOARDS.indexOf(b) + 1) % BOARDS.length]);
    applyTheme();
    showBoard();
  });
  // Sounds on or off: kept in localStorage.
  const sound = document.getElementById('sound-toggle');
  // A speaker drawn in SVG (no font has to hold a glyph for it): with sound waves when on,
  // crossed out when off.
  const speaker = on => '<svg viewBox="0 0 24 24" aria-hidden="true" '
    + 'fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">'
    + '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>'
    + (on ? '<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11"/>'
          : '<path d="M16 9l5 6M21 9l-5 6"/>')
    + '</svg>';
  const showSound = () => {
    sound.innerHTML = speaker(soundOn());
    sound.title = soundOn() ? 'Sounds on (click to mute)' : 'Sounds off (click to hear them)';
    sound.setAttribute('aria-pressed', String(!soundOn()));
  };
  showSound();
  sound.addEventListener('click', () => {
    setSound(!soundOn());
    showSound();
  });
  // Figures or letters: the person's choice, kept in localStorage; the page is drawn again.
  const pieces = document.getElementById('pieces-toggle');
  const showStyle = () => {
    const letters = pieceStyle() === 'letters';
    pieces.textContent = letters ? 'Aa' : '♞';
    pieces.title = letters ? 'Pieces as letters (click for figures)' : 'Pieces as figures (click for letters)';
    pieces.setAttribute('aria-pressed', String(letters));
    pieces.dataset.style = pieceStyle();
  };
  showStyle();
  pieces.addEventListener('click', () => {
    setPieceStyle(pieceStyle() === 'letters' ? 'figures' : 'letters');
    location.reload();
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
  else if (/^\/editor\/?$/.test(location.pathname)) await showEditor(app, vs);
  else await showHome(app, vs);
  window.__menagerie.ready = true;
}

main();
