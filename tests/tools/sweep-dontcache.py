#!/usr/bin/env python3
"""A randomized sweep of RWF_DONTCACHE reads: the cases of the mixed sweep
(sweep-mixed.py, the same seed), or of the jobs sweep (sweep-jobs.py:
threads, each on its own file), with 'rwf dontcache' and 'rwf none' put
between their ops at random, per descriptor ('rwf none' before each
write).  With 'writes', a write under 'rwf dontcache' stays so, most of
the time, and a 20 ms pause follows it: the writeback it starts ends
before the next op looks at its folios (the model's ends at once).
From seed 25 on, a write op of several calls that stays so is written
as its calls one by one, each followed by the pause (two calls into one
page, back to back, meet the first one's writeback in flight: seed 24's
dc14).

usage: sweep-dontcache.py SEED N DIR [mixed|jobs] [writes]
       (then record each with ralab kernel)
"""
import os
import random
import subprocess
import sys
import tempfile

WRITES = ("write", "pwrite", "fio-pwrite")


def rewrite(text, rng, base, writes, seed):
    out, cur, nfd, on = [], "fd 0", 1, {}
    for line in text.splitlines():
        w = line.split()
        if not w or w[0].startswith("#") or w[0] in ("job",):
            out.append(line)
            continue
        if w[0] == "open" or (w[0] == "file" and len(w) >= 3):
            out.append(line)
            if w[0] == "open":
                cur, nfd = "fd %d" % nfd, nfd + 1
            continue
        if w[0] in ("fd", "use"):
            cur = w[0] + " " + w[1]
            out.append(line)
            # A job's reads are few: start it uncached more often.
            if base == "jobs" and w[0] == "use" and rng.random() < 0.6:
                on[cur] = True
                out.append("rwf dontcache")
            continue
        if w[0] in WRITES and on.get(cur) and writes and \
                rng.random() < 0.7:
            if seed >= 25 and w[0] == "write" and len(w) > 2 and \
                    w[2] != "1":
                for _ in range(int(w[2])):
                    out.append("write %s 1" % w[1])
                    out.append("pause 20000")
                continue
            if not (seed >= 25 and w[0] == "fio-pwrite"):
                out.append(line)
                out.append("pause 20000")
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
    base = sys.argv[4] if len(sys.argv) > 4 else "mixed"
    writes = len(sys.argv) > 5 and sys.argv[5] == "writes"
    if base not in ("mixed", "jobs") or (len(sys.argv) > 5 and not writes):
        sys.exit("usage: sweep-dontcache.py SEED N DIR [mixed|jobs] [writes]")
    here = os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(seed * 7919 + 17)
    with tempfile.TemporaryDirectory() as t:
        subprocess.run([sys.executable, os.path.join(here, "sweep-%s.py" % base),
                        str(seed), str(n), t], check=True,
                       stdout=subprocess.DEVNULL)
        for name in sorted(os.listdir(t)):
            with open(os.path.join(t, name, "case.ops")) as f:
                text = f.read()
            head = "# dontcache sweep, seed %d (%s sweep %d with rwf " \
                "toggles%s)\n" % (seed, base, seed,
                                  ", writes too" if writes else "")
            text = head + "\n".join(l for l in text.splitlines()
                                    if not l.startswith("# mixed sweep"))
            d = os.path.join(top, ("dc" + name[1:]) if base == "mixed"
                             else "dj" + name[2:])
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "case.ops"), "w") as f:
                f.write(rewrite(text, rng, base, writes, seed))
            print(d)


if __name__ == "__main__":
    main()
