# The README's two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench docs fuzz clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m battlemap $(ARGS)

test: lint typecheck pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# `make docs`: the ruleset file reference, generated from the schema (a test keeps it current).
docs: $(STAMP)
	$(PY) -m battlemap rulesets docs > docs/rulesets.md

# `make fuzz`: 10,000 hostile inputs per loader in 2 reused workers (tests/fuzz); prints the
# counts, keeps failing inputs in build/fuzz/, exits 1 on any crash, hang or memory blow-up.
FUZZ_ARGS ?= --inputs 10000 --workers 2
fuzz: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) $(QT_FREE_VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

# `make test-without-qt`: the model, geometry, rules and io tests in a venv that has no PySide6,
# proof that those layers need no Qt (ARCHITECTURE.md). CI runs it after `make test`.
QT_FREE_VENV ?= .venv-qt-free
QT_FREE_PY := $(QT_FREE_VENV)/bin/python
QT_FREE_STAMP := $(QT_FREE_VENV)/.installed

$(QT_FREE_STAMP): pyproject.toml
	test -x $(QT_FREE_PY) || $(PYTHON) -m venv $(QT_FREE_VENV)
	$(QT_FREE_PY) tools/qt_free_requirements.py > $(QT_FREE_VENV)/requirements.txt
	$(QT_FREE_PY) -m pip install --quiet -r $(QT_FREE_VENV)/requirements.txt
	$(QT_FREE_PY) -m pip install --quiet --no-deps -e .
	touch $(QT_FREE_STAMP)

.PHONY: test-without-qt
test-without-qt: $(QT_FREE_STAMP)
	$(QT_FREE_PY) -c "import importlib.util as u, sys; sys.exit(u.find_spec('PySide6') is not None)"
	$(QT_FREE_PY) -m pytest -p no:cacheprovider tests/model tests/geometry tests/rules tests/io

# `make bundle`: the desktop app in dist/battlemap/ (PyInstaller; packaging/battlemap.spec).
# Not part of `make test`. PyInstaller's cache goes to build/, inside the checkout.
BUNDLE_STAMP := $(VENV)/.bundle-installed

$(BUNDLE_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --no-cache-dir -e '.[bundle]'
	touch $(BUNDLE_STAMP)

.PHONY: bundle
bundle: $(BUNDLE_STAMP)
	PYINSTALLER_CONFIG_DIR=$(CURDIR)/build/pyinstaller-cache $(PY) -m PyInstaller --noconfirm \
		--clean --log-level WARN --distpath dist --workpath build/pyinstaller packaging/battlemap.spec
	@du -sh dist/battlemap
