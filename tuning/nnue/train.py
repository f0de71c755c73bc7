#!/usr/bin/env python3
"""Train the chess evaluation's residual network (src/variants/chess/network.rs) with numpy.

The network corrects the hand-written evaluation: the engine's score of a position is
`hce + net`, both in centipawns from the side to move's view. The net is a 768 -> H perspective
layer (one input per colour, kind and square, seen from each side; shared weights), clipped
ReLU to [0, 1], and one output neuron over both halves (side to move's half first), times
`--out-scale` centipawns.

Input: files of `menagerie-tuning evals --variant chess --data F` lines, run on datagen files
whose scores are a stronger engine's (scripts/relabel_stockfish.py):
`FEN | score | result | hce`, score and hce in centipawns from White's view, `# game` lines
between games. Positions in check are skipped (an input the search never evaluates).

Objective: mean squared error between `sigmoid(K * (hce + net))` and
`lambda * result + (1 - lambda) * sigmoid(K_s * score)`, where K fits the hand-written
evaluation to the results and K_s the scores to the results (so both are win rates), plus an
L2 pull of the first layer towards 0. Optimiser: Adam over mini-batches; the epoch with the
lowest validation loss (games held out by number) is kept and written quantised: the
first layer and its bias times QA (255) as i16, the output weights times QB (64) as i16, the
output bias times QA * QB as i32, in the MNV1 format of every variant's network
(src/variants/network.rs; the engine's width is 32, so --hidden 32). Also writes, next to the
net, `<out>.check`: a few positions with the quantised net's output (`FEN | cp`, side to move's
view), for the engine's test, and `<out>.losses.csv`: the losses of each epoch (epoch 0 the
untrained network), drawn by tuning/nnue/plot_losses.py.

Needs tuning/nnue/requirements.txt (numpy, scipy, python-chess; pinned). Run by hand or by
`tuning/nnue/build_network.sh chess`; the test command does not.
Usage: tuning/nnue/train.py data.txt --out src/variants/chess/network.nnv --hidden 32
           [--epochs 30] [--lambda 0.3] [--lr 0.002] [--l2 1e-6] [--seed 1]
"""

import argparse
import math
import os
import struct
import sys

import numpy as np
import scipy.sparse as sp

QA = 255
QB = 64
KINDS = "pnbrqk"
MAGIC = b"MNV1"


def features(placement):
    """(white-view, black-view) feature index lists of a FEN placement field."""
    white, black = [], []
    rank = 7
    file = 0
    for ch in placement:
        if ch == "/":
            rank -= 1
            file = 0
        elif ch.isdigit():
            file += int(ch)
        else:
            kind = KINDS.index(ch.lower())
            is_white = ch.isupper()
            sq = rank * 8 + file
            white.append(((0 if is_white else 1) * 6 + kind) * 64 + sq)
            black.append(((1 if is_white else 0) * 6 + kind) * 64 + (sq ^ 56))
            file += 1
    return white, black


def in_check(fen):
    import chess  # python-chess, only to skip positions in check

    return chess.Board(fen).is_check()


def load(path, skip_check, max_diff):
    rows_us, rows_them = [], []
    res, score, hce, game, fens = [], [], [], [], []
    g = -1
    try:
        import chess  # noqa: F401

        have_chess = True
    except ImportError:
        have_chess = False
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                if line.startswith("# game"):
                    g += 1
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 4:
                sys.exit(f"{path}: expected 'FEN | score | result | hce': {line[:80]}")
            fen, s, r, h = parts
            if skip_check and have_chess and in_check(fen):
                continue
            if max_diff and abs(int(s) - int(h)) > max_diff:
                continue
            fields = fen.split()
            w, b = features(fields[0])
            white_to_move = fields[1] == "w"
            sign = 1 if white_to_move else -1
            us, them = (w, b) if white_to_move else (b, w)
            rows_us.append(us)
            rows_them.append(them)
            r = float(r)
            res.append(r if white_to_move else 1.0 - r)
            score.append(sign * int(s))
            hce.append(sign * int(h))
            game.append(max(g, 0))
            fens.append(fen)
    return rows_us, rows_them, np.array(res), np.array(score, float), np.array(hce, float), np.array(game), fens


def csr(rows):
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.fromiter((i for r in rows for i in r), dtype=np.int32, count=indptr[-1])
    data = np.ones(len(indices), dtype=np.float32)
    return sp.csr_matrix((data, indices, indptr), shape=(len(rows), 768))


