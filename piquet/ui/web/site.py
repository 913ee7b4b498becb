"""``piquet site DIR``: the table as a static site that plays with no server, installable and offline
(``docs/offline.md``).

The site is the served table's own pages and ES modules, with two things of its own: the engine, the computer and
the table's logic run in the browser, in Pyodide (CPython compiled to WebAssembly) in a Web Worker
(``static/site/worker.js`` running :mod:`piquet.ui.web.offline`); and a service worker keeps every file of the site
for a visit with no network. Written here:

- ``index.html``, ``table.html``, ``review.html`` and ``history.html``: the lobby, the table, the review of a record
  file and the History of the parties finished in this browser, their
  links made relative (the site may live under a path, as on GitHub Pages) and marked as the offline site's
  (``<meta name="piquet-site">``: the pages then talk to the worker instead of a server);
- ``static/``: the pages' modules, styles and catalogues, as the server serves them;
- ``guide/`` and ``rules/``: the player's guides (``guide/{variant}.html``, and in French ``guide/{variant}.fr.html``)
  and the laws as implemented, as the server serves them;
- ``api/setup.LANG.json``: what the lobby offers, in each language (the server's ``GET /api/setup?lang=LANG``);
- ``piquet.zip``: our package in pure Python (no compiled kernel, no page files), *stored* uncompressed so that the
  host's transfer compression does the work;
- ``pyodide/``: Pyodide's runtime, copied from the npm package the project pins (``package-lock.json``; ``npm ci``
  installs it), its standard library's zip rewritten stored: never fetched from elsewhere when the page runs;
- ``sw.js``, ``manifest.webmanifest``, ``icons/``: the service worker (its cache named by the site's version) and
  what a phone needs to install the site.

The site's version is a digest of every file written: a site built from other files has another, and the service
worker of a new version replaces the old one's cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PYODIDE_FILES", "STDLIB_LEFT_OUT", "SiteError", "build_site", "find_pyodide", "package_zip", "png_icon"]

ROOT = Path(__file__).resolve().parents[3]  # the directory that holds the piquet package
STATIC = Path(__file__).resolve().parent / "static"
#: The files of Pyodide's npm package that the page loads (the rest are its Node and console tools).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
#: Parts of Pyodide's standard library the site never imports, left out of the copy it serves (a quarter of the
#: first visit's bytes, 0.47 MB with brotli): mail, XML and HTTP, test frameworks, debuggers and documentation, the
#: REPL, archives, C types and GUIs. tests/test_offline_site.py plays a deal, with hints, the tutor and a review,
#: through the worker's Python with these refused, so a later import of one fails there first.
STDLIB_LEFT_OUT = frozenset({
    "_pyrepl", "ctypes", "curses", "dbm", "doctest.py", "email", "ensurepip", "ftplib.py", "http", "idlelib",
    "imaplib.py", "lib2to3", "mailbox.py", "nntplib.py", "pdb.py", "pickletools.py", "poplib.py", "pydoc.py",
    "pydoc_data", "smtplib.py", "tarfile.py", "tkinter", "tomllib", "turtle.py", "turtledemo", "unittest", "venv",
    "wsgiref", "xml", "xmlrpc"})
#: The pages of the site, from the served ones.
PAGES = ("index.html", "table.html", "review.html", "history.html")
#: The icons' sizes, in pixels (a phone's home screen asks for 192 and 512).
ICON_SIZES = (192, 512)
#: The site's colours: the table's burgundy, and the card's cream.
BURGUNDY = (0x7D, 0x1F, 0x2C)
CREAM = (0xFF, 0xFD, 0xF8)
#: A stamp for the service worker's list of files and version (``static/site/sw.js`` carries the empty one).
SW_STAMP = 'const SITE = { version: "", files: [] };'


class SiteError(Exception):
    """The site could not be built: the reason says what is missing and what to do."""


def find_pyodide(start: Path | None = None) -> Path:
    """Pyodide's npm package (``node_modules/pyodide``), looked for from ``start`` (the current directory) up, and
    beside the piquet package's checkout; ``SiteError`` saying to run ``npm ci`` if it is not there."""
    here = (start or Path.cwd()).resolve()
    places = [base / "node_modules" / "pyodide" for base in (here, *here.parents, ROOT)]
    for place in places:
        if all((place / name).is_file() for name in PYODIDE_FILES):
            return place
    raise SiteError("Pyodide's runtime was not found (node_modules/pyodide, from the npm package the project pins "
                    "in package-lock.json): run `npm ci` in the checkout, then build the site again")


