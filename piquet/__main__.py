"""``python -m piquet``: the same as the ``piquet`` command."""

import sys

from piquet.ui.cli import main

sys.exit(main())
