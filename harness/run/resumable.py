"""Whether an interrupted run may be resumed: its rows are kept only beside rows made the
same way, so a resume refuses, touching nothing, when the variants (with the version of
the harness or of the plug-in that brings each), the configuration, a problem file or the
counting rules differ from those its rows were made with.

:func:`made_with` is what ``run.json`` records when a run starts; :func:`check_unchanged`
(before planning: the configuration, the counting rules, the variants installed) and
:func:`check_plan` (the plan made from it: variants, switches, problem sets and their
files' sha256) compare it with now, each difference one line saying what changed and what
to do.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.plugins import BUILT_IN
from harness.results import RUN_FILE, config_hash
from harness.run.plan import Plan
from harness.search import registry
from harness.search.counters import COUNTING_VERSION
from harness.search.registry import VariantSpec

HARNESS_DISTRIBUTION = "gametree-harness"
"""The harness's own distribution: the version of every built-in variant."""


def harness_version() -> str | None:
    """The installed harness's version (``None`` when it is not installed)."""
    try:
        return metadata.version(HARNESS_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def distribution_of(origin: str) -> tuple[str, str | None]:
    """The distribution and version a variant comes from, by its ``origin``: the harness
    for a built-in one, else the package named in it (``"name version"``)."""
    if origin == BUILT_IN:
        return HARNESS_DISTRIBUTION, harness_version()
    name, _, version = origin.partition(" ")
    return name, version or None


def variant_record(spec: VariantSpec) -> dict[str, Any]:
    """What ``run.json`` records of a variant: name, options, its text's source, and the
    distribution and version whose code searches it."""
    distribution, version = distribution_of(spec.variant.origin)
    return {"name": spec.name, "options": dict(spec.options), "source": spec.variant.source,
            "distribution": distribution, "version": version}


def made_with(config: Mapping[str, Any]) -> dict[str, Any]:
    """What a run records, beside its configuration and its hash, so that a resume can
    say what changed: the counting rules' version and a hash of each setting."""
    return {"counting_version": COUNTING_VERSION,
            "config_parts": {key: config_hash({"value": value}) for key, value in config.items()}}


def _refuse(run_dir: Path, what: str, todo: str = "") -> HarnessError:
    return HarnessError(f"{run_dir}: cannot resume: {what}; "
                        + (todo or "start a new run with another --out (these rows stay as they are)"))


def check_unchanged(run_dir: Path, info: Mapping[str, Any]) -> None:
    """Refuse to resume the run of ``info`` (its ``run.json``) when the counting rules,
    its configuration (edited since it started) or a variant installed differ from those
    its rows were made with."""
    counted = info.get("counting_version")
    if counted != COUNTING_VERSION:
        before = ("by rules older than the harness records" if counted is None
                  else f"by counting rules version {counted}")
        raise _refuse(run_dir, f"its rows were counted {before}, this harness counts by "
                      f"version {COUNTING_VERSION} (the counts would not add up)")
    config = info.get("config")
    if not isinstance(config, dict) or info.get("config_hash") != config_hash(config):
        parts = info.get("config_parts", {})
        edited = [key for key, value in (config or {}).items()
                  if isinstance(parts, dict) and parts.get(key) != config_hash({"value": value})]
        what = ", ".join(f"config.{key}" for key in edited) or "the configuration"
        raise _refuse(run_dir, f"{RUN_FILE}'s {what} changed after its rows were made (it no "
                      "longer matches config_hash)",
                      f"put {RUN_FILE} back as it was, or start a new run with another --out")
    installed = {v.name: v for v in registry.VARIANTS}
    for label, record in dict(info.get("variants", {})).items():
        made_by = f"{record.get('distribution')} {record.get('version')}"
        variant = installed.get(record.get("name"))
        if variant is None:
            raise _refuse(run_dir, f"its rows of variant {label} were made by {made_by}, which "
                          "is not installed now", f"install {made_by} again to finish it, or "
                          "start a new run with another --out")
        now = " ".join(map(str, distribution_of(variant.origin)))
        if now != made_by:
            raise _refuse(run_dir, f"its rows of variant {label} were made by {made_by}, "
                          f"this one is {now}", f"install {made_by} again to finish it, or start "
                          "a new run with another --out")


def check_plan(run_dir: Path, info: Mapping[str, Any], plan: Plan) -> None:
    """Refuse to resume when ``plan`` (made from the recorded configuration now) searches
    other variants, switches or problem sets than ``info`` records, or a problem file's
    bytes changed (its sha256)."""
    recorded = list(dict(info.get("variants", {})))
    labels = [spec.label for spec in plan.variants]
    if labels != recorded:
        new = [label for label in labels if label not in recorded]
        gone = [label for label in recorded if label not in labels]
        what = (f"variant {', '.join(new)} is new" if new else
                f"variant {', '.join(gone)} is gone" if gone else "the variants' order changed")
        raise _refuse(run_dir, f"{what} since its rows were made (variants "
                      f"{info.get('config', {}).get('variants')!r})")
    switches = json.loads(json.dumps(asdict(plan.switches)))
    if switches != info.get("switches"):
        changed = sorted(key for key in switches
                         if switches[key] != dict(info.get("switches") or {}).get(key))
        raise _refuse(run_dir, f"the switches {', '.join(changed)} differ from those its rows "
                      "were made with")
    suites = dict(info.get("suites", {}))
    if list(plan.suites) != list(suites):
        raise _refuse(run_dir, f"its problem sets are now {', '.join(plan.suites)}, its rows "
                      f"were made on {', '.join(suites)}")
    for name, record in plan.suites.items():
        before, now = suites[name].get("sha256"), record.get("sha256")
        if before != now:
            where = record.get("path", name)
            raise _refuse(run_dir, f"{where} changed since its rows were made (sha256 "
                          f"{str(before)[:12]}... then, {str(now)[:12]}... now)",
                          "put back the file the run searched, or start a new run with another "
                          "--out")
