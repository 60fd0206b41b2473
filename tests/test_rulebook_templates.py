"""A rulebook template is data: it fills placeholders and nothing else.

Known escapes from Jinja2 templates, memory bombs, recursion, files outside
the template's folder, text that is not a template, placeholders nothing
fills and outputs that cannot be written: each is one line naming the
template (and its line), exit 2, nothing on standard output, and nothing
executed (the payloads that would run a command would touch a marker file).
--pdf prints the page alone: no file, no network reaches the PDF.
"""

from __future__ import annotations

import http.server
import shutil
import subprocess
import threading
from pathlib import Path
from typing import ClassVar

import pytest

from conftest import REPO
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.explain import explain_game
from evlogic.reports.score import score_game

SCENARIOS = REPO / "examples" / "rulebook"
TOUCH = "touch {marker}"

#: Templates that try to run code, read files or reach Python's objects.
ESCAPES = [
    "{{ cycler.__init__.__globals__.os.popen('" + TOUCH + "').read() }}",
    "{{ joiner.__init__.__globals__.os.system('" + TOUCH + "') }}",
    "{{ namespace.__init__.__globals__.os.system('" + TOUCH + "') }}",
    "{{ lipsum.__globals__['os'].system('" + TOUCH + "') }}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.system('" + TOUCH + "') }}",
    "{{ self.__init__.__globals__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ ''.__class__.__base__.__subclasses__()[0] }}",
    "{{ ().__class__.__bases__[0].__subclasses__() }}",
    "{{ config.__class__.__init__.__globals__['os'].system('" + TOUCH + "') }}",
    "{{ request.application.__globals__.__builtins__.__import__('os').system('" + TOUCH + "') }}",
    "{{ ''|attr('__class__')|attr('__mro__') }}",
    "{{ rules|attr('__class__') }}",
    "{{ '{0.__class__.__init__.__globals__}'.format(scenario) }}",
    "{{ '{0.__init__.__globals__[os]}'.format(rules) }}",
    "{{ '%s'|format(scenario) }}",
    "{{ scenario.__call__.__globals__['__builtins__']['open']('/etc/hostname').read() }}",
    "{{ scenario.__self__ }}",
    "{{ scenario('full-example').you.face_of.__func__.__globals__ }}",
    "{{ scenario('full-example').diagram.__globals__ }}",
    "{{ rules.__class__.__init__.__globals__['sys'].modules['os'].system('" + TOUCH + "') }}",
    "{{ rules.name.__class__ }}",
    "{{ rules.name.names }}",
    "{{ rules.name.value.__class__ }}",
    "{{ rules.name.value.upper() }}",
    "{{ scenario('full-example')._game.board }}",
    "{{ scenario('full-example').you._mine }}",
    "{{ rules.tiers.__class__ }}",
    "{{ rules.tiers.append(1) }}",
    "{% for x in rules.tiers %}{{ loop.__class__ }}{% endfor %}",
    "{% for x in rules.tiers %}{{ loop._iterator }}{% endfor %}",
    "{{ range.__globals__ }}",
    "{{ dict(a=1) }}",
    "{% set n = namespace() %}",
    "{{ lipsum(10) }}",
]

#: Templates that would make a value too large to hold.
BOMBS = [
    "{{ range(10**9)|list }}",
    "{{ 'a' * 10**9 }}",
    "{{ 10**9 * 'a' }}",
    "{{ [0] * 10**9 }}",
    "{{ 10**10**9 }}",
    "{{ 9**9**9 }}",
    "{{ '%0999999999d' % 1 }}",
    "{{ 'x'|center(10**9) }}",
    "{{ 'x'|indent(10**9) }}",
    "{{ 'x'|wordwrap(1) }}",
    "{{ [1]|batch(10**9, 0)|list }}",
    "{{ (['a' * 1000] * 1000)|join(',') }}",
    "{{ ('a' * 999999) ~ ('a' * 999999) }}",
    "{% macro m(s) %}{{ m(s ~ s) }}{% endmacro %}{{ m('ab') }}",
    "{% macro m(s) %}{% set t %}{{ s }}{{ s }}{% endset %}{{ m(t) }}{% endmacro %}{{ m('ab') }}",
    "{% macro m(s) %}{{ s }}{{ s }}{% endmacro %}{{ " + "m(" * 30 + "'abcdefgh'" + ")" * 30 + " }}",
]

#: Templates that recurse.
RECURSIONS = [
    "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    "{% include 'page.html.j2' %}",
    "{% extends 'page.html.j2' %}",
    "{% import 'page.html.j2' as me %}",
    "{% for x in rules.tiers recursive %}{{ loop(rules.tiers) }}{% endfor %}",
    "{{ " + "(" * 2000 + "1" + ")" * 2000 + " }}",
    "{{ " + "[" * 2000 + "]" * 2000 + " }}",
]

