"""An independent, deliberately plain Python scorer: the tests' cross-check.

It reads the rulebook the way a person would, with none of the engine's code:
plain dicts in, plain dicts out.  It lives in tests/ only; the engine's
figures come from rules/scoring/*.lp.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Rules:
    swing_multiplier: int = 2
    home_swing: bool = False
    links_needed: int = 2
    siege_penalty: int = 10
    tiers: dict[int, int] = field(default_factory=lambda: {3: 15, 4: 25, 5: 35, 6: 45})
    region: str = "best-core"  # or "union": every core's region counts
    game_end: int | None = None  # None: the board's


def grow(
    core: list[str], owned: set[str], neighbors: dict[str, list[str]], links: int
) -> list[str]:
    """Add owned states touching `links` region states, one at a time, until none joins."""
    region = list(core)
    changed = True
    while changed:
        changed = False
        for state in sorted(owned):
            if state in region:
                continue
            touching = [other for other in neighbors[state] if other in region]
            if len(touching) >= links:
                region.append(state)
                changed = True
    return region


def score_player(
    home: str,
    owned: set[str],
    opponents_owned: set[str],
    board: dict[str, dict],
    rules: Rules,
    listed: list[str] | None = None,
) -> dict:
    """``listed``: the player's states in the order the game lists them (the
    order they were won); states not in it count as won after all of those,
    alphabetically.  Of equally large regions, the core won first counts."""
    neighbors = {state: info["neighbors"] for state, info in board.items()}
    listed = [s for s in (listed or []) if s != home]
    unlisted = sorted(owned - set(listed) - {home})
    won_order = {state: turn for turn, state in enumerate(listed + unlisted)}
    face = 0
    for state in owned:
        ev = board[state]["ev"]
        doubled = board[state].get("swing", False) and (state != home or rules.home_swing)
        face += ev * rules.swing_multiplier if doubled else ev

    cores = [
        (a, b)
        for a in sorted(owned)
        for b in sorted(owned)
        if a < b and a in neighbors[home] and b in neighbors[home] and b in neighbors[a]
    ]
    # The core won first is complete when the later of its two states is
    # won; two cores completed by one state: the smaller pair first.
    cores.sort(key=lambda core: (max(won_order[core[0]], won_order[core[1]]), core))
    best_core: list[str] = []
    best_region: list[str] = []
    every_core: set[str] = set()
    for a, b in cores:
        region = grow([home, a, b], owned, neighbors, rules.links_needed)
        every_core |= set(region)
        if len(region) > len(best_region):  # ties keep the core won first
            best_core, best_region = [home, a, b], region
    if rules.region == "union" and best_core:
        best_region = best_region + sorted(every_core - set(best_region))

    bonus = 0
    for size in sorted(rules.tiers):
        if size <= len(best_region):
            bonus = rules.tiers[size]
    siege = sorted(state for state in neighbors[home] if state in opponents_owned)
    penalty = rules.siege_penalty * len(siege)
    net = max(0, bonus - penalty)
    return {
        "home": home,
        "states": sorted(owned),
        "face_ev": face,
        "core": best_core,
        "region": best_region,
        "region_bonus": bonus,
        "siege": siege,
        "siege_penalty": penalty,
        "net_bonus": net,
        "total": face + net,
    }


def score_position(
    board: dict[str, dict], players: list[dict], game_end: int, rules: Rules | None = None
) -> dict:
    """`players`: [{"name", "home", "states"}]; returns the JSON report's figures."""
    rules = rules or Rules()
    owned_by = [{p["home"], *p["states"]} for p in players]
    if rules.game_end is not None:
        game_end = rules.game_end
    results = []
    for index, player in enumerate(players):
        others = set().union(*(owned_by[i] for i in range(len(players)) if i != index))
        result = score_player(
            player["home"], owned_by[index], others, board, rules, player["states"]
        )
        results.append({"name": player["name"], **result})
    best = max(r["total"] for r in results)
    won = sum(len(owned) for owned in owned_by)
    return {
        "final": won >= game_end,
        "states_won": won,
        "players": results,
        "winners": [r["name"] for r in results if r["total"] == best],
    }