def package_files() -> Iterator[tuple[Path, str]]:
    """The files of the piquet package the browser needs: its Python modules and data, without the compiled kernel
    (and its C source), the served pages' files or caches."""
    for path in sorted(ROOT.joinpath("piquet").rglob("*")):
        relative = path.relative_to(ROOT)
        parts = relative.parts
        if (not path.is_file() or "__pycache__" in parts or path.suffix in (".so", ".pyd", ".c", ".pyc")
                or parts[:4] == ("piquet", "ui", "web", "static")):
            continue
        yield path, relative.as_posix()


def package_zip(target: Path) -> None:
    """Write the piquet package to ``target`` as a zip whose members are *stored* (not compressed): the host's
    transfer compression (gzip, brotli) compresses the whole, better than a zip's member by member. Python imports
    from it as it is (``zipimport``), with fixed dates so that the same package makes the same bytes."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path, name in package_files():
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_STORED)


def stored_zip(source: Path, target: Path, leave_out: frozenset[str] = frozenset()) -> None:
    """Copy the zip ``source`` to ``target`` with its members *stored*, but those whose first part of the path is in
    ``leave_out``: Pyodide's standard library comes deflated member by member, and the host's transfer compression
    does better on the whole (2.2 MB with gzip rather than 2.5 MB, measured on Pyodide 314.0.8's)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as new:
        for info in old.infolist():
            if info.filename.split("/", 1)[0] in leave_out:
                continue
            member = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            member.external_attr = info.external_attr
            new.writestr(member, old.read(info), zipfile.ZIP_STORED)


def png_icon(size: int) -> bytes:
    """The site's icon as a PNG of ``size`` pixels square, drawn here (a cream diamond, the card's pip, on the
    table's burgundy): the same picture as ``icons/icon.svg``, made without an image library."""
    rows = []
    half = size / 2
    radius = size * 0.34
    for y in range(size):
        row = bytearray([0])  # the filter of each row: none
        for x in range(size):
            inside = abs(x + 0.5 - half) / (radius * 0.78) + abs(y + 0.5 - half) / radius <= 1
            row += bytes(CREAM if inside else BURGUNDY)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))


def _hex(colour: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in colour)


def icon_svg() -> str:
    """The site's icon as SVG (any size; :func:`png_icon` draws the same for the sizes a phone asks)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" fill="{_hex(BURGUNDY)}"/>'
            f'<path d="M50 16L76.5 50L50 84L23.5 50Z" fill="{_hex(CREAM)}"/></svg>\n')


#: A link of the server's, in a page: to its pages' files, the lobby, a guide (in a language) or the laws (and an
#: anchor).
_SERVER_LINK = re.compile(r'(href|src)="/(static/[^"#?]*|guide/[\w-]+|guide|rules/[\w-]+|rules|history|)'
                          r'(?:\?lang=(\w+))?(#[^"]*)?"')


def relative_links(text: str, up: str = "") -> str:
    """The server's links in a page made the site's, relative to a page ``up`` from the site's root (``""``, or
    ``"../"`` from ``guide/``): the lobby is ``index.html``, a guide ``guide/{variant}.html`` (in French
    ``guide/{variant}.fr.html``, the index ``guide/index.fr.html``), the laws ``rules/index.html`` and
    ``rules/{variant}.html``."""
    def link(match: re.Match[str]) -> str:
        attribute, path, lang, anchor = match[1], match[2], match[3], match[4] or ""
        if path == "":
            path = "index"
        elif path in ("guide", "rules"):
            path += "/index"
        if not path.startswith("static/"):
            path += ("" if lang in (None, "en") else f".{lang}") + ".html"
        return f'{attribute}="{up}{path}{anchor}"'
    return _SERVER_LINK.sub(link, text)


def page_html(text: str) -> str:
    """A served page made the site's: its links relative to the site (which may live under a path), marked as the
    offline site's (the pages then play in the browser), with its manifest for installing it."""
    text = relative_links(text)
    head = ('<meta name="piquet-site" content="offline">\n<link rel="manifest" href="manifest.webmanifest">\n'
            f'<meta name="theme-color" content="{_hex(BURGUNDY)}">\n')
    if "<head>\n" not in text:
        raise SiteError("a page of the site has no <head> to mark")
    return text.replace("<head>\n", "<head>\n" + head, 1)


