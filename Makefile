# Two commands do everything on a fresh machine with Python 3.11:
#   make run   - environment, install, static files, migrate, demo league, serve on http://127.0.0.1:8000 (PORT=8080 make run;
#                HOST=0.0.0.0 make run: for the other devices of the network too, e.g. phones in a hall)
#   make test  - environment, install, the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# collectstatic's manifest: the settings serve hashed, compressed names once it exists (league/settings.py)
STATIC_MANIFEST := $(or $(DJANGO_STATIC_ROOT),staticfiles)/staticfiles.json

.PHONY: run test lint install demo bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c docker/constraints.txt -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# The static files with hashed names and gzip and brotli copies, for phones to keep a year; made
# again only when a file under static/ changed or the packages were installed again.
$(STATIC_MANIFEST): $(STAMP) $(shell find static -type f)
	DJANGO_STATIC_MANIFEST=yes $(BIN)/python manage.py collectstatic --noinput --verbosity 0

demo: $(STAMP) $(STATIC_MANIFEST)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo

run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# One test process per core (pytest-xdist); `-m "not slow"` leaves out gunicorn, broker and batch-print tests.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python bench/scoring.py
	$(BIN)/python bench/draw.py
	$(BIN)/python bench/pulka.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
