#!/usr/bin/env python3
"""Builds a real corpus from the man pages and package documentation installed on a
Debian machine: one JSONL record per file, {"id": path, "text": contents}.

It has what the acceptance tests want: tens of thousands of documents, translations,
versioned copies and boilerplate-heavy pages (licence texts, API reference pages) that
form near-duplicate clusters of thousands.

usage: bench/data/debian_corpus.py OUTPUT.jsonl [--max-mb 160]
"""
import argparse
import gzip
import json
import os
import sys

ROOTS = ["/usr/share/man", "/usr/share/doc"]


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
        if path.endswith(".gz"):
            data = gzip.decompress(data)
    except (OSError, EOFError, gzip.BadGzipFile):
        return None
    if b"\0" in data[:4096]:  # binary file
        return None
    return data.decode("utf-8", errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output")
    ap.add_argument("--max-mb", type=float, default=160.0, help="stop after this many MB of text")
    args = ap.parse_args()
    limit = args.max_mb * 1e6
    total = 0
    count = 0
    with open(args.output, "w", encoding="utf-8") as out:
        for root in ROOTS:
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames.sort()
                for name in sorted(filenames):
                    path = os.path.join(dirpath, name)
                    if os.path.islink(path) or not os.path.isfile(path):
                        continue
                    text = read_text(path)
                    if text is None or not text.strip():
                        continue
                    out.write(json.dumps({"id": path, "text": text}, ensure_ascii=False) + "\n")
                    total += len(text.encode("utf-8"))
                    count += 1
                    if total >= limit:
                        break
                if total >= limit:
                    break
    print(f"{args.output}: {count} documents, {total / 1e6:.1f} MB of text", file=sys.stderr)


if __name__ == "__main__":
    main()
