#!/usr/bin/env python3
"""Generate (or mutate) the seeded benchmark dataset for Stele.

The mix follows /work/shared/reference/peer-baseline.md, by bytes:

    30%  real files copied from /usr/share
    32%  real files copied from /usr/lib, /usr/bin, /usr/sbin, /usr/libexec
    10%  random files of 16-48 MiB (scaled down for datasets under 1 GiB)
    15%  random files of 1 KiB-2 MiB, part of it as a nested tree of many
         small files so the whole set holds ~40k files per GiB
     8%  synthetic log text
     5%  exact duplicates of earlier files

Usage:
    gen-dataset.py [--size 1G] [--seed 1] OUT      generate into OUT (must be empty or absent)
    gen-dataset.py --mutate DIR [--seed 2]         mutate DIR in place (~5% of files)

Only the standard library is used.  Output is deterministic for a given seed,
size and set of files under /usr (installing packages changes the /usr picks; the
summary's fingerprint of paths and sizes tells two such sets apart).
"""

import argparse
import hashlib
import math
import os
import random
import shutil
import stat
import sys
import time

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

FILES_PER_GIB = 40_000          # target file count for a 1 GiB dataset
BASE_MTIME = 1_704_067_200      # 2024-01-01T00:00:00Z; generated files get mtimes in 2024

SHARE_ROOTS = ["/usr/share"]
SYS_ROOTS = ["/usr/lib", "/usr/bin", "/usr/sbin", "/usr/libexec"]

BIG_DIR = os.path.join("random", "big")
LOG_DIR = "logs"


def parse_size(text):
    """'1G', '30M', '512K', '1.5G' or a plain byte count (binary units)."""
    units = {"": 1, "B": 1, "K": KiB, "M": MiB, "G": GiB, "T": 1024 * GiB}
    t = text.strip().upper()
    if t.endswith("IB"):
        t = t[:-2]
    num = t.rstrip("BKMGT")
    unit = t[len(num):]
    if unit not in units or not num:
        raise argparse.ArgumentTypeError(f"bad size: {text!r} (try 1G, 30M, 512K)")
    try:
        value = float(num)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size: {text!r}")
    return int(value * units[unit])


def human(n):
    for unit, div in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= div:
            return f"{n / div:.1f} {unit}"
    return f"{n} B"


def log_uniform(rng, lo, hi):
    """Integer in [lo, hi] with a log-uniform distribution (many small, few big)."""
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def write_random(path, size, rng, chunk=4 * MiB):
    with open(path, "wb") as f:
        left = size
        while left > 0:
            n = min(chunk, left)
            f.write(rng.randbytes(n))
            left -= n


# ---------------------------------------------------------------- log text

_LEVELS = ["INFO"] * 14 + ["DEBUG"] * 6 + ["WARN"] * 3 + ["ERROR"]
_COMPONENTS = [
    "c.e.orders.OrderService", "c.e.orders.PaymentClient", "c.e.auth.TokenFilter",
    "c.e.db.ConnectionPool", "c.e.http.AccessLog", "c.e.cache.RegionCache",
    "c.e.jobs.Scheduler", "c.e.storage.BlobWriter", "c.e.mail.Outbox", "o.a.kafka.Consumer",
]
_PATHS = ["/api/v1/orders", "/api/v1/users", "/api/v1/items", "/health", "/api/v2/search",
          "/static/app.js", "/api/v1/cart", "/login", "/api/v1/invoices"]
_METHODS = ["GET"] * 6 + ["POST"] * 3 + ["PUT", "DELETE"]
_STATUS = [200] * 20 + [201, 204, 301, 304, 400, 401, 403, 404, 404, 500, 503]
_ERRORS = ["java.net.SocketTimeoutException: Read timed out",
           "java.sql.SQLTransientConnectionException: pool exhausted",
           "IllegalStateException: order already settled",
           "java.io.IOException: Broken pipe", "TimeoutException: upstream did not answer"]


