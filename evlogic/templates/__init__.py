"""Templates evlogic fills: the frame of its report pages (page.html.j2),
the balance report extending it (balance.html.j2), the tune report extending
that (tune.html.j2), the ladder report (ladder.html.j2), all filled by
evlogic.pages.environment; and the rulebook page (rulebook.html.j2), filled in the sandbox
(evlogic.pages.sandbox) as a user's template would be."""
