"""Fixtures of the exchange tests."""

import pytest


@pytest.fixture
def manage(monkeypatch, capsys):
    """Run manage.py with argv and return (exit status, stdout, stderr)."""
    # run_from_argv closes the connections at the end; the test's transaction must stay open
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)

    def run(*argv: str) -> tuple[int, str, str]:
        from league.management.commands import import_tournament as command

        try:
            command.Command().run_from_argv(["manage.py", "import_tournament", "--skip-checks", *argv])
            status = 0
        except SystemExit as exit:
            status = exit.code
        out, err = capsys.readouterr()
        return status, out, err

    return run
