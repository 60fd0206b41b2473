"""Report lines of the compiled batch path, written as text.

Each line is the ``score --format json`` report plus ``"line"``, byte for
byte what ``json.dumps(report, ensure_ascii=False)`` writes (the readable
path's lines; tests/test_compiled.py compares them), but built from
fragments made once per board: every id and every 8-state group mask
already JSON-encoded, so a line costs a few look-ups and one join instead of
a dict per player and the encoder's walk over it.

Nothing here is a rule figure: the figures, the winners, the siege states,
the core and the region's layers are the rows the rules showed
(rules/batch/output.lp, read by :func:`evlogic.asp.compiled.solve`); this
module looks them up and copies them into text.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring  # what json.dumps uses, ensure_ascii=False

from evlogic.asp.compiled import (
    CORE,
    FACE_UPTO,
    FIGURES,
    JOINED,
    WINNER,
    WON,
    Compiled,
    Position,
    Row,
)
from evlogic.asp.solver import SolverError
from evlogic.loading.yamlfile import is_unicode


@dataclass(frozen=True)
class Fragments:
    """A board's JSON fragments: each state id encoded, and for each group
    (block * 7 + group) and 8-bit mask its ids, encoded and joined."""

    ids: tuple[str, ...]  # state number -> '"KY"'
    groups: tuple[tuple[str, ...], ...]  # group -> mask -> '"IN", "KY"'
    clean: bool  # every id is text UTF-8 can hold


@lru_cache(maxsize=32)
def fragments(board: Compiled) -> Fragments:
    ids = tuple(encode_basestring(state) for state in board.ids)
    groups = tuple(
        tuple(", ".join(map(encode_basestring, names)) for names in board.decode[block, group])
        for block in range(board.blocks)
        for group in range(7)
    )
    return Fragments(ids, groups, all(map(is_unicode, board.ids)))


def report_lines(
    board: Compiled,
    board_name: str,
    rules_name: str,
    positions: Sequence[Position],
    numbers: Iterable[int],
    rows: list[Row],
) -> list[str]:
    """The report line of each position (its line number from ``numbers``),
    from the rows :func:`evlogic.asp.compiled.solve` read, each ending in a
    newline."""
    won: dict[int, Row] = {}
    figures: dict[tuple[int, int], Row] = {}
    sieges: dict[tuple[int, int], list[Row]] = defaultdict(list)
    winners: set[tuple[int, int]] = set()
    cores: dict[tuple[int, int], Row] = {}
    joined: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for row in rows:
        tag = row[0]
        if tag == FACE_UPTO:
            sieges[row[1], row[2]].append(row)
        elif tag == FIGURES:
            figures[row[1], row[2]] = row
        elif tag == WON:
            won[row[1]] = row
        elif tag == WINNER:
            winners.add((row[1], row[2]))
        elif tag == CORE:
            cores[row[1], row[2]] = row
        elif tag == JOINED:
            joined[row[1], row[2]].append((row[4], row[3]))
    players = sum(len(position.names) for position in positions)
    if len(won) != len(positions) or len(figures) != players:
        raise SolverError("the batch encoding broke its output")

    table = fragments(board)
    ids, groups = table.ids, table.groups
    size = board.blocks * 7
    head = f'"board": {encode_basestring(board_name)}, "rules": {encode_basestring(rules_name)}, '
    end = f'"game_end": {board.game_end}, "players": ['
    clean = table.clean and is_unicode(board_name) and is_unicode(rules_name)
    lines = []
    for g, (position, number) in enumerate(zip(positions, numbers, strict=False)):
        _, _, states_won, final = won[g]
        players_text = []
        winner_names = []
        line_clean = clean
        for p, (name, home, mask) in enumerate(
            zip(position.names, position.homes, position.masks, strict=True)
        ):
            _, _, _, total, face, penalty, bonus, net = figures[g, p]
            owned = mask.to_bytes(size, "little")
            states = ", ".join([groups[i][byte] for i, byte in enumerate(owned) if byte])
            siege = ", ".join(
                [
                    groups[row[3] * 7 + i][byte]
                    for row in sorted(sieges[g, p])
                    for i, byte in enumerate(row[6:13])
                    if byte
                ]
            )
            encoded_name = encode_basestring(name)
            line_clean = line_clean and (name.isascii() or is_unicode(name))
            if (g, p) in cores:
                _, _, _, a, b = cores[g, p]
                home_id = board.numbers[home]
                core = [ids[home_id], ids[a], ids[b]]
                later = sorted(entry for entry in joined[g, p] if entry[1] not in (a, b, home_id))
                core_text = ", ".join(core)
                region_text = ", ".join(core + [ids[state] for _, state in later])
            else:
                core_text = region_text = ""
            players_text.append(
                f'{{"name": {encoded_name}, "home": {ids[board.numbers[home]]}, '
                f'"states": [{states}], "face_ev": {face}, "core": [{core_text}], '
                f'"region": [{region_text}], "region_bonus": {bonus}, "siege": [{siege}], '
                f'"siege_penalty": {penalty}, "net_bonus": {net}, "total": {total}}}'
            )
            if (g, p) in winners:
                winner_names.append(encoded_name)
        line = (
            f'{{"line": {number}, {head}"final": {"true" if final else "false"}, '
            f'"states_won": {states_won}, {end}{", ".join(players_text)}], '
            f'"winners": [{", ".join(winner_names)}]}}\n'
        )
        if not line_clean:  # a lone surrogate: the line is written as ASCII (_json_line)
            line = json.dumps(json.loads(line)) + "\n"
        lines.append(line)
    return lines
