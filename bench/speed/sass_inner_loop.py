#!/usr/bin/env python3
"""SASS instructions per (shingle, permutation) of the MinHash kernels' inner loops.

    cuobjdump -sass OBJECT.cu.o > kernels.sass
    bench/speed/sass_inner_loop.py kernels.sass [KERNEL_REGEX]

For every kernel whose name matches KERNEL_REGEX (default: the classic and fused MinHash
kernels; a group named pt captures PT, the permutations per thread), finds the shortest backward
branch whose body holds at least PT IMNMX (the running minima): the loop over keys, whose
body folds one key into PT permutations. Prints its length, the length divided by PT and
its instruction mix. docs/performance.md has the figures and the command that made them.
"""
import re
import sys


def kernels(sass):
    for body in re.split(r"\n\s*Function : ", sass)[1:]:
        name = body.split("\n", 1)[0].strip()
        instructions = []
        for line in body.split("\n"):
            m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
            if m:
                instructions.append((int(m.group(1), 16), m.group(2).strip()))
        yield name, instructions


def inner_loop(instructions, pt):
    at = {address: i for i, (address, _) in enumerate(instructions)}
    best = None
    for i, (address, text) in enumerate(instructions):
        branch = re.search(r"BRA (0x[0-9a-f]+)", text)
        if not branch:
            continue
        target = int(branch.group(1), 16)
        if target >= address or target not in at:
            continue
        body = instructions[at[target] : i + 1]
        if sum("IMNMX" in t for _, t in body) >= pt and (best is None or len(body) < len(best)):
            best = body
    return best


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: sass_inner_loop.py KERNELS.sass [KERNEL_REGEX]")
    pattern = re.compile(sys.argv[2] if len(sys.argv) > 2 else r"(?:fused_)?minhash_kernelILi(?P<pt>\d+)E(?:Lb[01]E)?")
    with open(sys.argv[1]) as f:
        sass = f.read()
    for name, instructions in kernels(sass):
        m = pattern.search(name)
        if not m:
            continue
        pt = int(m.group("pt"))
        body = inner_loop(instructions, pt)
        if body is None:
            print(f"{m.group(0)}: no loop with {pt} minima found")
            continue
        mix = {}
        for _, text in body:
            op = text.split()[1] if text.startswith("@") else text.split()[0]
            mix[op] = mix.get(op, 0) + 1
        print(f"{m.group(0)}: {len(body)} instructions, {len(body) / pt:.3f} per (shingle, permutation); "
              + ", ".join(f"{op} {n}" for op, n in sorted(mix.items())))


if __name__ == "__main__":
    main()
