"""``python -m evlogic``."""

import sys

from evlogic.cli import main

sys.exit(main())
