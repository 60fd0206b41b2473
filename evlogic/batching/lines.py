"""Report lines of the compiled batch path, written as text.

Each line is the ``score --format json`` report plus ``"line"``, byte for
byte what ``json.dumps(report, ensure_ascii=False)`` writes (the readable
path's lines; tests/test_compiled.py compares them), but built from
fragments made once per board: every id and every 8-state group mask
already JSON-encoded, so a line costs a few look-ups and one join instead of
a dict per player and the encoder's walk over it.

Nothing here is a rule figure: the figures, the winners, the siege states,
the core and the region's layers are the rows the rules showed
(rules/batch/output.lp, read by :func:`evlogic.asp.compiled.rows.read_rows`);
this module looks them up and copies them into text.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring  # what json.dumps uses, ensure_ascii=False
from operator import getitem

from evlogic.asp.compiled.positions import Position
from evlogic.asp.compiled.rows import Rows
from evlogic.asp.compiled.tables import Compiled
from evlogic.asp.solver import SolverError
from evlogic.loading.yamlfile import is_unicode


class Packed(dict[str, str]):
    """Masks of up to three groups, packed into one number as
    rules/batch/face.lp packs siege masks (S012 = S0 + 256 * S1 + 65536 *
    S2) and written as the rules write it, -> their ids, encoded and joined;
    filled as they are met (a few hundred on a usa run), and forgotten past
    ``REMEMBERED`` so a board of many neighbours cannot grow it without end."""

    REMEMBERED = 100_000

    def __init__(self, groups: tuple[tuple[str, ...], ...]) -> None:
        super().__init__({"0": ""})
        self._groups = groups

    def __missing__(self, packed: str) -> str:
        if len(self) >= self.REMEMBERED:
            self.clear()
        masks = int(packed).to_bytes(len(self._groups), "little")
        text = self[packed] = ", ".join(filter(None, map(getitem, self._groups, masks)))
        return text


@dataclass(frozen=True)
class Fragments:
    """A board's JSON fragments: each state id encoded, and for each group
    (block * 7 + group) and 8-bit mask its ids, encoded and joined; and for
    each third of a block (block * 3 + part: groups 0-2, 3-5, 6) its packed
    siege masks' ids."""

    ids: dict[str, str]  # state number, as text -> '"KY"'
    by_number: tuple[str, ...]  # state number -> '"KY"'
    groups: tuple[tuple[str, ...], ...]  # group -> mask -> '"IN", "KY"'
    packed: tuple[Packed, ...]  # block * 3 + part -> packed masks as text -> '"IN", "KY"'
    clean: bool  # every id is text UTF-8 can hold


@lru_cache(maxsize=32)
def fragments(board: Compiled) -> Fragments:
    by_number = tuple(encode_basestring(state) for state in board.ids)
    groups = tuple(
        tuple(", ".join(map(encode_basestring, names)) for names in board.decode[block, group])
        for block in range(board.blocks)
        for group in range(7)
    )
    return Fragments(
        ids={str(number): encoded for number, encoded in enumerate(by_number)},
        by_number=by_number,
        groups=groups,
        packed=tuple(
            Packed(groups[block * 7 + start : block * 7 + stop])
            for block in range(board.blocks)
            for start, stop in ((0, 3), (3, 6), (6, 7))
        ),
        clean=all(map(is_unicode, board.ids)),
    )


