"""Rule sets: the numbers of the rules, as data.

``rules/standard.yaml`` holds the rulebook's numbers; a variant ``extends``
another rule set and names what it changes.  A rule set becomes ``param/3``
and ``tier/3`` facts for the rules in ``rules/`` (the first argument
numbers the rule set, so two can score side by side); it may also add
``.lp`` files (``programs``) for structural changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TypedDict

from evlogic.errors import InputError, quote
from evlogic.loading.schema import validate
from evlogic.loading.yamlfile import Field, closest, missing, read_yaml
from evlogic.resources import display_path, rules_dir

#: Parameters a rule set may set, and what each must be.
PARAMETERS = (
    "tiers",
    "siege_penalty",
    "links_needed",
    "swing_multiplier",
    "home_swing",
    "region",
    "game_end",
    "market_size",
    "campaign_income",
)
#: Parameters a rule set may leave out, with no default of standard.yaml's
#: to inherit: the board's game end, the move models' numbers' defaults.
OPTIONAL = frozenset({"game_end", "market_size", "campaign_income"})
#: The bundled move models (rules/moves/NAME.lp), in the order --help lists them.
MOVE_MODELS = ("draft", "market", "campaign")
#: The move model numbers' defaults.
MARKET_SIZE = 5
CAMPAIGN_INCOME = 10
REGION_MODES = {"best-core": "best_core", "union": "union"}
MAX_BONUS = 1_000_000
MAX_MULTIPLIER = 100  # with boards capped at 10,000,000 EV, sums stay in 32 bits


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A rule set, checked: the numbers the rules read as facts, and any
    programs of its own (evlogic.load_rule_set reads one)."""

    name: str
    tiers: tuple[tuple[int, int], ...]  # (region size, bonus), by size
    siege_penalty: int
    links_needed: int
    swing_multiplier: int
    home_swing: bool
    region: str  # best-core or union
    game_end: int | None  # None: the board's
    programs: tuple[Path, ...]  # extra .lp files
    source: str
    #: Where game_end was set (this rule set's field or the one it extends
    #: from): an error about it names that file, field and line.
    game_end_field: Field | None = None
    #: How states are won: a bundled move model (MOVE_MODELS) or a move
    #: program's path (resolved), and the models' numbers.
    moves: str = "draft"
    market_size: int = MARKET_SIZE
    campaign_income: int = CAMPAIGN_INCOME

    @property
    def moves_model(self) -> str:
        """The move model as reports name it: a bundled name, or the
        program's file name."""
        return self.moves if self.moves in MOVE_MODELS else Path(self.moves).name

    def program(self, number: int = 0, default: bool = True) -> str:
        """The rule set as facts for rules/, as rule set ``number``; the
        default one scores every position that names no other (scored_by/2)."""
        r = number
        lines = [
            f"param({r},swing_multiplier,{self.swing_multiplier}).",
            f"param({r},home_swing,{'true' if self.home_swing else 'false'}).",
            f"param({r},links_needed,{self.links_needed}).",
            f"param({r},siege_penalty,{self.siege_penalty}).",
            f"param({r},region,{REGION_MODES[self.region]}).",
            *(f"tier({r},{size},{bonus})." for size, bonus in self.tiers),
        ]
        if self.game_end is not None:
            lines.append(f"param({r},game_end,{self.game_end}).")
        if self.programs:  # its figures may be of any size (rules/scoring/overflow.lp)
            lines.append(f"param({r},own_programs,true).")
        if default:
            lines.append(f"rule_set({r}).")
        return "\n".join(lines) + "\n"


def bundled_rule_sets() -> dict[str, Path]:
    found = {"standard": rules_dir() / "standard.yaml"}
    found.update((p.stem, p) for p in sorted((rules_dir() / "variants").glob("*.yaml")))
    return found


def resolve_rule_set(reference: Field, base: Path) -> Path:
    """A ``rules:`` name (bundled) or path (relative to ``base``)."""
    text = reference.text("a rule set name or path")
    bundled = bundled_rule_sets()
    if "/" not in text and "\\" not in text and not text.endswith((".yaml", ".yml")):
        if text in bundled:
            return bundled[text]
        raise reference.error(
            f"no rule set {quote(text)}{closest(text, bundled)}; bundled: {', '.join(bundled)}; "
            "a file path needs .yaml or a '/'"
        )
    path = Path(text).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        raise reference.error(
            f"rule set file {quote(text)} {missing(path)} (looked for {quote(str(path))})"
        )
    return path


