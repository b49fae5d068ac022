"""Entry script PyInstaller freezes: the same ``main`` the ``battlemap`` console script runs."""

from battlemap.app import main

raise SystemExit(main())
