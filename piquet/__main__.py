"""``python -m piquet``: the same as the ``piquet`` command."""

import sys

from piquet.cli import main

sys.exit(main())
