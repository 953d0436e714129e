"""``harness ablate``: a profile taken apart. The base configuration (a profile and a
variant) is searched, then the same problems at the same depths with each enhancement of
the profile removed alone, and (``from_bare``) with each added alone to the bare base,
every enhancement off. Each configuration is a run of its own (``run_experiment``: its
folder, ``results.csv``, ``run.json``, report, resumable and parallel as any run), under
the ablation's folder beside ``ablation.json`` (what was asked), ``ablation.csv`` and the
chart (:mod:`harness.report.ablation`).

An enhancement a problem set's game cannot use (null move in Connect Four) is not searched
on that set: its row says so. Within a configuration's run, the enhancements none of its
games can use are switched off, so its ``run.json`` says what its searches did.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from harness.errors import HarnessError
from harness.files import read_json, write_whole
from harness.games.base import Game
from harness.games.registry import parse_problem_name, split_items, with_defaults
from harness.lock import hold_folder
from harness.report.ablation import (
    ABLATION_FILE,
    CHART_NAME,
    TABLE_FILE,
    Arm,
    ablation_chart,
    ablation_section,
    ablation_table,
    ablation_title,
)
from harness.report.charts import save
from harness.report.page import report_files, write_index
from harness.results import RUN_FILE, held_by, load_results, load_run_info, now
from harness.run.engine_ablation import plan_engine_ablation
from harness.run.executors import Execution
from harness.run.experiment import RunOutput, resume_experiment, run_experiment
from harness.run.plan import ExperimentConfig
from harness.run.profiles import (
    BY_NAME,
    Configuration,
    Enhancement,
    Profile,
    find_enhancement,
    find_profile,
    with_enhancements,
)
from harness.run.progress import Listener
from harness.search.registry import parse_variants
from harness.search.run import check_depth

SCHEMA_VERSION = 1
"""Of ``ablation.json``."""


@dataclass(frozen=True)
class AblationConfig:
    """What ``harness ablate`` searches."""

    problems: tuple[str, ...]
    """Problem sets named ``GAME:SPEC`` as given, without the options a profile sets."""
    profile: str = "modern"
    """The profile taken apart (:mod:`harness.run.profiles`)."""
    variant: str = "pvs"
    """The one variant every configuration searches with, options in its name."""
    depths: tuple[int, ...] | None = None
    """The depths (``None``: each problem's default)."""
    limit: int | None = None
    """Only the first ``limit`` problems of each set."""
    from_bare: bool = False
    """Also add each enhancement alone to the bare base (every enhancement off)."""
    only: tuple[str, ...] = ()
    """The enhancements ablated (empty: every one of the profile)."""
    seed: int = 0
    """Seed of the bootstrap intervals."""
    engine: str = ""
    """A UCI engine taken apart instead of the profile (``NAME=COMMAND[,Option=Value...]``,
    :mod:`harness.run.engine_ablation`); empty: the profile."""

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("problems", "only"):
            data[key] = list(data[key])
        data["depths"] = None if self.depths is None else list(self.depths)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AblationConfig:
        """The configuration :meth:`as_dict` recorded (in ``ablation.json``)."""
        try:
            values = dict(data)
            values["problems"] = tuple(values["problems"])
            values["only"] = tuple(values.get("only", ()))
            if values.get("depths") is not None:
                values["depths"] = tuple(values["depths"])
            return cls(**values)
        except (KeyError, TypeError) as exc:
            raise HarnessError(f"{ABLATION_FILE}: configuration not understood: {exc}") from None


@dataclass(frozen=True)
class Planned:
    """One configuration of an ablation: how its table reads it, and what it searches."""

    arm: Arm
    """Its name, change and sets."""
    configuration: Configuration
    """Its switches and game options, before those its games cannot use are turned off (an
    engine's arm: the profile's, unused)."""
    engine: str = ""
    """An engine's arm: the engine spec its run searches alone; empty: the variant's arm."""


def parse_only(text: str) -> tuple[str, ...]:
    """``--enhancements a,b``: names, each a known enhancement."""
    names = tuple(item.strip() for item in text.split(",") if item.strip())
    if not names:
        raise HarnessError(f"--enhancements {text!r}: name at least one enhancement")
    for name in names:
        find_enhancement(name)
    return names


def check_sample(config: AblationConfig, give: str) -> None:
    """Refuse depths no search can run, a limit below 1 and no problems (``give``: what
    to name instead, in the one line)."""
    for depth in config.depths or ():
        check_depth(depth)
    if config.limit is not None and config.limit < 1:
        raise HarnessError(f"--limit {config.limit}: needs at least 1")
    if not config.problems:
        raise HarnessError(f"nothing to search: give {give}")


def plan_ablation(config: AblationConfig) -> list[Planned]:
    """Every configuration of the ablation, checked before anything is searched."""
    if config.engine:
        return _plan_engine(config)
    profile = find_profile(config.profile)
    if not profile.enhancements:
        raise HarnessError(f"profile {profile.name} has no enhancement to take apart (ablate "
                           "--profile modern)")
    specs = parse_variants(config.variant)
    if len(specs) != 1:
        raise HarnessError(f"--variant {config.variant!r}: an ablation searches with one variant")
    check_sample(config, "--problems GAME:SPEC (or --suite EPD)")
    chosen = _chosen(profile, config.only)
    games = {text: _game_of(text, profile) for text in config.problems}
    base = profile.configuration

    def offering(*enhancements: Enhancement) -> tuple[str, ...]:
        return tuple(text for text, game in games.items()
                     if all(_offers(e, game) for e in enhancements))

    planned = [Planned(Arm("base", "base", "", "", tuple(games), _detail(profile)), base)]
    for enhancement in chosen:
        changed = with_enhancements((enhancement,), base, on=False)
        planned.append(Planned(Arm(f"no-{enhancement.name}", "removed", enhancement.name,
                                   "base", offering(enhancement),
                                   _setting(enhancement, on=False)), changed))
    if not config.from_bare:
        return planned
    bare = profile.bare
    planned.append(Planned(Arm("bare", "bare", "", "base", tuple(games),
                               "every enhancement of the profile off"), bare))
    added: list[Enhancement] = []
    for enhancement in chosen:
        need = BY_NAME[enhancement.needs] if enhancement.needs in profile_names(profile) else None
        if need is not None and need not in chosen and need not in added:
            added.append(need)          # the arm it is compared with, though not asked for
        added.append(enhancement)
    for enhancement in dict.fromkeys(added):
        need = BY_NAME[enhancement.needs] if enhancement.needs in profile_names(profile) else None
        with_need = () if need is None else (need,)
        planned.append(Planned(
            Arm(f"bare+{enhancement.name}", "added", enhancement.name,
                "bare" if need is None else f"bare+{need.name}",
                offering(*with_need, enhancement),
                "; ".join(_setting(e, on=True) for e in (*with_need, enhancement))),
            with_enhancements((*with_need, enhancement), bare)))
    return planned


def _plan_engine(config: AblationConfig) -> list[Planned]:
    """The configurations of an engine's ablation (:mod:`harness.run.engine_ablation`)."""
    if config.from_bare:
        raise HarnessError("--from-bare adds enhancements to the profile's bare base; an "
                           "engine's ablation switches each feature off its base alone")
    check_sample(config, "--suite EPD (or --problems chess:SPEC)")
    unused = find_profile(config.profile).configuration
    return [Planned(item.arm, unused, item.engine)
            for item in plan_engine_ablation(config.engine, config.problems, config.only).arms]


def profile_names(profile: Profile) -> list[str]:
    return [e.name for e in profile.enhancements]


def _chosen(profile: Profile, only: Sequence[str]) -> list[Enhancement]:
    names = profile_names(profile)
    for name in only:
        find_enhancement(name)
        if name not in names:
            raise HarnessError(f"enhancement {name} is not in profile {profile.name} (its "
                               f"enhancements: {', '.join(names)})")
    return [e for e in profile.enhancements if not only or e.name in only]


def _game_of(text: str, profile: Profile) -> Game:
    """The game of a problem set, refused when its name sets an option the profile's
    enhancements set (the ablation could not change it)."""
    named = parse_problem_name(text)
    given = {item.partition("=")[0].strip() for item in split_items(text.partition(":")[2])
             if "=" in item}
    for enhancement in profile.enhancements:
        if enhancement.game == named.game.name and enhancement.field in given:
            raise HarnessError(f"{text}: sets {enhancement.field}, which the ablation changes "
                               f"itself (the enhancement {enhancement.name}); drop it")
    return named.game


def _offers(enhancement: Enhancement, game: Game) -> bool:
    return enhancement.offered_by(game.name, game.features, game.options)


def _setting(enhancement: Enhancement, on: bool) -> str:
    change = enhancement.setting(on)
    return f"{change['field']}={change['value']}"


def _detail(profile: Profile) -> str:
    return f"profile {profile.name}: " + "; ".join(
        _setting(e, on=True) for e in profile.enhancements)


def experiment(planned: Planned, config: AblationConfig) -> ExperimentConfig:
    """The run of one configuration: its sets with its game options, its switches with
    those none of its sets' games can use turned off (they would do nothing). An engine's
    configuration: the engine alone, no variant."""
    if planned.engine:
        return ExperimentConfig(problems=planned.arm.sets, variants="", depths=config.depths,
                                limit=config.limit, engines=(planned.engine,))
    profile = find_profile(config.profile)
    games = [parse_problem_name(text).game for text in planned.arm.sets]
    unused = tuple(e for e in profile.enhancements if not any(_offers(e, g) for g in games))
    configuration = with_enhancements(unused, planned.configuration, on=False) if unused \
        else planned.configuration
    problems = tuple(with_defaults(text, configuration.game_options) for text in planned.arm.sets)
    return ExperimentConfig(problems=problems, variants=config.variant, depths=config.depths,
                            switches=configuration.switches, limit=config.limit)


@dataclass
class Ablation:
    """A finished ablation."""

    folder: Path
    """Where its runs and files are."""
    table: pd.DataFrame
    """The rows of ``ablation.csv``."""
    files: tuple[Path, ...]
    """The files written beside the runs: the table, the chart, the index."""


def run_ablation(config: AblationConfig, out: str | Path, command: Sequence[str] = (),
                 progress: Listener | None = None, execution: Execution = Execution(),
                 resume: bool = False) -> Ablation:
    """Search every configuration of ``config`` into ``out/<configuration>`` (``resume``:
    keep the finished runs there, finish an interrupted one, start those not begun), then
    write the table, the chart and ``index.html``."""
    planned = plan_ablation(config)
    folder = Path(out)
    listener = progress or Listener()
    with hold_folder(folder, command):
        record = {"schema_version": SCHEMA_VERSION, "command": list(command),
                  "config": config.as_dict(), **_subject(config),
                  "arms": [asdict(p.arm) for p in planned], "started": now(), "finished": None}
        if resume:
            recorded = _read_record(folder)
            if json.loads(json.dumps(record["arms"])) != recorded.get("arms"):
                raise HarnessError(f"{folder}: cannot resume: the configurations planned now "
                                   f"differ from those {ABLATION_FILE} recorded (the profile "
                                   "changed?); start a new ablation with another --out")
            record["started"] = recorded.get("started")
        elif (folder / ABLATION_FILE).exists() or held_by(folder) is not None:
            raise HarnessError(f"{folder}: already holds an ablation or a run; choose another "
                               f"--out, or finish it with --resume {folder}")
        _write_record(folder, record)
        outputs: list[tuple[Planned, RunOutput]] = []
        searched = [p for p in planned if p.arm.sets]
        for number, item in enumerate(searched, 1):
            listener.note(f"configuration {number}/{len(searched)}: {item.arm.name} "
                          f"({item.arm.detail})")
            outputs.append((item, _run(item, config, folder / item.arm.name, command,
                                       listener, execution)))
        table = ablation_table(_combined(outputs), [p.arm for p in planned], config.problems,
                               config.seed)
        files = _write_files(folder, table, outputs, config)
        _write_record(folder, record | {"finished": now()})
    return Ablation(folder, table, files)


def _subject(config: AblationConfig) -> dict[str, Any]:
    """What ``ablation.json`` records of what was taken apart: the profile in full, or the
    engine's spec (each configuration's ``run.json`` records its ``id name`` and options)."""
    if config.engine:
        return {"engine": config.engine}
    return {"profile": find_profile(config.profile).record()}


def resume_ablation(out: str | Path, execution: Execution = Execution(),
                    progress: Listener | None = None) -> Ablation:
    """Finish the ablation in ``out`` with the configuration it recorded."""
    recorded = _read_record(Path(out))
    config = AblationConfig.from_dict(recorded.get("config") or {})
    return run_ablation(config, out, recorded.get("command") or (), progress, execution,
                        resume=True)


def _read_record(folder: Path) -> dict[str, Any]:
    path = folder / ABLATION_FILE
    data = read_json(path, f"{folder}: not an ablation's folder (no {ABLATION_FILE})")
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
        raise HarnessError(f"{path}: not an ablation of schema version {SCHEMA_VERSION}")
    return data


def _write_record(folder: Path, record: dict[str, Any]) -> None:
    write_whole(folder / ABLATION_FILE, json.dumps(record, indent=2) + "\n")


def _run(item: Planned, config: AblationConfig, run_dir: Path, command: Sequence[str],
         listener: Listener, execution: Execution) -> RunOutput:
    """One configuration's run: kept when finished, resumed when begun, else made."""
    if not (run_dir / RUN_FILE).exists():
        return run_experiment(experiment(item, config), run_dir, command, listener,
                              execution=execution)
    info = load_run_info(run_dir)
    if info.get("finished"):
        return RunOutput(run_dir, load_results(run_dir), info)
    return resume_experiment(run_dir, execution, listener)


def _combined(outputs: Sequence[tuple[Planned, RunOutput]]) -> pd.DataFrame:
    """Every run's rows with its arm and each row's problem set as given."""
    parts = []
    for item, output in outputs:
        names = dict(zip(output.info.get("suites", {}), item.arm.sets, strict=True))
        rows = output.results.copy()
        rows["arm"] = item.arm.name
        rows["set"] = rows["suite"].map(names)
        parts.append(rows)
    return pd.concat(parts, ignore_index=True)


def _write_files(folder: Path, table: pd.DataFrame, outputs: Sequence[tuple[Planned, RunOutput]],
                 config: AblationConfig) -> tuple[Path, ...]:
    write_whole(folder / TABLE_FILE, table.to_csv(index=False))
    charts = save(ablation_chart(table), folder / CHART_NAME)
    title = ablation_title(config.profile, config.variant, config.from_bare, config.engine)
    section = ablation_section(table, charts[0].name, title)
    index = write_index(folder, [(o.run_dir, report_files(o.run_dir)) for _, o in outputs],
                        section)
    return (folder / TABLE_FILE, *charts, index)
