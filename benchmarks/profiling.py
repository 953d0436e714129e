"""Where the time goes: cProfile of the harness's ``alphabeta`` on one WAC position.

    python -m benchmarks.profiling [--position WAC.001] [--depth 3] [--variant alphabeta] [--top 10]

Profiles one ``run_search`` (no table, quiescence and MVV-LVA on, a fresh tree and
position cache), prints the top entries by cumulative and by own time, and saves the raw
profile as ``results/bench/profile-<position>-d<depth>.prof`` (for ``snakeviz`` or
``python -m pstats``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time

from benchmarks.common import OUT_DIR, ROOT, wac_path
from harness.games.chess.epd import load_suite
from harness.games.chess.tree import ChessTree
from harness.search.registry import make_spec
from harness.search.run import Switches, run_search


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling", description=__doc__)
    parser.add_argument("--position", default="WAC.001", help="EPD id [default: WAC.001].")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--variant", default="alphabeta")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    suite = load_suite(wac_path())
    found = [p for p in suite.positions if p.id == args.position]
    if not found:
        parser.error(f"no position {args.position!r} in {suite.path}")
    spec = make_spec(args.variant)
    tree = ChessTree(found[0].board())
    plain = time.perf_counter()
    run_search(ChessTree(found[0].board()), spec, args.depth, Switches())
    plain = time.perf_counter() - plain
    profiler = cProfile.Profile()
    profiler.enable()
    result = run_search(tree, spec, args.depth, Switches())
    profiler.disable()
    c = result.counters
    print(f"{args.variant} on {args.position}, depth {args.depth}: {c['nodes']:,} nodes, "
          f"{c['qnodes']:,} qnodes, {tree.cache.misses:,} positions analysed; "
          f"{plain:.3f}s unprofiled, {result.time_s:.3f}s profiled")
    for key in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(args.top)
        text = out.getvalue()
        print(f"\n== top {args.top} by {key} ==")
        print(text[text.find("   ncalls"):].rstrip())
    path = ROOT / OUT_DIR / f"profile-{args.position}-d{args.depth}.prof"
    path.parent.mkdir(parents=True, exist_ok=True)
    profiler.dump_stats(path)
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
