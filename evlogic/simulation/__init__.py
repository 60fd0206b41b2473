"""Simulated play: games drafted move by move by agents written in ASP.

A game is a draft (docs/play.md): homes are dealt, then players take turns,
each winning one unclaimed state, until the game end.  At every decision
rules/play/moves.lp scores every move the mover could make for every
player, and the mover's agent (rules/agents/*.lp, or a user's program)
chooses one.  :mod:`evlogic.simulation.table` deals the table, :mod:`.agents`
reads agents, :mod:`.engine` plays a game, :mod:`.balance` plays many.
"""
