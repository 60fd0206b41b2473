"""Reports: what the rules derived, decoded and rendered.

Score reports and explanations decoded from models, their text and JSON
rendering, and the reports of the questions built on the engine and the
search: verify, board-report, check and diff.  Nothing here decides a
figure; it reads the atoms the rules showed.
"""
