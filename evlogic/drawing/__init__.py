"""Region diagrams: layout of the board, SVG (and PNG) drawing, the tabular
diagram for boards without coordinates, and the rulebook gallery."""
