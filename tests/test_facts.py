"""`evlogic facts` and rules/score.lp score a game with plain clingo: the
figures clingo prints are the ones `evlogic score` reports, for every
example game, and the facts are the ones evlogic hands its rules."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import clingo
import pytest
import yaml

from conftest import REPO, RULEBOOK, CliResult
from evlogic.asp.facts import Positions, board_program
from evlogic.asp.solver import POSITION_INPUT, SCORING_RULES_ONE_SHOT, rule_paths
from evlogic.commands.options import read_game
from evlogic.loading.rulesets import bundled_rule_sets
from evlogic.resources import rules_dir

EXAMPLES = REPO / "examples"
SCORE_LP = rules_dir() / "score.lp"
GAMES = sorted(
    path
    for path in EXAMPLES.rglob("*.yaml")
    if "players" in (yaml.safe_load(path.read_text(encoding="utf-8")) or {})
)


def clingo_command() -> list[str]:
    """The clingo Python module's own executable: a console script beside
    this interpreter where the wheel installs one, else ``python -m clingo``."""
    script = Path(sys.executable).parent / "clingo"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "clingo"]


def plain_clingo(facts: str, *programs: Path) -> list[clingo.Symbol]:
    """The one answer of ``clingo rules/score.lp - PROGRAMS`` on ``facts``."""
    done = subprocess.run(
        [*clingo_command(), str(SCORE_LP), "-", *map(str, programs), "--outf=2"],
        input=facts,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 10), done.stderr  # 10: satisfiable (clingo's binary)
    assert done.stderr == ""  # not a warning
    output = json.loads(done.stdout)
    assert output["Result"] == "SATISFIABLE"
    (witness,) = output["Call"][0]["Witnesses"]
    return [clingo.parse_term(atom) for atom in witness["Value"]]


def figures(atoms: list[clingo.Symbol], ids: list[str], names: list[str]) -> dict:
    """The figures of position 0 as `evlogic score --format json` names them."""
    players: dict[str, dict] = {name: {"siege": set(), "region": set()} for name in names}
    top: dict[str, object] = {"final": False, "winners": []}
    for atom in atoms:
        values = [argument.number for argument in atom.arguments[1:]]
        assert atom.arguments[0].number == 0
        if atom.name == "score":
            player = players[names[values[0]]]
            keys = ("face_ev", "region_bonus", "siege_penalty", "net_bonus", "total")
            player.update(zip(keys, values[1:], strict=True))
        elif atom.name == "siege":
            players[names[values[0]]]["siege"].add(ids[values[1]])
        elif atom.name == "joined":
            players[names[values[0]]]["region"].add(ids[values[1]])
        elif atom.name == "winner":
            top["winners"].append(names[values[0]])
        elif atom.name in ("game_end", "states_won"):
            top[atom.name] = values[0]
        elif atom.name == "final":
            top["final"] = True
    top["winners"] = sorted(top["winners"])
    return {**top, "players": players}


def reported(document: dict) -> dict:
    keys = ("face_ev", "region_bonus", "siege_penalty", "net_bonus", "total")
    return {
        "final": document["final"],
        "winners": sorted(document["winners"]),
        "game_end": document["game_end"],
        "states_won": document["states_won"],
        "players": {
            player["name"]: {
                **{key: player[key] for key in keys},
                "siege": set(player["siege"]),
                "region": set(player["region"]),
            }
            for player in document["players"]
        },
    }


CASES = [pytest.param(game, None, id=str(game.relative_to(EXAMPLES))) for game in GAMES] + [
    pytest.param(RULEBOOK / "full-example.yaml", name, id=f"full-example --rules {name}")
    for name in bundled_rule_sets()
    if name != "standard"
]


def test_every_example_game_is_a_case():
    assert len(GAMES) >= 6
    assert EXAMPLES / "lakeland" / "game.yaml" in GAMES


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_plain_clingo_prints_the_figures_evlogic_score_reports(
    cli: Callable[..., CliResult], game: Path, rules: str | None
):
    options = ["--rules", rules] if rules else []
    facts = cli("facts", str(game), *options)
    assert facts.code == 0, facts.err
    score = cli("score", str(game), *options, "--format", "json")
    assert score.code == 0, score.err
    loaded = read_game(str(game))
    ids = sorted(loaded.board.states)
    names = [player.name for player in loaded.players]
    assert figures(plain_clingo(facts.out), ids, names) == reported(score.json())


def test_a_rule_set_s_programs_are_named_and_score_beside_the_facts(cli, tmp_path):
    (tmp_path / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (tmp_path / "home-bonus.yaml").write_text("extends: standard\nprograms: [home-bonus.lp]\n")
    game = RULEBOOK / "full-example.yaml"
    options = ["--rules", str(tmp_path / "home-bonus.yaml")]
    facts = cli("facts", str(game), *options)
    assert facts.code == 0, facts.err
    assert f"clingo rules/score.lp - {tmp_path / 'home-bonus.lp'}\n" in facts.out
    loaded = read_game(str(game))
    ids, names = sorted(loaded.board.states), [player.name for player in loaded.players]
    scored = figures(plain_clingo(facts.out, tmp_path / "home-bonus.lp"), ids, names)
    assert scored == reported(cli("score", str(game), *options, "--format", "json").json())
    assert scored["players"]["You"]["total"] == 39 + 5


def test_the_position_s_facts_are_what_positions_hands_the_rules(cli):
    """The position as facts is what rules/scoring/position_input.lp derives from
    evlogic's @-calls (evlogic.asp.facts.Positions)."""
    game = read_game(str(RULEBOOK / "full-example.yaml"))
    facts = cli("facts", str(RULEBOOK / "full-example.yaml")).out
    position = {"home", "owned", "listed"}

    def atoms(program: str, files: list[Path], context: object = None) -> set[str]:
        control = clingo.Control()
        for path in files:
            control.load(str(path))
        control.add("base", [], program)
        control.ground([("base", [])], context=context)
        return {
            str(atom.symbol)
            for atom in control.symbolic_atoms
            if atom.symbol.name in position and atom.is_fact
        }

    position_lp = rules_dir() / "scoring" / "position.lp"
    given = atoms(facts, [position_lp])
    handed = atoms(
        board_program(game.board),
        [position_lp, *rule_paths(POSITION_INPUT)],
        Positions(game.board, [game]),
    )
    assert given == handed
    assert "home(0,0,17)" in given  # KY, the 18th id in sorted order


