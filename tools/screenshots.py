"""Make the pictures of the web table in docs/screenshots/ again: the lobby, each phase of a deal (the exchange,
a declaration, the play), the end-of-deal count, a phone, French, the four-colour deck, the tutor, the review,
History and the progress by phase.

The browser tests take them, in Debian's chromium, as they play against the computer by clicking; this runs those
tests with ``PIQUET_SCREENSHOTS`` set to the folder, and checks that each picture was written anew:

    python3 tools/screenshots.py                 # into docs/screenshots
    python3 tools/screenshots.py --out pictures lobby french

It needs what the browser tests need (chromium, Playwright, and ``npm ci`` for the axe engine some of them run),
and takes a few minutes of CPU: the review's picture waits for the review of a deal.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each picture, and the test that takes it (a test file and a ``-k`` expression selecting one test).
PICTURES: dict[str, tuple[str, str]] = {
    "lobby.png": ("tests/test_web_screenshots.py", "each_phase"),
    "exchange.png": ("tests/test_web_screenshots.py", "each_phase"),
    "declarations.png": ("tests/test_web_screenshots.py", "each_phase"),
    "play.png": ("tests/test_web_screenshots.py", "each_phase"),
    "deal-count.png": ("tests/test_web_screenshots.py", "each_phase"),
    "phone.png": ("tests/test_web_phone.py", "tapped and 390x844 and served"),
    "french.png": ("tests/test_web_french.py", "desktop"),
    "four-colour.png": ("tests/test_web_display.py", "four_colour and desktop"),
    "tutor.png": ("tests/test_web_hints_browser.py", "tutor_warns and served"),
    "review.png": ("tests/test_web_review_browser.py", "decision_by_decision"),
    "history.png": ("tests/test_web_history_browser.py", "finished_parties"),
    "progress.png": ("tests/test_web_progress_phases_browser.py", "points_lost_by_phase"),
}


def selections(names: list[str]) -> list[tuple[str, str]]:
    """The tests to run for ``names`` (each once), in the order of :data:`PICTURES`."""
    wanted: list[tuple[str, str]] = []
    for name, test in PICTURES.items():
        if (name.removesuffix(".png") in names or name in names or not names) and test not in wanted:
            wanted.append(test)
    return wanted


def command(test: tuple[str, str], collect_only: bool = False) -> list[str]:
    path, expression = test
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", path, "-k", expression,
            *(["--collect-only"] if collect_only else [])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help=f"the pictures to make (all by default): "
                        f"{', '.join(n.removesuffix('.png') for n in PICTURES)}")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="the folder to write")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in PICTURES and n + ".png" not in PICTURES]
    if unknown:
        parser.error(f"no picture called {', '.join(unknown)}; there are {', '.join(PICTURES)}")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PIQUET_SCREENSHOTS": str(out), "PIQUET_REQUIRE_BROWSER": "1"}
    started = time.time()
    for test in selections(args.names):
        print("running", " ".join(command(test)[3:]), flush=True)
        if subprocess.run(command(test), cwd=ROOT, env=env, check=False).returncode != 0:
            print(f"the test that takes {test[0]} failed: no picture from it", file=sys.stderr)
            return 1
    made = [n for n in PICTURES if not args.names or n.removesuffix(".png") in args.names or n in args.names]
    stale = [n for n in made if not (out / n).exists() or (out / n).stat().st_mtime < started]
    for name in made:
        if name not in stale:
            print(f"{out / name}: {(out / name).stat().st_size // 1024} KiB")
    if stale:
        print(f"not written: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