def sig(cp, k):
    return 1.0 / (1.0 + np.power(10.0, -k * cp / 400.0))


def fit_k(cp, target):
    best = (1e9, 1.0)
    for k in np.arange(0.2, 3.0, 0.01):
        loss = float(np.mean((sig(cp, k) - target) ** 2))
        best = min(best, (loss, k))
    return best[1]


class Net:
    def __init__(self, hidden, rng):
        self.w1 = (rng.standard_normal((768, hidden)) * 0.05).astype(np.float32)
        self.b1 = np.full(hidden, 0.5, dtype=np.float32)
        self.w2 = np.zeros(2 * hidden, dtype=np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, xu, xt, scale):
        au = xu @ self.w1 + self.b1
        at = xt @ self.w1 + self.b1
        hu = np.clip(au, 0.0, 1.0)
        ht = np.clip(at, 0.0, 1.0)
        h = self.w2.shape[0] // 2
        out = (hu @ self.w2[:h] + ht @ self.w2[h:] + self.b2[0]) * scale
        return out, (au, at, hu, ht)


def quantised_output(net, us, them, scale):
    """The engine's integer computation of the net (centipawns, truncated towards zero)."""
    w1 = np.round(net.w1 * QA).astype(np.int64)
    b1 = np.round(net.b1 * QA).astype(np.int64)
    w2 = np.round(net.w2 * QB).astype(np.int64)
    b2 = int(round(float(net.b2[0]) * QA * QB))
    h = w1.shape[1]
    au = b1 + w1[us].sum(axis=0)
    at = b1 + w1[them].sum(axis=0)
    total = int(np.clip(au, 0, QA) @ w2[:h] + np.clip(at, 0, QA) @ w2[h:]) + b2
    v = total * scale
    d = QA * QB
    return int(v / d) if v >= 0 else -int(-v / d)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="files of `menagerie-tuning evals` lines")
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.3)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--l2", type=float, default=1e-6)
    ap.add_argument("--out-scale", type=int, default=100, help="centipawns per output unit")
    ap.add_argument("--validation", type=float, default=0.1, help="share of games held out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-diff", type=int, default=0,
                    help="skip positions whose score and hce differ by more (cp; 0: keep all)")
    ap.add_argument("--keep-check", action="store_true", help="keep positions in check")
    a = ap.parse_args()

    for path in a.data:
        if not os.path.isfile(path):
            sys.exit(f"no such file: {path}")
    rng = np.random.default_rng(a.seed)
    parts = [load(path, not a.keep_check, a.max_diff) for path in a.data]
    rows_us = [r for p in parts for r in p[0]]
    rows_them = [r for p in parts for r in p[1]]
    res, score, hce = (np.concatenate([p[i] for p in parts]) for i in (2, 3, 4))
    # Games are numbered within each file, so a file and its mirror (mirror.py keeps the
    # `# game` lines) put a game and its mirror image on the same side of the split.
    game = np.concatenate([p[5] for p in parts])
    fens = [f for p in parts for f in p[6]]
    n = len(res)
    if n == 0:
        sys.exit("no positions")
    xu_all, xt_all = csr(rows_us), csr(rows_them)
    games = np.unique(game)
    held = set(rng.choice(games, size=max(1, int(len(games) * a.validation)), replace=False).tolist())
    valid = np.array([g in held for g in game])
    tr, va = np.where(~valid)[0], np.where(valid)[0]
    k = fit_k(hce[tr], res[tr])
    ks = fit_k(score[tr], res[tr])
    target = a.lam * res + (1.0 - a.lam) * sig(score, ks)
    print(f"{n} positions ({len(tr)} training, {len(va)} validation), K {k:.2f}, K_score {ks:.2f}")
    base_tr = float(np.mean((sig(hce[tr], k) - target[tr]) ** 2))
    base_va = float(np.mean((sig(hce[va], k) - target[va]) ** 2))
    print(f"hand-written evaluation alone: train loss {base_tr:.6f}  validation loss {base_va:.6f}")

    net = Net(a.hidden, rng)
    m = [np.zeros_like(p) for p in net.params()]
    v = [np.zeros_like(p) for p in net.params()]
    step = 0
    c = math.log(10.0) * k / 400.0
    xu_va, xt_va = xu_all[va], xt_all[va]

    def loss_of(idx_xu, idx_xt, rows):
        out, _ = net.forward(idx_xu, idx_xt, a.out_scale)
        return float(np.mean((sig(hce[rows] + out, k) - target[rows]) ** 2))

    # Losses per epoch, as `menagerie-tuning net` writes them (tuning/nnue/plot_losses.py
    # draws them): epoch 0 is the untrained network; a row is written as its epoch ends.
    losses = open(a.out + ".losses.csv", "w")
    losses.write("epoch,train,validation\n")

    def record(epoch):
        lv = loss_of(xu_va, xt_va, va)
        sample = np.sort(rng.choice(tr, size=min(len(tr), 50000), replace=False))
        lt = loss_of(xu_all[sample], xt_all[sample], sample)
        losses.write(f"{epoch},{lt:.8f},{lv:.8f}\n")
        losses.flush()
        return lt, lv

    record(0)
    best = (base_va, None, 0)
    for epoch in range(1, a.epochs + 1):
        perm = rng.permutation(tr)
        lr = a.lr * (0.5 if epoch > a.epochs * 2 // 3 else 1.0)
        for s in range(0, len(perm), a.batch):
            rows = np.sort(perm[s : s + a.batch])
            xu, xt = xu_all[rows], xt_all[rows]
            out, (au, at, hu, ht) = net.forward(xu, xt, a.out_scale)
            p = sig(hce[rows] + out, k)
            d_out = (2.0 * (p - target[rows]) * p * (1.0 - p) * c / len(rows) * a.out_scale).astype(np.float32)
            h = a.hidden
            g_w2 = np.concatenate([hu.T @ d_out, ht.T @ d_out])
            g_b2 = np.array([d_out.sum()], dtype=np.float32)
            du = np.outer(d_out, net.w2[:h]) * ((au > 0) & (au < 1))
            dt = np.outer(d_out, net.w2[h:]) * ((at > 0) & (at < 1))
            g_w1 = np.asarray(xu.T @ du + xt.T @ dt) + 2.0 * a.l2 * net.w1
            g_b1 = du.sum(axis=0) + dt.sum(axis=0)
            step += 1
            for i, (prm, g) in enumerate(zip(net.params(), [g_w1, g_b1, g_w2, g_b2])):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9**step)
                vh = v[i] / (1 - 0.999**step)
                prm -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        lt, lv = record(epoch)
        print(f"epoch {epoch}: train loss {lt:.6f}  validation loss {lv:.6f}", flush=True)
        if lv < best[0]:
            best = (lv, [p.copy() for p in net.params()], epoch)
    losses.close()
    if best[1] is None:
        sys.exit("the net never beat the hand-written evaluation on validation; nothing written")
    net.w1, net.b1, net.w2, net.b2 = best[1]
    print(f"kept epoch {best[2]}: validation loss {best[0]:.6f} (hand-written alone {base_va:.6f})")

    q = lambda x, s: np.round(x * s)
    # The engine adds the first layer in i16: 32 men must not overflow any hidden unit.
    bound = np.abs(q(net.b1, QA)) + 32 * np.abs(q(net.w1, QA)).max(axis=0)
    out_bound = QA * np.abs(q(net.w2, QB)).sum() + abs(round(float(net.b2[0]) * QA * QB))
    if bound.max() > 32767 or np.abs(q(net.w2, QB)).max() > 32767 or out_bound > 2**31 - 1:
        sys.exit(f"weights out of i16 range (accumulator bound {bound.max():.0f})")
    print(f"accumulator bound {bound.max():.0f} of 32767")
    with open(a.out, "wb") as f:
        # The format of every variant's network (src/variants/network.rs): the variant's
        # name, the input count, the width, the output scale.
        f.write(MAGIC + bytes([5]) + b"chess")
        f.write(struct.pack("<III", 768, a.hidden, a.out_scale))
        f.write(q(net.w1, QA).astype("<i2").tobytes())
        f.write(q(net.b1, QA).astype("<i2").tobytes())
        f.write(q(net.w2, QB).astype("<i2").tobytes())
        f.write(struct.pack("<i", int(round(float(net.b2[0]) * QA * QB))))
    # Check positions: the quantised output the engine must reproduce.
    with open(a.out + ".check", "w") as f:
        for i in va[:: max(1, len(va) // 8)][:8]:
            us = xu_all[i].indices.tolist()
            them = xt_all[i].indices.tolist()
            f.write(f"{fens[i]} | {quantised_output(net, us, them, a.out_scale)}\n")
    out, _ = net.forward(xu_va, xt_va, a.out_scale)
    print(f"net output on validation: mean {out.mean():.1f} cp, sd {out.std():.1f} cp, max |{np.abs(out).max():.0f}|")
    print(f"written {a.out}")


if __name__ == "__main__":
    main()
