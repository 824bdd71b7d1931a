# The README's two commands: `make run` (default balance report) and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install -q --disable-pip-version-check
# uv installs the wheels in parallel (a fresh install in ~15 s instead of ~90 s with pip); pip is the fallback
# where uv cannot be fetched or cannot reach the index. compileall then writes the dependencies' .pyc files once
# (pip does so by default, uv does not): without them every process, every CLI call and test subprocess, compiles
# pandas, numba and numpy from source again where PYTHONDONTWRITEBYTECODE is set (~4 s of CPU each on 2 cores).
# It leaves out what no run imports (the packages' own test suites, pip, setuptools): 10 s of CPU instead of 16.
# A file it cannot compile (some packages ship such examples) is not an install failure.
SITE = "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
PYC = $(PY) -m compileall -q -j 0 -x '/(tests|pip|setuptools|pkg_resources)/' $(SITE) >/dev/null 2>&1 || true
INSTALL = $(PIP) uv && $(VENV)/bin/uv pip install -q --python $(PY) $(1) && { $(PYC); } || $(PIP) $(1)
N ?= 20000

.PHONY: run test test-full lint bench golden clean studio

# `make run` needs the package only; `make test` adds the test tools (notebook kernel, ruff, build).
$(VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(call INSTALL,-e .)
	touch $@

# One install for both (`make test` on a fresh clone): a second uv run would compile every .pyc of the venv again.
$(VENV)/.installed-test: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(call INSTALL,-e '.[test]')
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(VENV)/bin/dicesim balance --n $(N) --out reports/latest

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check sim policies tests benchmarks

# `make test` leaves out the tests marked slow (over ~30 s each on a 2-core machine: kill-and-resume of a tune,
# disk full, two writers on one folder, Dask, the full balance report, million-game statistics); `make test-full`
# runs them too.
# Both use every core (pytest-xdist, one worker per core, a test file stays on one worker); the controller first
# compiles every game's kernels into the shared cache, one process per core (tests/conftest.py).
XDIST = -n auto --dist loadfile
test: $(VENV)/.installed-test lint
	$(PY) -m pytest -q -m "not slow" $(XDIST)

# Every test, then the golden tables and the game contract on the Würfel Dungeon's full compile tier (`make test`
# runs the quick one, see sim/jit/tier.py): run before merging a change to its kernels.
test-full: $(VENV)/.installed-test lint
	$(PY) -m pytest -q $(XDIST)
	DICESIM_TIER=full $(PY) -m pytest -q tests/test_golden.py tests/test_game_api.py tests/test_tier.py \
		tests/games/test_dungeon_*.py

studio: $(VENV)/.installed  # the balance studio in the browser: http://127.0.0.1:8765
	$(VENV)/bin/dicesim studio

golden: $(VENV)/.installed  # regenerate tests/golden after an intended rule change
	$(PY) -m tests.golden

bench: $(VENV)/.installed
	$(PY) benchmarks/run_all.py

clean:
	rm -rf reports/latest
	$(VENV)/bin/dicesim cache clear 2>/dev/null || true
