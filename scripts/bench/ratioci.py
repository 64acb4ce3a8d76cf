"""Verdicts on a target for a median of per-round ratios, shared by
benchtable.py (make bench) and scripts/bench/coalesce-table.py (make
bench-coalesce).

The interval is the distribution-free one for a median: order statistics
of the per-round ratios chosen by the sign test, at least CONF coverage.
A target is met when the whole interval satisfies it, MISSED when none of
it does, and otherwise not resolved by the run: the rounds cannot tell
the two apart, whatever the median says."""
import math

CONF = 0.90


def median_ci(xs, conf=CONF):
    """(lo, hi, coverage) for the median of xs, or None with too few."""
    xs = sorted(xs)
    n = len(xs)
    k, cum = 0, 0.0
    for j in range(n):
        cum += math.comb(n, j) / 2 ** n
        if cum > (1 - conf) / 2:
            break
        k = j + 1
    if k == 0:
        return None
    tail = sum(math.comb(n, j) for j in range(k)) / 2 ** n
    return xs[k - 1], xs[n - k], 1 - 2 * tail


def verdict(xs, bound, at_least=True, missed="NOT met"):
    """One phrase: the verdict on "ratio >= bound" (at_least) or
    "ratio <= bound", the interval and how many rounds satisfied it."""
    ok = [x >= bound if at_least else x <= bound for x in xs]
    ci = median_ci(xs)
    if ci is None:
        return "not resolved: %d round(s) are too few for an interval" % len(xs)
    lo, hi, cov = ci
    good, bad = (lo >= bound, hi < bound) if at_least else (hi <= bound, lo > bound)
    word = "met" if good else missed if bad else \
        "not resolved (%.2f inside the interval)" % bound
    return "%s; %.0f%% CI %.2f-%.2f, %s %.2f in %d of %d rounds" % (
        word, 100 * cov, lo, hi, ">=" if at_least else "<=", bound,
        sum(ok), len(xs))
