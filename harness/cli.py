"""The ``harness`` command: each subcommand parses options, calls one library function and
renders its result. Bad input is one line on stderr and exit code 2."""

from __future__ import annotations

import shlex
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from harness.check.game import CheckOptions, self_test
from harness.cli_ablate import ablate
from harness.cli_engines import engines
from harness.cli_match import match
from harness.cli_perft import perft
from harness.cli_reproduce import reproduce
from harness.cli_uci import uci
from harness.command_line import (
    ALLOW_DISAGREEMENT,
    MEASURE,
    OneLineGroup,
    chosen_out,
    default_out,
    interrupted,
    make_config,
    make_execution,
    pd_unique,
    problem_options,
    progress_for,
    refuse_besides_resume,
    reports_errors,
    run_interrupted,
    stops_on_sigterm,
    tree_options,
)

# Only what every command needs (the options, the plug-in warnings) is imported here; each
# command imports the rest (pandas, matplotlib, chess) itself, so --help stays quick.
from harness.errors import (
    DISAGREEMENT_EXIT,
    DISAGREEMENTS_FILE,
    HarnessError,
    check_writable,
)
from harness.games.registry import GAMES
from harness.games.registry import PLUGIN_PROBLEMS as GAME_PLUGIN_PROBLEMS
from harness.plugins import BUILT_IN
from harness.search.registry import CORE, PLUGIN_PROBLEMS, VARIANTS

if TYPE_CHECKING:
    from harness.report.measures import Measure
    from harness.run.experiment import RunOutput

@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gametree-harness")
def cli() -> None:
    """Benchmark game-tree search variants with exact counters."""
    # Warnings (a skipped EPD line, a damaged results.csv) as one plain line each.
    click.get_current_context().with_resource(warnings.catch_warnings())
    warnings.showwarning = warning_line
    for problem in [*PLUGIN_PROBLEMS, *GAME_PLUGIN_PROBLEMS]:
        click.echo(f"warning: {problem}", err=True)


def warning_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None) -> None:
    click.echo(f"warning: {message}", err=True)


@cli.command()
def variants() -> None:
    """List the registered search variants (built in and added by installed plug-ins),
    their options and sources."""
    width = max(len(v.name) for v in VARIANTS)
    for v in VARIANTS:
        click.echo(f"{v.name:<{width}}  {v.description}")
        pad = " " * (width + 2)
        click.echo(f"{pad}source: {v.source}")
        click.echo(f"{pad}answers: {v.answers}")
        if v.counting:
            click.echo(f"{pad}counters: {v.counting}")
        if v.origin != BUILT_IN:
            click.echo(f"{pad}added by: {v.origin} (plug-in)")
        for key, option in v.options.items():
            default = int(option.default) if isinstance(option.default, bool) else option.default
            click.echo(f"{pad}option {key}={default}: {option.help}")
    click.echo(f"\naliases: all (every variant), core ({', '.join(CORE)})")
    click.echo("options go in the name: pvs:zw_min_depth=3,research_min_depth=2")


@cli.command()
def games() -> None:
    """List the games problems come from (built in and added by installed plug-ins): how
    to name their problems, their options, the frame features they offer, their source."""
    for game in GAMES:
        click.echo(f"{game.name}:{game.spec}")
        click.echo(f"    {game.description}")
        click.echo(f"    source: {game.source}")
        if game.origin != BUILT_IN:
            click.echo(f"    added by: {game.origin} (plug-in)")
        for key, option in game.options.items():
            default = int(option.default) if isinstance(option.default, bool) else option.default
            click.echo(f"    option {key}{'' if default == '' else f'={default}'}: {option.help}")
        if game.features:
            click.echo(f"    offers: {', '.join(sorted(game.features))}")
        if game.columns:
            click.echo(f"    result columns: {', '.join(game.columns)}")
    click.echo("\nname problems GAME:SPEC with options after commas, e.g. "
               "--problems chess:wac.epd,killers=1")


@cli.command()
@problem_options
@click.option("--variants", "variant_list", default="all", show_default=True, metavar="LIST",
              help="Comma-separated variants with options in the name, or all, core.")
@click.option("--epd-out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Chess: also write the results as EPD (acd, acn, ce, pv, H* counters).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Run folder [default: results/run-<UTC time>].")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="Finish an interrupted run (its configuration is in DIR/run.json).")
@MEASURE
@click.option("--engine", "engines", multiple=True, metavar="SPEC",
              help="A UCI engine searched beside the variants (chess): NAME=COMMAND[,Option=Value"
                   "...], e.g. gnuchess='gnuchess --uci',Hash=16; repeatable.")
