// The end of a variant's rules page: its pieces as the engine describes them, each with its
// figure; a click opens the piece's moves on an empty board (diagram.js).

import { variants } from './api.js';
import { installDefs, pieceIcon, esc } from './pieces.js';
import { showDiagram } from './diagram.js';

async function main() {
  const section = document.getElementById('rules-pieces');
  if (!section) return;
  let v;
  try {
    v = (await variants()).find((x) => x.name === section.dataset.variant);
  } catch (e) {
    section.innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  if (!v) return;
  installDefs();
  section.innerHTML = `<h2>The pieces and their moves</h2>
    <p>Click a piece to see its moves on an empty board, as the engine plays them.</p>
    <div class="rules-piece-list">${v.pieces
      .map(
        (p) => `<div class="rules-piece">
        <button type="button" class="rules-piece-head" data-code="${esc(p.code)}" aria-expanded="false">
          ${pieceIcon(p.code, p, 40)}${pieceIcon(p.code.toLowerCase(), p, 40)}
          <span><strong>${esc(p.name)}</strong> <code>${esc(p.code)}</code><br><span class="movement">${esc(p.movement)}</span></span>
        </button><div class="piece-diagram" hidden></div></div>`,
      )
      .join('')}</div>`;
  for (const head of section.querySelectorAll('.rules-piece-head')) {
    head.addEventListener('click', () => {
      const box = head.nextElementSibling;
      const open = box.hidden;
      box.hidden = !open;
      head.setAttribute('aria-expanded', String(open));
      if (open && !box.dataset.square) {
        const p = v.pieces.find((x) => x.code === head.dataset.code);
        showDiagram(box, v, p.code, p);
      }
    });
  }
}

main();
