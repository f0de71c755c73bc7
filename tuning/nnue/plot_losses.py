#!/usr/bin/env python3
"""Draw a network's training and validation loss per epoch, from the CSV that
`menagerie-tuning net` writes beside the network (`<net>.losses.csv`).

Usage: python3 tuning/nnue/plot_losses.py NET.losses.csv [--out NET.losses.png] [--title T]
Requirements: scripts/requirements-plots.txt. Epoch 0 is the untrained network.
"""

import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--out", default=None, help="picture (.png or .svg); default beside the CSV")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    with open(args.csv) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{args.csv}: no epochs")
    epochs = [int(r["epoch"]) for r in rows]
    train = [float(r["train"]) for r in rows]
    val = [float(r["validation"]) for r in rows]
    best = min(range(1, len(rows)), key=lambda i: val[i]) if len(rows) > 1 else 0
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(epochs, train, marker="o", label="training")
    ax.plot(epochs, val, marker="o", label="validation")
    ax.axvline(epochs[best], color="grey", linestyle="--", linewidth=0.8,
               label=f"kept: epoch {epochs[best]}")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss (mean squared error)")
    ax.set_title(args.title or args.csv)
    ax.legend()
    fig.tight_layout()
    out = args.out or args.csv.removesuffix(".csv") + ".png"
    fig.savefig(out, dpi=110)
    print(f"{out}: {len(rows)} epochs drawn")


if __name__ == "__main__":
    main()
