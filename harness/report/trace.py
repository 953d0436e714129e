"""The drawings of a search's trace: a box-drawing text tree and a figure.

The trace itself (:class:`TraceNode`, recorded by :class:`TracingSearch`) is the search
layer's: :mod:`harness.search.trace`. How a child was searched, in the notation of the
zero-window-pruning note: ``F`` a search with the node's window, ``Z`` a zero-window test,
``Z+F`` a test that failed high and was searched again (the second search is the
re-search), ``Skp`` a successor whose full search was skipped after its test. Moves a node
never searched (cut off) are listed the way the GNUchess study prints "Nodes cutoff: ...".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from harness.games.base import INF
from harness.search.trace import TraceNode, TracingSearch, totals

__all__ = ["TraceNode", "TracingSearch", "merge_researches", "render_image", "render_text", "totals"]


def _window(alpha: int, beta: int) -> str:
    def end(v: int) -> str:
        return "-inf" if v <= -INF else "inf" if v >= INF else str(v)
    return f"({end(alpha)}, {end(beta)})"


def _label(node: TraceNode, merged: str | None = None) -> str:
    how = merged or node.how
    head = "root" if how == "root" else f"{how} {node.move}"
    value = "?" if node.value is None else str(node.value)
    kind = f"  {node.kind}" if node.kind else ""
    return f"{head} {_window(node.alpha, node.beta)} = {value}{kind}"


def merge_researches(children: Sequence[TraceNode]) -> list[tuple[str, TraceNode, TraceNode | None]]:
    """Pair each failed-high test with its re-search: ``(how, shown node, test or None)``
    where ``how`` is ``F``, ``N`` (null move), ``Z/Skp`` (a test that proved the
    successor no better: its full search was skipped), ``Z/kept`` (a test that failed
    high and was not re-searched, e.g. Belle's pending move), or ``Z+F`` (the re-search is
    shown, its test beside it)."""
    out: list[tuple[str, TraceNode, TraceNode | None]] = []
    i = 0
    while i < len(children):
        node = children[i]
        follow = children[i + 1] if i + 1 < len(children) else None
        if node.how == "Z" and follow is not None and follow.how == "R" and follow.move == node.move:
            out.append(("Z+F", follow, node))
            i += 2
            continue
        if node.how == "Z":
            # The parent's test failed high when the child failed low; otherwise the
            # successor was proved no better and its full search skipped.
            how = "Z/kept" if node.value is not None and node.value <= node.alpha else "Z/Skp"
        else:
            how = node.how
        out.append((how, node, None))
        i += 1
    return out


def render_text(passes: Sequence[TraceNode], max_nodes: int = 400) -> str:
    """The trace as a box-drawing tree, one pass after another; beyond ``max_nodes`` lines
    the rest of each pass is summarised."""
    lines: list[str] = []
    budget = [max_nodes]

    def draw(node: TraceNode, prefix: str, merged: str | None, test: TraceNode | None) -> None:
        for (how, child, child_test), last in _with_last(merge_researches(node.children)):
            if budget[0] <= 0:
                rest = sum(1 for c in node.children for _ in c.walk())
                lines.append(f"{prefix}└─ … {rest} more nodes")
                return
            budget[0] -= 1
            branch, extension = ("└─ ", "   ") if last and not node.cut_off else ("├─ ", "│  ")
            label = _label(child, how.split("/")[0])
            if how == "Z+F" and child_test is not None:
                label += f"   [test {_window(child_test.alpha, child_test.beta)} = {child_test.value}]"
            if how == "Z/Skp":
                label += "   Skp"
            if how == "Z/kept":
                label += "   failed high, not re-searched"
            lines.append(prefix + branch + label)
            draw(child, prefix + extension, None, None)
        if node.cut_off:
            lines.append(f"{prefix}└─ cut off: {' '.join(node.cut_off)}")

    for number, root in enumerate(passes, 1):
        if len(passes) > 1:
            lines.append(f"pass {number}")
        lines.append(_label(root))
        budget[0] = max_nodes
        draw(root, "", None, None)
    return "\n".join(lines)


def _with_last(items: Sequence[tuple[str, TraceNode, TraceNode | None]]
               ) -> Iterator[tuple[tuple[str, TraceNode, TraceNode | None], bool]]:
    for i, item in enumerate(items):
        yield item, i == len(items) - 1


_COLOURS = {"F": "#222222", "N": "#7a4fbf", "Z+F": "#d9730d", "Z/Skp": "#1f77b4",
            "Z/kept": "#2ca02c", "root": "#222222"}
IMAGE_NODES = 120
"""Most nodes drawn in an image; deeper plies of a larger pass are summarised."""


def render_image(columns: Sequence[tuple[str, Sequence[TraceNode]]], path_without_suffix: str,
                 max_nodes: int = IMAGE_NODES) -> tuple[str, str]:
    """Draw the last pass of each ``(title, passes)`` side by side as a tree (PNG and SVG).

    Each node shows how it was searched, its move, window and value; its outline says its
    type (thick: PV, dashed: All, plain: Cut, none: leaf). A pass with more than
    ``max_nodes`` nodes is drawn only to the deepest ply that fits, with the number of
    nodes below each cut-off node written under it.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from harness.report import charts

    layouts = [(title, _layout(passes[-1], max_nodes)) for title, passes in columns]
    widest = max(max(x for x, _, _, _ in layout[0]) + 1 for _, layout in layouts)
    deepest = max(max(-y for _, y, _, _ in layout[0]) + 1 for _, layout in layouts)
    with charts.chart_style():
        fig = Figure(figsize=(min(max(6.0, 1.0 * widest * len(columns) + 1), 60), 1.4 + 1.2 * deepest),
                     layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(1, len(columns), squeeze=False)[0]
        for ax, (title, (placed, edges, hidden)) in zip(axes, layouts, strict=True):
            for (x0, y0), (x1, y1), how in edges:
                ax.plot([x0, x1], [y0, y1], color=_COLOURS.get(how, "#222222"),
                        linewidth=2.4 if how in ("F", "root") else 1.2,
                        linestyle=":" if how == "Z/Skp" else "-", zorder=1)
            for x, y, node, how in placed:
                style = {"PV": ("-", 2.2), "Cut": ("-", 0.9), "All": ("--", 0.9)}.get(node.kind)
                box: dict[str, object] = {"boxstyle": "round,pad=0.25", "facecolor": "white",
                                          "edgecolor": "none"}
                if style is not None:
                    box.update(edgecolor=_COLOURS.get(how, "#222222"), linestyle=style[0],
                               linewidth=style[1])
                head = "root" if how == "root" else f"{how.replace('/kept', '')} {node.move}"
                ax.text(x, y, f"{head}\n{_window(node.alpha, node.beta)}\n= {node.value} {node.kind}",
                        ha="center", va="center", fontsize=8, bbox=box, zorder=2,
                        color=_COLOURS.get(how, "#222222"))
                if id(node) in hidden:
                    ax.text(x, y - 0.45, f"+{hidden[id(node)]} below", ha="center", va="top",
                            fontsize=6, color="#777777")
            ax.set_title(title)
            ax.set_xlim(-0.6, widest - 0.4)
            ax.set_ylim(-deepest + 0.3, 0.7)
            ax.axis("off")
        legend = [Line2D([], [], color=c, linewidth=2, linestyle=":" if k == "Z/Skp" else "-",
                         label={"F": "F: full window", "N": "N: null move", "Z+F": "Z+F: test, re-search",
                                "Z/Skp": "Z, Skp: test proved it no better",
                                "Z/kept": "Z: failed high, kept"}[k])
                  for k, c in _COLOURS.items() if k != "root"]
        fig.legend(handles=legend, loc="lower center", ncol=5, fontsize=7, frameon=False)
        png, svg = charts.save(fig, path_without_suffix)
    return str(png), str(svg)


Placed = list[tuple[float, float, TraceNode, str]]
Edges = list[tuple[tuple[float, float], tuple[float, float], str]]


def _layout(root: TraceNode, max_nodes: int) -> tuple[Placed, Edges, dict[int, int]]:
    """Place nodes (leaves left to right, parents over their children), no deeper than
    the deepest ply at which the pass still fits in ``max_nodes``."""
    per_ply: dict[int, int] = {}

    def count(node: TraceNode, ply: int) -> None:
        per_ply[ply] = per_ply.get(ply, 0) + 1
        for child in node.children:
            count(child, ply + 1)

    count(root, 0)
    limit, total = 0, 0
    for ply in sorted(per_ply):
        total += per_ply[ply]
        if total > max_nodes and ply > 0:
            break
        limit = ply
    placed: Placed = []
    edges: Edges = []
    hidden: dict[int, int] = {}
    next_x = [0.0]

    def place(node: TraceNode, ply: int, how: str) -> float:
        shown = merge_researches(node.children) if ply < limit else []
        if node.children and ply >= limit:
            hidden[id(node)] = sum(1 for c in node.children for _ in c.walk())
        if not shown:
            x = next_x[0]
            next_x[0] += 1
        else:
            xs = [place(child, ply + 1, child_how) for child_how, child, _ in shown]
            x = sum(xs) / len(xs)
            for (child_how, _, _), cx in zip(shown, xs, strict=True):
                edges.append(((x, -ply), (cx, -ply - 1), child_how))
        placed.append((x, -ply, node, how))
        return x

    place(root, 0, "root")
    return placed, edges, hidden
