# Two commands do everything on a fresh machine with Python 3.11:
#   make run   - environment, install, migrate, demo league, serve on http://127.0.0.1:8000 (PORT=8080 make run;
#                HOST=0.0.0.0 make run: for the other devices of the network too, e.g. phones in a hall)
#   make test  - environment, install, the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test lint install demo bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c docker/constraints.txt -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo

run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# One test process per core (pytest-xdist); `-m "not slow"` leaves out gunicorn, broker and batch-print tests.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python bench/scoring.py
	$(BIN)/python bench/draw.py
	$(BIN)/python bench/pulka.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