def load_rule_set(reference: str | Path | None = None, base: Path | None = None) -> RuleSet:
    """A bundled rule set by name (default ``standard``) or a rule set file."""
    name = str(reference or "standard")
    if name in bundled_rule_sets():
        return _bundled(name)
    field = Field("--rules", "", name, None, None)
    return _from_file(resolve_rule_set(field, base or Path.cwd()), chain=())


@cache
def _bundled(name: str) -> RuleSet:
    """Bundled rule sets are read once per process (they are immutable)."""
    return _from_file(bundled_rule_sets()[name], chain=())


def rule_set_from_field(field: Field, base: Path) -> RuleSet:
    """A game's ``rules:`` value: a name, a path, or an inline mapping with ``extends``."""
    if isinstance(field.value, dict):
        return _from_mapping(field, base, chain=(), default_name="inline")
    return _from_file(resolve_rule_set(field, base), chain=())


def _from_file(path: Path, chain: tuple[Path, ...]) -> RuleSet:
    resolved = path.resolve()
    if resolved in chain:
        cycle = " -> ".join(p.stem for p in (*chain, resolved))
        raise InputError(str(path), f"a cycle ({cycle})", field="extends")
    top = read_yaml(path, display_path(path))
    return _from_mapping(top, path.parent, (*chain, resolved), default_name=path.stem)


def _from_mapping(top: Field, base: Path, chain: tuple[Path, ...], default_name: str) -> RuleSet:
    validate(top, "rules", "a rule set")
    fields = top.members()
    parent = (
        _from_file(resolve_rule_set(fields["extends"], base), chain)
        if "extends" in fields
        else None
    )
    return _merged(top, fields, parent, base, default_name)


def rule_set_from_parameters(
    top: Field, parents: Mapping[str, RuleSet], default_name: str = "inline"
) -> RuleSet:
    """An inline rule set that may only name numbers: no ``programs``, and
    ``extends`` only one of ``parents`` by name (a server's rule sets: no
    request reaches a file)."""
    validate(top, "rules", "a rule set of parameters")
    fields = top.members()
    if "programs" in fields:  # (a request reaches no file)
        known = ", ".join(["name", "extends", *PARAMETERS, "moves"])
        raise InputError(
            top.source,
            f"unknown key 'programs' (known: {known})",
            field=top.path or None,
            line=getattr(top.value, "key_lines", {}).get("programs", top.line),
        )
    parent = None
    if "extends" in fields:
        name = fields["extends"].text("a rule set name")
        if name not in parents:
            hint = closest(name, parents)
            raise fields["extends"].error(
                f"no rule set {name!r}{hint}; known: {', '.join(parents)}"
            )
        parent = parents[name]
    return _merged(top, fields, parent, NO_FILES, default_name)


def derived_rule_set(top: Field, parent: RuleSet, fields: dict[str, Field], name: str) -> RuleSet:
    """``parent`` with the parameters ``fields`` set (read as a rule set
    file reads them, errors naming each field), named ``name``: a candidate
    of ``evlogic tune``."""
    return _merged(top, fields, parent, Path("."), name)


def _merged(
    top: Field, fields: dict[str, Field], parent: RuleSet | None, base: Path, default_name: str
) -> RuleSet:
    """A rule set: ``parent``'s (if any) with the parameters ``fields`` set."""
    values = _parameters(fields)
    if parent is None:
        missing = [name for name in PARAMETERS if name not in OPTIONAL and name not in values]
        if missing:
            raise top.error(f"missing {', '.join(missing)} (or extends: standard)")
        inherited: _Parameters = {
            "game_end": None,
            "programs": (),
            "moves": "draft",
            "market_size": MARKET_SIZE,
            "campaign_income": CAMPAIGN_INCOME,
        }
    else:
        inherited = {
            "tiers": parent.tiers,
            "siege_penalty": parent.siege_penalty,
            "links_needed": parent.links_needed,
            "swing_multiplier": parent.swing_multiplier,
            "home_swing": parent.home_swing,
            "region": parent.region,
            "game_end": parent.game_end,
            "programs": parent.programs,
            "moves": parent.moves,
            "market_size": parent.market_size,
            "campaign_income": parent.campaign_income,
        }
    merged: _Parameters = {**inherited, **values}
    if "moves" in fields:
        merged["moves"] = _moves(fields["moves"], base, files=base != NO_FILES)
    programs = tuple(merged["programs"]) + tuple(
        _program_path(item, base)
        for item in (fields["programs"].items() if "programs" in fields else [])
    )
    return RuleSet(
        name=fields["name"].text() if "name" in fields else default_name,
        tiers=merged["tiers"],
        siege_penalty=merged["siege_penalty"],
        links_needed=merged["links_needed"],
        swing_multiplier=merged["swing_multiplier"],
        home_swing=merged["home_swing"],
        region=merged["region"],
        game_end=merged["game_end"],
        programs=programs,
        source=top.source,
        game_end_field=fields.get("game_end", parent.game_end_field if parent else None),
        moves=merged["moves"],
        market_size=merged["market_size"],
        campaign_income=merged["campaign_income"],
    )


