"""Each claim's registered rules: one data file per claim, ``rules/<claim key>.json``,
written before the measurement it judges.

A file holds the claim's key, its ``version``, the date it was ``registered``, its
``rules`` (the checks with their kind, estimator and band, the bootstrap's level,
resamples and seed, the sample each scale registers, the parameters its module reads,
the choices that are the harness's own, and the ``phases``' data: :mod:`.phases`),
``rules_sha256`` (the sha256 of the rules
as canonical JSON: :func:`digest`), and the ``history`` of every earlier version: its
rules, the verdict they gave, when and why they were changed. Outside the sealed rules,
``confirmations`` records the confirmation runs kept (a run is not a change of rules).

Versions. The version names the rules; the file's sha256 names its bytes. Editing the
prose of the history changes the file's sha256 (every reproduction records it), not the
version. Changing the rules is a new version: the loader refuses a file whose rules no
longer match their ``rules_sha256`` (changed in place, without a new version), whose
history does not hold versions 1 to N-1 in order, each sealed by its own sha256, or
whose version repeats the rules of the one before. :func:`supersede` makes a new version
from a file's document: the old rules go to the history with their verdict and the reason.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from harness.errors import HarnessError
from harness.reproduce.verdicts import EXTENSION, KINDS, THEOREM, Band

FOLDER = "rules"
"""The rules files' folder inside the package ``harness.reproduce``."""


@dataclass(frozen=True)
class Bootstrap:
    """How every interval of a claim is computed: a percentile bootstrap over problems."""

    level: float
    """Coverage of each interval."""
    resamples: int
    """Resamples per interval."""
    seed: int
    """Seed of numpy's PCG64 generator."""


@dataclass(frozen=True)
class CheckRule:
    """One registered check."""

    ident: str
    """Its key in the rules file."""
    kind: str
    """``claim`` or ``theorem`` (a correctness check)."""
    band: Band
    """The band its interval (or count) is tested against."""
    measure: str
    """What is estimated, and how its interval is computed."""
    reason: str
    """Why the band is what it is (the source's words), or why it is a theorem."""
    sets: tuple[str, ...] = ()
    """The sets it applies to, when a claim's sets are checked apart (empty: any other)."""
    test: str = ""
    """A theorem's test in the test suite (``tests/file.py::test_name``)."""
    shares: str = ""
    """The check whose interval it tests too (the verdict counts the two once)."""
    extension: str = ""
    """An extension's conditions, beyond the author's (its label in the verdict)."""
    power: Mapping[str, Any] | None = None
    """The sample-size computation for its band (:mod:`harness.reproduce.power`), or why
    none is needed (``exact``)."""
    smallest_effect: Mapping[str, Any] | None = None
    """For a band of "saves" or "fewer": the smallest effect that matters, with the reason."""


@dataclass(frozen=True)
class Version:
    """An earlier version of a claim's rules."""

    version: int
    registered: str
    rules: Mapping[str, Any]
    verdict: str
    """The verdict (or verdicts) they gave, and on which run."""
    changed: str
    """When they were replaced."""
    reason: str
    """Why."""
    commit: str = ""
    """The commit that replaced them, where there is one."""


@dataclass(frozen=True)
class Confirmation:
    """A confirmation run kept, as its claim's rules file records it (outside the sealed
    rules: recording a run is not a change of rules)."""

    version: int
    """The rules version it was judged by."""
    data: str
    """The digest of its data (:func:`harness.reproduce.phases.data_digest`)."""
    run: str
    """Where it is kept (a folder of the repository)."""
    date: str
    """When it was run (an ISO date)."""
    commit: str = ""
    """The commit it was run at."""
    verdict: str = ""
    """The verdict it gave."""


