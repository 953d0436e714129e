"""Every search variant, as a plain list of records, and ``find_variant``.

A variant is named with its options in the name, ``pvs:zw_min_depth=3,research_min_depth=2``;
:func:`parse_variants` reads a comma-separated list of such names (an item with ``=`` and
no ``:`` continues the options of the item before it), plus ``all`` and ``core``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from harness.errors import HarnessError
from harness.options import Option, Options, OptionValue, resolve
from harness.options import text as _text
from harness.plugins import load_entry_points
from harness.search import drivers
from harness.search.alphabeta import alphabeta, minimax
from harness.search.core import Loop
from harness.search.engine import NativeLoop
from harness.search.negascout import negascout, negascout_fs, scout
from harness.search.pvs import belle, pvs, pvs_marsland
from harness.search.sss import COUNTING as BEST_FIRST_COUNTING
from harness.search.sss import MAX_OPEN
from harness.search.sss import driver as best_first
from harness.search.zwp import zwp


@dataclass(frozen=True)
class Variant:
    """A registered search variant."""

    name: str
    """The name it is selected by."""
    description: str
    """One line on what it does."""
    source: str
    """Where it comes from: the reference text (in ``../shared/reference``) and authors."""
    loop: Callable[[Options], Loop] | None = None
    """Builds the loop searched at every node (the root loop for root-only variants)."""
    driver: Callable[[Options], drivers.Driver] | None = None
    """Builds the root driver; the default is one full-window pass of ``loop``."""
    options: Mapping[str, Option] = field(default_factory=dict)
    """The options it accepts, by name."""
    exact: bool = True
    """Whether its root score equals minimax at a full window (as a value, not a bound)."""
    returns_bounds: bool = False
    """Whether its score may be a bound on minimax's value, said so in the result's
    ``bound`` (Belle's root: an unresolved fail-high is a lower bound)."""
    inexact_with: Callable[[Options], str | None] | None = None
    """Options under which its answer need not hold minimax's value: given the options,
    the reason, or ``None`` when they keep it exact."""
    reference: bool = False
    """Whether it is the reference every other answer is checked against: it visits every
    node to the depth, without a table or a game's value bounds (minimax)."""
    uses_table: bool = False
    """Whether it brings a transposition table when none is switched on."""
    native_loop: Callable[[Options], NativeLoop] | None = None
    """Builds the loop of the compiled frame (``harness/search/engine_loops.h``) that every
    pass of this variant searches, the twin of ``loop`` with the same options; ``None``:
    its searches run in the Python frame (see :mod:`harness.search.engine`)."""
    best_first: bool = False
    """Whether it searches best-first (an OPEN list of states, SSS* and DUAL*) rather than
    through the node frame's loops: its results' frame is ``best-first``."""
    iterative: bool = False
    """Whether it always deepens iteratively (its driver needs the previous score)."""
    counting: str = ""
    """What the counters of VARIANTS.md mean for it, where that differs from the page's
    meaning for a recursive search with a window (empty: the page's)."""
    origin: str = "built in"
    """Where it was registered: ``built in``, or the installed package that added it
    (entry-point group :data:`PLUGIN_GROUP`)."""

    def inexact_reason(self, options: Options) -> str | None:
        """Why an answer of this variant with ``options`` need not hold minimax's value
        (``None``: it must, as a value or as the bound its result states)."""
        if not (self.exact or self.returns_bounds):
            return "not an exact search"
        return None if self.inexact_with is None else self.inexact_with(options)

    @property
    def answers(self) -> str:
        """What its answers are, in words (``harness variants``)."""
        if self.reference:
            return "the reference: every node to the depth (no table, no value bounds)"
        if self.exact:
            what = "exact: minimax's value"
        elif self.returns_bounds:
            what = "minimax's value or a bound on it (the bound column says which)"
        else:
            return "not exact: not cross-checked"
        caveat = "" if self.inexact_with is None else "; not exact with some options (see below)"
        return what + caveat

    def make_driver(self, options: Options) -> drivers.Driver:
        """The driver for one search with these (complete) options."""
        if self.driver is not None:
            return self.driver(options)
        assert self.loop is not None
        return drivers.full_window(self.loop(options))


_ZW_MIN = Option(1, "no zero-window tests at nodes with less remaining depth", minimum=1)
_RS_MIN = Option(1, "trust failed-high tests without a re-search below this remaining depth "
                 "(above 1: not exact, not cross-checked)", minimum=1)


def _trusts_tests(o: Options) -> str | None:
    """research_min_depth above 1 takes a failed-high test's bound for the value (sound only
    with exact leaf values, VARIANTS.md): a quiescence search's are not."""
    if o.get("research_min_depth", 1) != 1:
        return "research_min_depth above 1 trusts tests without a re-search"
    return None


def _int(o: Options, k: str) -> int:
    v = o[k]
    assert isinstance(v, int)
    return v


def _with_defaults(variant: Variant) -> Options:
    """Every option of ``variant`` at its default: an inner search's options."""
    return {k: opt.default for k, opt in variant.options.items()}


def _inner_loop(name: OptionValue) -> Loop:
    variant = find_variant(str(name))
    assert variant.loop is not None
    return variant.loop(_with_defaults(variant))


def _inner_native(name: OptionValue) -> NativeLoop:
    variant = find_variant(str(name))
    assert variant.native_loop is not None
    return variant.native_loop(_with_defaults(variant))


def _pvs(soft: bool, moreland: bool = False) -> Callable[[Options], Loop]:
    return lambda o: pvs(soft=soft, moreland=moreland, zw_min_depth=_int(o, "zw_min_depth"),
                         research_min_depth=_int(o, "research_min_depth"))


def _native_pvs(soft: bool, moreland: bool = False) -> Callable[[Options], NativeLoop]:
    return lambda o: NativeLoop("pvs", soft=soft, moreland=moreland,
                                zw_min_depth=_int(o, "zw_min_depth"),
                                research_min_depth=_int(o, "research_min_depth"))


def _native(name: str) -> Callable[[Options], NativeLoop]:
    """A compiled loop without parameters, or with only NegaScout's ``research_min_depth``."""
    return lambda o: NativeLoop(name, research_min_depth=_int(o, "research_min_depth")
                                if "research_min_depth" in o else 1)


def _zwp_ideas(o: Options) -> dict[str, bool]:
    return {k: bool(o[k]) for k in ("improve", "all_first", "pv_full", "researched_pv")}


def _zwp(o: Options) -> Loop:
    return zwp(**_zwp_ideas(o))


def _native_zwp(o: Options) -> NativeLoop:
    return NativeLoop("zwp", **_zwp_ideas(o))


def _zwp_options(all_first: bool = False, pv_full: bool = False) -> dict[str, Option]:
    return {
        "improve": Option(True, "skip the full-window search when Z returns exactly alpha"),
        "all_first": Option(all_first, "zero-window test every successor of an expected-All "
                                       "node, the first included"),
        "pv_full": Option(pv_full, "at an expected-PV node, full-window searches until a "
                                   "successor meets alpha"),
        "researched_pv": Option(True, "a successor searched again after its test is expected "
                                "PV, as the note labels it (0: Knuth and Moore's type)"),
    }


def _best_first(name: str, star: str, merits: str, author: str, dual: bool) -> Variant:
    """SSS* or DUAL* as a variant: a best-first search, no loop (:mod:`harness.search.sss`)."""
    return Variant(
        name, f"{star}: best-first search with an OPEN list of states ({merits}); a search "
        "whose OPEN would pass max_open states stops with status max-open and its bound",
        f"Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax "
        f"algorithms, AIJ 87; {author}",
        driver=lambda o: best_first(dual, _int(o, "max_open")),
        options={"max_open": Option(MAX_OPEN, "states OPEN may hold", minimum=1)},
        counting=BEST_FIRST_COUNTING, best_first=True)


_SSS_PASSES = 1000
"""MT-SSS* and MT-DUAL* step by one value actually found per pass, not towards a guess:
on chess's centipawns they may need hundreds of passes where MTD(f) needs a few."""

WINDOW_LOOPS = ("alphabeta", "alphabeta-fs", "pvs", "pvs-fs", "pvs-marsland", "negascout",
                "negascout-fs", "moreland", "belle", "zwp", "zwp-all", "zwp-pv")
"""Variants that can be the inner search of a windowed driver (aspiration)."""

VARIANTS: list[Variant] = [
    Variant("minimax", "no pruning: every node of the tree to the depth; the reference value",
            "VARIANTS.md, the textbook core", loop=lambda o: minimax, reference=True,
            native_loop=_native("minimax")),
    Variant("alphabeta", "fail-hard alpha-beta: returns values clamped to the window",
            "alphabeta-aspiration-mtdf-pvs.txt; Knuth and Moore (1975)",
            loop=lambda o: alphabeta(soft=False), native_loop=_native("alphabeta")),
    Variant("alphabeta-fs", "fail-soft alpha-beta: returns the best value found, a bound "
            "beyond the window", "alphabeta-aspiration-mtdf-pvs.txt (fail-soft alpha-beta)",
            loop=lambda o: alphabeta(soft=True), native_loop=_native("alphabeta-fs")),
    Variant("pvs", "principal variation search, fail-hard: full window for the first child, "
            "zero-window tests and re-searches for the rest",
            "pvs-wiki-article.txt (Marsland and Campbell 1982; Fishburn's Calphabeta)",
            loop=_pvs(soft=False), options={"zw_min_depth": _ZW_MIN, "research_min_depth": _RS_MIN},
            inexact_with=_trusts_tests, native_loop=_native_pvs(soft=False)),
    Variant("pvs-fs", "principal variation search in the fail-soft frame",
            "alphabeta-aspiration-mtdf-pvs.txt (fail-soft PVS); diepeveen-failsoft-pvs-nullmove.txt",
            loop=_pvs(soft=True), options={"zw_min_depth": _ZW_MIN, "research_min_depth": _RS_MIN},
            inexact_with=_trusts_tests, native_loop=_native_pvs(soft=True)),
    Variant("pvs-marsland", "Marsland's (1986) PVS: fail-soft, zero-window tests around the "
            "best value so far, re-search with (merit, beta)",
            "pvs-wiki-article.txt (Breuker: Marsland 1986, the PVS he finds identical to "
            "NegaScout); Marsland, A Review of Game-Tree Pruning, ICCA Journal 9(1), 1986",
            loop=lambda o: pvs_marsland(), native_loop=_native("pvs-marsland")),
    Variant("negascout", "Reinefeld's NegaScout: window (alpha, alpha+1) after the first "
            "child, re-search with (t, beta)", "pvs-wiki-article.txt (Reinefeld 1983, 1989)",
            loop=lambda o: negascout(research_min_depth=_int(o, "research_min_depth")),
            options={"research_min_depth": _RS_MIN}, inexact_with=_trusts_tests,
            native_loop=_native("negascout")),
    Variant("negascout-fs", "Reinefeld's (1989) fail-soft NegaScout: tests around the best "
            "value so far, re-search with (t, beta) keeping the larger value",
            "pvs-wiki-article.txt (Breuker: Reinefeld 1989, identical to Marsland's PVS); "
            "Reinefeld, Spielbaumsuchverfahren, 1989",
            loop=lambda o: negascout_fs(research_min_depth=_int(o, "research_min_depth")),
            options={"research_min_depth": _RS_MIN}, inexact_with=_trusts_tests,
            native_loop=_native("negascout-fs")),
    Variant("moreland", "PVS that starts zero-window tests only after a child raised alpha",
            "pvs-wiki-article.txt (Bruce Moreland's PVS)", loop=_pvs(soft=False, moreland=True),
            options={"zw_min_depth": _ZW_MIN, "research_min_depth": _RS_MIN},
            inexact_with=_trusts_tests, native_loop=_native_pvs(soft=False, moreland=True)),
    Variant("belle", "Belle's root: a fail-high becomes the best move unresolved; re-search "
            "only on a second fail-high (PVS below the root)",
            "pvs-wiki-article.txt (Fishburn on Thompson's Belle)",
            loop=lambda o: belle(pvs()), exact=False, returns_bounds=True,
            native_loop=_native("belle")),
    Variant("scout", "Pearl's Scout: exact value of the first child, boolean TEST of the "
            "others, exact search of those that pass", "Pearl (1980), via pvs-wiki-article.txt",
            loop=lambda o: scout(), native_loop=_native("scout")),
    Variant("aspiration", "iterative deepening with a window around the previous score, "
            "widened and searched again on a fail",
            "alphabeta-aspiration-mtdf-pvs.txt; gnuchess-pvs-study.txt (root fail-high/low)",
            driver=lambda o: drivers.aspiration(_inner_loop(o["inner"]), _int(o, "window"),
                                                str(o["widen"])),
            options={"inner": Option("pvs-fs", "the search inside the window", WINDOW_LOOPS),
                     "window": Option(50, "half-width W of the first window", minimum=1),
                     "widen": Option("full", "on a fail: 'full' opens that side, 'double' "
                                     "doubles its width", ("full", "double"))},
            iterative=True, native_loop=lambda o: _inner_native(o["inner"]),
            inexact_with=lambda o: "Belle's root inside reports bounds" if o["inner"] == "belle" else None),
    Variant("mtdf", "MTD(f): zero-window fail-soft alpha-beta passes with memory converging "
            "on the value", "alphabeta-aspiration-mtdf-pvs.txt (Plaat, Schaeffer, Pijls and "
            "de Bruin 1996)",
            driver=lambda o: drivers.mtdf(alphabeta(soft=True), _int(o, "guess"),
                                          _int(o, "max_passes")),
            options={"guess": Option(0, "first guess when there is no previous iteration"),
                     "max_passes": Option(100, "pass cap per depth", minimum=1)},
            uses_table=True, native_loop=_native("alphabeta-fs")),
    Variant("mtd-bi", "MTD-bi: binary search on the value with zero-window fail-soft passes "
            "with memory", "alphabeta-aspiration-mtdf-pvs.txt (binary-search MTD)",
            driver=lambda o: drivers.mtd_bi(alphabeta(soft=True), _int(o, "max_passes")),
            options={"max_passes": Option(100, "pass cap per depth", minimum=1)},
            uses_table=True, native_loop=_native("alphabeta-fs")),
    Variant("mtd-pons", "Pons's Connect Four solver's root: zero-window fail-soft passes with "
            "memory between the tree's bounds, each test pulled from the midpoint halfway "
            "towards the farther bound (MTD-bi where the tree states no range)",
            "Pascal Pons, Solving Connect Four, part 8 (iterative deepening and null window)",
            driver=lambda o: drivers.mtd_pons(alphabeta(soft=True), _int(o, "max_passes")),
            options={"max_passes": Option(100, "pass cap per depth", minimum=1)},
            uses_table=True, native_loop=_native("alphabeta-fs")),
    Variant("mt-sss", "MT-SSS*: MTD from +infinity, zero-window fail-soft passes with memory "
            "each testing the last upper bound, stepping down to the value",
            "Plaat, Schaeffer, Pijls and de Bruin (1996), Best-first fixed-depth minimax "
            "algorithms, AIJ 87 (MTD(+inf), the same leaves as Stockman's SSS*)",
            driver=lambda o: drivers.mt_sss(alphabeta(soft=True), _int(o, "max_passes")),
            options={"max_passes": Option(_SSS_PASSES, "pass cap per depth (one pass per "
                                          "distinct upper bound)", minimum=1)},
            uses_table=True, native_loop=_native("alphabeta-fs")),
    Variant("mt-dual", "MT-DUAL*: MTD from -infinity, zero-window fail-soft passes with "
            "memory each testing just above the last lower bound, stepping up to the value",
            "Plaat, Schaeffer, Pijls and de Bruin (1996) (MTD(-inf), the same leaves as "
            "Marsland et al.'s DUAL*)",
            driver=lambda o: drivers.mt_dual(alphabeta(soft=True), _int(o, "max_passes")),
            options={"max_passes": Option(_SSS_PASSES, "pass cap per depth (one pass per "
                                          "distinct lower bound)", minimum=1)},
            uses_table=True, native_loop=_native("alphabeta-fs")),
    _best_first("sss", "SSS*", "merits upper bounds", "Stockman (1979)", dual=False),
    _best_first("dual", "DUAL*", "SSS* from the other side, merits lower bounds",
                "Marsland, Reinefeld and Schaeffer (1987)", dual=True),
    Variant("zwp", "PVS as zero-window pruning: closed windows, strict cutoff beta < alpha, "
            "F skipped when Z <= alpha", "pvs-zero-window-pruning-note.txt (merged search, "
            "improvement)", loop=_zwp, options=_zwp_options(), native_loop=_native_zwp),
    Variant("zwp-all", "zwp that also zero-window tests the first successor of expected-All "
            "nodes (the note's first untried idea)", "pvs-zero-window-pruning-note.txt",
            loop=_zwp, options=_zwp_options(all_first=True), native_loop=_native_zwp),
    Variant("zwp-pv", "zwp that searches with a full window at expected-PV nodes until a "
            "successor meets alpha (the note's second untried idea)",
            "pvs-zero-window-pruning-note.txt", loop=_zwp, options=_zwp_options(pv_full=True),
            native_loop=_native_zwp),
]

PLUGIN_GROUP = "harness.variants"
"""The entry-point group through which an installed package adds variants: each entry
point names a :class:`Variant` or a sequence of them."""
PLUGIN_PROBLEMS: list[str] = []
"""One line per plug-in that could not be added (a broken import, a name already taken,
not a Variant), naming its package; the command line prints them as warnings."""


def load_plugins(group: str = PLUGIN_GROUP) -> tuple[list[Variant], list[str]]:
    """The variants installed packages add through ``group`` (see :mod:`harness.plugins`)."""
    return load_entry_points(group, Variant, (v.name for v in VARIANTS), lambda v: v.name,
                             lambda v, package: replace(v, origin=package))


CORE = ("alphabeta", "alphabeta-fs", "pvs", "pvs-fs", "negascout", "moreland", "belle",
        "scout", "aspiration", "mtdf")
"""The variants named by the alias ``core``."""


def find_variant(name: str) -> Variant:
    """The variant called ``name``; the error lists the valid names."""
    for variant in VARIANTS:
        if variant.name == name:
            return variant
    names = ", ".join(v.name for v in VARIANTS)
    raise HarnessError(f"unknown variant {name!r} (valid: {names}, or 'all', 'core')")


@dataclass(frozen=True)
class VariantSpec:
    """A variant with all its options resolved."""

    variant: Variant
    """The registered variant."""
    options: tuple[tuple[str, OptionValue], ...]
    """Every option, defaults included, sorted by name."""

    @property
    def name(self) -> str:
        """The variant's registered name."""
        return self.variant.name

    @property
    def label(self) -> str:
        """The name with the options that differ from the defaults: ``pvs:zw_min_depth=3``."""
        changed = [f"{k}={_text(v)}" for k, v in self.options
                   if v != self.variant.options[k].default]
        return self.name + (":" + ",".join(changed) if changed else "")

    @property
    def options_text(self) -> str:
        """Every option as ``k=v,k=v`` (empty when the variant takes none)."""
        return ",".join(f"{k}={_text(v)}" for k, v in self.options)

    def driver(self) -> drivers.Driver:
        """A fresh driver for one search."""
        return self.variant.make_driver(dict(self.options))

    def native_loop(self) -> NativeLoop | None:
        """The compiled frame's loop of its passes, with its options (``None``: none)."""
        build = self.variant.native_loop
        return None if build is None else build(dict(self.options))


def make_spec(name: str, given: Mapping[str, str] | None = None) -> VariantSpec:
    """Resolve ``name`` and option texts into a :class:`VariantSpec`."""
    variant = find_variant(name)
    values = resolve(f"variant {name!r}", variant.options, given or {})
    return VariantSpec(variant, tuple(sorted(values)))


def parse_variants(text: str) -> list[VariantSpec]:
    """Parse ``pvs:zw_min_depth=3,negascout,all``; duplicates are kept once."""
    items: list[tuple[str, dict[str, str]]] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            continue
        if "=" in token and ":" not in token:
            if not items:
                raise HarnessError(f"variant list {text!r}: option {token!r} has no variant")
            key, _, value = token.partition("=")
            items[-1][1][key.strip()] = value.strip()
            continue
        name, _, first = token.partition(":")
        name = name.strip()
        options: dict[str, str] = {}
        if first:
            key, eq, value = first.partition("=")
            if not eq:
                raise HarnessError(f"variant {name!r}: option {first!r} is not key=value")
            options[key.strip()] = value.strip()
        if name in ("all", "core") and not options:
            names = [v.name for v in VARIANTS] if name == "all" else list(CORE)
            items.extend((n, {}) for n in names)
        else:
            items.append((name, options))
    if not items:
        raise HarnessError("no variants given")
    specs: list[VariantSpec] = []
    for name, options in items:
        spec = make_spec(name, options)
        if spec not in specs:
            specs.append(spec)
    return specs


# Last, so that a plug-in may import anything above from this module while it loads.
_plugins, _problems = load_plugins()
VARIANTS += _plugins
PLUGIN_PROBLEMS += _problems