class LogWriter:
    """Synthetic application log lines with plausible repetition and variety."""

    def __init__(self, rng, start_ts=None):
        self.rng = rng
        self.ts = float(start_ts if start_ts is not None else BASE_MTIME + rng.randrange(300 * 86400))

    def _line(self):
        r = self.rng
        self.ts += r.expovariate(20.0)
        t = self.ts
        tm = time.gmtime(t)
        stamp = "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
            tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, int(t * 1000) % 1000)
        level = r.choice(_LEVELS)
        thread = "worker-%d" % r.randrange(16)
        comp = r.choice(_COMPONENTS)
        kind = r.randrange(6)
        if kind == 0 or comp == "c.e.http.AccessLog":
            msg = '%s %s?page=%d status=%d bytes=%d time_ms=%d client=10.%d.%d.%d ua="Mozilla/5.0"' % (
                r.choice(_METHODS), r.choice(_PATHS), r.randrange(50), r.choice(_STATUS),
                r.randrange(100, 90000), r.randrange(1, 900), r.randrange(256), r.randrange(256), r.randrange(256))
        elif kind == 1:
            msg = "Processed order id=%016x user=%d items=%d total=%d.%02d EUR latency_ms=%d" % (
                r.getrandbits(64), r.randrange(100000), r.randrange(1, 20), r.randrange(5000),
                r.randrange(100), r.randrange(1, 400))
        elif kind == 2:
            msg = "pool stats active=%d idle=%d waiting=%d max=%d" % (
                r.randrange(32), r.randrange(32), r.randrange(5), 32)
        elif kind == 3:
            msg = "cache region=%s hits=%d misses=%d evictions=%d" % (
                r.choice(["users", "items", "prices", "sessions"]), r.randrange(100000),
                r.randrange(5000), r.randrange(300))
        elif kind == 4 and level in ("WARN", "ERROR"):
            msg = "request %08x failed after %d attempts: %s" % (
                r.getrandbits(32), r.randrange(1, 4), r.choice(_ERRORS))
        else:
            msg = "job %s finished in %d ms, %d records, checkpoint=%d" % (
                r.choice(["reindex", "settle", "export", "cleanup", "digest"]), r.randrange(5, 60000),
                r.randrange(100000), r.getrandbits(40))
        return "%s %-5s [%s] %s - %s\n" % (stamp, level, thread, comp, msg)

    def text(self, nbytes):
        """About nbytes of log text (cut at a line end, never empty)."""
        parts, total = [], 0
        while total < nbytes:
            line = self._line()
            parts.append(line)
            total += len(line)
        data = "".join(parts).encode()
        if len(data) > nbytes:
            cut = data.rfind(b"\n", 0, nbytes)
            data = data[:cut + 1] if cut > 0 else data[:nbytes]
        return data


# ---------------------------------------------------------------- generation

def list_candidates(roots):
    """Regular, non-empty, readable files under roots, sorted by path; no symlinks, no .pyc."""
    found = []
    for root in roots:
        if not os.path.isdir(root) or os.path.islink(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".pyc"):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
                    continue
                if not os.access(path, os.R_OK):
                    continue
                found.append((path, st.st_size, st.st_mode))
    found.sort()
    return found