def report_lines(
    board: Compiled,
    board_name: str,
    rules_name: str,
    positions: Sequence[Position],
    numbers: Iterable[int],
    rows: Rows,
    refused: Callable[[int, int, int], str] | None = None,
) -> list[str]:
    """The report line of each position (its line number from ``numbers``),
    from the rows :func:`evlogic.asp.compiled.rows.read_rows` read, each ending
    in a newline.  A position past its game end (rules/batch/position.lp)
    gets ``refused(line number, states won, game end)``, its error line."""
    won, figures, winners, cores = rows.won, rows.figures, rows.winners, rows.cores
    players = sum(len(position.names) for position in positions)
    if len(won) != len(positions) or len(figures) != players:
        raise SolverError("the batch encoding broke its output")
    joined: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for player, state, layer in rows.joined:  # players with a core only
        joined[player].append((int(layer), int(state)))
    sieges: dict[str, list[tuple[int, list[str]]]] = defaultdict(list)
    for player, masks in rows.sieges:  # a board of several blocks only
        block, *packed_masks = masks.split(",")
        sieges[player].append((int(block), packed_masks))

    table = fragments(board)
    ids, by_number, groups, packed = table.ids, table.by_number, table.groups, table.packed
    home_ids = {state: table.by_number[number] for state, number in board.numbers.items()}
    size = board.blocks * 7
    several = board.blocks > 1
    last_block = board.blocks - 1
    head = f'"board": {encode_basestring(board_name)}, "rules": {encode_basestring(rules_name)}, '
    end = f'"game_end": {board.game_end}, "players": ['
    clean = table.clean and is_unicode(board_name) and is_unicode(rules_name)
    lines = []
    for g, (position, number) in enumerate(zip(positions, numbers, strict=True)):
        key = str(g)
        states_won, final = won[key].split(",")
        if final == "2":  # past the game end: a position no game reaches
            if refused is None:
                raise SolverError("a position past its game end, and no error line for it")
            lines.append(refused(number, int(states_won), board.game_end))
            continue
        key += ","
        players_text = []
        winner_names = []
        line_clean = clean
        for p, (name, home, mask) in enumerate(
            zip(position.names, position.homes, position.masks, strict=True)
        ):
            player = key + str(p)
            total, face, penalty, bonus, net, *last = figures[player].split(",")
            # a mask's ids come encoded from the board's tables; mask 0 has none ("")
            states = ", ".join(filter(None, map(getitem, groups, mask.to_bytes(size, "little"))))
            if several:  # face_upto/6: the siege masks of the blocks before the last
                blocks = sorted(sieges[player])
                blocks.append((last_block, last))
                siege = ", ".join(
                    text
                    for block, masks in blocks
                    for text in map(getitem, packed[block * 3 : block * 3 + 3], masks)
                    if text
                )
            else:  # the three packed parts of the one block
                siege = ", ".join(filter(None, map(getitem, packed, last)))
            encoded_name = _encoded(name)
            core_row = cores.get(player)
            if core_row is not None:
                a, b = core_row.split(",")
                core = [home_ids[home], ids[a], ids[b]]
                skip = (int(a), int(b), board.numbers[home])
                later = sorted(entry for entry in joined[player] if entry[1] not in skip)
                core_text = ", ".join(core)
                region_text = ", ".join(core + [by_number[state] for _, state in later])
            else:
                core_text = region_text = ""
            players_text.append(
                f'{{"name": {encoded_name}, "home": {home_ids[home]}, '
                f'"states": [{states}], "face_ev": {face}, "core": [{core_text}], '
                f'"region": [{region_text}], "region_bonus": {bonus}, "siege": [{siege}], '
                f'"siege_penalty": {penalty}, "net_bonus": {net}, "total": {total}}}'
            )
            if player in winners:
                winner_names.append(encoded_name)
            if not name.isascii():
                line_clean = line_clean and is_unicode(name)
        line = (
            f'{{"line": {number}, {head}"final": {_BOOLEAN[final]}, '
            f'"states_won": {states_won}, {end}{", ".join(players_text)}], '
            f'"winners": [{", ".join(winner_names)}]}}\n'
        )
        if not line_clean:  # a lone surrogate: the line is written as ASCII (_json_line)
            line = json.dumps(json.loads(line)) + "\n"
        lines.append(line)
    return lines


_BOOLEAN = {"0": "false", "1": "true"}


@lru_cache(maxsize=4096)
def _encoded(name: str) -> str:
    return encode_basestring(name)
