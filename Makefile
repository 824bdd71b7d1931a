# The README's two commands: `make run` (default balance report) and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
N ?= 20000

.PHONY: run test test-fast lint bench golden clean studio

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/dicesim balance --n $(N) --out reports/latest

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check sim policies tests benchmarks

test: $(VENV)/.installed lint
	$(PY) -m pytest -q

test-fast: $(VENV)/.installed
	$(PY) -m pytest -q -m "not slow"

studio: $(VENV)/.installed  # the balance studio in the browser: http://127.0.0.1:8765
	$(VENV)/bin/dicesim studio

golden: $(VENV)/.installed  # regenerate tests/golden after an intended rule change
	$(PY) -m tests.golden

bench: $(VENV)/.installed
	$(PY) benchmarks/run_all.py

clean:
	rm -rf .cache reports/latest
