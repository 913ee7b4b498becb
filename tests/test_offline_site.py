"""The offline site (``piquet site``, ``docs/offline.md``) without a browser: what the builder writes, the package
zip CPython imports as it is, and the worker's Python side (:mod:`piquet.ui.web.offline`) playing through the
protocol's messages with a store kept as the browser keeps it."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("markdown")  # the site is built by the web extra (its guides)

from piquet.engine import record
from piquet.ui.web.offline import BrowserStore, Host, info_from_json, info_to_json
from piquet.ui.web.site import PYODIDE_FILES, STDLIB_LEFT_OUT, SiteError, build_site, package_zip
from piquet.ui.web.store import StoreError, TableInfo


@pytest.fixture
def runtime(tmp_path: Path) -> Path:
    """A stand-in for Pyodide's npm package: its files, with contents of their own."""
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in PYODIDE_FILES:
        if name.endswith(".zip"):
            with zipfile.ZipFile(folder / name, "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr("os.py", "# the standard library\n" * 100)
        else:
            (folder / name).write_text(f"// {name}\n")
    return folder


# ---------------------------------------------------------------- the builder
def test_the_site_has_its_pages_modules_runtime_package_and_what_installs_it(tmp_path: Path, runtime: Path) -> None:
    site = tmp_path / "site"
    version = build_site(site, runtime)
    for name in ("index.html", "table.html", "static/table/main.js", "static/site/worker.js", "static/i18n/fr.json",
                 "api/setup.en.json", "api/setup.fr.json", "piquet.zip", "sw.js", "version.json",
                 "manifest.webmanifest", "icons/icon.svg",
                 *(f"pyodide/{n}" for n in PYODIDE_FILES)):
        assert (site / name).is_file(), name
    page = (site / "table.html").read_text()
    assert '<meta name="piquet-site"' in page and '"/static/' not in page and 'href="static/style.css"' in page
    assert 'href="history.html"' in (site / "index.html").read_text() and (site / "history.html").is_file()
    # The guides and the laws are there too, every link the site's own (it may live under a path).
    from piquet.engine.variants import VARIANTS
    for variant in VARIANTS:
        assert "Back to the tables" in (site / f"guide/{variant}.html").read_text()
        assert (site / f"rules/{variant}.html").is_file()
    for html in site.glob("**/*.html"):
        assert not re.search(r'(href|src)="/', html.read_text()), html
    setup = json.loads((site / "api/setup.en.json").read_text())
    assert [v["name"] for v in setup["variants"]] == list(VARIANTS)
    french = json.loads((site / "api/setup.fr.json").read_text())  # the lobby's words in the page's language
    assert [v["name"] for v in french["variants"]] == list(VARIANTS) and french["levels"] != setup["levels"]
    # The service worker carries the version and every file it keeps; the manifest's icons are there.
    with zipfile.ZipFile(site / "pyodide/python_stdlib.zip") as stdlib:  # stored: the host compresses the whole
        assert [i.compress_type for i in stdlib.infolist()] == [zipfile.ZIP_STORED]
        assert stdlib.read("os.py").startswith(b"# the standard library")
    worker = (site / "sw.js").read_text()
    assert f'"version": "{version}"' in worker and '"pyodide/pyodide.asm.wasm"' in worker
    assert json.loads((site / "version.json").read_text()) == {"version": version}
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert (site / icon["src"]).is_file()
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            png = (site / icon["src"]).read_bytes()
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == size


def test_the_version_follows_the_files_and_a_new_build_replaces_the_old(tmp_path: Path, runtime: Path) -> None:
    site = tmp_path / "site"
    first = build_site(site, runtime)
    assert build_site(site, runtime) == first  # the same files, the same version
    (runtime / "pyodide.asm.wasm").write_text("another runtime")
    second = build_site(site, runtime)
    assert second != first and f'"version": "{second}"' in (site / "sw.js").read_text()


def test_without_pyodide_the_builder_says_to_run_npm_ci(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="npm ci"):
        build_site(tmp_path / "site", tmp_path / "nowhere")
    assert not (tmp_path / "site").exists()


def test_the_package_zip_is_stored_pure_python_and_imports_with_zipimport(tmp_path: Path) -> None:
    target = tmp_path / "piquet.zip"
    package_zip(target)
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
        assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())
    assert "piquet/engine/partie.py" in names and "piquet/ui/web/offline.py" in names
    assert not [n for n in names if n.endswith((".so", ".c", ".pyc")) or "/static/" in n]
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import piquet, piquet.ui.web.offline, random;"
            "from piquet.engine.partie import Partie;"
            "assert piquet.__file__.startswith(sys.argv[1]), piquet.__file__;"
            "p = Partie(('A', 'B'), 'rubicon'); p.push(p.random_cut(random.Random(1))); print(p.phase.name)")
    done = subprocess.run([sys.executable, "-I", "-c", code, str(target)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() != "CUT"


# ---------------------------------------------------------------- the worker's Python side
class Page:
    """A page's view of a :class:`Host`: what each connection was sent."""

    def __init__(self, kept: dict[str, str]) -> None:
        self.kept = kept
        self.sent: list[tuple[int, str, str]] = []

        async def read(key: str) -> str | None:
            return kept.get(key)

        async def write(key: str, text: str) -> None:
            kept[key] = text

        self.host = Host(read, write, lambda n, kind, text: self.sent.append((n, kind, text)))

    def states(self) -> list[dict[str, Any]]:
        return [m for n, k, t in self.sent if k == "message" and (m := json.loads(t))["type"] == "state"]

    def messages(self, kind: str) -> list[dict[str, Any]]:
        return [m for n, k, t in self.sent if k == "message" and (m := json.loads(t))["type"] == kind]

    async def settle(self) -> dict[str, Any]:
        await self.host.idle()
        await asyncio.sleep(0)
        return self.states()[-1]


def _answer(state: dict[str, Any]) -> dict[str, Any]:
    p = state["prompt"]
    if p["kind"] == "play":
        return {"play": p["cards"][0]}
    if p["kind"] == "exchange":
        return {"exchange": state["view"]["hand"][:max(1, p["min"])], "show_rest": False}
    if p["kind"] == "declare":
        answer: dict[str, Any] = p["options"][0]["action"]
        return answer
    if p["kind"] in ("choose_dealer", "packets"):
        return {p["kind"]: p["options"][0]}
    option: dict[str, Any] = p["options"][0]
    return option


async def _play_a_deal(page: Page) -> dict[str, Any]:
    for _ in range(200):
        state = await page.settle()
        if state["view"]["sheet"]:
            return state
        if state["prompt"]:
            await page.host.receive(1, json.dumps({"type": "action", "action": _answer(state),
                                                   "version": state["version"]}))
    raise AssertionError("the deal did not end")


def test_a_deal_is_played_through_the_protocol_and_a_new_page_resumes_it_from_what_the_browser_kept() -> None:
    async def play() -> None:
        kept: dict[str, str] = {}
        page = Page(kept)
        created = json.loads(await page.host.create(json.dumps({"kind": "computer", "level": 1, "name": "Ann"})))
        assert created["links"]["play"] == f"table.html?id={created['id']}#token={created['token']}"
        await page.host.connect(1, created["id"], "token", created["token"], "en")
        state = await _play_a_deal(page)
        assert state["seat"] == 0 and state["players"] == ["Ann", "Computer"]
        saved = info_from_json(kept[created["id"]])
        assert saved.version == state["version"] and len(saved.actions) == state["version"]
        # A stale message changes nothing: refused, and the state now follows.
        await page.host.receive(1, json.dumps({"type": "action", "action": {"play": "AS"}, "version": 1}))
        assert (await page.settle())["version"] == state["version"]
        assert page.messages("error")[-1]["code"] == "stale"
        # Another page (a reload: nothing in memory) finds the game where it was.
        again = Page(kept)
        await again.host.connect(1, created["id"], "token", created["token"], "en")
        resumed = await again.settle()
        assert resumed["version"] == state["version"] and resumed["view"]["sheet"] == state["view"]["sheet"]
        assert again.host.record(1) is None  # not before the end: it would show the hidden cards

    asyncio.run(play())


def test_what_the_worker_refuses_is_said_as_the_server_says_it() -> None:
    async def refuse() -> None:
        page = Page({})
        for body, why in (({"kind": "room"}, "needs a server"), ({"level": 9}, "level is 1 to 5"),
                          ({"variant": "bezique"}, "unknown variant"), ({"budget": 99}, "budget"), ([], "object"),
                          ({"colour": "red"}, "unknown field")):
            answer = json.loads(await page.host.create(json.dumps(body)))
            assert why in answer["detail"], answer
        assert page.host.store._tables == {}
        await page.host.connect(1, "nosuchtable", "token", "x", "en")
        await page.host.connect(2, "nosuchtable", "token", "x", "xx")
        assert [(k, t.split()[0]) for _, k, t in page.sent] == [("close", "4404"), ("close", "4400")]

    asyncio.run(refuse())


def test_the_browser_store_keeps_each_change_and_refuses_an_action_out_of_order() -> None:
    async def store() -> None:
        kept: dict[str, str] = {}

        async def write(key: str, text: str) -> None:
            kept[key] = text

        browser = BrowserStore(kept.get, write)
        info = TableInfo("t1", "computer", "rubicon", {}, 3, ["Ann", "Computer"], ["a", None], "s", 1)
        await browser.create(info)
        await browser.append("t1", 0, {"player": "Ann", "cut": ["7S", "AD"]}, 1)
        with pytest.raises(StoreError, match="out of order"):
            await browser.append("t1", 5, {"player": "Ann"}, 2)
        await browser.take_back("t1", 0, None, 2)
        loaded = info_from_json(kept["t1"])
        assert loaded.actions == [] and loaded.version == 2
        assert info_to_json(loaded) == kept["t1"]
        assert await browser.load("none") is None
        with pytest.raises(StoreError, match="already stored"):
            await browser.create(info)

    asyncio.run(store())


def test_a_change_the_browser_refuses_to_keep_is_not_applied_and_the_player_is_told() -> None:
    async def refused() -> None:
        kept: dict[str, str] = {}
        page = Page(kept)
        created = json.loads(await page.host.create(json.dumps({"kind": "computer", "level": 1, "name": "Ann"})))
        await page.host.connect(1, created["id"], "token", created["token"], "en")
        state = await page.settle()
        while not state["prompt"]:
            state = await page.settle()

        async def full(key: str, text: str) -> None:
            raise RuntimeError("QuotaExceededError")

        page.host.store._write = full
        await page.host.receive(1, json.dumps({"type": "action", "action": _answer(state),
                                               "version": state["version"]}))
        await page.settle()
        assert page.messages("error")[-1]["code"] == "not_saved"
        assert info_from_json(kept[created["id"]]).version == state["version"]
        assert page.states()[-1]["version"] == state["version"]

    asyncio.run(refused())


# ---------------------------------------------------------------- the standard library the site serves
#: A deal played by the worker's Python as the page drives it, with a hint asked at each of the player's decisions
#: and the tutor on (played anyway when it warns), in a fresh interpreter that refuses to import what the site
#: leaves out of Pyodide's standard library (``site.STDLIB_LEFT_OUT``, ``sys.argv[1]``: its names, one per line).
_WORKER_WITHOUT_THE_LEFT_OUT = r'''
import sys

LEFT_OUT = {name.removesuffix(".py") for name in sys.argv[1].split()}


class LeftOut:
    """Refuses the modules the site does not serve, as Pyodide would without them."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in LEFT_OUT:
            raise ModuleNotFoundError(f"{name} is left out of the site's standard library", name=name)
        return None


already = sorted(name for name in sys.modules if name.split(".")[0] in LEFT_OUT)
assert not already, f"the interpreter itself imported {already}"
sys.meta_path.insert(0, LeftOut())

import asyncio
import json

from piquet.ui.web.offline import Host

sent = []
kept = {}


async def read(key):
    return kept.get(key)


async def write(key, text):
    kept[key] = text


def messages(kind):
    return [m for n, k, t in sent if k == "message" and (m := json.loads(t))["type"] == kind]


def answer(state):
    prompt = state["prompt"]
    if prompt["kind"] == "play":
        return {"play": prompt["cards"][0]}
    if prompt["kind"] == "exchange":
        return {"exchange": state["view"]["hand"][:max(1, prompt["min"])], "show_rest": False}
    if prompt["kind"] in ("choose_dealer", "packets"):
        return {prompt["kind"]: prompt["options"][0]}
    return prompt["options"][0]["action"] if prompt["kind"] == "declare" else prompt["options"][0]


async def main():
    host = Host(read, write, lambda n, kind, text: sent.append((n, kind, text)))
    request = {"kind": "computer", "level": 1, "name": "Ann", "tutor": True}
    created = json.loads(await host.create(json.dumps(request)))
    await host.connect(1, created["id"], "token", created["token"], "en")
    for _ in range(300):
        await host.idle()
        state = messages("state")[-1]
        if state["view"]["sheet"]:
            break
        if not state["prompt"]:
            continue
        await host.receive(1, json.dumps({"type": "hint"}))
        await host.idle()
        move = {"type": "action", "action": answer(state), "version": state["version"]}
        await host.receive(1, json.dumps(move))
        await host.idle()
        warned = messages("tutor")
        if warned and messages("state")[-1]["version"] == state["version"]:
            await host.receive(1, json.dumps({**move, "confirm": True}))
    else:
        raise AssertionError("the deal did not end")
    # The deal's review, and a record file's, as the review page asks the worker for them.
    ask = {"table": created["id"], "token": created["token"], "deal": 1, "lens": "fair", "lang": "en"}
    assert json.loads(await host.review_table(json.dumps(ask)))["status"] == "done"
    with open("tests/records/rubicon-deal.json", encoding="utf-8") as f:
        ask = {"record": f.read(), "deal": 1, "lens": "open-hands", "lang": "fr"}
    assert json.loads(host.review_record(json.dumps(ask)))["status"] == "done"
    print(len(messages("hint")), len(messages("tutor")))


asyncio.run(main())
'''


def test_the_worker_plays_hints_and_tutors_without_what_the_site_leaves_out_of_the_standard_library() -> None:
    """The site serves Pyodide's standard library without the parts piquet never imports (``STDLIB_LEFT_OUT``):
    the worker's Python, refusing those, plays a deal with hints and the tutor, then reviews it and a record file;
    and the left-out parts were not in use by something the worker does."""
    done = subprocess.run([sys.executable, "-c", _WORKER_WITHOUT_THE_LEFT_OUT, " ".join(sorted(STDLIB_LEFT_OUT))],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    hints, _warnings = (int(n) for n in done.stdout.split())
    assert hints > 0  # (a seat's hints have an allowance: the rest were refused "busy")


def test_the_site_serves_the_standard_library_without_what_it_leaves_out(tmp_path: Path, runtime: Path) -> None:
    with zipfile.ZipFile(runtime / "python_stdlib.zip", "a", zipfile.ZIP_DEFLATED) as archive:
        for name in ("email/__init__.py", "email/parser.py", "xml/", "pdb.py", "json/__init__.py", "emailish.py"):
            archive.writestr(name, "" if name.endswith("/") else f"# {name}\n")
    build_site(tmp_path / "site", pyodide=runtime)
    with zipfile.ZipFile(tmp_path / "site" / "pyodide" / "python_stdlib.zip") as served, \
            zipfile.ZipFile(runtime / "python_stdlib.zip") as whole:
        names = {info.filename.split("/", 1)[0] for info in served.infolist()}
        assert names.isdisjoint(STDLIB_LEFT_OUT)
        assert names == {info.filename.split("/", 1)[0] for info in whole.infolist()} - STDLIB_LEFT_OUT
        assert all(info.compress_type == zipfile.ZIP_STORED for info in served.infolist())


def test_the_worker_reviews_a_record_file_and_refuses_a_bad_one_as_the_server_does() -> None:
    text = (Path(__file__).parent / "records" / "rubicon-deal.json").read_text(encoding="utf-8")
    page = Page({})
    told: list[tuple[int, int]] = []
    body = {"record": text, "deal": 1, "lens": "fair", "lang": "en"}
    answer = json.loads(page.host.review_record(json.dumps(body), lambda done, total: told.append((done, total))))
    assert answer["status"] == "done" and answer["players"] == ["Ann", "Bill"] and answer["deals"] == 1
    assert [len(h) for h in answer["result"]["decisions"][0]["hands"]] == [12, 12]
    assert told and told[-1][0] == told[-1][1]  # its progress told as it went, to the end
    refused = json.loads(page.host.review_record(json.dumps({**body, "record": '{"format": 1'})))
    assert refused["where"] == "line 1, column 13" and "not JSON" in refused["why"]
    assert "deal 2 has not ended" in json.loads(page.host.review_record(json.dumps({**body, "deal": 2})))["detail"]
    assert page.host.store._tables == {} and page.sent == []  # nothing kept, nothing said to any table


def test_the_worker_reviews_a_deal_of_its_table_as_the_server_does_for_the_seat_only() -> None:
    async def review() -> None:
        page = Page({})
        created = json.loads(await page.host.create(json.dumps({"kind": "computer", "level": 1, "name": "Ann"})))
        await page.host.connect(1, created["id"], "token", created["token"], "en")
        await _play_a_deal(page)
        body = {"table": created["id"], "token": created["token"], "deal": 1, "lens": "fair", "lang": "en"}
        answer = json.loads(await page.host.review_table(json.dumps(body)))
        assert answer["status"] == "done" and answer["seat"] == 0
        # The partie goes on: Ann's decisions only, and no luck (it would tell the computer's discards).
        assert {d["seat"] for d in answer["result"]["decisions"]} == {0}
        assert answer["result"]["review"]["luck"] == []
        for wrong, why in (({"token": "nope"}, "holds no seat"), ({"lens": "open-hands"}, "once the partie is over"),
                           ({"deal": 2}, "has not ended")):
            assert why in json.loads(await page.host.review_table(json.dumps({**body, **wrong})))["detail"]

    asyncio.run(review())


# ---------------------------------------------------------------- History in the browser
def test_history_lists_the_parties_finished_in_this_browser_with_the_site_s_links_and_their_records() -> None:
    """The offline History (issue 35): the worker answers as the server's ``POST /api/history`` does, from the
    tables this browser keeps, its links the site's pages; a finished partie's record comes from the worker; a
    secret that holds no seat gives nothing."""
    async def finish() -> None:
        kept: dict[str, str] = {}
        page = Page(kept)
        request = {"kind": "computer", "level": 1, "name": "Ann", "options": {"four_deal_partie": True}}
        created = json.loads(await page.host.create(json.dumps(request)))
        await page.host.connect(1, created["id"], "token", created["token"], "en")
        for _ in range(2000):
            state = await page.settle()
            if state["view"]["phase"] == "over":
                break
            if state["prompt"]:
                await page.host.receive(1, json.dumps({"type": "action", "action": _answer(state),
                                                       "version": state["version"]}))
        else:
            raise AssertionError("the partie did not end")
        seat = {"table": created["id"], "token": created["token"]}
        answer = json.loads(await page.host.history(json.dumps({"seats": [seat], "lang": "fr"})))
        [party] = answer["parties"]
        assert party["id"] == created["id"] and party["opponent"] == "l'ordinateur"
        assert party["result"]["totals"] == state["view"]["totals"]
        assert party["links"] == {"record": "", "table": f"table.html?id={created['id']}",
                                  "review": f"review.html?id={created['id']}&deal=1&deals=4",
                                  "replay": f"review.html?id={created['id']}&deal=1&deals=4&lens=open-hands"}
        assert answer["progress"]["groups"] and answer["progress"]["svg"].startswith("<svg")
        text = await page.host.record_file(json.dumps(seat))
        assert text is not None and record.loads(text).totals == tuple(state["view"]["totals"])
        # A secret that holds no seat: no partie, no record; a malformed request: why.
        stranger = {"table": created["id"], "token": "not-a-seat"}
        assert json.loads(await page.host.history(json.dumps({"seats": [stranger], "lang": "en"})))["parties"] == []
        assert await page.host.record_file(json.dumps(stranger)) is None
        assert "seats" in json.loads(await page.host.history(json.dumps({"seats": "all"})))["detail"]

    asyncio.run(finish())
