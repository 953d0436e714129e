"""The trees of the two SSS* claims (Stockman's dominance, Plaat et al.'s equivalence), and
what they share: explicit trees shipped with the package (``harness/reproduce/trees``), the
same in every phase, and synthetic trees of several shapes, orderings and value models,
seeded per claim; one job per tree, each run traced for the leaves it evaluated
(:attr:`harness.reproduce.measure.Run.leaves`); the counter-examples per set; the chart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources

import pandas as pd
from matplotlib.figure import Figure

from harness.games.registry import load_problems
from harness.report import charts
from harness.reproduce.measure import Job, Run, Scale
from harness.search.run import Switches

PLAIN = Switches()
"""No table, no switch: the search as its pseudocode has it."""

EXPLICIT = ("textbook", "tied-siblings", "small-table", "uneven", "all-equal")
"""The explicit trees, by file name: the textbook tree (value 3), siblings whose values
tie (the hash move's counter-example in ``tests/test_sss.py``), a tree where a small table
costs a leaf, a tree of uneven depth, a tree whose leaves are all equal."""

ORDERINGS = ("random", "0.5", "0.9", "perfect", "worst")
"""The synthetic trees' orderings: the chance that the best child is first, or none."""

VALUE_MODELS = {
    "distinct": "values=uniform,range=1000000000",
    "tied": "values=uniform,range=2",
    "incremental": "values=incremental,range=50",
}
"""The synthetic trees' value models: independent values from a wide range (ties rare),
from [-2, 2] (ties everywhere), incremental values with small edges (as claim 5's)."""

EXPLICIT_SET = "explicit trees"
"""The set of the explicit trees."""


def set_name(model: str) -> str:
    """The set of the synthetic trees of a value model."""
    return f"synthetic trees, {model} values"


SETS = (EXPLICIT_SET, *(set_name(m) for m in VALUE_MODELS))
"""Every set, in report order: each is counted apart."""


def explicit_path(name: str) -> str:
    """Where an explicit tree's file is (inside the package)."""
    return str(resources.files("harness.reproduce") / "trees" / f"{name}.json")


def tree_jobs(dataset: str, runs: Callable[[int], tuple[Run, ...]], scale: Scale) -> list[Job]:
    """The explicit trees, then every (shape, value model, ordering) with the scale's number
    of trees (the dataset's seed), each searched to its height with ``runs(depth)``."""
    found: list[Job] = []
    for name in EXPLICIT:
        problem = load_problems(f"tree:{explicit_path(name)}").problems[0]
        tags = (("dataset", dataset), ("set", EXPLICIT_SET), ("shape", name),
                ("ordering", "as written"))
        found.append((tags, problem, runs(problem.default_depth)))
    seed = scale.seed_of(dataset)
    for shape in scale.best_first_shapes:
        for model, values in VALUE_MODELS.items():
            for ordering in ORDERINGS:
                spec = (f"random:{shape},n={scale.best_first_trees},seed={seed},"
                        f"ordering={ordering},{values}")
                tags = (("dataset", dataset), ("set", set_name(model)), ("shape", shape),
                        ("ordering", ordering))
                found += [(tags, p, runs(p.default_depth)) for p in load_problems(spec).problems]
    return found


def traced(config: str, variant: str, depth: int, switches: Switches = PLAIN) -> Run:
    """A run traced for its nodes and leaves."""
    return Run(config, variant, depth, switches, visited=True, leaves=True)


def per_tree(frame: pd.DataFrame, runs: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """One row per tree: its set, shape and ordering, and for each ``(config, variant)`` run
    its ``score``, ``leaves``, ``leaves_digest`` and ``new_leaves``, suffixed ``@variant``
    (``@config/variant`` outside the config ``default``)."""
    key = ["set", "shape", "ordering", "suite", "problem_id"]
    out: pd.DataFrame | None = None
    for config, variant in runs:
        part = frame[(frame["config"] == config) & (frame["variant"] == variant)]
        label = variant if config == "default" else f"{config}/{variant}"
        part = part[[*key, "score", "leaves", "leaves_digest", "new_leaves"]].rename(
            columns={c: f"{c}@{label}" for c in ("score", "leaves", "leaves_digest", "new_leaves")})
        out = part if out is None else out.merge(part, on=key, how="outer")
    assert out is not None
    return out.reset_index(drop=True)


def counter_examples(trees: pd.DataFrame, wrong: Callable[[pd.DataFrame], pd.Series]
                     ) -> dict[str, dict[str, int]]:
    """Per set (in :data:`SETS` order, those measured): its trees and the trees where
    ``wrong`` holds."""
    found: dict[str, dict[str, int]] = {}
    for name in SETS:
        part = trees[trees["set"] == name]
        if len(part):
            found[name] = {"problems": len(part), "counter_examples": int(wrong(part).sum())}
    return found


def leaves_chart(trees: pd.DataFrame, x: str, ys: Sequence[tuple[str, str]], xlabel: str,
                 ylabel: str, title: str, diagonal: str) -> Figure:
    """Each tree a point per ``(column, label)`` of ``ys`` against the column ``x``, on
    log scales, with the diagonal."""
    with charts.chart_style():
        fig = charts.figure(6.5, 5.0)
        ax = fig.add_subplot()
        for i, (column, label) in enumerate(ys):
            style = charts.variant_style(i)
            ax.scatter(trees[x], trees[column], label=label, marker=style["marker"],
                       s=60 - 20 * i, facecolors="none" if i else style["color"],
                       edgecolors=style["color"], linewidths=1.2, zorder=2 + i)
        top = float(max(trees[x].max(), *(trees[c].max() for c, _ in ys))) * 1.5
        ax.plot([1, top], [1, top], color="black", linestyle="--", linewidth=1, label=diagonal)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(loc="upper left")
    return fig


def sets_text(found: dict[str, dict[str, int]]) -> str:
    """``explicit trees: 0 of 5; synthetic trees, distinct values: 0 of 60`` (counter-examples
    of trees)."""
    return "; ".join(f"{name}: {x['counter_examples']} of {x['problems']}" for name, x in found.items())


def setup_text(scale: Scale, dataset: str) -> str:
    """The trees in words."""
    return (f"The explicit trees ({', '.join(EXPLICIT)}: harness/reproduce/trees, searched to "
            f"their height) and synthetic trees of shapes {', '.join(scale.best_first_shapes)} "
            f"(b=LO-HI: branching drawn per node), orderings {', '.join(ORDERINGS)}, value "
            f"models " + ", ".join(f"{m} ({v})" for m, v in VALUE_MODELS.items())
            + f", {scale.best_first_trees} tree(s) each (seed {scale.seed_of(dataset)}), "
            "searched to their depth; every run traced for the leaves it evaluated (a leaf "
            "named by the moves from the root).")
