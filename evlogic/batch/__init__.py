"""Scoring many positions: the batch runner (chunks, worker processes,
Dask), random positions for balance studies, and statistics over batch
output."""
