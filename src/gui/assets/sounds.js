// The game's sounds, made in the browser with the Web Audio API (no sound files, so no
// licence to keep): a move, a capture, a check (or another attack on a royal piece), the end
// of a game, and low time. A switch in the top bar mutes them; the choice is kept in
// localStorage ('menagerie-sound': 'on' or 'off'). Every sound asked for is noted in
// `window.__menagerie.sounds` (its kind, and whether it was heard), for the tests.

const KEY = 'menagerie-sound';
let ctx = null;

/** Whether sounds are on (the default). */
export function soundOn() {
  return localStorage.getItem(KEY) !== 'off';
}

/** Turns the sounds on or off. */
export function setSound(on) {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

/** The tones of each sound: [frequency Hz, start s, length s, wave, volume]. */
const TONES = {
  move: [[520, 0, 0.07, 'triangle', 0.25]],
  capture: [
    [330, 0, 0.06, 'square', 0.12],
    [220, 0.05, 0.1, 'triangle', 0.25],
  ],
  check: [
    [880, 0, 0.09, 'sine', 0.22],
    [1175, 0.1, 0.12, 'sine', 0.22],
  ],
  end: [
    [523, 0, 0.18, 'sine', 0.2],
    [659, 0.16, 0.18, 'sine', 0.2],
    [784, 0.32, 0.35, 'sine', 0.2],
  ],
  lowtime: [[1000, 0, 0.05, 'square', 0.08]],
};

/** Plays sound `kind` (one of TONES) unless muted. */
export function playSound(kind) {
  const heard = soundOn();
  const log = (window.__menagerie && window.__menagerie.sounds) || [];
  if (window.__menagerie) window.__menagerie.sounds = log;
  log.push({ kind, heard });
  if (!heard || !TONES[kind]) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, at, len, wave, vol] of TONES[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0, now + at);
      gain.gain.linearRampToValueAtTime(vol, now + at + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.001, now + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  } catch {
    // No audio here (a browser without Web Audio): the game goes on in silence.
  }
}