@dataclass(frozen=True)
class Rules:
    """A claim's registered rules, as loaded from its file."""

    claim: str
    version: int
    registered: str
    rules: Mapping[str, Any]
    sha256: str
    """The sha256 of the file's bytes."""
    rules_sha256: str
    """The sha256 of the rules as canonical JSON (:func:`digest`)."""
    history: tuple[Version, ...]
    path: str
    """Where the file is, for the report (``harness/reproduce/rules/<key>.json``)."""
    note: str = ""
    """How and when this version was written, in words."""
    confirmations: tuple[Confirmation, ...] = ()
    """The confirmation runs kept so far, of this version and earlier ones."""

    @property
    def bootstrap(self) -> Bootstrap:
        s = self.rules["statistics"]
        return Bootstrap(float(s["level"]), int(s["resamples"]), int(s["seed"]))

    @property
    def parameters(self) -> Mapping[str, Any]:
        """The values the claim's module reads besides bands (levels, depths, seeds)."""
        found: Mapping[str, Any] = self.rules.get("parameters", {})
        return found

    @property
    def sample(self) -> Mapping[str, Any]:
        """The registered sample: per scale (``quick``, ``full``) the scale's fields the
        claim rests on."""
        found: Mapping[str, Any] = self.rules.get("sample", {})
        return found

    @property
    def choices(self) -> list[str]:
        """The choices that are the harness's own, in words."""
        return [str(x) for x in self.rules.get("choices", [])]

    @property
    def checks(self) -> list[CheckRule]:
        """Every registered check, in the file's order."""
        return [_check_rule(ident, found) for ident, found in self.rules["checks"].items()]

    def check(self, ident: str, within: str | None = None) -> CheckRule:
        """The check ``ident``; with ``within`` (a set's name), the one among ``ident`` and
        ``ident/...`` whose sets name it, else ``ident`` itself."""
        if within is not None:
            for rule in self.checks:
                if (rule.ident == ident or rule.ident.startswith(ident + "/")) and within in rule.sets:
                    return rule
        for rule in self.checks:
            if rule.ident == ident:
                return rule
        raise HarnessError(f"rules of claim {self.claim}: no check {ident!r}")


def digest(rules: Mapping[str, Any]) -> str:
    """The sha256 of rules as canonical JSON (keys sorted, no spaces, UTF-8)."""
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_rule(ident: str, found: Mapping[str, Any]) -> CheckRule:
    return CheckRule(ident, str(found["kind"]), Band.parse(str(found["band"])),
                     str(found["measure"]), str(found["reason"]),
                     tuple(str(s) for s in found.get("sets", ())), str(found.get("test", "")),
                     str(found.get("shares", "")), str(found.get("extension", "")),
                     found.get("power"), found.get("smallest_effect"))


def _validate_rules(where: str, rules: Any) -> None:
    if not isinstance(rules, Mapping):
        raise HarnessError(f"{where}: its rules must be an object")
    for field in ("statistics", "checks"):
        if field not in rules:
            raise HarnessError(f"{where}: its rules lack {field!r}")
    checks = rules["checks"]
    if not isinstance(checks, Mapping) or not checks:
        raise HarnessError(f"{where}: its rules need at least one check")
    for ident, found in checks.items():
        if not isinstance(found, Mapping):
            raise HarnessError(f"{where}: check {ident!r} must be an object")
        missing = [f for f in ("kind", "band", "measure", "reason") if f not in found]
        if missing:
            raise HarnessError(f"{where}: check {ident!r} lacks {', '.join(missing)}")
        if found["kind"] not in KINDS:
            raise HarnessError(f"{where}: check {ident!r}: kind {found['kind']!r} is none of "
                               f"{', '.join(map(repr, KINDS))}")
        if found["kind"] == EXTENSION and not str(found.get("extension", "")).strip():
            raise HarnessError(f"{where}: check {ident!r} is an extension: name its conditions "
                               "(extension)")
        if found["kind"] == THEOREM and not found.get("test"):
            raise HarnessError(f"{where}: check {ident!r} is a theorem: name its test")
        try:
            Band.parse(str(found["band"]))
        except HarnessError as exc:
            raise HarnessError(f"{where}: check {ident!r}: {exc}") from None
    if "phases" in rules:
        _validate_phases(where, rules["phases"])


