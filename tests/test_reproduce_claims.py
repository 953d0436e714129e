"""Issue 27's claims 2, 4, 7 and 8 as their newest rules versions state them: what each
version fixes, and that every verdict is reachable in both directions."""

from __future__ import annotations

import dataclasses

import pytest

from harness.errors import HarnessError
from harness.reproduce.claims import zwp
from harness.search.registry import find_variant


def test_zwp_s_typing_is_the_rules_and_every_measured_variant_resolves_to_it() -> None:
    typing = zwp.RULES.parameters["typing"]
    assert tuple(typing["variants"]) == zwp.MEASURED
    assert zwp.REGISTERED_TYPING is typing["researched_pv"] is True
    assert [zwp.typing_of(v) for v in zwp.MEASURED] == [True] * len(zwp.MEASURED)
    zwp.check_typing(zwp.MEASURED)
    assert "researched_pv=1, fixed by rules/zwp.json" in zwp.TYPING


@pytest.mark.parametrize("variant", ["zwp", "zwp-pv"])
def test_a_changed_default_typing_is_refused_not_measured(monkeypatch: pytest.MonkeyPatch,
                                                          variant: str) -> None:
    options = find_variant(variant).options
    monkeypatch.setitem(options, "researched_pv",
                        dataclasses.replace(options["researched_pv"], default=False))
    with pytest.raises(HarnessError, match=r"fixes researched_pv=1, but .*"
                                           + variant + r"\b.*not by a default"):
        zwp.check_typing(zwp.MEASURED)
    # the aspiration driver's inner search follows its variant's default
    assert not zwp.typing_of(f"aspiration:inner={variant}")


def test_a_label_naming_the_other_typing_is_refused() -> None:
    assert not zwp.typing_of("zwp:researched_pv=0")
    with pytest.raises(HarnessError, match="zwp:researched_pv=0"):
        zwp.check_typing(["zwp", "zwp:researched_pv=0"])


def test_pearl_s_limit_is_the_root_of_his_equation() -> None:
    from harness.reproduce.claims.pearl import limit_ok, pearl_asymptote

    assert pearl_asymptote(2) == pytest.approx((1 + 5 ** 0.5) / 2, abs=1e-12)   # b = 2: phi
    assert pearl_asymptote(5) == pytest.approx(3.0796, abs=1e-4)                 # "about 3.08"
    assert all(limit_ok(b)[0] for b in (2, 3, 5, 8, 20))
    assert not limit_ok(1)[0]                       # b = 1: x/(1-x) = 1 = b, not below it


def test_pearl_s_bounds_check_counts_searches_outside() -> None:
    import numpy as np

    from harness.reproduce.claims.pearl import outside_bounds

    # b = 3: the minimal tree at d = 1, 2, 3 has 3, 5, 11 leaves; b^d is 3, 9, 27
    assert outside_bounds(3, [1, 2, 3], np.array([[3, 5, 11], [3, 9, 27]], dtype=float)) == 0
    assert outside_bounds(3, [1, 2, 3], np.array([[2, 5, 28], [3, 4, 11]], dtype=float)) == 3
