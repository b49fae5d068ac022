"""``python -m tests.fuzz``: see ``tests.fuzz.runner``."""

import sys

from tests.fuzz.runner import main

if __name__ == "__main__":
    sys.exit(main())
