"""harness reproduce's two phases: the data each rules file names for exploration and for
confirmation, the refusal of confirmation data that were explored, and the phase each row
is recorded in (with why, when a confirmation row is exploratory)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness import reproduce as rp
from harness.cli import cli
from harness.errors import HarnessError
from harness.reproduce import claims as registry
from harness.reproduce import measure, phases, rules
from harness.reproduce.analysis import ClaimInfo
from harness.reproduce.phases import CONFIRM, EXPLORE, check_held_out, phase_of, phase_scale
from harness.reproduce.rules import Confirmation, Rules

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
OTHER = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -"
THIRD = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -"


def info_with(key: str, **phase: Any) -> ClaimInfo:
    """Claim ``key`` whose rules name other phase data (``explore``, ``confirm``)."""
    info = next(c for c in registry.CLAIMS if c.key == key)
    assert info.rules is not None
    changed = copy.deepcopy(dict(info.rules.rules))
    changed["phases"] = {**changed["phases"], **phase}
    return replace(info, rules=replace(info.rules, rules=changed))


def by_key(key: str) -> ClaimInfo:
    return next(c for c in registry.CLAIMS if c.key == key)


def test_every_rules_file_names_both_phases() -> None:
    for info in registry.CLAIMS:
        assert info.rules is not None
        explore = phases.data_of(info.rules, EXPLORE)
        assert explore and phases.held_out_reason(info.rules), info.key
        confirm = phases.data_of(info.rules, CONFIRM)
        if confirm is None:                     # Pons's figures describe his sets: none held out
            assert info.key == "pons" and "none exist" in phases.held_out_reason(info.rules)
        else:
            assert set(confirm) == set(explore) and confirm != explore, info.key


def test_a_confirmation_measures_the_held_out_data() -> None:
    scale = phase_scale(measure.FULL, CONFIRM, list(registry.CLAIMS))
    # Every chess claim's new version (issue 27's second referee reading) names the self-play
    # suite's first 300 positions, more than claims 3 and 4 need (215).
    assert phases.suite_named(list(registry.CLAIMS), CONFIRM) == "selfplay-confirm.epd"
    assert (scale.chess_first, scale.chess_positions) == (1, 300)
    assert dict(scale.seeds) == {"games": 13, "knuth-moore": 1001, "pearl": 2002, "sweep": 2003,
                                 "stockman": 1004, "plaat-sss": 1005, "schaeffer": 43,
                                 "pvs-modern": 46, "three-games-modern": 53,
                                 "schaeffer-games": 63}
    assert scale.chess_depth == measure.FULL.chess_depth and scale.connect4 == measure.FULL.connect4


def test_the_exploration_keeps_the_scales_own_count() -> None:
    quick = phase_scale(measure.QUICK, EXPLORE, list(registry.CLAIMS))
    assert quick == measure.QUICK and (quick.chess_first, quick.chess_positions) == (1, 8)
    assert phases.suite_named(list(registry.CLAIMS), EXPLORE) == "selfplay-explore.epd"


def test_the_suite_searched_is_the_one_the_rules_name_for_the_phase(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    claim = info_with("mtdf", explore={"chess": {"suite": "mine.epd", "positions": [1, 2]}},
                      confirm={"chess": {"suite": "theirs.epd", "positions": [1, 2]}})
    assert phases.suite_named([claim], EXPLORE) == "mine.epd"
    assert phases.suite_named([claim], CONFIRM) == "theirs.epd"
    assert phases.suite_named([by_key("knuth-moore")], CONFIRM) is None
    monkeypatch.setenv("HARNESS_SUITES", str(tmp_path))
    mine = epd(tmp_path / "mine.epd", START)
    assert measure.chess_suite("mine.epd") == mine
    assert measure.chess_suite("absent.epd") == measure.chess_suite("bench.epd")   # as WAC was


def test_claims_sharing_a_dataset_must_name_the_same_data() -> None:
    odd = info_with("zwp", confirm={"chess": {"suite": "wac.epd", "positions": [31, 90]},
                                    "sweep": {"seed": 1003}})
    with pytest.raises(HarnessError, match=r"zwp.json: its confirm data for chess .* are not those"):
        phase_scale(measure.FULL, CONFIRM, [by_key("mtdf"), odd])


def test_a_seed_explored_is_refused() -> None:
    odd = info_with("ordering", confirm={"sweep": {"seed": 3}})
    scale = phase_scale(measure.FULL, CONFIRM, [odd])
    with pytest.raises(HarnessError, match=r"^--phase confirm: sweep seed 3 is exploration data "
                                           r"\(harness/reproduce/rules/\w+.json\)"):
        check_held_out([odd], registry.CLAIMS, scale, None)
    fresh = info_with("ordering", confirm={"sweep": {"seed": 77}})
    check_held_out([fresh], registry.CLAIMS, phase_scale(measure.FULL, CONFIRM, [fresh]), None)


def epd(path: Path, *fens: str) -> Path:
    path.write_text("".join(f'{fen} id "P.{k}";\n' for k, fen in enumerate(fens, 1)), "utf-8")
    return path


def chess_claim(explore: list[int], confirm: list[int]) -> ClaimInfo:
    return info_with("pvs-article", explore={"chess": {"suite": "wac.epd", "positions": explore}},
                     confirm={"chess": {"suite": "wac.epd", "positions": confirm}})


def test_a_chess_position_explored_is_refused_by_its_fen(tmp_path: Path) -> None:
    suite = epd(tmp_path / "wac.epd", START, OTHER, THIRD, START)    # position 4 is position 1
    claim = chess_claim([1, 2], [3, 4])
    scale = phase_scale(measure.FULL, CONFIRM, [claim])
    with pytest.raises(HarnessError, match=r"1 of the confirmation positions \(the first: wac.epd "
                                           r"position 4\) were explored"):
        check_held_out([claim], [claim], scale, suite)
    held_out = chess_claim([1, 2], [3, 3])
    check_held_out([held_out], [held_out], phase_scale(measure.FULL, CONFIRM, [held_out]), suite)


def test_confirmation_positions_must_be_in_the_suite_the_rules_name(tmp_path: Path) -> None:
    claim = chess_claim([1, 1], [2, 5])
    scale = phase_scale(measure.FULL, CONFIRM, [claim])
    with pytest.raises(HarnessError, match=r"are in wac.epd, but the suite found is .*bench.epd"):
        check_held_out([claim], [claim], scale, epd(tmp_path / "bench.epd", START, OTHER))
    with pytest.raises(HarnessError, match=r"wac.epd holds 1 of the rules' confirmation positions 2-5"):
        check_held_out([claim], [claim], scale, epd(tmp_path / "wac.epd", START, OTHER))


def test_the_real_confirmation_positions_are_held_out() -> None:
    every = list(registry.CLAIMS)
    suite = measure.chess_suite(phases.suite_named(every, CONFIRM))
    assert suite is not None and suite.name == "selfplay-confirm.epd"    # in the package
    check_held_out(every, every, phase_scale(measure.FULL, CONFIRM, every), suite)


def rules_of(key: str) -> Rules:
    found = by_key(key).rules
    assert found is not None
    return found


def test_a_row_is_confirmatory_only_on_frozen_rules_and_held_out_data() -> None:
    pvs = rules_of("pvs-article")
    assert phase_of(pvs, EXPLORE) == phases.PhaseOf(EXPLORE)
    assert phase_of(pvs, CONFIRM, changed=False) == phases.PhaseOf(CONFIRM)
    unfrozen = phase_of(pvs, CONFIRM, changed=True)
    assert unfrozen.phase == EXPLORE and "not committed: its rules are not frozen" in unfrozen.why
    none = phase_of(rules_of("pons"), CONFIRM, changed=False)
    assert none.phase == EXPLORE and none.why.startswith("no held-out data: none exist")
    assert phase_of(None, CONFIRM).why == "no rules file names its data"


def test_rules_written_after_a_look_at_the_confirmation_data_are_exploratory() -> None:
    pvs = rules_of("pvs-article")
    data = phases.data_of(pvs, CONFIRM)
    assert data is not None
    looked = Confirmation(pvs.version - 1, phases.data_digest(data), "runs/2026-11-26", "2026-11-26")
    later = phase_of(replace(pvs, confirmations=(looked,)), CONFIRM, changed=False)
    assert later.phase == EXPLORE
    assert later.why == (f"its confirmation data (selfplay-confirm.epd positions 1-300) were measured in the "
                         f"confirmation run runs/2026-11-26 of 2026-11-26 under rules version "
                         f"{pvs.version - 1}; version {pvs.version} came after")
    # The same version run again is a replication; other data are no look at these.
    again = replace(looked, version=pvs.version)
    other = replace(looked, data="0" * 64)
    assert phase_of(replace(pvs, confirmations=(again, other)), CONFIRM, changed=False).phase == CONFIRM


def test_claim_3s_confirmation_data_were_looked_at_under_version_5() -> None:
    """Version 5 of claim 3's rules was run on its confirmation data (WAC 31-180) by mistake
    before it was committed, and the kept run of 2026-11-27 measured them again under version
    6: both runs are recorded, so a version on those data was exploratory. Version 7 names
    data never searched (selfplay-confirm.epd): confirmatory once committed."""
    mtdf = rules_of("mtdf")
    assert [c.version for c in mtdf.confirmations] == [5, 6, 7, 7]
    wac = phases.data_digest({"chess": {"suite": "wac.epd", "positions": [31, 180]}})
    assert all(c.data == wac for c in mtdf.confirmations[:2])
    # Version 7's data were measured by mistake inside a test (recorded, unread): the same
    # version on the same data, so its confirmation stays confirmatory.
    assert "not kept: run by mistake inside a test" in mtdf.confirmations[2].run
    assert mtdf.confirmations[3].run == "docs/reproduction/2026-11-27-3"      # the kept one
    assert mtdf.confirmations[3].data == mtdf.confirmations[2].data
    sixth = replace(mtdf, version=6, rules=mtdf.history[-1].rules)
    assert phase_of(sixth, CONFIRM, changed=False).phase == EXPLORE
    data = phases.data_of(mtdf, CONFIRM)
    assert data is not None and phases.data_digest(data) != wac
    assert phase_of(mtdf, CONFIRM, changed=False).phase == CONFIRM


def test_recorded_confirmations_are_checked() -> None:
    path = Path(rules.__file__).parent / "rules" / "pearl.json"
    document = json.loads(path.read_text("utf-8"))
    for entry, message in (({"version": 99, "data": "x", "run": "r", "date": "d"}, "not one of 1 to"),
                           ({"version": 1, "run": "r", "date": "d"}, "lacks data")):
        document["confirmations"] = [entry]
        with pytest.raises(HarnessError, match=f"confirmation 1: .*{message}"):
            rules.parse(json.dumps(document).encode(), "pearl.json")


def test_the_phases_are_validated() -> None:
    path = Path(rules.__file__).parent / "rules" / "pearl.json"
    document = json.loads(path.read_text("utf-8"))
    bad = copy.deepcopy(document["rules"])
    bad["phases"]["confirm"] = {"pearl": {"seed": "new"}}
    with pytest.raises(HarnessError, match=r"phases.confirm.pearl needs a whole-number seed"):
        rules._validate_rules("pearl.json", bad)
    del bad["phases"]["held_out"]
    with pytest.raises(HarnessError, match="say why they are held out"):
        rules._validate_rules("pearl.json", bad)


def test_a_confirmation_run_records_its_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = replace(measure.FULL, km_max_leaves=64, km_branchings=(2, 3), km_trees=1,
                   connect4=(("Test_L3_R1", 2),))
    monkeypatch.setattr(rp, "FULL", tiny)
    monkeypatch.setattr(phases, "uncommitted", lambda path: False)
    out = rp.reproduce(tmp_path / "out", phase=CONFIRM, only=["knuth-moore", "pons"])
    record = json.loads((out.out_dir / "claims.json").read_text("utf-8"))
    assert record["phase"] == CONFIRM
    km, pons = record["claims"]
    assert (km["phase"], km["phase_why"]) == (CONFIRM, "")
    assert km["rules"]["data"]["described"] == "knuth-moore seed 1001"
    assert "seed 1001" in km["setup"]
    assert pons["phase"] == EXPLORE and pons["phase_why"].startswith("no held-out data")
    table = (out.out_dir / "verdicts.md").read_text("utf-8")
    assert "| confirmation | v" in table and "| exploration: no held-out data: none exist" in table
    settings = json.loads((out.out_dir / measure.MEASURING_FILE).read_text("utf-8"))
    assert settings["phase"] == CONFIRM


def test_the_command_line_takes_the_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = replace(measure.FULL, km_max_leaves=64, km_branchings=(2,), km_trees=1)
    monkeypatch.setattr(rp, "FULL", tiny)
    monkeypatch.setattr(phases, "uncommitted", lambda path: False)
    result = CliRunner().invoke(cli, ["reproduce", "--phase", "confirm", "--only", "1",
                                      "--no-progress", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "(confirmation)" in result.output.splitlines()[0]
    quick = CliRunner().invoke(cli, ["reproduce", "--quick", "--only", "1", "--no-progress",
                                     "--out", str(tmp_path / "quick")])
    assert quick.exit_code == 0 and "(exploration)" in quick.output.splitlines()[0]
