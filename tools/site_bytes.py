"""The bytes of a first visit to the offline site (``docs/offline.md``): every file of a built site, compressed as a
static host serves it, with gzip (level 6, most hosts' default) and, where the ``brotli`` module is installed, brotli
(quality 11, what hosts that precompress use). The service worker fetches every file on the first visit.

    python3 tools/site_bytes.py SITE_DIR
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path


def main(root: Path) -> None:
    try:
        import brotli  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        brotli = None
    raw = zipped = squeezed = 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        raw += len(data)
        zipped += len(gzip.compress(data, 6))
        if brotli is not None:
            squeezed += len(brotli.compress(data, quality=11))
    print(f"{raw / 1e6:.2f} MB as files, {zipped / 1e6:.2f} MB with gzip"
          + (f", {squeezed / 1e6:.2f} MB with brotli" if brotli is not None else " (brotli: pip install brotli)"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
