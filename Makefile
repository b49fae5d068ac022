# The README's two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench fuzz clean

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

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# `make fuzz`: 10,000 hostile inputs per loader in 2 reused workers (tests/fuzz); prints the
# counts, keeps failing inputs in build/fuzz/, exits 1 on any crash, hang or memory blow-up.
FUZZ_ARGS ?= --inputs 10000 --workers 2
fuzz: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

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