@click.option("--nodes", "engine_nodes", type=int, default=None, metavar="N",
              help="Engines: go nodes N beside the depth (refused for an engine that ignores it).")
@click.option("--engine-timeout", type=float, default=120.0, show_default=True, metavar="S",
              help="Engines: seconds a search may take; past it the engine is killed, its row "
                   "says timeout and the run goes on.")
@ALLOW_DISAGREEMENT
@click.pass_context
@reports_errors
@stops_on_sigterm
def run(ctx: click.Context, /, variant_list: str, epd_out: str | None, out_dir: str | None,
        resume_dir: str | None, measure: str, allow_disagreement: bool, engines: tuple[str, ...],
        engine_nodes: int | None, engine_timeout: float, **options: Any) -> None:
    """Search problems with variants at fixed depths; write the run folder: results.csv,
    run.json, summary.csv, charts and report.html.

    With no problems given, runs the embedded default: the same synthetic trees with
    good and with random move ordering, every variant, depths 1-6, iterative deepening.

    The exact variants' answers are checked against each other (and minimax's); when they
    disagree, disagreements.csv lists them and the exit status is 3. With --measure time,
    the summary ranks by time per search (refused, after the run is saved, when its
    variants ran in different frames).
    """
    from harness.report.measures import find_measure
    from harness.report.page import where_to_read
    from harness.run.experiment import is_default_folder, resume_experiment, run_default, run_experiment

    execution, progress = make_execution(options), progress_for(options)
    chosen = find_measure(measure)
    if resume_dir is not None:
        refuse_besides_resume(ctx, {"jobs", "executor", "scheduler", "no_progress", "measure"},
                              f"its configuration from {resume_dir}/run.json")
        try:
            if is_default_folder(resume_dir):
                outputs, _ = run_default(resume_dir, ["harness", *sys.argv[1:]], progress,
                                         execution, resume=True)
            else:
                outputs = [resume_experiment(resume_dir, execution, progress)]
        except KeyboardInterrupt:
            run_interrupted(resume_dir)
        for output in outputs:
            click.echo(told(output, chosen) + "\n" + where_to_read(output.run_dir))
            click.echo(f"\nfinished {output.run_dir}")
        exit_if_disagreeing(outputs, allow_disagreement)
        return
    if not (options["tree_files"] or options["tree_specs"] or options["suites"] or options["problems"]):
        if engines or engine_nodes is not None:
            raise HarnessError("--engine searches chess problems: give --suite EPD (or "
                               "--problems chess:FILE)")
        click.echo("No problems given: running the default comparison (synthetic trees, every "
                   "variant; the project's chess suite, core variants).", err=True)
        out_dir = chosen_out(out_dir) or default_out("run")
        try:
            outputs, index = run_default(out_dir, ["harness", *sys.argv[1:]], progress, execution)
        except KeyboardInterrupt:
            interrupted(f"every finished problem is saved under {out_dir}",
                        f"harness run --resume {shlex.quote(out_dir)}")
        for output in outputs:
            click.echo(told(output, chosen) + "\n" + where_to_read(output.run_dir) + "\n")
        click.echo(f"wrote {', '.join(str(o.run_dir) for o in outputs)} and {index}")
        exit_if_disagreeing(outputs, allow_disagreement)
        return
    from dataclasses import replace

    config = replace(make_config(variant_list, options), engines=engines,
                     engine_nodes=engine_nodes, engine_timeout=engine_timeout)
    out_dir = chosen_out(out_dir) or default_out("run")
    try:
        output = run_experiment(config, out_dir, command=["harness", *sys.argv[1:]],
                                progress=progress, epd_out=epd_out, execution=execution)
    except KeyboardInterrupt:
        run_interrupted(out_dir)
    click.echo(told(output, chosen) + "\n" + where_to_read(output.run_dir))
    written = ["results.csv", "run.json", "summary.csv", "report.html"]
    written += [DISAGREEMENTS_FILE] if output.disagree else []
    click.echo(f"\nwrote {', '.join(str(output.run_dir / f) for f in written)}"
               + (f", {epd_out}" if epd_out else ""))
    exit_if_disagreeing([output], allow_disagreement)


