"""Templates evlogic fills: the rulebook page (rulebook.html.j2)."""
