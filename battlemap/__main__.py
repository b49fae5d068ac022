"""``python -m battlemap``."""

import sys

from battlemap.app import main

sys.exit(main())
