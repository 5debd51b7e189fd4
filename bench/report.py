#!/usr/bin/env python3
"""Turn the measurements of bench/run.sh into a markdown report (on stdout).

Usage: report.py WORKDIR   (WORKDIR holds results.tsv, sizes.tsv, machine.tsv and meta.env, and
                           fixed.tsv and index.tsv when the fixed-cost step ran)
"""

import calendar
import os
import re
import statistics
import sys
import time

ALL_TOOLS = ["stele", "restic", "borg"]
TOOLS = ALL_TOOLS  # narrowed to the tools of the run in main()
STEPS = [
    ("init", "init"),
    ("backup1", "backup 1, initial"),
    ("backup2", "backup 2, no change"),
    ("backup3", "backup 3, after mutation"),
    ("restore", "full restore, empty dir"),
    ("check", "structural check"),
    ("verify", "verify all data"),
]
WARM = [("warm1", "backup1", "backup 1, initial"), ("warm2", "backup2", "backup 2, no change"),
        ("warm3", "backup3", "backup 3, after mutation")]
FIXED = [("version", "`stele --version`", "`restic version`"),
         ("open", "`stele bench open` (start, key derivation, index load)", "`restic cat config`"),
         ("status", "`stele repo status`", None),
         ("snapshots", "`stele snapshot list`", "`restic snapshots`"),
         ("get", "`stele backup get` (as many Backups as snapshots, test API server)", None)]
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


ACCESS = re.compile(r'beast: \S+ \S+ - \S+ \[(\S+) [^\]]*\] "(\S+) (\S+) [^"]*" (\d+) .* latency=([\d.]+)s')


def rgw_requests(log, windows):
    """Per (run, tool, step): request count, summed server latency and request kinds in the step's window."""
    out = {}
    with open(log, errors="replace") as f:
        for line in f:
            m = ACCESS.search(line)
            if not m:
                continue
            ts, method, path, _status, lat = m.groups()
            start = calendar.timegm(time.strptime(ts.split(".")[0], "%d/%b/%Y:%H:%M:%S")) + float("0." + ts.split(".")[1])
            for t0, t1, run, tool, step in windows:
                if t0 <= start <= t1:
                    query = path.split("?", 1)[1] if "?" in path else ""
                    sub = [q.split("=")[0] for q in query.split("&") if q and q.split("=")[0] in
                           ("retention", "versions", "list-type", "uploads", "uploadId", "partNumber", "delete",
                            "versioning", "object-lock", "location")]
                    kind = method + ("?" + "&".join(sub) if sub else "")
                    r = out.setdefault((run, tool, step), {"n": 0, "lat": 0.0, "kinds": {}})
                    r["n"] += 1
                    r["lat"] += float(lat)
                    r["kinds"][kind] = r["kinds"].get(kind, 0) + 1
                    break
    return out


