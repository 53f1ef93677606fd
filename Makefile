# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DECKS := $(wildcard decks/*/deck.yaml)

.PHONY: demo test venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installs the project with its test tools, then the example game plugin (a separate package that
# registers the game `hedgerow` through the `cardtool.games` entry points, as a designer's own game
# would); re-run when either pyproject.toml changes.
# Then the optional compiled kernels (accel/, C extensions built with the machine's C compiler; the
# pure-Python engines play the same games without them, slower); re-run when their sources change.
PLUGINS := examples/plugins/hedgerow
ACCEL := accel
$(VENV)/.installed: pyproject.toml $(PLUGINS:%=%/pyproject.toml) $(ACCEL)/pyproject.toml $(ACCEL)/setup.py $(wildcard $(ACCEL)/cardtool_accel/*.c $(ACCEL)/cardtool_accel/*.py) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	for plugin in $(PLUGINS); do $(BIN)/python -m pip install --quiet -e $$plugin || exit 1; done
	$(BIN)/python -m pip install --quiet ./$(ACCEL) || echo "note: $(ACCEL)/ did not build (no C compiler?): the pure-Python engines play the same games, slower"
	touch $@

venv: $(VENV)/.installed

demo: venv
	@for deck in $(dir $(DECKS)); do \
	  echo "== $$deck"; \
	  $(BIN)/cardtool validate $$deck || exit 1; \
	  $(BIN)/cardtool info $$deck || exit 1; \
	  if grep -q '^game: ecologies' $$deck/deck.yaml; then \
	    $(BIN)/cardtool foodweb $$deck || exit 1; \
	  fi; \
	  $(BIN)/cardtool build $$deck || exit 1; \
	done
	@echo; echo "Every deck is built: open build/<deck>/index.html (cards, images, rulebook, food webs, simulation report)."

# pytest exits 5 when it collected no test: that is a failure here too. `-n auto` runs the suite in one
# process a core (pytest-xdist); `make test PYTEST_ARGS=` runs it in one process.
PYTEST_ARGS ?= -n auto
test: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf build $(VENV)
