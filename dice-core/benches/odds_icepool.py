"""Times icepool on the expressions of `cargo bench -p dice-core --bench odds`.

Run: python3 dice-core/benches/odds_icepool.py (needs `pip install icepool`;
this script installs nothing). Each expression is built from scratch and its
distribution computed (icepool caches, so the caches are cleared between
runs, as our benchmark computes from scratch); the warm column keeps them,
which is icepool at its best on a repeated question. Figures are medians in
milliseconds.
"""

import gc
import statistics
import time

import icepool
from icepool import d, Die
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase


def fate():
    return 4 @ Die([-1, 0, 1])


def explode():
    # As deep as our 1e-12 cut: 12 explosions per die.
    return 6 @ d(10).explode(depth=12)


CASES = [
    ("3d6", lambda: 3 @ d(6)),
    ("4d6kh3", lambda: d(6).highest(4, 3)),
    ("8d6", lambda: 8 @ d(6)),
    ("100d6", lambda: 100 @ d(6)),
    ("50d20", lambda: 50 @ d(20)),
    ("10d10cs>=8sf1", lambda: 10 @ d(10).map(lambda x: 1 if x >= 8 else (-1 if x == 1 else 0))),
    ("6d10!", explode),
    ("2d20kh1+5", lambda: d(20).highest(2, 1) + 5),
    ("20d6kh10", lambda: d(6).highest(20, 10)),
    ("10d10kh5", lambda: d(10).highest(10, 5)),
    ("4dF", fate),
    ("d{1,1,2,3}*3", lambda: Die([1, 1, 2, 3]) * 3),
]


def clear_caches():
    # icepool memoises standard dice, pool sources and evaluations (on the
    # evaluator objects); a fair run starts cold, like ours.
    icepool.d.cache_clear()
    icepool.Pool.clear_cache()
    for obj in gc.get_objects():
        if isinstance(obj, MultisetEvaluatorBase):
            for name in ("_cache", "ascending_cache", "descending_cache"):
                cache = getattr(obj, name, None)
                if isinstance(cache, dict):
                    cache.clear()


def measure(build, cold, budget=1.5):
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < budget or len(times) < 5:
        if cold:
            clear_caches()
        t0 = time.perf_counter()
        die = build()
        die.probabilities()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def main():
    print(f"icepool {icepool.__version__}: median ms, cold caches / warm caches")
    for name, build in CASES:
        cold = measure(build, cold=True)
        warm = measure(build, cold=False)
        print(f"{name:16} {cold:10.3f} {warm:10.3f}")


if __name__ == "__main__":
    main()
