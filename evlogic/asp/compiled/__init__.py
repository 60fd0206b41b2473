"""Batch scoring by the compiled encoding (rules/batch/): positions as bit masks.

For a rule set of parameters only (no ``.lp`` programs of its own), `evlogic
batch` scores with a second encoding of the rules, laid out for many
positions.  Regions, sieges, bonuses, totals and winners are decided by the
rules; Python only packs ids into bits and reads the shown atoms back as rows
of numbers.  One module a step:

* ``tables``: the board compiled once per (board, rule set) by ASP
  (``rules/batch/compile.lp``, over the readable rules' face values and
  triangles) into tables, and how its state ids pack into bits;
* ``positions``: a line's players as masks (checked by
  evlogic.loading.games.quick_players, the one quick check of a line);
* ``chunk``: a chunk of positions packed into input atoms, grounded and
  solved, its model's shown atoms given as one text;
* ``rows``: that text read back as rows, which evlogic/batching/lines.py writes
  as report lines;
* ``private``: the two things done through clingo's private interface
  (``clingo._internal``), each with its public fallback.

The reports are the ``score --format json`` contract, byte for byte the
readable encoding's (tests/test_compiled.py compares them on random boards,
rule sets and positions).
"""