def told(output: RunOutput, measure: Measure | None = None) -> str:
    """A run's brief summary by ``measure`` (nodes by default), then whether its exact
    variants' answers agree. A time measure the run cannot give (its variants ran in
    different frames) is refused in one line after the summary by nodes: the run is saved."""
    from harness.report.measures import NODES
    from harness.report.summary import brief_summary

    try:
        lines = [brief_summary(output.results, info=output.info, measure=measure or NODES)]
    except HarnessError as refused:
        click.echo(brief_summary(output.results, info=output.info))
        click.echo(f"(saved in {output.run_dir})")
        raise refused
    if output.answers is not None:
        lines += [""] + (output.answers.lines() or [output.answers.note()])
    return "\n".join(lines)


def exit_if_disagreeing(outputs: list[RunOutput], allowed: bool) -> None:
    """Exit with :data:`DISAGREEMENT_EXIT` when some run's exact variants disagree (its files
    are written), unless ``--allow-disagreement``."""
    wrong = [str(o.run_dir) for o in outputs if o.disagree]
    if wrong and not allowed:
        click.echo(f"error: the exact variants' answers disagree in {', '.join(wrong)} (see "
                   f"{DISAGREEMENTS_FILE}; exit {DISAGREEMENT_EXIT}, or --allow-disagreement "
                   "for 0)", err=True)
        sys.exit(DISAGREEMENT_EXIT)


@cli.command()
@click.argument("baseline")
@click.argument("others", nargs=-1, required=True)
@problem_options
@click.option("--run", "run_dir", type=click.Path(file_okay=False, exists=True), metavar="DIR",
              help="Compare the results of an existing run instead of searching.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Folder for the run and the comparison [default: results/compare-<time>; "
                   "with --run, the run folder].")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Bootstrap seed.")
@click.option("--fail-if-worse", type=float, metavar="PCT",
              help="Exit with code 1 when a variant needs PCT% more nodes than BASELINE.")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, exists=True),
              metavar="DIR", help="Finish an interrupted comparison's run in DIR, then compare.")
@click.option("--pooled", is_flag=True,
              help="Pool every problem set into one group [default: each set on its own].")
@MEASURE
@ALLOW_DISAGREEMENT
@click.pass_context
@reports_errors
@stops_on_sigterm
def compare(ctx: click.Context, /, baseline: str, others: tuple[str, ...], run_dir: str | None,
            out_dir: str | None, seed: int, fail_if_worse: float | None, resume_dir: str | None,
            pooled: bool, measure: str, allow_disagreement: bool, **options: Any) -> None:
    """Compare variants with BASELINE on the same problems: node (or time) ratios with
    bootstrap intervals, sign tests, re-search and first-move fail-high rates, largest
    differences."""
    from harness.report.compare import check_tolerance, gate_failure, render_comparison, worse_rows
    from harness.report.measures import find_measure
    from harness.run.experiment import compare_variants
    from harness.run.plan import parse_depths

    if fail_if_worse is not None:
        check_tolerance(fail_if_worse)          # before the run is searched, not after
    command = ["harness", *sys.argv[1:]]
    if run_dir is not None:
        refuse_besides_resume(ctx, {"baseline", "others", "out_dir", "seed", "fail_if_worse",
                                    "pooled", "measure", "allow_disagreement", "depth_text"},
                              f"the problems, variants and switches of the run in {run_dir} "
                              "(--depth only chooses the depths shown)", "--run")
        files = compare_variants(baseline, others, chosen_out(out_dir) or run_dir, seed=seed,
                                 command=command, pooled=pooled, run_dir=run_dir,
                                 measure=find_measure(measure))
    else:
        if resume_dir is not None:
            refuse_besides_resume(ctx, {"baseline", "others", "seed", "fail_if_worse", "pooled",
                                        "measure", "jobs", "executor", "scheduler", "no_progress",
                                        "allow_disagreement"},
                                  f"the comparison's configuration from {resume_dir}/run.json")
            out_dir, config = resume_dir, None
        else:
            out_dir, config = chosen_out(out_dir) or default_out("compare"), make_config(baseline, options)
        try:
            files = compare_variants(baseline, others, out_dir, config, seed, command=command,
                                     progress=progress_for(options),
                                     execution=make_execution(options),
                                     resume=resume_dir is not None, pooled=pooled,
                                     measure=find_measure(measure))
        except KeyboardInterrupt:
            finish = ["harness", "compare", baseline, *others, "--resume", out_dir]
            finish += ["--seed", str(seed)] if seed else []
            finish += ["--fail-if-worse", f"{fail_if_worse:g}"] if fail_if_worse is not None else []
            finish += ["--pooled"] if pooled else []
            finish += ["--measure", measure] if measure != "nodes" else []
            run_interrupted(out_dir, shlex.join(finish))
    shown = parse_depths(options["depth_text"]) if options["depth_text"] else None
    click.echo(render_comparison(files.comparison, shown))
    click.echo(f"\nwrote {files.table} and {', '.join(str(p) for p in files.charts)}")
    if fail_if_worse is not None:
        beyond = worse_rows(files.comparison, fail_if_worse)
        for row in beyond.to_dict("records"):
            click.echo(gate_failure(row, files.comparison.baseline, fail_if_worse), err=True)
        if not beyond.empty:
            sys.exit(1)
    wrong = files.comparison.table[files.comparison.table["disagree"] > 0]
    if not wrong.empty and not allow_disagreement:
        click.echo(f"error: wrong answers where {', '.join(pd_unique(wrong['variant']))} met "
                   f"{files.comparison.baseline} (see the verdicts; no verdict on nodes given; "
                   f"exit {DISAGREEMENT_EXIT}, or --allow-disagreement for 0)", err=True)
        sys.exit(DISAGREEMENT_EXIT)


