#!/usr/bin/env python3
"""Draw bench/scale.sh's TSV as SVG line charts, Python standard library only.

Usage: plot.py SCALE.tsv OUT_PREFIX

Writes OUT_PREFIX-data.svg (against logical GiB) and OUT_PREFIX-snapshots.svg (against the number of
snapshots): each two charts side by side, wall seconds and peak RSS in MiB, one line per step, both
axes log-scaled (a straight line of slope 1 is linear growth; a dashed grey line shows that slope
from each step's first point).
"""

import csv
import math
import sys
from xml.sax.saxutils import escape

STEPS = ["backup", "list", "verify", "maintenance", "open"]
LABELS = {"backup": "backup", "list": "snapshot list", "verify": "verify", "maintenance": "maintenance run",
          "open": "open + index load"}
COLOURS = {"backup": "#1f77b4", "list": "#ff7f0e", "verify": "#2ca02c", "maintenance": "#d62728",
           "open": "#9467bd"}
W, H, M = 360, 260, 50  # one chart: width, height, margin


def log_ticks(lo, hi):
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    if a == b:
        b += 1
    return [10 ** e for e in range(a, b + 1)]


def tick_label(v):
    return f"{v:g}" if v >= 0.01 else f"{v:.0e}"


def chart(x0, title, xlabel, ylabel, lines):
    """One chart at horizontal offset x0: lines is {step: [(x, y), ...]}."""
    pts = [p for ps in lines.values() for p in ps if p[0] > 0 and p[1] > 0]
    if not pts:
        return []
    xt = log_ticks(min(p[0] for p in pts), max(p[0] for p in pts))
    yt = log_ticks(min(p[1] for p in pts), max(p[1] for p in pts))

    def sx(x):
        return x0 + M + (math.log10(x) - math.log10(xt[0])) / (math.log10(xt[-1]) - math.log10(xt[0])) * (W - 1.5 * M)

    def sy(y):
        return H - M - (math.log10(y) - math.log10(yt[0])) / (math.log10(yt[-1]) - math.log10(yt[0])) * (H - 1.7 * M)

    out = [f'<text x="{x0 + W / 2}" y="18" text-anchor="middle" font-weight="bold">{escape(title)}</text>',
           f'<line x1="{sx(xt[0])}" y1="{sy(yt[0])}" x2="{sx(xt[-1])}" y2="{sy(yt[0])}" stroke="black"/>',
           f'<line x1="{sx(xt[0])}" y1="{sy(yt[0])}" x2="{sx(xt[0])}" y2="{sy(yt[-1])}" stroke="black"/>']
    for t in xt:
        out.append(f'<line x1="{sx(t)}" y1="{sy(yt[0])}" x2="{sx(t)}" y2="{sy(yt[-1])}" stroke="#eee"/>')
        out.append(f'<text x="{sx(t)}" y="{sy(yt[0]) + 14}" text-anchor="middle">{tick_label(t)}</text>')
    for t in yt:
        out.append(f'<line x1="{sx(xt[0])}" y1="{sy(t)}" x2="{sx(xt[-1])}" y2="{sy(t)}" stroke="#eee"/>')
        out.append(f'<text x="{sx(xt[0]) - 4}" y="{sy(t) + 4}" text-anchor="end">{tick_label(t)}</text>')
    out.append(f'<text x="{x0 + W / 2 + M / 4}" y="{H - 12}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="{x0 + 12}" y="{H / 2}" text-anchor="middle" '
               f'transform="rotate(-90 {x0 + 12} {H / 2})">{escape(ylabel)}</text>')
    for step, ps in lines.items():
        ps = sorted(p for p in ps if p[0] > 0 and p[1] > 0)
        if not ps:
            continue
        c = COLOURS.get(step, "black")
        (fx, fy), lx = ps[0], ps[-1][0]
        ly = fy * lx / fx  # linear growth from the first point
        if len(ps) > 1 and yt[0] <= ly <= yt[-1]:
            out.append(f'<line x1="{sx(fx):.1f}" y1="{sy(fy):.1f}" x2="{sx(lx):.1f}" y2="{sy(ly):.1f}" '
                       f'stroke="#bbb" stroke-dasharray="3,3"/>')
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in ps)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        out += [f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{c}"/>' for x, y in ps]
    return out


def figure(rows, series, xlabel):
    rows = [r for r in rows if r["series"] == series]
    if not rows:
        return None
    time_lines, mem_lines = {}, {}
    for r in rows:
        x = float(r["x"])
        time_lines.setdefault(r["step"], []).append((x, float(r["wall_s"])))
        mem_lines.setdefault(r["step"], []).append((x, int(r["rss_kib"]) / 1024))
    order = [s for s in STEPS if s in time_lines] + [s for s in time_lines if s not in STEPS]
    time_lines = {s: time_lines[s] for s in order}
    mem_lines = {s: mem_lines[s] for s in order}
    legend_y = H + 6
    body = chart(0, "time", xlabel, "wall seconds", time_lines) + chart(W, "peak memory", xlabel, "RSS MiB", mem_lines)
    for i, s in enumerate(order):
        lx = 20 + i * (2 * W - 40) / len(order)
        body.append(f'<rect x="{lx}" y="{legend_y}" width="12" height="12" fill="{COLOURS.get(s, "black")}"/>')
        body.append(f'<text x="{lx + 16}" y="{legend_y + 11}">{escape(LABELS.get(s, s))}</text>')
    body.append(f'<text x="20" y="{legend_y + 30}" fill="#888">dashed: linear growth from the first point</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H + 46}" '
            f'font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def main():
    tsv, prefix = sys.argv[1], sys.argv[2]
    with open(tsv, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for series, xlabel in (("data", "logical data, GiB"), ("snapshots", "snapshots in the repository")):
        svg = figure(rows, series, xlabel)
        if svg:
            with open(f"{prefix}-{series}.svg", "w") as f:
                f.write(svg)


if __name__ == "__main__":
    main()