def _validate_phases(where: str, phases: Any) -> None:
    """``phases``: the exploration data, the confirmation data (or ``null``) and why."""
    if not isinstance(phases, Mapping) or not isinstance(phases.get("explore"), Mapping):
        raise HarnessError(f"{where}: its phases must name the exploration data (explore)")
    if "confirm" not in phases or not str(phases.get("held_out", "")).strip():
        raise HarnessError(f"{where}: its phases must name the confirmation data (confirm, or "
                           "null) and say why they are held out (held_out)")
    for phase in ("explore", "confirm"):
        data = phases[phase]
        if data is None and phase == "confirm":
            continue
        if not isinstance(data, Mapping):
            raise HarnessError(f"{where}: phases.{phase} must be an object")
        for name, found in data.items():
            if not isinstance(found, Mapping):
                raise HarnessError(f"{where}: phases.{phase}.{name} must be an object")
            if name == "chess":
                span = found.get("positions")
                if (not isinstance(found.get("suite"), str) or not isinstance(span, list)
                        or len(span) != 2 or not all(isinstance(x, int) for x in span)
                        or not 1 <= span[0] <= span[1]):
                    raise HarnessError(f"{where}: phases.{phase}.chess needs a suite and "
                                       "positions [first, last] (from 1)")
            elif name != "connect4" and not isinstance(found.get("seed"), int):
                raise HarnessError(f"{where}: phases.{phase}.{name} needs a whole-number seed")