@cli.command("diff")
@click.argument("old_dir", metavar="OLD", type=click.Path(file_okay=False, exists=True))
@click.argument("new_dir", metavar="NEW", type=click.Path(file_okay=False, exists=True))
@click.option("--fail-if-worse", type=float, metavar="PCT",
              help="Exit 1 when some problem set, variant and depth needs more than PCT% more "
                   "nodes in NEW than in OLD (geometric mean).")
@click.option("--markdown", "markdown_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write a Markdown summary to FILE (a CI job's $GITHUB_STEP_SUMMARY).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the table (one row per set, variant and depth) as CSV.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Bootstrap seed.")
@MEASURE
@click.option("--allow-disagreement", is_flag=True,
              help=f"Exit 0 (or 1) even when an exact variant's answer changed [default: exit "
                   f"{DISAGREEMENT_EXIT}].")
@reports_errors
def diff_command(old_dir: str, new_dir: str, fail_if_worse: float | None,
                 markdown_file: str | None, out_file: str | None, seed: int, measure: str,
                 allow_disagreement: bool) -> None:
    """Compare run NEW with the earlier run OLD (the same problems before and after a change):
    node (or time) ratios NEW/OLD per problem set, variant and depth, with paired intervals; every
    changed score or best move; the settings that differ. Both folders are only read.

    Exit 3 when an exact variant's answer changed so that the old and the new cannot both
    be right (it outranks 1: a wrong answer matters more than a slower search), else 1 when
    --fail-if-worse is exceeded, else 0."""
    from harness.files import write_whole
    from harness.report.compare import check_tolerance
    from harness.report.diff import diff_runs, render_diff, render_markdown
    from harness.report.measures import find_measure

    if fail_if_worse is not None:
        check_tolerance(fail_if_worse)
    for path, option in ((markdown_file, "--markdown"), (out_file, "--out")):
        if path is not None:
            check_writable(path, option)
    found = diff_runs(old_dir, new_dir, seed=seed, measure=find_measure(measure))
    click.echo(render_diff(found))
    if markdown_file is not None:
        write_whole(markdown_file, render_markdown(found, fail_if_worse, allow_disagreement))
    if out_file is not None:
        write_whole(out_file, found.table.to_csv(index=False))
    for line in found.failures(fail_if_worse):
        click.echo(line, err=True)
    if found.wrong and not allow_disagreement:
        click.echo(f"error: exact variants' answers changed on {len(found.wrong)} searches (exit "
                   f"{DISAGREEMENT_EXIT}, or --allow-disagreement)", err=True)
        sys.exit(DISAGREEMENT_EXIT)
    if fail_if_worse is not None and found.gate_fails(fail_if_worse):
        sys.exit(1)


@cli.command()
@tree_options
@click.option("--variant", "variant", required=True, metavar="V",
              help="The variant to draw, options in the name (pvs:zw_min_depth=3).")
@click.option("--compare", "other", metavar="V2", help="Draw a second variant beside it.")
@click.option("--problem", "problem_id", metavar="ID",
              help="Which problem of the suite or tree set [default: the first].")
