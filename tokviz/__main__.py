"""``python -m tokviz`` is the ``tokviz`` command."""

import sys

from tokviz.cli import main

sys.exit(main())
