"""Games behind one interface: problems named GAME:SPEC, options in the name, the registry,
``harness games``, the games' own result columns, and runs recorded by an older harness."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import HarnessError
from harness.games.base import Game
from harness.games.registry import (
    GAMES,
    find_game,
    load_problems,
    parse_problem_name,
    split_items,
    with_defaults,
)
from harness.results import ROW_COLUMNS, load_results
from harness.run.plan import ExperimentConfig, plan_experiment
from harness.search.run import Switches

ROOT = Path(__file__).resolve().parents[1]
TREES = "random:b=3,d=3,n=2,seed=1"


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_every_built_in_game_is_a_game_found_by_name() -> None:
    names = [g.name for g in GAMES]
    assert names[:4] == ["chess", "random", "tree", "openspiel"]
    for game in GAMES:
        assert isinstance(game, Game) and find_game(game.name) is game
        assert game.description and game.spec and game.source
    with pytest.raises(HarnessError, match="unknown game 'chest' \\(did you mean 'chess'"):
        find_game("chest")


def test_names_split_at_commas_outside_parentheses() -> None:
    assert split_items("breakthrough(rows=5,columns=5),moves=0 1") == [
        "breakthrough(rows=5,columns=5)", "moves=0 1"]
    named = parse_problem_name("openspiel:breakthrough(rows=5,columns=5),scale=10")
    assert (named.game.name, named.spec) == ("openspiel", "breakthrough(rows=5,columns=5)")
    assert dict(named.options) == {"moves": "", "plies": 0, "scale": 10, "eval": ""}
    assert named.game.set_name(named.spec, named.options) == "breakthrough(rows=5,columns=5),scale=10"
    named = parse_problem_name("chess:bench.epd,killers=1")
    assert named.spec == "bench.epd" and dict(named.options)["killers"] is True
    with pytest.raises(HarnessError, match="not GAME:SPEC"):
        parse_problem_name("bench.epd")
    with pytest.raises(HarnessError, match=r"chess:bench.epd,killer=1: unknown option 'killer'"):
        parse_problem_name("chess:bench.epd,killer=1")
    with pytest.raises(HarnessError, match="option killers='maybe' is not a boolean"):
        parse_problem_name("chess:bench.epd,killers=maybe")


def test_command_line_defaults_fill_only_what_a_name_leaves_out() -> None:
    flags = {"chess": {"killers": "1", "history": "1"}}
    assert with_defaults("chess:wac.epd", flags) == "chess:wac.epd,killers=1,history=1"
    assert with_defaults("chess:wac.epd,killers=0", flags) == "chess:wac.epd,killers=0,history=1"
    assert with_defaults(TREES, flags) == TREES


def test_a_set_is_named_by_what_differs_from_the_defaults() -> None:
    plain = load_problems("chess:bench.epd")
    tuned = load_problems("chess:bench.epd,killers=1")
    assert (plain.name, tuned.name) == ("bench.epd", "bench.epd,killers=1")
    assert tuned.record["options"] == {"mvv_lva": True, "killers": True, "history": False,
                                       "qsee": False, "delta": False, "qchecks": False,
                                       "repetition": False, "tree": "auto"}
    assert tuned.record["game"] == "chess" and len(tuned.record["sha256"]) == 64
    assert load_problems("random:d=2,b=3").name == "random:b=3,d=2,n=1,seed=0,ordering=random," \
                                                  "values=uniform,range=1000"


def test_a_game_option_and_its_shortcut_search_the_same_trees(tmp_path: Path) -> None:
    common = ["--variants", "alphabeta,pvs", "--depth", "2", "--limit", "3", "--no-progress"]
    named = invoke("run", "--problems", "chess:bench.epd,killers=1,history=1", *common,
                   "--out", str(tmp_path / "named"))
    flags = invoke("run", "--suite", "bench.epd", "--killers", "--history", *common,
                   "--out", str(tmp_path / "flags"))
    plain = invoke("run", "--suite", "bench.epd", *common, "--out", str(tmp_path / "plain"))
    assert named.exit_code == flags.exit_code == plain.exit_code == 0, named.output
    a, b, c = (load_results(tmp_path / n) for n in ("named", "flags", "plain"))
    assert list(a["nodes"]) == list(b["nodes"]) and list(a["nodes"]) != list(c["nodes"])
    assert set(a["suite"]) == {"bench.epd,killers=1,history=1"} and set(c["suite"]) == {"bench.epd"}
    assert set(a["game"]) == {"chess"} and a["fen"].str.contains("/").all()
    info = json.loads((tmp_path / "named" / "run.json").read_text())
    assert info["config"]["problems"] == ["chess:bench.epd,killers=1,history=1"]
    assert info["suites"]["bench.epd,killers=1,history=1"]["options"]["killers"] is True


def test_one_run_over_three_games_has_each_games_columns(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("run", "--problems", TREES, "--problems", f"tree:{ROOT / 'tests/data/textbook.json'}",
                    "--problems", "chess:bench.epd", "--limit", "1", "--depth", "2",
                    "--variants", "alphabeta", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert list(frame.columns) == [*ROW_COLUMNS, "fen"]
    assert list(frame["game"]) == ["random", "tree", "chess"]
    assert [bool(fen) for fen in frame["fen"]] == [False, False, True]
    info = json.loads((out / "run.json").read_text())
    assert info["columns"] == [*ROW_COLUMNS, "fen"]
    page = (out / "report.html").read_text()
    sets = page[page.index("<h3>Problem sets</h3>"):]
    assert all(f'<td class="text">{game}</td>' in sets for game in ("random", "tree", "chess"))
    assert "mvv_lva=True, killers=False, history=False" in sets


def test_a_run_without_chess_has_no_chess_column(tmp_path: Path) -> None:
    result = invoke("run", "--trees", TREES, "--variants", "alphabeta", "--no-progress",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    assert list(load_results(tmp_path / "run").columns) == list(ROW_COLUMNS)


def test_openspiel_problems_run_from_the_command_line(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    out = tmp_path / "run"
    result = invoke("run", "--problems", "openspiel:tic_tac_toe,moves=4 0 8", "--variants",
                    "alphabeta,pvs,negascout,mtdf", "--no-progress", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame = load_results(out)
    assert set(frame["game"]) == {"openspiel"} and set(frame["problem_id"]) == {"4 0 8"}
    assert set(frame["depth"]) == {6} and frame["score"].nunique() == 1
    assert set(frame["suite"]) == {"tic_tac_toe,moves=4 0 8"}


def test_harness_games_lists_names_options_features_and_sources() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    out = result.output
    for game in GAMES:
        assert f"{game.name}:{game.spec}\n" in out
    assert "    option killers=0: killer moves" in out
    assert "    offers: check_extension, null_move, quiescence" in out
    assert "    result columns: fen" in out
    assert "added by" not in out                       # every game here is built in


def test_a_feature_no_game_offers_is_a_warning(tmp_path: Path) -> None:
    config = ExperimentConfig(problems=(TREES,), variants="alphabeta", switches=Switches(null_move=2))
    with pytest.warns(UserWarning, match="--null-move: no problem of this run offers null move"):
        plan_experiment(config)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plan_experiment(ExperimentConfig(problems=("chess:bench.epd",), variants="alphabeta",
                                         switches=Switches(null_move=2)))


def test_a_version_1_configuration_reads_as_problem_names() -> None:
    old = {"tree_files": ["fig.json"], "tree_specs": [TREES], "suites": ["wac.epd"],
           "variants": "pvs", "depths": [2], "switches": {"tt_size": 0, "killers": True,
                                                        "history": False, "mvv_lva": True}}
    config = ExperimentConfig.from_dict(old)
    assert config.problems == ("tree:fig.json", TREES, "chess:wac.epd,killers=1")
    assert config.switches == Switches() and config.depths == (2,)


def test_a_run_written_by_schema_version_1_is_read_with_its_games(tmp_path: Path) -> None:
    new = tmp_path / "new"
    assert invoke("run", "--trees", TREES, "--problems", "chess:bench.epd", "--limit", "1",
                  "--depth", "1", "--variants", "alphabeta", "--no-progress", "--out",
                  str(new)).exit_code == 0
    old = tmp_path / "old"
    shutil.copytree(new, old)
    frame = pd.read_csv(new / "results.csv", dtype=str, keep_default_na=False)
    columns = [c for c in frame.columns if c != "game"]
    columns.insert(columns.index("time_s"), columns.pop(columns.index("fen")))   # v1's order
    frame[columns].to_csv(old / "results.csv", index=False)
    info = json.loads((old / "run.json").read_text())
    info["schema_version"] = 1
    for record in info["suites"].values():
        record["kind"] = "epd" if record["game"] == "chess" else "synthetic"
    (old / "run.json").write_text(json.dumps(info))
    read = load_results(old)
    assert list(read["game"]) == list(load_results(new)["game"]) == ["random", "chess"]
    assert list(read["nodes"]) == list(load_results(new)["nodes"])


def test_openspiel_positions_a_few_plies_in_are_a_problem_set() -> None:
    pytest.importorskip("pyspiel")
    found = load_problems("openspiel:tic_tac_toe,plies=2")
    assert len(found.problems) == 72                 # 9 x 8 first two moves, all distinct
    assert found.problems[0].problem_id == "0 1" and found.problems[0].default_depth == 7
    later = load_problems("openspiel:tic_tac_toe,moves=4,plies=1")
    assert [p.problem_id for p in later.problems][:2] == ["4 0", "4 1"]
    tree = find_game("openspiel").tree(later.problems[0])
    assert tree.moves() == [1, 2, 3, 5, 6, 7, 8]     # two marks down: 4 and 0
    with pytest.raises(HarnessError, match="every game is over within 9 plies"):
        load_problems("openspiel:tic_tac_toe,plies=9")


def test_harness_games_lists_the_names_the_parsers_take() -> None:
    """The listing comes from the parsers' own tables (it once offered best-first and
    worst-first, which the parser refused): each name listed is accepted, every game's
    choices are listed."""
    from harness.games.trees.knobs import ORDERINGS, VALUE_MODELS

    out = invoke("games").output
    ordering = next(line for line in out.splitlines() if "option ordering=" in line)
    values = next(line for line in out.splitlines() if "option values=" in line)
    assert "best-first" not in ordering and "worst-first" not in ordering
    for names, line, key in ((ORDERINGS, ordering, "ordering"), (VALUE_MODELS, values, "values")):
        for name in names:
            assert f"{name} (" in line
            load_problems(f"random:b=2,d=2,{key}={name}")          # accepted as listed
    with pytest.raises(HarnessError, match="ordering='best-first'"):
        load_problems("random:b=2,d=2,ordering=best-first")
    for game in GAMES:
        for option in game.options.values():
            for choice in option.choices:
                assert choice in out, (game.name, choice)