@click.option("--out", "out", type=click.Path(dir_okay=False), metavar="PATH",
              help="Also draw it as PATH.png and PATH.svg.")
@click.option("--max-lines", type=click.IntRange(1), default=400, show_default=True,
              help="Lines of text per pass before the rest is summarised.")
@reports_errors
def tree(variant: str, other: str | None, problem_id: str | None, out: str | None,
         max_lines: int, **options: Any) -> None:
    """Draw every node one search visited: how it was searched (F, Z, Z+F, Skp), its
    window, value and type (PV, Cut, All), and the moves it cut off."""
    from harness.run.experiment import draw_search
    from harness.run.plan import parse_depths

    depth_text = options["depth_text"]
    if depth_text and len(parse_depths(depth_text)) > 1:
        raise HarnessError(f"--depth {depth_text}: harness tree needs one --depth N, not a range")
    config = make_config(variant, {**options, "minimal": False, "limit": None})
    variants = [variant] if other is None else [variant, other]
    drawing = draw_search(config, variants, None, problem_id, chosen_out(out), max_lines)
    problem = drawing.problem
    if problem_id is None and drawing.among > 1:
        click.echo(f"note: {drawing.among} problems; drawing the first, {problem.problem_id!r} "
                   f"of {problem.suite} (pick another with --problem ID)", err=True)
    click.echo("  ".join([f"{problem.suite} {problem.problem_id}", *map(str, drawing.columns.values())]))
    click.echo(drawing.text)
    if drawing.files:
        click.echo(f"\nwrote {', '.join(drawing.files)}")




@cli.command()
@click.argument("problems", metavar="GAME:SPEC")
@click.option("--depth", type=click.IntRange(1), default=3, show_default=True,
              help="Depth of the searches compared with minimax (less where every line ends sooner).")
@click.option("--playouts", type=click.IntRange(0), default=20, show_default=True,
              help="Random playouts from each problem, every move tried on the way.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Seed of the playouts.")
@click.option("--limit", type=click.IntRange(1), default=None, metavar="N",
              help="Check only the first N problems of the set.")
@click.option("--max-findings", type=click.IntRange(1), default=20, show_default=True,
              help="Stop after this many findings.")
@click.option("--samples", type=click.IntRange(0), default=3, show_default=True,
              help="Positions drawn from each problem's playouts (beside its root) that every "
                   "variant searches.")
@click.option("--variants", "variant_list", default="all", show_default=True, metavar="LIST",
              help="The variants compared with minimax.")
@reports_errors
def check(problems: str, depth: int, playouts: int, seed: int, limit: int | None,
          max_findings: int, samples: int, variant_list: str) -> None:
    """Self-test a game: walk its trees (push/pop, moves, values, ends, keys, turns) and
    compare every variant with minimax on its positions; print each inconsistency with the
    moves that reproduce it (exit 1), or what was checked (exit 0)."""
    report = self_test(problems, CheckOptions(depth=depth, playouts=playouts, seed=seed,
                                              limit=limit, max_findings=max_findings,
                                              samples=samples, variants=variant_list))
    for finding in report.findings:
        click.echo(str(finding))
    for line in report.summary():
        click.echo(line)
    if report.findings:
        sys.exit(1)


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--baseline", metavar="VARIANT", help="Baseline of the ratios [default: alphabeta].")
@click.option("--index-only", is_flag=True,
              help="For a folder of runs: only write index.html, linking their reports as they are.")
@reports_errors
def report(run_dir: str, baseline: str | None, index_only: bool) -> None:
    """Rebuild summary.csv, the charts and report.html of a run from results.csv (or of
    every run in a folder of runs, with an index.html linking them)."""
    from harness.report.page import rebuild_reports
    from harness.results import incomplete_line, load_results, load_run_info

    for files in rebuild_reports(run_dir, baseline, index_only=index_only):
        if not index_only:
            click.echo(f"wrote {files.html}, {files.summary} and {len(files.charts)} chart files "
                       f"(baseline {files.baseline})")
            run = files.html.parent
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")         # said once, as the report read it
                line = incomplete_line(run, load_run_info(run), load_results(run))
            if line:
                click.echo(line, err=True)
    if not (Path(run_dir) / "run.json").exists():
        click.echo(f"wrote {Path(run_dir) / 'index.html'}")