#: Files outside the template's folder.
OUTSIDE = [
    "{% include '/etc/hostname' %}",
    "{% include '../outside/secret.txt' %}",
    "{% include 'inside/../../outside/secret.txt' %}",
    "{% include 'link-dir/secret.txt' %}",
    "{% include 'link-file.txt' %}",
    "{% import '/etc/passwd' as x %}",
    "{% extends '~/x.j2' %}",
    "{{ scenario('/etc/hostname').you }}",
    "{{ scenario('../outside/game.yaml').you }}",
    "{{ scenario('link-dir/game.yaml').you }}",
    "{{ scenario('link-game.yaml').you }}",
    "{{ scenario('board-outside.yaml').you }}",
    "{{ scenario('board-absolute.yaml').you }}",
]

#: Placeholders nothing fills: an error, never "None" or a blank.
UNFILLED = [
    "{{ scenario('full-example').you.face_of('ZZ') }}",
    "{{ scenario('full-example').you.links_of('ZZ') }}",
    "{{ scenario('full-example').you.joins('ZZ') }}",
    "{{ scenario('full-example').name_of('ZZ') }}",
    "{{ scenario('full-example').neighbours('ZZ') }}",
    "{{ scenario('full-example').you.face_of(3) }}",
    "{{ against }}",
    "{{ rules.name.other }}",
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A template's folder, and beside it a folder the template may not read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET-OF-THE-HOST\n")
    game = (SCENARIOS / "full-example.yaml").read_text()
    (outside / "game.yaml").write_text(game)
    shutil.copy(REPO / "maps" / "usa.yaml", outside / "board.yaml")
    mine = tmp_path / "templates"
    (mine / "inside").mkdir(parents=True)
    (mine / "link-dir").symlink_to(outside)
    (mine / "link-file.txt").symlink_to(outside / "secret.txt")
    (mine / "link-game.yaml").symlink_to(outside / "game.yaml")
    (mine / "board-outside.yaml").write_text(
        game.replace("board: usa", "board: ../outside/board.yaml")
    )
    (mine / "board-absolute.yaml").write_text(
        game.replace("board: usa", f"board: {outside / 'board.yaml'}")
    )
    assert "board: usa" in game
    return mine


def refused(cli, folder: Path, template: str) -> str:
    """The one line ``template`` is refused with."""
    marker = folder / "pwned"
    page = folder / "page.html.j2"
    page.write_text("<p>\n" + template.replace("{marker}", str(marker)) + "\n</p>\n")
    result = cli("rulebook", "--template", page)
    assert result.code == 2, result.out[:200]
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert result.err.startswith("evlogic: error: ")
    assert "page.html.j2" in result.err
    assert "Traceback" not in result.err
    assert "SECRET" not in result.err
    assert not marker.exists()
    return result.err


@pytest.mark.parametrize("template", ESCAPES)
def test_a_template_reaches_nothing_but_its_placeholders(cli, folder, template):
    said = refused(cli, folder, template)
    assert "line 2" in said


@pytest.mark.parametrize("template", BOMBS)
def test_a_template_makes_no_value_too_large_to_hold(cli, folder, template):
    said = refused(cli, folder, template)
    assert "line 2" in said


@pytest.mark.parametrize("template", RECURSIONS)
def test_a_template_that_recurses_is_one_line(cli, folder, template):
    said = refused(cli, folder, template)
    assert "recurses" in said


@pytest.mark.parametrize("template", OUTSIDE)
def test_a_template_reads_only_files_beside_it(cli, folder, template):
    said = refused(cli, folder, template)
    assert "line 2" in said
    assert "beside the template" in said or "out of the template's folder" in said


@pytest.mark.parametrize("template", UNFILLED)
def test_a_placeholder_nothing_fills_is_an_error_never_none(cli, folder, template):
    said = refused(cli, folder, template)
    assert "line 2" in said


def test_files_beside_the_template_are_read(cli, folder):
    """What the refusals leave: scenarios, includes and macros of the
    template's folder, subfolders too, and a scenario's own board beside it."""
    shutil.copy(REPO / "maps" / "usa.yaml", folder / "inside" / "board.yaml")
    game = (SCENARIOS / "full-example.yaml").read_text()
    (folder / "inside" / "game.yaml").write_text(game.replace("board: usa", "board: board.yaml"))
    (folder / "inside" / "macros.j2").write_text("{% macro total(p) %}{{ p.total }}{% endmacro %}")
    (folder / "inside" / "part.j2").write_text("[{{ rules.siege_penalty }}]")
    page = folder / "page.html.j2"
    page.write_text(
        "{% import 'inside/macros.j2' as m %}{% include 'inside/part.j2' %}"
        "{{ m.total(scenario('inside/game.yaml').you) }}"
        "{% for size, bonus in rules.tiers %} {{ loop.index }}:{{ bonus.signed }}{% endfor %}"
        " {{ scenario('full-example').you.face_of('VA') }}\n"
    )
    result = cli("rulebook", "--template", page)
    assert result.code == 0, result.err
    rules = load_rule_set("standard")
    game = load_game(SCENARIOS / "full-example.yaml", rules=rules)
    total = next(p.total for p in score_game(game).players if p.name == "You")
    tiers = "".join(f" {n}:+{bonus}" for n, (_, bonus) in enumerate(rules.tiers, 1))
    face = explain_game(game, "You").worth["VA"][0]
    assert result.out == f"[{rules.siege_penalty}]{total}{tiers} {face}\n"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("<p>{{ rules.name }}</p>\n".encode("utf-16"), "not UTF-8 text (UTF-16"),
        (b"<p>\n{{ rules.name }}\x00</p>\n", "line 2: not text: a NUL byte"),
        (b"<p>\xff\xfe</p>", "not UTF-8 text"),
    ],
)
def test_a_template_that_is_not_text_is_one_line(cli, folder, data, says):
    page = folder / "page.html.j2"
    page.write_bytes(data)
    result = cli("rulebook", "--template", page)
    assert (result.code, result.out) == (2, "")
    assert len(result.err.strip().splitlines()) == 1
    assert says in result.err and "page.html.j2" in result.err
    (folder / "part.j2").write_bytes(data)
    page.write_text("<p>\n{% include 'part.j2' %}</p>\n")
    result = cli("rulebook", "--template", page)
    assert (result.code, result.out) == (2, "")
    assert "page.html.j2: line 2: " in result.err and says.split(": ")[-1] in result.err