class Generator:
    def __init__(self, out, size, seed):
        self.out = out
        self.size = size
        self.seed = seed
        self.files = []             # (relpath, size) of every file written, in order
        self.stats = {}             # category -> [count, bytes]

    def rng(self, name):
        return random.Random(f"stele-bench/{self.seed}/{name}")

    def _add(self, category, rel, nbytes):
        self.files.append((rel, nbytes))
        c = self.stats.setdefault(category, [0, 0])
        c[0] += 1
        c[1] += nbytes

    def _path(self, rel):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path

    def copy_real(self, category, roots, prefix, budget):
        rng = self.rng(category)
        cands = list_candidates(roots)
        rng.shuffle(cands)
        # Cap single files so one huge library cannot eat the whole budget.
        cap = max(64 * KiB, min(32 * MiB, budget // 8))
        left = budget
        for src, size, mode in cands:
            if left < 256:
                break
            if size > cap or size > left:
                continue
            rel = os.path.join(prefix, os.path.relpath(src, "/usr"))
            dst = self._path(rel)
            try:
                shutil.copyfile(src, dst, follow_symlinks=False)
            except OSError:
                try:
                    os.unlink(dst)
                except OSError:
                    pass
                continue
            os.chmod(dst, (mode & 0o777) | 0o600)
            written = os.path.getsize(dst)
            self._add(category, rel, written)
            left -= written
        if left > budget // 10:
            print(f"warning: {category}: only {human(budget - left)} of {human(budget)} available "
                  f"under {' '.join(roots)}", file=sys.stderr)

    def big_random(self, budget):
        rng = self.rng("big")
        scale = min(1.0, self.size / GiB)
        lo, hi = max(64 * KiB, int(16 * MiB * scale)), max(128 * KiB, int(48 * MiB * scale))
        left, i = budget, 0
        while left >= 64 * KiB:
            size = min(left, rng.randint(lo, hi))
            rel = os.path.join(BIG_DIR, f"big-{i:03d}.bin")
            write_random(self._path(rel), size, rng)
            self._add("random big", rel, size)
            left -= size
            i += 1

    def logs(self, budget):
        rng = self.rng("logs")
        services = ["api", "worker", "billing", "gateway", "search", "auth"]
        left, i = budget, 0
        while left > 1024:
            svc = services[i % len(services)]
            size = min(left, log_uniform(rng, 64 * KiB, 6 * MiB))
            rel = os.path.join(LOG_DIR, svc, f"{svc}-{i // len(services):04d}.log")
            data = LogWriter(rng).text(size)
            with open(self._path(rel), "wb") as f:
                f.write(data)
            self._add("logs", rel, len(data))
            left -= len(data)
            i += 1

    def small_random(self, budget, n_tiny):
        # Thousands of small files (1-16 KiB) in a nested tree: tree/NN/NN/NN/.
        rng = self.rng("tiny")
        used = 0
        for k in range(n_tiny):
            size = log_uniform(rng, 1 * KiB, 16 * KiB)
            leaf = k // 24
            rel = os.path.join("tree", f"{leaf // 256:02d}", f"{leaf // 16 % 16:02d}",
                               f"{leaf % 16:02d}", f"f{k:06d}.dat")
            write_random(self._path(rel), size, rng)
            self._add("random tree (1-16 KiB)", rel, size)
            used += size
        # The rest: 1 KiB - 2 MiB, spread over a shallow tree.
        rng = self.rng("mid")
        left, i = budget - used, 0
        while left >= 1 * KiB:
            size = min(left, log_uniform(rng, 1 * KiB, 2 * MiB))
            rel = os.path.join("random", "files", f"d{i // 64:03d}", f"r{i:05d}.bin")
            write_random(self._path(rel), size, rng)
            self._add("random 1 KiB-2 MiB", rel, size)
            left -= size
            i += 1

    def duplicates(self, budget):
        rng = self.rng("dups")
        originals = list(self.files)
        left, tries = budget, 0
        seen = set()
        while left >= 256 and tries < 50 * len(originals) + 100:
            tries += 1
            rel, size = rng.choice(originals)
            if size > left or rel in seen:
                continue
            seen.add(rel)
            dup = os.path.join("dup", rel)
            shutil.copyfile(os.path.join(self.out, rel), self._path(dup))
            self._add("duplicates", dup, size)
            left -= size

    def finish_metadata(self):
        """Deterministic modes and mtimes for every file and directory."""
        rng = self.rng("mtimes")
        for rel, _ in self.files:
            t = BASE_MTIME + rng.randrange(365 * 86400)
            os.utime(os.path.join(self.out, rel), (t, t))
        for dirpath, dirnames, _ in sorted(os.walk(self.out), key=lambda w: w[0], reverse=True):
            os.chmod(dirpath, 0o755)
            os.utime(dirpath, (BASE_MTIME, BASE_MTIME))

    def run(self):
        size = self.size
        target_files = max(100, round(FILES_PER_GIB * size / GiB))
        b_share, b_sys = int(size * 0.30), int(size * 0.32)
        b_big, b_rand = int(size * 0.10), int(size * 0.15)
        b_logs = int(size * 0.08)
        b_dups = size - (b_share + b_sys + b_big + b_rand + b_logs)   # ~5%

        self.copy_real("usr/share", SHARE_ROOTS, "share", b_share)
        self.copy_real("usr/lib,bin", SYS_ROOTS, "sys", b_sys)
        self.big_random(b_big)
        self.logs(b_logs)
        # Enough tiny files to reach the target count; mid-size random files
        # (mean ~270 KiB) and duplicates (about 5% of the files) come on top.
        est_mid = b_rand // (270 * KiB)
        n_tiny = max(0, int(target_files * 0.95) - len(self.files) - est_mid)
        n_tiny = min(n_tiny, int(b_rand * 0.6) // (5 * KiB + 512))
        self.small_random(b_rand, n_tiny)
        self.duplicates(b_dups)
        self.finish_metadata()


def generate(out, size, seed):
    if os.path.exists(out) and os.listdir(out):
        sys.exit(f"error: {out} exists and is not empty; generate into a new directory")
    os.makedirs(out, exist_ok=True)
    t0 = time.monotonic()
    g = Generator(out, size, seed)
    g.run()
    total = sum(s for _, s in g.files)
    ndirs = sum(len(d) for _, d, _ in os.walk(out))
    print(f"dataset {out}: seed {seed}, requested {human(size)}")
    for cat, (n, b) in g.stats.items():
        print(f"  {cat:26s} {n:7d} files {human(b):>11s} {100.0 * b / max(1, total):5.1f}%")
    print(f"  {'total':26s} {len(g.files):7d} files {human(total):>11s}  ({total} bytes, {ndirs} dirs)")
    print(f"  generated in {time.monotonic() - t0:.1f} s")
    print(f"  fingerprint {fingerprint(out)} (paths and sizes)")


# ---------------------------------------------------------------- mutation

def walk_files(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            out.append(rel)
    out.sort()
    return out


def fingerprint(root):
    """16 hex digits of SHA-256 over the sorted relative paths and sizes of every file under root.

    The /usr picks depend on the machine's packages, so two sets of the same size and seed can
    differ; their reports then show different fingerprints.
    """
    entries = []
    for d, _, names in os.walk(root):
        for n in names:
            path = os.path.join(d, n)
            entries.append((os.path.relpath(path, root), os.lstat(path).st_size))
    h = hashlib.sha256()
    for rel, size in sorted(entries):
        h.update(f"{rel}\0{size}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:16]


def mutate(root, seed):
    if not os.path.isdir(root):
        sys.exit(f"error: {root} is not a directory")
    t0 = time.monotonic()
    rng = random.Random(f"stele-bench-mutate/{seed}")
    files = walk_files(root)
    n = len(files)
    if n == 0:
        sys.exit(f"error: {root} holds no files")
    dirs = sorted({os.path.dirname(f) for f in files})
    # The 5 biggest random files (the 16-48 MiB ones, topped up from the smaller random files).
    big = [f for f in files if f.startswith("random" + os.sep)]
    big.sort(key=lambda f: (-os.path.getsize(os.path.join(root, f)), f))
    big = big[:5]
    logs = [f for f in files if f.startswith(LOG_DIR + os.sep)]
    big_set = set(big)
    others = [f for f in files if f not in big_set and not f.startswith(LOG_DIR + os.sep)]
    rng.shuffle(others)

    n_del, n_over = round(n * 0.01), round(n * 0.015)
    n_app, n_new = round(n * 0.01), round(n * 0.015)
    to_del = others[:n_del]
    to_over = others[n_del:n_del + n_over]
    to_app = others[n_del + n_over:n_del + n_over + n_app]
    new_bytes = 0
    count = {"deleted": 0, "overwritten": 0, "appended": 0, "logs appended": 0,
             "inserted 1 KiB": 0, "new random": 0, "new text": 0}

    for rel in to_del:
        os.unlink(os.path.join(root, rel))
        count["deleted"] += 1

    for rel in to_over:                       # same size, new bytes in the middle
        path = os.path.join(root, rel)
        size = os.path.getsize(path)
        if size == 0:
            continue
        length = min(size, rng.randint(256, 32 * KiB))
        with open(path, "r+b") as f:
            f.seek((size - length) // 2)
            f.write(rng.randbytes(length))
        count["overwritten"] += 1
        new_bytes += length

    logw = LogWriter(rng)
    for rel in to_app:                        # grow at the end, text or binary
        nbytes = log_uniform(rng, KiB, 64 * KiB)
        data = logw.text(nbytes) if rng.random() < 0.5 else rng.randbytes(nbytes)
        with open(os.path.join(root, rel), "ab") as f:
            f.write(data)
        count["appended"] += 1
        new_bytes += len(data)

    logs_sorted = sorted(logs, key=lambda f: (-os.path.getsize(os.path.join(root, f)), f))
    for rel in logs_sorted[:4]:               # live logs keep growing
        data = logw.text(rng.randint(64 * KiB, 512 * KiB))
        with open(os.path.join(root, rel), "ab") as f:
            f.write(data)
        count["logs appended"] += 1
        new_bytes += len(data)

    for rel in big:                           # shift everything after the middle by 1 KiB
        path = os.path.join(root, rel)
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.seek(size // 2)
            tail = f.read()
            f.seek(size // 2)
            f.write(rng.randbytes(KiB))
            f.write(tail)
        count["inserted 1 KiB"] += 1
        new_bytes += KiB

    for i in range(n_new):                    # new files in existing directories
        d = rng.choice(dirs)
        size = log_uniform(rng, KiB, 384 * KiB)
        if i % 2 == 0:
            rel = os.path.join(d, f"new-s{seed}-{i:05d}.bin")
            data = rng.randbytes(size)
            count["new random"] += 1
        else:
            rel = os.path.join(d, f"new-s{seed}-{i:05d}.txt")
            data = logw.text(size)
            count["new text"] += 1
        with open(os.path.join(root, rel), "wb") as f:
            f.write(data)
        new_bytes += len(data)

    print(f"mutated {root}: seed {seed}, {n} files before")
    for k, v in count.items():
        print(f"  {k:16s} {v:6d}")
    print(f"  new bytes        {human(new_bytes)} ({new_bytes} bytes)")
    print(f"  mutated in {time.monotonic() - t0:.1f} s")
    print(f"  fingerprint {fingerprint(root)} (paths and sizes)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("out", nargs="?", metavar="OUT", help="directory to generate into")
    p.add_argument("--size", type=parse_size, default=GiB, help="dataset size (default 1G)")
    p.add_argument("--seed", type=int, default=None, help="seed (default 1; 2 with --mutate)")
    p.add_argument("--mutate", metavar="DIR", help="mutate DIR in place instead of generating")
    a = p.parse_args()
    if a.mutate:
        if a.out:
            p.error("give either OUT or --mutate DIR, not both")
        mutate(a.mutate, 2 if a.seed is None else a.seed)
    elif a.out:
        if a.size < 1 * MiB:
            p.error("--size must be at least 1M")
        generate(a.out, a.size, 1 if a.seed is None else a.seed)
    else:
        p.error("OUT or --mutate DIR is required")


if __name__ == "__main__":
    main()