@cli.command()
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True))
@MEASURE
@reports_errors
def show(run_dir: str, measure: str) -> None:
    """Print the summary table of a run, or of each run in a folder of runs; with
    --measure time, also time per search and nodes per second, and each variant's time
    against the baseline's with paired intervals."""
    from harness.report.frames import frames_line
    from harness.report.measures import NODES, find_measure
    from harness.report.stopped import headline
    from harness.report.summary import brief_summary, format_summary, summarize
    from harness.results import find_runs, incomplete_line, load_results, load_run_info

    chosen = find_measure(measure)
    runs = find_runs(run_dir)
    # Every run read and its time compared before a line is printed: a refusal is one line.
    shown = []
    for run in runs:
        rows, info = load_results(run), load_run_info(run)
        timed = "" if chosen is NODES else brief_summary(rows, info=info, measure=chosen)
        shown.append((run, rows, info, timed))
    for number, (run, rows, info, timed) in enumerate(shown):
        if runs != [Path(run_dir)]:
            click.echo(f"{chr(10) if number else ''}{run}")
        click.echo(format_summary(summarize(rows), chosen))
        said = (headline(rows), frames_line(rows)) if not timed else ()
        for line in (*said, incomplete_line(run, info, rows)):
            if line:
                click.echo(line)
        if timed:
            click.echo("\n" + timed)
        if not info.get("finished"):
            click.echo(f"(unfinished: finish it with harness run --resume {shlex.quote(str(run))})")


@cli.group(invoke_without_command=True)
@click.pass_context
@reports_errors
def suites(ctx: click.Context) -> None:
    """List the EPD suites it can find (the package's own, $HARNESS_SUITES, downloads), with
    counts."""
    if ctx.invoked_subcommand is not None:
        return
    from harness.games.chess.suite_files import KNOWN_SUITES, list_suites

    found = list_suites()
    if not found:
        click.echo("no suites found; get public ones with 'harness suites get NAME' "
                   f"({', '.join(KNOWN_SUITES)})")
    for info in found:
        note = f"  ({info.invalid} malformed lines)" if info.invalid else ""
        if info.perft and info.perft >= info.invalid:
            click.echo(f"{info.name:<20} {info.perft:>5} perft positions  {info.path}  (a perft "
                       "suite: move counts by depth to check a move generator with 'harness "
                       "perft', not positions to search)")
            continue
        note = f"  (unreadable: {info.error})" if info.error else note
        click.echo(f"{info.name:<20} {info.positions:>5} positions  {info.path}{note}")


@suites.command("get")
@click.argument("name")
@click.option("--dest", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Folder to save into [default: ~/.local/share/harness/suites, which is "
                   "searched for suites too].")
@click.option("--base-url", default=None, metavar="URL",
              help="Fetch from URL/<file> instead of the pinned address ($HARNESS_SUITES_URL).")
@reports_errors
def suites_get(name: str, dest: str | None, base_url: str | None) -> None:
    """Download a known public suite (pinned commit, sha256 checked)."""
    from harness.games.chess.suite_files import download_dir, download_suite

    path = download_suite(name, dest or download_dir(), base_url)
    click.echo(f"{path} (sha256 checked)")


@suites.command("generate")
@click.option("--count", type=int, default=40, show_default=True, help="Positions to make.")
@click.option("--seed", type=click.IntRange(0), default=1, show_default=True, help="Seed of the games.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True, metavar="FILE",
              help="The EPD file to write (harness/games/chess/positions/bench.epd is the project's own).")
@click.option("--jobs", "-j", type=int, default=None, metavar="N",
              help="Worker processes for the games [default: the machine's cores].")
@reports_errors
def suites_generate(count: int, seed: int, out: str, jobs: int | None) -> None:
    """Make a benchmark suite by seeded play of the harness's own search from randomised
    openings: middle-game and endgame positions, legal and varied, the same bytes for
    the same count and seed."""
    from harness.suites.chess_bench import write_generated_suite

    if count < 1:
        raise HarnessError(f"--count {count}: needs at least 1")
    if jobs is not None and jobs < 1:
        raise HarnessError(f"--jobs {jobs}: needs at least 1")
    check_writable(out, "--out")                # before the games, not after them
    path = write_generated_suite(out, count, seed, workers=jobs)
    click.echo(f"wrote {path} ({count} positions, seed {seed})")


cli.add_command(ablate)
cli.add_command(engines)
cli.add_command(match)
cli.add_command(perft)
cli.add_command(reproduce)
cli.add_command(uci)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="harness")
