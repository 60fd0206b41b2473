"""Scoring many positions: the batch runner (chunks, worker processes,
Dask) and random positions for balance studies.  Statistics over batch
output are a report: evlogic.reports.stats."""
