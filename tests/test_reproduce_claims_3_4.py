"""harness reproduce, claims 3 and 4 after issue 27's second referee reading: where claim 4's
saving is (search nodes against quiescence nodes, named in the verdict's line), and the data
a run measured printed in each claim's section as the rules name them for the run's phase.
(How checks of one interval are shown: tests/test_reproduce_power.py.)"""

from __future__ import annotations

import math
from dataclasses import asdict, replace
from pathlib import Path

import pandas as pd
import pytest

from harness import reproduce as rp
from harness.reproduce.claims import pvs_article
from harness.reproduce.claims.mtdf import RULES as MTDF
from harness.reproduce.document import _data_items, _rules_record
from harness.reproduce.measure import FULL
from harness.reproduce.phases import CONFIRM, EXPLORE, phase_scale


def rows(counts: dict[str, list[tuple[int, int]]]) -> pd.DataFrame:
    """Rows of alphabeta and pvs per position: (nodes, qnodes) each."""
    return pd.DataFrame([{"suite": "s", "problem_id": k, "config": "c", "variant": v,
                          "nodes": n, "qnodes": q}
                         for v, found in counts.items() for k, (n, q) in enumerate(found)])


def test_the_quiescence_share_of_the_saving_is_a_ratio_of_totals() -> None:
    # AB 100 + 100 and 50 + 150 = 400; PVS 102 + 80 and 50 + 120 = 352: 48 saved, 50 in qnodes.
    part = rows({"alphabeta": [(100, 100), (50, 150)], "pvs": [(102, 80), (50, 120)]})
    assert pvs_article.quiescence_share(part) == pytest.approx(50 / 48)
    assert math.isnan(pvs_article.quiescence_share(rows({"alphabeta": [(10, 10)], "pvs": [(12, 9)]})))


def test_claim_4s_verdict_line_names_where_the_saving_is() -> None:
    depths = {str(d): {"quiescence_share": share, "ratio_nodes": {"ratio": nodes}}
              for d, share, nodes in ((3, 1.064, 1.007), (6, 0.905, 0.998))}
    assert pvs_article.split_text(depths) == (
        "quiescence nodes are 106.4%, 90.5% of the nodes PVS saves at depths 3, 6; on search "
        "nodes alone (no quiescence) PVS / alpha-beta is 1.007, 0.998")
    # The saving stays judged on total nodes: the rules say why, from the article's words.
    saves = pvs_article.RULES.check("saves")
    assert "a search effort" in saves.reason and "total nodes" in saves.measure
    # Version 6's "the saving changes sign between depths 3 and 4" is qualified, not repeated.
    choice = next(c for c in pvs_article.RULES.choices if c.startswith("The depths 3 to 6"))
    assert "false of the kept confirmation on WAC 31-180" in choice


@pytest.mark.parametrize("phase", [EXPLORE, CONFIRM])
def test_each_section_prints_the_data_of_its_run_s_phase(phase: str) -> None:
    info = next(c for c in rp.CLAIMS if c.key == "mtdf")
    scale = phase_scale(FULL, phase, [info])
    mode = CONFIRM if phase == CONFIRM else "full"
    record = _rules_record(MTDF, mode, phase, asdict(scale))
    items = _data_items(record, MTDF, mode)
    suite, first, last = (("selfplay-confirm.epd", 1, 300) if phase == CONFIRM
                          else ("selfplay-explore.epd", 1, 30))
    assert items[0] == (f"This run's data, as the rules name them for its phase (`phases.{phase}`): "
                        f"{suite} positions {first}-{last}.")
    assert items[1].startswith("Held out (`phases.held_out`): selfplay-confirm.epd")
    registered = f"The registered sample of this run ({mode}): chess_positions = {last - first + 1}"
    assert items[2].startswith(registered) and record["sample_as_registered"] is True


def test_a_claims_run_prints_its_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "tiny.epd"
    suite.write_text('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - id "T.1";\n', "utf-8")
    monkeypatch.setattr(rp, "QUICK", replace(rp.QUICK, chess_positions=1, chess_depth=2))
    monkeypatch.setattr(rp, "chess_suite", lambda *named: suite)
    out = rp.reproduce(tmp_path / "out", quick=True, only=["mtdf"])
    text = out.report_md.read_text("utf-8")
    assert ("This run's data, as the rules name them for its phase (`phases.explore`): "
            "selfplay-explore.epd positions 1-30.") in text
    assert "The registered sample of this run (quick): chess_positions = 8" in text
