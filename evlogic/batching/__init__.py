"""Scoring many positions: the batch command's machinery (a line read, a
chunk scored, chunks run on worker processes or Dask, in order) and random
positions for balance studies.  Statistics over batch output are a report:
evlogic.reports.stats."""
