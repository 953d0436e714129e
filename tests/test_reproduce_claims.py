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