def main():
    global TOOLS
    work = sys.argv[1]
    meta = read_meta(os.path.join(work, "meta.env"))
    s3 = meta.get("target") == "s3"
    if meta.get("tools"):
        ran = meta["tools"].split()
        TOOLS = [t for t in ALL_TOOLS if t in ran] if s3 else ALL_TOOLS
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
    # machine.tsv: run tool step load1 busy_s mon_s osd_s rgw_s (server columns empty unless s3)
    load1, busy, server, windows = {}, {}, {}, []
    for run, tool, step, l, b, *rest in read_tsv(os.path.join(work, "machine.tsv"), 5):
        load1.setdefault((tool, step), []).append(float(l))
        busy.setdefault((tool, step), []).append(float(b))
        srv = rest[:3]
        if len(srv) == 3 and all(srv):
            server.setdefault((tool, step), []).append([float(x) for x in srv])
        if len(rest) >= 5:
            windows.append((float(rest[3]), float(rest[4]), run, tool, step))

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
    name = "Linux source" if meta.get("dataset") == "linux" else meta["size"]
    if s3:
        p(f"# Stele benchmark on S3 (Ceph RGW, loopback): {name} dataset, {meta['date']}")
    else:
        p(f"# Stele benchmark: {name} dataset, {meta['date']}")
    p("")
    if meta.get("dataset") == "linux":
        p(f"- Dataset: {meta.get('dataset_desc')}: {int(meta['src_files']):,} files, {src_mib:.1f} MiB; "
          f"after mutation: {int(meta['mut_files']):,} files, {mut_mib:.1f} MiB.")
    else:
        p(f"- Dataset: generated, seed {meta['seed']}, {int(meta['src_files']):,} files, {src_mib:.1f} MiB; "
          f"after mutation (seed {meta['mutate_seed']}): {int(meta['mut_files']):,} files, {mut_mib:.1f} MiB.")
    p(f"- Machine: {meta['cpu']}, kernel {meta['kernel']}. Commit {meta['commit']}.")
    p(f"- Versions: stele {meta.get('version_stele') or 'n/a'}; {meta.get('version_restic')}; "
      + (f"{meta.get('version_borg')}; " if "borg" in TOOLS else "") + f"{meta.get('java')}.")
    if s3:
        lock = meta.get("s3_lock", "governance")
        p(f"- Server: {meta.get('rgw_version')}, one monitor, one memstore OSD "
          f"({meta.get('rgw_memstore_mib')} MiB cap), one radosgw (beast), all on 127.0.0.1 and on the same 2 cores "
          f"as the client; beast options `{meta.get('rgw_beast_opts') or '(none)'}`. "
          f"Idle, the three daemons use {meta.get('rgw_idle')} CPU-s per second.")
        p("- Buckets: restic's plain; Stele's "
          + (f"created with object lock, repository initialised with `--lock-mode {lock} --min-retention "
             f"{meta.get('s3_retention')}` (every blob is PUT with retention, then its versions are listed and "
             f"its retention read back, docs/s3.md)." if lock != "none" else "plain, `--lock-mode none`."))
    p(f"- {runs} run(s), tools alternated; "
      + ("median (min–max) shown. " if runs > 1 else "single run. ")
      + "Warm page cache, `sync` before each step. CPU = user+sys of all threads; "
        "RSS = peak of the largest process.")
    if meta.get("stele_note"):
        p(f"- **stele is n/a:** {meta['stele_note']}.")
    if failures:
        p(f"- **Failed steps:** {'; '.join(failures)}.")
    if meta.get("load_start"):
        loads = [v for vals in load1.values() for v in vals]
        p(f"- Load average (1, 5, 15 min): {meta['load_start']} at the start, {meta.get('load_end')} at the end; "
          + (f"1-minute load at step starts {min(loads):.2f}–{max(loads):.2f}." if loads else ""))
    p("")
    p("| operation | " + " | ".join(f"{t} wall s" for t in TOOLS) + " | restic/stele (speedup) | "
      + " | ".join(f"{t} CPU s" for t in TOOLS) + " | " + " | ".join(f"{t} RSS MiB" for t in TOOLS) + " |")
    p("|---" * (1 + 3 * len(TOOLS) + 1) + "|")
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

    if server:
        p("Where the CPU goes (CPU-seconds during each step; client = the tool's user+sys; RGW = radosgw + "
          "ceph-osd + ceph-mon, from /proc/PID/stat; other = the rest of the machine's busy time, i.e. "
          "everything else running; 2 cores give at most 2 CPU-s per wall second):")
        p("")
        p("| operation | tool | wall s | client CPU s | radosgw | ceph-osd | ceph-mon | RGW total | other | "
          "busy / (2 × wall) | RGW share of client+RGW |")
        p("|---|---|---|---|---|---|---|---|---|---|---|")
        for step, label in STEPS:
            for t in TOOLS:
                srv = server.get((t, step))
                if not srv or w(t, step) is None:
                    continue
                mon = med([x[0] for x in srv]); osd = med([x[1] for x in srv]); rgw = med([x[2] for x in srv])
                total = mon + osd + rgw
                c = med(cpu.get((t, step), []))
                b = med(busy.get((t, step), []))
                other = max(0.0, b - c - total)
                util = b / (2 * w(t, step)) if w(t, step) else 0
                share = total / (c + total) if c + total else 0
                p(f"| {label} | {t} | {w(t, step):.2f} | {c:.1f} | {rgw:.1f} | {osd:.1f} | {mon:.1f} | {total:.1f} "
                  f"| {other:.1f} | {100 * util:.0f}% | {100 * share:.0f}% |")
        p("")

    if s3 and windows and meta.get("rgw_log") and os.path.exists(meta["rgw_log"]):
        reqs = rgw_requests(meta["rgw_log"], windows)
        if reqs:
            p("S3 requests per step, from the gateway's access log (server latency = sum of the times radosgw "
              "reports per request; wall minus the client's own work is mostly waiting on requests made one "
              "after another):")
            p("")
            p("| operation | tool | requests | server latency s | kinds (most frequent) |")
            p("|---|---|---|---|---|")
            for step, label in STEPS:
                for t in TOOLS:
                    r = reqs.get(("1", t, step))
                    if not r:
                        continue
                    kinds = ", ".join(f"{k} {n}" for k, n in sorted(r["kinds"].items(), key=lambda x: -x[1])[:4])
                    p(f"| {label} | {t} | {r['n']} | {r['lat']:.2f} | {kinds} |")
            p("")

    # Throughput: source bytes / wall; verify: repository bytes / wall.
    p("| throughput MiB/s | " + " | ".join(TOOLS) + " |")
    p("|---" * (1 + len(TOOLS)) + "|")
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

    if any(("stele", warm) in wall for warm, _, _ in WARM):
        p("Warm path: backups 1–3 of the same data in one Stele JVM (`stele bench warm-backup`, the node agent's "
          "way: key derived once, a session and an index load per backup), against restic's cold backups above. "
          "Wall and CPU from the JVM's clocks; RSS is the whole process's peak.")
        p("")
        p("| warm backup | stele wall s | stele CPU s | stele RSS MiB | restic wall s | restic/stele (speedup) |")
        p("|---|---|---|---|---|---|")
        for warm, cold, label in WARM:
            p(f"| {label} | {cell_wall('stele', warm)} | {fmt(med(cpu.get(('stele', warm), [])), 1)} "
              f"| {fmt(med(rss.get(('stele', warm), [])), 0)} | {cell_wall('restic', cold)} "
              f"| {ratio(w('restic', cold), w('stele', warm))} |")
        p("")

    fixed = {}
    for _run, tool, c, fwall, fuser, fsys, frss, status in read_tsv(os.path.join(work, "fixed.tsv"), 8):
        if status == "ok":
            fixed.setdefault((tool, c), []).append((float(fwall), float(fuser) + float(fsys), int(frss) / 1024))

    def fw(tool, c):
        return med([x[0] for x in fixed.get((tool, c), [])])

    index = {}
    for _run, key, value in read_tsv(os.path.join(work, "index.tsv"), 3):
        index.setdefault(key, []).append(float(value))
    if fixed:
        p(f"Fixed cost: one fresh process per command on a repository of the dataset with "
          f"{meta.get('fixed_snapshots')} snapshots (the dataset once, then one small change before each), "
          f"median of {meta.get('fixed_runs')} run(s), tools alternated.")
        p("")
        p("| command | stele wall s | CPU s | RSS MiB | restic command | restic wall s | restic/stele |")
        p("|---|---|---|---|---|---|---|")
        for c, stele_cmd, restic_cmd in FIXED:
            vals = fixed.get(("stele", c), [])
            p(f"| {stele_cmd} | {fmt(fw('stele', c))} | {fmt(med([x[1] for x in vals]))} "
              f"| {fmt(med([x[2] for x in vals]), 0)} | {restic_cmd or '–'} | {fmt(fw('restic', c)) if restic_cmd else '–'} "
              f"| {ratio(fw('restic', c), fw('stele', c)) if restic_cmd else '–'} |")
        p("")
    if index.get("index_heap_bytes"):
        heap = med(index["index_heap_bytes"])
        gib = int(meta["src_bytes"]) / 2**30
        p(f"Index (from `stele bench open`): {med(index['index_chunks']):,.0f} chunks in "
          f"{med(index['index_packs']):,.0f} packs; opening took {med(index['open_s']):.2f} s in the JVM, loading "
          f"the index {med(index['index_load_s']):.2f} s; the loaded index holds {heap / MiB:.1f} MiB of live heap, "
          f"{heap / MiB / gib:.1f} MiB per GiB of source ({heap / max(1, med(index['index_chunks'])):.0f} bytes per chunk).")
        p("")

    # Targets from bench/README.md.
    def verdict(ok):
        return "n/a" if ok is None else ("PASS" if ok else "FAIL")

    def speedup_target(step, goal, restic_step=None):
        a, b = w("restic", restic_step or step), w("stele", step)
        r = None if a is None or b is None else a / b
        return ("n/a" if r is None else f"{r:.2f}×", verdict(None if r is None else r >= goal))

    rows = []
    if s3:
        goals = [("backup1", "S3: initial backup ≥ 1.5× restic's throughput", 1.5),
                 ("backup2", "S3: unchanged re-backup ≥ 1.5× faster than restic", 1.5),
                 ("backup3", "S3: backup after mutation ≥ 1.5× restic's throughput", 1.5),
                 ("restore", "S3: restore ≥ 1.5× restic's throughput", 1.5),
                 ("check", "S3: `verify` ≥ 1.5× faster than `restic check`", 1.5),
                 ("verify", "S3: `verify --read-data` ≥ 1.5× faster than `restic check --read-data`", 1.5)]
    else:
        goals = [("backup1", "initial backup ≥ 2× restic's throughput", 2.0),
                 ("backup2", "unchanged re-backup ≥ 1.5× faster than restic", 1.5),
                 ("backup3", "backup after mutation ≥ 1.5× faster than restic", 1.5),
                 ("restore", "restore ≥ 1.5× faster than restic", 1.5),
                 ("check", "`verify` ≥ 1.5× faster than `restic check`", 1.5),
                 ("verify", "`verify --read-data` ≥ 1.5× faster than `restic check --read-data`", 1.5)]
    for step, what, goal in goals:
        rows.append((what,) + speedup_target(step, goal))
    if ("stele", "warm2") in wall:
        rows.append(("warm: backup 2 in one JVM ≥ 1.5× faster than restic's backup 2",)
                    + speedup_target("warm2", 1.5, "backup2"))
        rows.append(("warm: backup 3 in one JVM ≥ 1.5× faster than restic's backup 3",)
                    + speedup_target("warm3", 1.5, "backup3"))
    if fixed:
        v_open, v_list = fw("stele", "open"), fw("stele", "snapshots")
        rows.append(("fixed cost of a command (`stele bench open`) ≤ 0.3 s", fmt(v_open) + " s",
                     verdict(None if v_open is None else v_open <= 0.3)))
        rows.append(("`snapshot list` < 0.5 s", fmt(v_list) + " s", verdict(None if v_list is None else v_list < 0.5)))
        v_get = fw("stele", "get")
        rows.append(("`backup get` < 0.5 s", fmt(v_get) + " s", verdict(None if v_get is None else v_get < 0.5)))
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
        rows.append(("peak RSS ≤ 1.5× restic's on every step (worst step)", "n/a", "n/a"))
    else:
        rows.append(("peak RSS ≤ 1.5× restic's on every step (worst step)", f"{worst[0]:.2f}× ({worst[1]})",
                     verdict(worst[0] <= 1.5)))
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