def test_score_lp_includes_the_one_shot_scoring_rules():
    included = re.findall(r'^#include "([^"]+)"\.$', SCORE_LP.read_text(), re.M)
    assert tuple(included) == SCORING_RULES_ONE_SHOT


def test_the_facts_are_facts_and_comments_only(cli):
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_string(cli("facts").out, statements.append)
    types = clingo.ast.ASTType
    rules = [statement for statement in statements if statement.ast_type == types.Rule]
    assert {statement.ast_type for statement in statements} == {
        types.Program,  # the implicit #program base.
        types.Rule,
        types.Comment,
    }
    assert len(rules) > 300 and all(not rule.body for rule in rules)


def test_names_stay_in_their_comments(cli, tmp_path):
    """A name is never program text, not even one that holds comment markers
    (a name holds no line break: the game loader refuses one)."""
    game = tmp_path / "game.yaml"
    name = "A *% b(1). %* c(2)."
    game.write_text(
        f'board: usa\nplayers:\n  - {{name: "{name}", home: KY, states: [IN, WV]}}\n',
        encoding="utf-8",
    )
    facts = cli("facts", str(game))
    assert facts.code == 0, facts.err
    line = "home(0,0,17). owned(0,0,15). listed(0,0,15,1). owned(0,0,49). listed(0,0,49,2)."
    assert f"{line}  % {name}\n" in facts.out
    atoms = plain_clingo(facts.out)
    shown = {"game_end", "states_won", "winner", "score", "core", "joined", "siege"}
    assert {atom.name for atom in atoms} <= shown  # no b/1 or c/1
    assert clingo.parse_term("score(0,0,23,15,0,15,38)") in atoms  # KY IN WV: a core


def test_bad_input_is_one_line_naming_the_file(cli, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text("board: usa\nplayers:\n  - {name: A, home: XX}\n")
    done = cli("facts", str(game))
    assert done.code == 2
    assert done.out == ""
    assert done.err.count("\n") == 1
    assert str(game) in done.err and "players[0].home" in done.err


#: The pipe as the README, `facts --help`, rules/score.lp and rules/README.md
#: write it (Markdown tables escape the "|").
PIPE = re.compile(r"evlogic facts (?:game\.yaml|…|\S+\.yaml) \\?\| (.*?) rules/score\.lp -")


def test_the_documented_pipe_runs_after_pip_install(tmp_path):
    """Every place that writes the pipe writes ``python -m clingo`` (pip's
    clingo installs no ``clingo`` command), and the README's pipe, run as
    written by bash in a folder holding a game.yaml, prints the figures."""
    from evlogic.commands.facts import HELP

    pages = {
        "README.md": (REPO / "README.md").read_text("utf-8"),
        "facts --help": HELP,
        "rules/score.lp": (rules_dir() / "score.lp").read_text("utf-8"),
        "rules/README.md": (rules_dir() / "README.md").read_text("utf-8"),
    }
    for page, text in pages.items():
        programs = PIPE.findall(text)
        assert programs and set(programs) == {"python -m clingo"}, page
    (readme_pipe,) = re.findall(r"`(evlogic facts game\.yaml \\\| [^`]*)`", pages["README.md"])
    pipe = readme_pipe.replace("\\|", "|")
    for name in ("game.yaml", "board.yaml"):
        (tmp_path / name).write_text((EXAMPLES / "lakeland" / name).read_text("utf-8"))
    (tmp_path / "rules").symlink_to(rules_dir(), target_is_directory=True)
    bin_dir = Path(sys.executable).parent  # where pip puts evlogic and python
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {pipe}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 10), done.stderr  # 10: satisfiable, as clingo exits
    assert "score(0,0,30,25,10,15,45)" in done.stdout and "SATISFIABLE" in done.stdout
