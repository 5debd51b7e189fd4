#!/usr/bin/env python3
"""Turn the measurements of bench/run.sh into a markdown report (on stdout).

Usage: report.py WORKDIR   (WORKDIR holds results.tsv, sizes.tsv and meta.env)
"""

import os
import statistics
import sys

TOOLS = ["stele", "restic", "borg"]
STEPS = [
    ("init", "init"),
    ("backup1", "backup 1, initial"),
    ("backup2", "backup 2, no change"),
    ("backup3", "backup 3, after mutation"),
    ("restore", "full restore, empty dir"),
    ("verify", "verify all data"),
]
MiB = 1024 * 1024


def read_tsv(path, ncols):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= ncols:
                    rows.append(parts)
    return rows


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    return meta


def med(values):
    return statistics.median(values) if values else None


def fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def ratio(num, den, digits=2):
    if num is None or den is None or den == 0:
        return "n/a"
    return f"{num / den:.{digits}f}"


def main():
    work = sys.argv[1]
    meta = read_meta(os.path.join(work, "meta.env"))
    runs = int(meta.get("runs", "1"))
    results = read_tsv(os.path.join(work, "results.tsv"), 8)
    sizes = read_tsv(os.path.join(work, "sizes.tsv"), 4)

    # (tool, step) -> lists of wall, cpu, rss (MiB) over successful runs
    wall, cpu, user, sys_, rss, failures, mismatch = {}, {}, {}, {}, {}, [], set()
    for run, tool, step, w, u, s, m, status in results:
        if status == "ok":
            wall.setdefault((tool, step), []).append(float(w))
            cpu.setdefault((tool, step), []).append(float(u) + float(s))
            user.setdefault((tool, step), []).append(float(u))
            sys_.setdefault((tool, step), []).append(float(s))
            rss.setdefault((tool, step), []).append(int(m) / 1024)
        elif status == "failed" and step == "restore-diff":
            mismatch.add(tool)
            failures.append(f"run {run}: {tool} RESTORE DIFFERS FROM THE SOURCE")
        elif status == "failed":
            failures.append(f"run {run}: {tool} {step}")
    size_at = {}
    for run, tool, point, b in sizes:
        size_at.setdefault((tool, point), []).append(int(b))

    def w(tool, step):
        return med(wall.get((tool, step), []))

    def cell_wall(tool, step):
        vals = wall.get((tool, step), [])
        if not vals:
            return "n/a"
        text = f"{med(vals):.2f}"
        if len(vals) > 1:
            text += f" ({min(vals):.2f}–{max(vals):.2f})"
        if len(vals) < runs:
            text += f" [{len(vals)}/{runs} ok]"
        if step == "restore" and tool in mismatch:
            text += " **MISMATCH**"
        return text

    src_mib = int(meta["src_bytes"]) / MiB
    mut_mib = int(meta["mut_bytes"]) / MiB
    out = []
    p = out.append
    p(f"# Stele benchmark: {meta['size']} dataset, {meta['date']}")
    p("")
    p(f"- Dataset: seed {meta['seed']}, {int(meta['src_files']):,} files, {src_mib:.1f} MiB; "
      f"after mutation (seed {meta['mutate_seed']}): {int(meta['mut_files']):,} files, {mut_mib:.1f} MiB.")
    p(f"- Machine: {meta['cpu']}, kernel {meta['kernel']}. Commit {meta['commit']}.")
    p(f"- Versions: stele {meta.get('version_stele') or 'n/a'}; {meta.get('version_restic')}; "
      f"{meta.get('version_borg')}; {meta.get('java')}.")
    p(f"- {runs} run(s), tools alternated; "
      + ("median (min–max) shown. " if runs > 1 else "single run. ")
      + "Warm page cache, `sync` before each step. CPU = user+sys of all threads; "
        "RSS = peak of the largest process.")
    if meta.get("stele_note"):
        p(f"- **stele is n/a:** {meta['stele_note']}.")
    if failures:
        p(f"- **Failed steps:** {'; '.join(failures)}.")
    p("")
    p("| operation | stele wall s | restic wall s | borg wall s | restic/stele (speedup) "
      "| stele CPU s | restic CPU s | borg CPU s | stele RSS MiB | restic RSS MiB | borg RSS MiB |")
    p("|---|---|---|---|---|---|---|---|---|---|---|")
    for step, label in STEPS:
        row = [label] + [cell_wall(t, step) for t in TOOLS]
        row.append(ratio(w("restic", step), w("stele", step)))
        row += [fmt(med(cpu.get((t, step), [])), 1) for t in TOOLS]
        row += [fmt(med(rss.get((t, step), [])), 0) for t in TOOLS]
        p("| " + " | ".join(row) + " |")
    p("")
    split = []
    for t in TOOLS:
        u, sy = med(user.get((t, "restore"), [])), med(sys_.get((t, "restore"), []))
        if u is not None:
            split.append(f"{t} {u:.1f} user + {sy:.1f} sys")
    if split:
        p(f"Restore CPU split (filesystem-bound, compare within a run): {'; '.join(split)}.")
        p("")

    # Throughput: source bytes / wall; verify: repository bytes / wall.
    p("| throughput MiB/s | stele | restic | borg |")
    p("|---|---|---|---|")
    for step, label, mib in [("backup1", "backup 1", src_mib), ("backup2", "backup 2", src_mib),
                             ("backup3", "backup 3", mut_mib), ("restore", "restore", mut_mib)]:
        p(f"| {label} | " + " | ".join(ratio(mib, w(t, step), 0) for t in TOOLS) + " |")
    verify_row = []
    for t in TOOLS:
        repo = med(size_at.get((t, "backup3"), []))
        verify_row.append(ratio(repo / MiB if repo else None, w(t, "verify"), 0))
    p("| verify (repository bytes) | " + " | ".join(verify_row) + " |")
    p("")

    def size_mib(tool, point):
        v = med(size_at.get((tool, point), []))
        return None if v is None else v / MiB

    p("| repository | after backup 1, MiB | repo/source | backup 2 adds, KiB | after backup 3, MiB | backup 3 adds, MiB |")
    p("|---|---|---|---|---|---|")
    for t in TOOLS:
        b1, b2, b3 = size_mib(t, "backup1"), size_mib(t, "backup2"), size_mib(t, "backup3")
        add2 = None if b1 is None or b2 is None else (b2 - b1) * 1024
        add3 = None if b2 is None or b3 is None else b3 - b2
        p(f"| {t} | {fmt(b1, 1)} | {ratio(b1, src_mib, 3)} | {fmt(add2, 1)} | {fmt(b3, 1)} | {fmt(add3, 1)} |")
    p("")
    p(f"Repository size stele/restic: after backup 1 {ratio(size_mib('stele', 'backup1'), size_mib('restic', 'backup1'), 3)}, "
      f"after backup 3 {ratio(size_mib('stele', 'backup3'), size_mib('restic', 'backup3'), 3)}.")
    p("")

    # Targets from bench/README.md.
    def verdict(ok):
        return "n/a" if ok is None else ("PASS" if ok else "FAIL")

    def speedup_target(step, goal):
        r = None if w("stele", step) is None or w("restic", step) is None else w("restic", step) / w("stele", step)
        return ("n/a" if r is None else f"{r:.2f}×", verdict(None if r is None else r >= goal))

    rows = []
    for step, what, goal in [("backup1", "initial backup ≥ 2× restic's throughput", 2.0),
                             ("backup2", "unchanged re-backup ≥ 1.5× faster than restic", 1.5),
                             ("restore", "restore ≥ 1.5× faster than restic", 1.5)]:
        rows.append((what,) + speedup_target(step, goal))
    s3, r3 = size_mib("stele", "backup3"), size_mib("restic", "backup3")
    s1, r1 = size_mib("stele", "backup1"), size_mib("restic", "backup1")
    if None in (s1, s3, r1, r3):
        rows.append(("repository no larger than restic's (after backups 1 and 3)", "n/a", "n/a"))
    else:
        rows.append(("repository no larger than restic's (after backups 1 and 3)",
                     f"{s1 / r1:.3f} / {s3 / r3:.3f}", verdict(s1 <= r1 and s3 <= r3)))
    worst = None
    for step, label in STEPS:
        a, b = med(rss.get(("stele", step), [])), med(rss.get(("restic", step), []))
        if a is not None and b:
            if worst is None or a / b > worst[0]:
                worst = (a / b, label)
    if worst is None:
        rows.append(("peak RSS ≤ 2× restic's (worst step)", "n/a", "n/a"))
    else:
        rows.append(("peak RSS ≤ 2× restic's (worst step)", f"{worst[0]:.2f}× ({worst[1]})", verdict(worst[0] <= 2.0)))
    p("| target | measured | verdict |")
    p("|---|---|---|")
    for what, measured, v in rows:
        p(f"| {what} | {measured} | {v} |")
    p("")

    for key, title in (("dataset_log", "Dataset"), ("mutation_log", "Mutation")):
        path = meta.get(key)
        if path and os.path.exists(path):
            p(f"<details><summary>{title}</summary>")
            p("")
            p("```")
            with open(path) as f:
                p(f.read().rstrip())
            p("```")
            p("</details>")
            p("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