def text_pages() -> dict[str, str]:
    """The guides and the laws as implemented, as the server serves them (``/guide``, ``/rules``), by their path in
    the site (``guide/rubicon.html``), their links made the site's."""
    from piquet.engine.language import LANGUAGES
    from piquet.engine.variants import VARIANTS
    from piquet.ui.web.guide import guide_index_page, guide_page, rules_markup, rules_page, text_page

    rules = rules_markup()
    pages = {"rules/index.html": text_page(*rules_page(rules))}
    for lang in LANGUAGES:
        suffix = "" if lang == "en" else f".{lang}"
        pages[f"guide/index{suffix}.html"] = guide_index_page(lang)
        for variant in VARIANTS:
            pages[f"guide/{variant}{suffix}.html"] = guide_page(variant, lang)
    for variant in VARIANTS:
        pages[f"rules/{variant}.html"] = text_page(*rules_page(rules, variant))
    return {path: relative_links(page, "../") for path, page in pages.items()}


def manifest() -> str:
    """The web app manifest: the site installs as an app of its own, started at the lobby."""
    icons = [{"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]
    icons += [{"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"}
              for n in ICON_SIZES]
    colour = _hex(BURGUNDY)
    return json.dumps({"name": "Piquet", "short_name": "Piquet", "description": "The card game Piquet against the "
                       "computer, in the browser, with or without a network.", "start_url": "./index.html",
                       "scope": "./", "display": "standalone", "background_color": colour, "theme_color": colour,
                       "icons": icons}, indent=2) + "\n"


def _digest(root: Path, files: list[str]) -> str:
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_site(target: Path, pyodide: Path | None = None) -> str:
    """Write the offline site into ``target`` (made if need be; files of an earlier build are replaced), with
    Pyodide's runtime from ``pyodide`` (:func:`find_pyodide` when ``None``). The site's version."""
    from piquet.engine.language import LANGUAGES
    from piquet.ui.web.budgets import MAX_BUDGET
    from piquet.ui.web.session import setup_answer

    runtime = pyodide if pyodide is not None else find_pyodide()
    missing = [name for name in PYODIDE_FILES if not (runtime / name).is_file()]
    if missing:
        raise SiteError(f"Pyodide's runtime in {runtime} lacks {', '.join(missing)}: run `npm ci`, then build again")
    target.mkdir(parents=True, exist_ok=True)
    for part in ("static", "pyodide", "icons", "api", "guide", "rules"):
        shutil.rmtree(target / part, ignore_errors=True)
    shutil.copytree(STATIC, target / "static", ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.html"))
    for page in PAGES:
        (target / page).write_text(page_html((STATIC / page).read_text(encoding="utf-8")), encoding="utf-8")
    (target / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        if name.endswith(".zip"):
            stored_zip(runtime / name, target / "pyodide" / name, STDLIB_LEFT_OUT)
        else:
            shutil.copyfile(runtime / name, target / "pyodide" / name)
    for path, page in text_pages().items():
        (target / path).parent.mkdir(exist_ok=True)
        (target / path).write_text(page, encoding="utf-8")
    (target / "api").mkdir()
    for lang in LANGUAGES:
        (target / "api" / f"setup.{lang}.json").write_text(json.dumps(setup_answer(MAX_BUDGET, lang)),
                                                            encoding="utf-8")
    package_zip(target / "piquet.zip")
    (target / "icons").mkdir()
    (target / "icons" / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    for size in ICON_SIZES:
        (target / "icons" / f"icon-{size}.png").write_bytes(png_icon(size))
    (target / "manifest.webmanifest").write_text(manifest(), encoding="utf-8")
    (target / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve every file as it is
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                   if p.is_file() and p.name not in ("sw.js", "version.json", ".nojekyll"))
    version = _digest(target, files)
    worker = (STATIC / "site" / "sw.js").read_text(encoding="utf-8")
    if SW_STAMP not in worker:
        raise SiteError("static/site/sw.js has lost the line the build stamps")
    stamp = "const SITE = " + json.dumps({"version": version, "files": ["./", *files]}) + ";"
    (target / "sw.js").write_text(worker.replace(SW_STAMP, stamp), encoding="utf-8")
    (target / "version.json").write_text(json.dumps({"version": version}) + "\n", encoding="utf-8")
    return version


def site_bytes(target: Path) -> int:
    """The bytes of every file of a built site (uncompressed)."""
    return sum(os.path.getsize(p) for p in target.rglob("*") if p.is_file())
