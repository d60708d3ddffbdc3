#!/usr/bin/env python3
"""A randomized sweep of RWF_DONTCACHE reads: the cases of the mixed sweep
(sweep-mixed.py, the same seed) with 'rwf dontcache' and 'rwf none' put
between their ops at random, per descriptor ('rwf none' before each
write, which is refused under dontcache).

usage: sweep-dontcache.py SEED N DIR   (then record each with ralab kernel)
"""
import os
import random
import subprocess
import sys
import tempfile

WRITES = ("write", "pwrite", "fio-pwrite")


def rewrite(text, rng):
    out, cur, nfd, on = [], 0, 1, {}
    for line in text.splitlines():
        w = line.split()
        if not w or w[0].startswith("#") or w[0] in ("job",):
            out.append(line)
            continue
        if w[0] == "open" or (w[0] == "file" and len(w) >= 3):
            out.append(line)
            if w[0] == "open":
                cur, nfd = nfd, nfd + 1
            continue
        if w[0] == "fd":
            cur = int(w[1])
            out.append(line)
            continue
        if w[0] in WRITES and on.get(cur):
            out.append("rwf none")
            on[cur] = False
        elif w[0] not in WRITES and rng.random() < 0.3:
            on[cur] = not on.get(cur)
            out.append("rwf dontcache" if on[cur] else "rwf none")
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    seed, n, top = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    here = os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(seed * 7919 + 17)
    with tempfile.TemporaryDirectory() as t:
        subprocess.run([sys.executable, os.path.join(here, "sweep-mixed.py"),
                        str(seed), str(n), t], check=True,
                       stdout=subprocess.DEVNULL)
        for name in sorted(os.listdir(t)):
            with open(os.path.join(t, name, "case.ops")) as f:
                text = f.read()
            text = text.replace("# mixed sweep, seed %d" % seed,
                                "# dontcache sweep, seed %d (mixed sweep "
                                "%d with rwf toggles)" % (seed, seed), 1)
            d = os.path.join(top, "dc" + name[1:])
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "case.ops"), "w") as f:
                f.write(rewrite(text, rng))
            print(d)


if __name__ == "__main__":
    main()