class _Parameters(TypedDict, total=False):
    """The fields of a RuleSet that a rule set file sets or inherits."""

    tiers: tuple[tuple[int, int], ...]
    siege_penalty: int
    links_needed: int
    swing_multiplier: int
    home_swing: bool
    region: str
    game_end: int | None
    programs: tuple[Path, ...]
    moves: str
    market_size: int
    campaign_income: int


def _parameters(fields: dict[str, Field]) -> _Parameters:
    values: _Parameters = {}
    for name, field in fields.items():
        if name == "tiers":
            tiers: list[tuple[int, int]] = []
            for key, value in field.entries():
                size = _whole(key, 1, 10_000, "a region size")
                if any(size == earlier for earlier, _ in tiers):  # 3 and 03
                    raise key.error(f"region size {size} has two tiers")
                tiers.append((size, value.integer(0, MAX_BONUS, what="a bonus")))
            values["tiers"] = tuple(sorted(tiers))
        elif name == "siege_penalty":
            values["siege_penalty"] = field.integer(0, MAX_BONUS, what="a whole number of EV")
        elif name == "links_needed":
            values["links_needed"] = field.integer(1, 100, what="a number of links")
        elif name == "swing_multiplier":
            values["swing_multiplier"] = field.integer(1, MAX_MULTIPLIER, what="a whole multiplier")
        elif name == "home_swing":
            values["home_swing"] = field.flag()
        elif name == "region":
            values["region"] = field.text()  # (one of REGION_MODES: the schema's enum)
        elif name == "game_end":
            values["game_end"] = field.integer(1, 1_000_000, what="a number of states")
        elif name == "market_size":
            values["market_size"] = field.integer(1, 1000, what="a number of face-up states")
        elif name == "campaign_income":
            values["campaign_income"] = field.integer(1, 1_000_000, what="a number of points")
    return values


def _whole(key: Field, low: int, high: int, what: str) -> int:
    text = str(key.value)
    if not (text.isascii() and text.isdigit()):  # not '³', not '1_0'
        raise key.error(f"must be {what} (a whole number), not {quote(text)}")
    if len(text) > 1 and text.startswith("0"):  # 03: written as a person writes 3
        raise key.error(f"must be {what} written in decimal digits, not {quote(text)}")
    if len(text.lstrip("0")) > len(str(high)) or not low <= int(text) <= high:
        raise key.error(f"must be {what} between {low} and {high}, not {quote(text)}")
    return int(text)


#: The base folder of a rule set no file may be named from (a request's).
NO_FILES = Path("\0no-files")


def _moves(field: Field, base: Path, files: bool) -> str:
    """A ``moves:`` value: a bundled move model's name, or the path of a
    move program (relative to ``base``), read and checked once by whatever
    plays under the rule set (evlogic.simulation.moves.move_model)."""
    text = field.text("a move model name or .lp file")
    if text in MOVE_MODELS:
        return text
    if not files or not (text.endswith(".lp") or "/" in text or "\\" in text):
        hint = closest(text, MOVE_MODELS)
        names = ", ".join(MOVE_MODELS)
        tail = "" if not files else "; or a path to a .lp file"
        raise field.error(f"unknown move model {quote(text)}{hint} (bundled: {names}{tail})")
    path = Path(text).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        raise field.error(
            f"move program {quote(text)} {missing(path)} (looked for {quote(str(path))})"
        )
    return str(path.resolve())


def _program_path(item: Field, base: Path) -> Path:
    text = item.text("an .lp file")
    path = Path(text) if Path(text).is_absolute() else base / text
    if not path.is_file():
        raise item.error(
            f"rule program {quote(text)} {missing(path)} (looked for {quote(str(path))})"
        )
    # Imported here: a rule set of parameters (every bundled one) never needs
    # the fragment's checks, and `evlogic score` starts without them.
    from evlogic.asp.fragment import Kind, refuse_outside
    from evlogic.asp.program import read_program

    refuse_outside(read_program([path]), Kind.RULE_SET)
    return path


def with_moves(rules: RuleSet, reference: str, option: str = "--moves") -> RuleSet:
    """``rules`` with its move model set by ``--moves MODEL|FILE.lp``: a
    bundled model's name or a move program's path, checked here once."""
    field = Field(option, "", reference, None, None)
    return replace(rules, moves=_moves(field, Path.cwd(), files=True))
