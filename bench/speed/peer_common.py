"""What the peer runs of bench/speed/field_compare.py share: their command line, the corpus
read in chunks, gpudedup's clustering rule and its output formats.

Each peer (peer_rensa.py, peer_gaoya.py, peer_datasketch.py) runs in a process of its own,
so that its peak RSS is its own, and does gpudedup's task: threshold t, P values, the b x r
bands gpudedup chose, char k-grams over gpudedup's normalization (fold_shingles.py). A
candidate pair (j < i) that the tool's estimate puts at >= t joins i and j (union-find,
root = first in input order, pairs already in one cluster are not checked again where the
tool leaves the check to us); the pairs that joined two clusters go to --pairs and the
clusters to --clusters, in gpudedup's formats, so that both are scored like gpudedup's.
"""
import argparse
import json
import time


def parse_args(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--corpus", required=True, help="JSONL with id and text")
    ap.add_argument("--num-perm", type=int, default=256)
    ap.add_argument("--bands", type=int, required=True, help="b of gpudedup's stats")
    ap.add_argument("--rows", type=int, required=True, help="r of gpudedup's stats")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--ngram", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="the tool's native threads, where it has them")
    ap.add_argument("--chunk", type=int, default=1024,
                    help="documents per bulk call (their shingle sets are held at once)")
    ap.add_argument("--clusters", required=True, help="output: clusters JSONL")
    ap.add_argument("--pairs", required=True, help="output: pairs TSV")
    ap.add_argument("--result", required=True, help="output: JSON with stage seconds and counts")
    return ap.parse_args()


class StageTimer:
    """Seconds per stage, summed over chunks."""

    def __init__(self):
        self.seconds = {}
        self._last = time.perf_counter()

    def lap(self, stage):
        now = time.perf_counter()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + now - self._last
        self._last = now


def read_chunks(path, size, timer):
    """(ids, texts) of up to size records at a time; the time goes to stage "read"."""
    ids, texts = [], []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            ids.append(str(rec["id"]))
            texts.append(rec.get("text") or "")
            if len(ids) == size:
                timer.lap("read")
                yield ids, texts
                ids, texts = [], []
                timer.lap("read")  # what the caller did in between is its own stage
    if ids:
        timer.lap("read")
        yield ids, texts


class Clusters:
    """gpudedup's rule: union-find whose root is the first member in input order; the
    pairs that joined two clusters are kept for --pairs."""

    def __init__(self):
        self.parent = []
        self.joined = []  # (earlier, later, similarity)
        self.candidates = self.checked = 0

    def add(self, count):
        self.parent.extend(range(len(self.parent), len(self.parent) + count))

    def find(self, x):
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def together(self, a, b):
        return self.find(a) == self.find(b)

    def check(self, i, found, estimate, threshold):
        """Candidates j < i of document i: those not yet in i's cluster are checked by the
        tool's estimate(j) and joined when it reaches the threshold."""
        for j in sorted(found):
            if j >= i:
                continue
            self.candidates += 1
            if self.together(i, j):
                continue
            self.checked += 1
            s = estimate(j)
            if s >= threshold:
                self.join(j, i, s)

    def join(self, a, b, similarity):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if ra < rb:
            self.parent[rb] = ra
        else:
            self.parent[ra] = rb
        self.joined.append((min(a, b), max(a, b), similarity))


def write_outputs(args, ids, clusters, timer, extra):
    groups = {}
    for i in range(len(ids)):
        groups.setdefault(clusters.find(i), []).append(i)
    with open(args.clusters, "w", encoding="utf-8", errors="surrogateescape") as f:
        number = 0
        for root in sorted(groups):
            members = groups[root]
            if len(members) > 1:
                f.write(json.dumps({"cluster": number, "representative": ids[members[0]],
                                    "members": [ids[x] for x in members]}) + "\n")
                number += 1
    with open(args.pairs, "w", encoding="utf-8", errors="surrogateescape") as f:
        for a, b, s in clusters.joined:
            f.write(f"{ids[a]}\t{ids[b]}\t{s:.6f}\n")
    timer.lap("write")
    with open(args.result, "w") as f:
        json.dump(dict(documents=len(ids), pairs=len(clusters.joined), candidates=clusters.candidates,
                       checked=clusters.checked, seconds=timer.seconds, **extra), f)
