"""The web layer of ``evlogic serve``: a JSON API (service: what it does;
app: the ASGI routes) and one page of plain HTML, CSS and JavaScript
(static/) that uses only that API."""