@pytest.mark.parametrize("option", ["--pdf", "-o"])
@pytest.mark.parametrize("where", ["no/such/dir/x.out", "."])
def test_an_output_that_cannot_be_written_fails_before_anything_is_printed(
    cli, tmp_path, option, where
):
    result = cli("rulebook", option, tmp_path / where)
    assert (result.code, result.out) == (2, "")
    assert len(result.err.strip().splitlines()) == 1
    assert "cannot write" in result.err
    assert sorted(tmp_path.iterdir()) == []  # nothing made, no temporary file left


class _Recorder(http.server.BaseHTTPRequestHandler):
    """A server on the network the page must not reach: it answers every
    request, and keeps what it was asked."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        body = b"NETWORK-REACHED"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.browser
def test_the_pdf_prints_the_page_alone(cli, tmp_path):
    """No file, no server reaches the PDF: iframes, images, objects, style
    sheets, @import and url() in CSS, a refresh, a script."""
    if shutil.which("chromium") is None or shutil.which("pdftotext") is None:
        pytest.fail("the PDF test needs chromium and pdftotext (apt-get install poppler-utils)")
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-OF-THE-HOST\n")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        net = f"http://127.0.0.1:{server.server_address[1]}"
        files = [secret.as_uri(), "file:///etc/hostname", "file:///etc/os-release"]
        urls = files + [f"{net}/{n}" for n in range(3)]
        loads = "".join(
            f'<iframe src="{u}"></iframe><object data="{u}"></object><embed src="{u}">'
            f'<img src="{u}"><link rel="stylesheet" href="{u}"><script src="{u}"></script>'
            for u in urls
        )
        template = tmp_path / "page.html.j2"
        template.write_text(
            "<!DOCTYPE html><html><head>"
            f'<meta http-equiv="refresh" content="0;url={secret.as_uri()}">'
            f'<style>@import url("{net}/import.css");'
            f' body {{ background: url("{net}/bg") }}</style>'
            f"</head><body><p>PAGE-TEXT {{{{ rules.siege_penalty }}}}</p>{loads}"
            f"<script>document.write('SCRIPT-RAN')</script>"
            f'<svg><image href="{secret.as_uri()}"/></svg></body></html>\n'
        )
        pdf = tmp_path / "page.pdf"
        result = cli("rulebook", "--template", template, "--pdf", pdf, "-o", tmp_path / "p.html")
        assert result.code == 0, result.err
    finally:
        server.shutdown()
        server.server_close()
    text = subprocess.run(
        ["pdftotext", pdf, "-"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert text.split() == ["PAGE-TEXT", "10"], text  # the page's words, nothing loaded
    hostname = Path("/etc/hostname").read_text().strip()
    for leaked in ("SECRET", "NETWORK-REACHED", "SCRIPT-RAN", "PRETTY_NAME", "ID="):
        assert leaked not in text
    assert hostname not in text.replace("PAGE-TEXT 10", "")
    assert _Recorder.asked == []
