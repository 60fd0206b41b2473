"""Templates evlogic fills: the rulebook page (rulebook.html.j2) and the
balance report (balance.html.j2)."""