def parse(data: bytes, path: str) -> Rules:
    """A rules file's bytes, checked (see the module's docstring)."""
    try:
        found = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise HarnessError(f"{path}: not readable as JSON: {exc}") from None
    if not isinstance(found, dict):
        raise HarnessError(f"{path}: expected an object")
    missing = [f for f in ("claim", "version", "registered", "rules", "rules_sha256", "history")
               if f not in found]
    if missing:
        raise HarnessError(f"{path}: lacks {', '.join(missing)}")
    version = found["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise HarnessError(f"{path}: version {version!r} is not a whole number from 1")
    _validate_rules(path, found["rules"])
    if digest(found["rules"]) != found["rules_sha256"]:
        raise HarnessError(
            f"{path}: the rules of version {version} changed after they were registered "
            f"(their sha256 is no longer {found['rules_sha256']}). A changed rule is a new "
            f"version: keep version {version}'s rules in the history with the verdict they "
            "gave and the reason for the change, and register the new rules as "
            f"version {version + 1}")
    history = found["history"]
    if not isinstance(history, list):
        raise HarnessError(f"{path}: its history must be a list")
    numbers = [h.get("version") if isinstance(h, dict) else None for h in history]
    if numbers != list(range(1, version)):
        raise HarnessError(f"{path}: version {version} needs the history of versions 1 to "
                           f"{version - 1} in order (found {numbers})")
    versions: list[Version] = []
    for entry in history:
        where = f"{path}, version {entry['version']}"
        absent = [f for f in ("registered", "rules", "rules_sha256", "verdict", "changed", "reason")
                  if f not in entry]
        if absent:
            raise HarnessError(f"{where}: lacks {', '.join(absent)}")
        _validate_rules(where, entry["rules"])
        if digest(entry["rules"]) != entry["rules_sha256"]:
            raise HarnessError(f"{where}: its rules were edited after they were replaced "
                               "(their sha256 differs from the one recorded)")
        if not str(entry["reason"]).strip():
            raise HarnessError(f"{where}: say why it was changed")
        versions.append(Version(int(entry["version"]), str(entry["registered"]), entry["rules"],
                                str(entry["verdict"]), str(entry["changed"]), str(entry["reason"]),
                                str(entry.get("commit", ""))))
    sealed = [v.rules for v in versions] + [found["rules"]]
    for earlier, later, number in zip(sealed, sealed[1:], range(2, version + 1), strict=False):
        if digest(earlier) == digest(later):
            raise HarnessError(f"{path}: version {number} has the same rules as version "
                               f"{number - 1}: a new version is a change of rules")
    return Rules(str(found["claim"]), version, str(found["registered"]), found["rules"],
                 hashlib.sha256(data).hexdigest(), str(found["rules_sha256"]), tuple(versions), path,
                 str(found.get("note", "")), _confirmations(path, found.get("confirmations", []), version))


def _confirmations(path: str, found: Any, version: int) -> tuple[Confirmation, ...]:
    """The recorded confirmation runs, checked: each names a version up to the current one,
    the digest of its data, where it is kept and when it ran."""
    if not isinstance(found, list):
        raise HarnessError(f"{path}: its confirmations must be a list")
    runs = []
    for number, entry in enumerate(found, 1):
        where = f"{path}, confirmation {number}"
        if not isinstance(entry, dict):
            raise HarnessError(f"{where}: must be an object")
        absent = [f for f in ("version", "data", "run", "date") if f not in entry]
        if absent:
            raise HarnessError(f"{where}: lacks {', '.join(absent)}")
        if not isinstance(entry["version"], int) or not 1 <= entry["version"] <= version:
            raise HarnessError(f"{where}: version {entry['version']!r} is not one of 1 to {version}")
        runs.append(Confirmation(int(entry["version"]), str(entry["data"]), str(entry["run"]),
                                 str(entry["date"]), str(entry.get("commit", "")),
                                 str(entry.get("verdict", ""))))
    return tuple(runs)


@functools.cache
def load(key: str) -> Rules:
    """The registered rules of claim ``key`` (``rules/<key>.json`` in the package)."""
    path = f"harness/reproduce/{FOLDER}/{key}.json"
    try:
        data = resources.files("harness.reproduce").joinpath(FOLDER, f"{key}.json").read_bytes()
    except FileNotFoundError:
        raise HarnessError(f"{path}: claim {key!r} has no rules file") from None
    rules = parse(data, path)
    if rules.claim != key:
        raise HarnessError(f"{path}: names claim {rules.claim!r}, not {key!r}")
    return rules


def supersede(document: Mapping[str, Any], rules: Mapping[str, Any], *, registered: str,
              verdict: str, reason: str, commit: str = "", note: str = "") -> dict[str, Any]:
    """A rules file's next version, as a new document to write: the current rules move to
    the history with the ``verdict`` they gave (say on which run) and the ``reason`` for
    the change (``commit``: the commit that makes it, where known), and ``rules`` become
    version N + 1, registered on ``registered`` (an ISO date) and sealed by their sha256.
    Refuses rules that are the current ones: a new version is a change of rules."""
    version = int(document["version"])
    if digest(rules) == digest(document["rules"]):
        raise HarnessError(f"claim {document['claim']}: these are version {version}'s rules; "
                           "a new version is a change of rules")
    if not reason.strip() or not verdict.strip():
        raise HarnessError(f"claim {document['claim']}: a new version needs the verdict the "
                           "old rules gave and the reason for the change")
    old = {"version": version, "registered": document["registered"], "rules": document["rules"],
           "rules_sha256": digest(document["rules"]), "verdict": verdict, "changed": registered,
           "reason": reason, **({"commit": commit} if commit else {})}
    out = {key: value for key, value in document.items() if key not in ("history", "note")}
    out.update({"version": version + 1, "registered": registered, "rules": dict(rules),
                "rules_sha256": digest(rules), "history": [*document["history"], old]})
    if note:
        out["note"] = note
    return out


def registered_sample(rules: Rules, mode: str) -> Mapping[str, Any]:
    """The scale's fields the rules register for ``mode`` (``quick``, ``full`` or
    ``confirm``: the full sample on the confirmation data's chess positions)."""
    if mode != "confirm":
        found: Mapping[str, Any] = rules.sample.get(mode, {})
        return found
    sample = dict(rules.sample.get("full", {}))
    chess = ((rules.rules.get("phases") or {}).get("confirm") or {}).get("chess")
    if chess is not None and "chess_positions" in sample:
        first, last = chess["positions"]
        sample.update(chess_first=first, chess_positions=last - first + 1)
    return sample


def sample_differences(rules: Rules, mode: str, scale: Mapping[str, Any]) -> list[str]:
    """Where a run's scale (its fields as JSON) differs from the sample the rules register
    for ``mode``: ``field: registered X, measured Y``, one per field."""
    out = []
    for field, value in registered_sample(rules, mode).items():
        measured = scale.get(field)
        if json.loads(json.dumps(measured)) != value:
            out.append(f"{field}: registered {json.dumps(value)}, measured {json.dumps(measured)}")
    return out


def describe_versions(versions: Sequence[Version]) -> list[list[str]]:
    """The history as table rows: version, registered, verdict, changed, reason."""
    return [[str(v.version), v.registered, v.verdict,
             v.changed + (f" (`{v.commit}`)" if v.commit else ""), v.reason] for v in versions]
