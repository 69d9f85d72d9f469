"""The shape of the code (issue 23): the modules import each other without a circle, at the top of the
module rather than inside a function, take no private name from another module, the pure cores stay free
of Django, and outside the games' packages few lines name a game: none chooses by it, and (issue 39) the
words each game declares its own (``vocabulary`` in its ``rules.py``: kontra, pulka, …) fall towards none.

The source is read with :mod:`ast` and regular expressions; nothing of the project is imported, so a
broken module fails its own tests rather than these. ``python -m tests.test_architecture`` prints the
figures (the circles, the imports inside functions, the private imports, and the places naming a game).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("league", "players", "scoring")
# The pure cores: what `python -m scoring` and `python -m league.draw` run, with no Django set up, and the rating.
PURE = ("scoring", "league.draw", "league.rating.compute")
# The one package allowed to name each game (and its templates' folder), and the folders no rule here reads.
GAMES = Path("league") / "games"
GAMES_TEMPLATES = Path("templates") / "games"
MIGRATIONS = "migrations"
# The lines outside the games that may name one (issue 39): none since the rooms' shared columns,
# events and exchange keys took names of no game; a ceiling that may only fall, so it stays none.
MOST_PYTHON_LINES_NAMING_A_GAME = 0
MOST_TEMPLATE_LINES_NAMING_A_GAME = 0

# A line of Python or of a template that chooses by game: the flag, the enum member, a comparison, the code.
PYTHON_NAMES_A_GAME = re.compile(
    r"""is_preferans|is_baska|Game\.(BASKA|PREFERANS)|game\s*==|==\s*["']?(baska|preferans)|["'](baska|preferans)["']"""
)
TEMPLATE_NAMES_A_GAME = re.compile(r"""is_preferans|is_baska|\.game\s*==|game\s*==\s*["']""")

# Imports inside a function that have a reason to stay there, as (module, function): why.
# Empty is the aim; an entry must say what breaks at the top of the module.
FUNCTION_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {
    ("league.apps", "LeagueConfig.ready"): (
        "the Celery app is made once Django is ready; league/__init__.py stays empty, so that"
        " python -m league.draw imports no Django"
    ),
    ("league.standings.tasks", "recompute_standings"): (
        "Celery imports the task module before Django's apps are ready; the cache module reads the models"
    ),
    ("league.rating.apps", "RatingConfig.ready"): (
        "the receivers (a merge rates the kept player again) read the models, not loaded when the config is made"
    ),
}


@dataclass(frozen=True)
class Import:
    """One name (or module) imported by one statement of a project module.

    ``source`` is the module the statement names, made absolute; ``name`` is the name taken from it (None
    for ``import x``); ``target`` is the module the import runs: ``source.name`` when that is a submodule
    (``from league.results import models``), else ``source``.
    """

    module: str
    where: str
    source: str
    name: str | None
    target: str
    function: str | None  # the enclosing function or method (``Class.method``), None at module level
    type_checking: bool  # under ``if TYPE_CHECKING:``, so never run
    bound: str  # the local name the statement binds
    bound_module: str | None  # the module that name stands for, None when it is not a module

    def __str__(self) -> str:
        taken = f"from {self.source} import {self.name}" if self.name else f"import {self.source}"
        inside = f" in {self.function}()" if self.function else ""
        return f"{self.where}{inside}: {taken}"


def module_files(root: Path = ROOT, packages: Sequence[str] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its ``__init__.py``), migrations left out."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if MIGRATIONS in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def absolute(package: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in ``package``."""
    if level == 0:
        return module or ""
    parts = package.split(".")
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, module] if module else parts)


def imports_of(module: str, path: Path, root: Path, known: Iterable[str]) -> list[Import]:
    """Every import statement of one module, with where it sits (module level, function, TYPE_CHECKING)."""
    known = set(known)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    where_file = path.relative_to(root).as_posix()
    found: list[Import] = []

    def record(node: ast.Import | ast.ImportFrom, function: str | None, type_checking: bool) -> None:
        where = f"{where_file}:{node.lineno}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                # `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`.
                bound, bound_module = (alias.asname, alias.name) if alias.asname else (alias.name.split(".")[0],) * 2
                found.append(
                    Import(module, where, alias.name, None, alias.name, function, type_checking, bound, bound_module)
                )
            return
        source = absolute(package, node.level, node.module)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            target, bound_module = (submodule, submodule) if submodule in known else (source, None)
            bound = alias.asname or alias.name
            found.append(
                Import(module, where, source, alias.name, target, function, type_checking, bound, bound_module)
            )

    def visit(nodes: Iterable[ast.AST], owner: str, function: str | None, type_checking: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                record(node, function, type_checking)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{owner}.{node.name}" if owner else node.name
                visit(node.body, name, name, type_checking)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{owner}.{node.name}" if owner else node.name, function, type_checking)
            elif isinstance(node, ast.If) and is_type_checking(node.test):
                visit(node.body, owner, function, True)
                visit(node.orelse, owner, function, type_checking)
            else:
                visit(ast.iter_child_nodes(node), owner, function, type_checking)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body, "", None, False)
    return found


def all_imports(root: Path = ROOT, packages: Sequence[str] = PACKAGES) -> list[Import]:
    files = module_files(root, packages)
    return [found for module, path in files.items() for found in imports_of(module, path, root, files)]


@cache
def project_imports() -> tuple[Import, ...]:
    return tuple(all_imports())


def strongly_connected(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Tarjan's components of the import graph: the groups of modules that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                connect(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def shortest_circle(graph: dict[str, dict[str, Import]], start: str, group: set[str]) -> list[str]:
    """The shortest way from ``start`` back to itself inside its group, as the modules along it."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for after in sorted(graph[node]):
            if after not in group:
                continue
            if after == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if after not in came_from:
                came_from[after] = node
                queue.append(after)
    raise AssertionError(f"{start} is in a group but on no circle")


def circles(imports: Iterable[Import], *, as_written: bool = False) -> list[list[Import]]:
    """The import circles run at import time: one shortest circle through each module that is on one.

    Only module-level imports count (not those inside a function, nor under ``if TYPE_CHECKING:``) unless
    ``as_written`` (every import statement, as a reader follows them), and only imports between the modules
    read. Each circle is its imports in order, the last one back to the first module.
    """
    imports = list(imports)
    read = {found.module for found in imports}
    graph: dict[str, dict[str, Import]] = {module: {} for module in read}
    for found in imports:
        runs = found.function is None and not found.type_checking
        if (runs or as_written) and found.target in read:
            if found.target != found.module:
                graph[found.module].setdefault(found.target, found)
    seen: set[tuple[str, ...]] = set()
    found_circles = []
    for group in strongly_connected(graph):
        if len(group) < 2:
            continue
        for start in group:
            modules = shortest_circle(graph, start, set(group))[:-1]
            first = modules.index(min(modules))
            key = tuple(modules[first:] + modules[:first])
            if key not in seen:
                seen.add(key)
                ring = [*key, key[0]]
                found_circles.append([graph[a][b] for a, b in zip(ring, ring[1:], strict=False)])
    return found_circles


def function_imports(imports: Iterable[Import]) -> list[Import]:
    """Imports inside a function or method, but those :data:`FUNCTION_IMPORTS_ALLOWED` gives a reason for."""
    return [
        found
        for found in imports
        if found.function is not None and (found.module, found.function) not in FUNCTION_IMPORTS_ALLOWED
    ]


def is_private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def private_imports(imports: Iterable[Import], packages: Sequence[str] = PACKAGES) -> list[Import]:
    """``from m import _x`` where ``m`` is a module of the project (wherever the statement sits)."""
    return [found for found in imports if is_private(found.name) and found.source.split(".")[0] in packages]


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def private_uses(root: Path = ROOT, packages: Sequence[str] = PACKAGES) -> list[str]:
    """``module._x`` where ``module`` names another module of the project: a private import in all but name."""
    files = module_files(root, packages)
    found = []
    for module, path in files.items():
        modules = {
            imported.bound: imported.bound_module
            for imported in imports_of(module, path, root, files)
            if imported.bound_module and imported.bound_module.split(".")[0] in packages
        }
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            written = dotted(node.value) if isinstance(node, ast.Attribute) and is_private(node.attr) else None
            if written is None or written.split(".")[0] not in modules:
                continue
            first, _, rest = written.partition(".")
            owner = f"{modules[first]}.{rest}" if rest else modules[first]
            if owner in files and owner != module:
                found.append((path.relative_to(root).as_posix(), node.lineno, f"{written}.{node.attr} ({owner})"))
    return [f"{where}:{line}: {text}" for where, line, text in sorted(set(found))]


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def impure_imports(
    imports: Iterable[Import], pure: Sequence[str] = PURE, packages: Sequence[str] = PACKAGES
) -> list[Import]:
    """Imports in the pure cores (and the packages that hold them, run first) of Django or of another part
    of the project, which would bring Django with it."""

    def checked(module: str) -> bool:
        return any(within(module, core) or within(core, module) for core in pure)

    def allowed(target: str) -> bool:
        if target.split(".")[0] == "django":
            return False
        return target.split(".")[0] not in packages or any(within(target, core) for core in pure)

    return [found for found in imports if checked(found.module) and not allowed(found.target)]


def game_vocabularies(root: Path = ROOT) -> dict[str, tuple[str, ...]]:
    """Each game's words by its package's name, as its ``rules.py`` writes them (``vocabulary = (…)``)."""
    found = {}
    for rules in sorted((root / GAMES).glob("*/rules.py")):
        for node in ast.walk(ast.parse(rules.read_text(encoding="utf-8"), filename=str(rules))):
            if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "vocabulary" for target in node.targets
            ):
                found[rules.parent.name] = tuple(ast.literal_eval(node.value))
    return found


def naming_a_game(choosing: re.Pattern[str], root: Path) -> re.Pattern[str]:
    """A line that chooses by game (``choosing``) or uses any game's own words, ignoring case."""
    words = [word for vocabulary in game_vocabularies(root).values() for word in vocabulary]
    return re.compile("|".join([f"(?:{choosing.pattern})", *(f"(?:{word})" for word in words)]), re.IGNORECASE)


def game_lines(paths: Iterable[Path], pattern: re.Pattern[str], root: Path) -> list[str]:
    """``file:line: text`` for every line that names a game."""
    return [
        f"{path.relative_to(root).as_posix()}:{number}: {line.strip()}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]


def outside_the_games(paths: Iterable[Path], root: Path) -> list[Path]:
    return sorted(
        path
        for path in paths
        if not any(path.relative_to(root).is_relative_to(games) for games in (GAMES, GAMES_TEMPLATES))
        and MIGRATIONS not in path.relative_to(root).parts
    )


def python_naming_a_game(root: Path = ROOT) -> list[str]:
    """The lines of Python in ``league/`` and ``players/`` (outside ``league/games/``) that name a game."""
    paths = [path for package in ("league", "players") for path in (root / package).rglob("*.py")]
    return game_lines(outside_the_games(paths, root), naming_a_game(PYTHON_NAMES_A_GAME, root), root)


def templates_naming_a_game(root: Path = ROOT) -> list[str]:
    """The lines of the templates (``templates/`` and any app's own) outside the games' that name a game."""
    paths = [*(root / "templates").rglob("*.html")]
    paths += [path for package in ("league", "players") for path in (root / package).glob("**/templates/**/*.html")]
    return game_lines(outside_the_games(paths, root), naming_a_game(TEMPLATE_NAMES_A_GAME, root), root)


def game_package(module: str, root: Path = ROOT) -> str | None:
    """The game's package ``module`` is in (``league.games.<game>``: a package with a ``rules.py``), if any."""
    parts = module.split(".")
    if len(parts) < 3 or Path(*parts[:2]) != GAMES or not (root / Path(*parts[:3]) / "rules.py").exists():
        return None
    return ".".join(parts[:3])


def refused_game_import(found: Import, root: Path = ROOT) -> bool:
    """Whether ``found`` crosses the games' seam: the models (any ``models`` module) importing from
    ``league.games``, or a game's package importing the registry or another game's package."""
    games = ".".join(GAMES.parts)
    if found.module.split(".")[-1] == "models" and (found.source + ".").startswith(games + "."):
        return True
    game = game_package(found.module, root)
    if game is None:
        return False
    other = game_package(found.source, root)
    return found.source == games or (other is not None and other != game)


def describe_circle(circle: Sequence[Import]) -> str:
    modules = " → ".join([circle[0].module, *(found.target for found in circle)])
    return "\n".join([modules, *(f"    {found}" for found in circle)])


def listing(title: str, lines: Iterable[str]) -> str:
    lines = list(lines)
    return "\n".join([f"{title}: {len(lines)}", *(f"  {line}" for line in lines)])


# The project.


def test_the_modules_import_each_other_without_a_circle():
    found = circles(project_imports())
    assert not found, listing("Import circles", (describe_circle(circle) for circle in found))


def test_the_modules_import_each_other_without_a_circle_even_as_written():
    """Imports under ``if TYPE_CHECKING:`` and inside functions count too (issue 39: the models and the
    games' interface made one circle of 32 modules that way)."""
    found = circles(project_imports(), as_written=True)
    assert not found, listing("Import circles as written", (describe_circle(circle) for circle in found))


def test_the_models_ask_no_game_and_a_game_asks_no_other_game():
    """The models know a tournament's game by its key alone; a game's package reaches neither the
    registry (``league.games``, which the rooms ask) nor another game's package."""
    found = [str(found) for found in project_imports() if refused_game_import(found)]
    assert not found, listing("Imports across the games' seam", found)


def test_no_function_or_method_imports_a_module():
    found = function_imports(project_imports())
    assert not found, listing("Imports inside a function", map(str, found))


def test_every_function_allowed_to_import_still_does():
    imported_in = {(found.module, found.function) for found in project_imports()}
    assert set(FUNCTION_IMPORTS_ALLOWED) <= imported_in


def test_no_module_imports_a_private_name_of_another():
    found = private_imports(project_imports())
    assert not found, listing("Private names imported", map(str, found))


def test_no_module_uses_a_private_name_of_another_through_the_module():
    found = private_uses()
    assert not found, listing("Private names used through another module", found)


def test_the_pure_cores_import_no_django_directly_or_through_the_project():
    found = impure_imports(project_imports())
    assert not found, listing("Imports of Django in scoring/ or league/draw/", map(str, found))


def test_each_game_declares_its_own_words():
    vocabularies = game_vocabularies()
    assert set(vocabularies) == {"baska", "preferans"}
    assert all(vocabularies.values()), vocabularies


def test_no_more_lines_of_python_outside_the_games_than_the_ceiling_name_a_game():
    found = python_naming_a_game()
    assert len(found) <= MOST_PYTHON_LINES_NAMING_A_GAME, listing("Python lines naming a game", found)


def test_no_more_lines_of_templates_outside_the_games_than_the_ceiling_name_a_game():
    found = templates_naming_a_game()
    assert len(found) <= MOST_TEMPLATE_LINES_NAMING_A_GAME, listing("Template lines naming a game", found)


# The checks themselves, on a fake package: each finds what it is for, so none can pass by reading nothing.


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def fake_imports(root: Path, files: dict[str, str]) -> list[Import]:
    return all_imports(write(root, {"fake/__init__.py": "", **files}), ("fake",))


def test_the_project_is_read():
    modules = {found.module for found in project_imports()}
    assert {"league.models", "league.draw", "players.models", "scoring.deal"} <= modules


def test_a_circle_through_relative_imports_and_a_submodule_named_in_from_import_is_found(tmp_path):
    found = circles(
        fake_imports(
            tmp_path,
            {
                "fake/models.py": "from .describe import describe\n",
                "fake/describe.py": "from fake.sub import words\n",
                "fake/sub/__init__.py": "",
                "fake/sub/words.py": "import os\n\nfrom .. import models\n",
                "fake/alone.py": "from fake import models\n",
            },
        )
    )
    assert [[(found.module, found.target, found.where) for found in circle] for circle in found] == [
        [
            ("fake.describe", "fake.sub.words", "fake/describe.py:1"),
            ("fake.sub.words", "fake.models", "fake/sub/words.py:3"),
            ("fake.models", "fake.describe", "fake/models.py:1"),
        ]
    ]
    assert describe_circle(found[0]).startswith("fake.describe → fake.sub.words → fake.models → fake.describe\n")


def test_each_circle_is_reported(tmp_path):
    found = circles(
        fake_imports(
            tmp_path,
            {
                "fake/a.py": "from . import b\n",
                "fake/b.py": "from . import a, c\n",
                "fake/c.py": "from .b import thing\n",
                "fake/d.py": "from . import e\n",
                "fake/e.py": "from .d import thing\n",
            },
        )
    )
    assert sorted([found.module for found in circle] for circle in found) == [
        ["fake.a", "fake.b"],
        ["fake.b", "fake.c"],
        ["fake.d", "fake.e"],
    ]


def test_an_import_under_type_checking_or_inside_a_function_makes_no_circle(tmp_path):
    imports = fake_imports(
        tmp_path,
        {
            "fake/a.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .b import B\n",
            "fake/b.py": "import typing\n\nif typing.TYPE_CHECKING:\n    pass\nelse:\n    from . import c\n",
            "fake/c.py": "def late():\n    from .b import B\n\n\nfrom .a import A\n",
        },
    )
    assert circles(imports) == []
    assert [str(found) for found in function_imports(imports)] == ["fake/c.py:2 in late(): from fake.b import B"]


def test_an_import_inside_a_method_or_a_nested_function_is_found(tmp_path):
    imports = fake_imports(
        tmp_path,
        {
            "fake/views.py": """\
                import json


                class View:
                    import os

                    def get(self):
                        import fake.models

                        def inner():
                            from fake import models
            """,
            "fake/models.py": "",
        },
    )
    assert [str(found) for found in function_imports(imports)] == [
        "fake/views.py:8 in View.get(): import fake.models",
        "fake/views.py:11 in View.get.inner(): from fake import models",
    ]
    assert [found.target for found in imports if found.function] == ["fake.models", "fake.models"]


def test_a_private_name_imported_from_a_project_module_is_found(tmp_path):
    imports = fake_imports(
        tmp_path,
        {
            "fake/services.py": "_atomic_write = None\n__all__ = []\n",
            "fake/offline.py": """\
                from os import _exit
                from fake.services import __all__
                from .services import _atomic_write, __all__ as names


                def later():
                    from . import services as _services
                    from .services import _atomic_write
            """,
        },
    )
    assert [str(found) for found in private_imports(imports, ("fake",))] == [
        "fake/offline.py:3: from fake.services import _atomic_write",
        "fake/offline.py:8 in later(): from fake.services import _atomic_write",
    ]


def test_a_private_name_used_through_another_module_is_found(tmp_path):
    write(
        tmp_path,
        {
            "fake/__init__.py": "",
            "fake/views.py": "def _series():\n    pass\n\n\n_series()\n",
            "fake/sub/__init__.py": "",
            "fake/sub/pin.py": "",
            "fake/penalties.py": """\
                import fake.sub.pin
                import json

                from fake import sub
                from fake.views import _series as series

                from . import views
                from . import views as room


                def page(self):
                    views._series()
                    room._series(self._cache, json._default_decoder)
                    fake.sub.pin._digits
                    sub.pin._digits
                    views.__name__
            """,
        },
    )
    assert private_uses(tmp_path, ("fake",)) == [
        "fake/penalties.py:12: views._series (fake.views)",
        "fake/penalties.py:13: room._series (fake.views)",
        "fake/penalties.py:14: fake.sub.pin._digits (fake.sub.pin)",
        "fake/penalties.py:15: sub.pin._digits (fake.sub.pin)",
    ]


def test_django_or_another_part_of_the_project_in_a_pure_core_is_found(tmp_path):
    imports = fake_imports(
        tmp_path,
        {
            "fake/__init__.py": "import django\n",
            "fake/models.py": "",
            "fake/other.py": "from django.db import models\n",
            "fake/core/__init__.py": "import json\n\nimport numpy\n\nfrom . import rules\n",
            "fake/core/rules.py": "def value():\n    from django.conf import settings\n",
            "fake/core/view.py": "from fake.models import Tournament\nfrom fake.pure.thing import x\n",
            "fake/pure/thing.py": "",
        },
    )
    assert [str(found) for found in impure_imports(imports, ("fake.core", "fake.pure"), ("fake",))] == [
        "fake/__init__.py:1: import django",
        "fake/core/rules.py:2 in value(): from django.conf import settings",
        "fake/core/view.py:1: from fake.models import Tournament",
    ]


def test_a_circle_made_only_under_type_checking_or_in_a_function_is_found_as_written(tmp_path):
    imports = fake_imports(
        tmp_path,
        {
            "fake/models.py": "from fake import games\n",
            "fake/games.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fake import forms\n",
            "fake/forms.py": "def clean():\n    from fake import models\n",
        },
    )
    assert circles(imports) == []
    [circle] = circles(imports, as_written=True)
    assert describe_circle(circle).startswith("fake.forms → fake.models → fake.games → fake.forms\n")


def test_the_models_importing_a_game_and_a_game_importing_the_registry_or_another_game_are_refused(tmp_path):
    root = write(
        tmp_path,
        {
            "league/__init__.py": "",
            "league/models.py": "from league.games.choices import Game\n",
            "league/results/models.py": "from league.models import Tournament\n",
            "league/games/__init__.py": "",
            "league/games/choices.py": "",
            "league/games/one/__init__.py": "",
            "league/games/one/rules.py": "from league.games import game_of\nfrom league.games.two.rules import TWO\n",
            "league/games/one/phone.py": "from league.games.one import rules\nfrom league.games.choices import Game\n",
            "league/games/two/__init__.py": "",
            "league/games/two/rules.py": "from league.models import Tournament\n",
        },
    )
    imports = all_imports(root, ("league",))
    assert sorted(str(found) for found in imports if refused_game_import(found, root)) == [
        "league/games/one/rules.py:1: from league.games import game_of",
        "league/games/one/rules.py:2: from league.games.two.rules import TWO",
        "league/models.py:1: from league.games.choices import Game",
    ]


def test_each_way_of_naming_a_game_is_counted_outside_the_games_package(tmp_path):
    write(
        tmp_path,
        {
            "league/results/views.py": """\
                if tournament.is_preferans:
                    pass
                if game == Game.BASKA:
                    pass
                kind = "preferans"
                if kind == baska:
                    pass
                rules = game_of(tournament)  # asks the game: not counted
            """,
            "players/views.py": "x = is_baska(y)  # one line counted once: 'baska'\n",
            "league/games/preferans.py": "code = 'preferans'\n",
            "league/migrations/0001.py": "default = 'baska'\n",
            "templates/results/page.html": """\
                {% if tournament.is_preferans %}
                {% if tournament.game == "preferans" %}
                {% if game == 'baska' %}
                {% include rules.template %}
            """,
            "league/hall/templates/hall/room.html": "{% if is_baska %}{% endif %}\n",
            "league/games/templates/baska.html": "{% if is_baska %}{% endif %}\n",
        },
    )
    assert [line.split(":")[:2] for line in python_naming_a_game(tmp_path)] == [
        ["league/results/views.py", "1"],
        ["league/results/views.py", "3"],
        ["league/results/views.py", "5"],
        ["league/results/views.py", "6"],
        ["players/views.py", "1"],
    ]
    assert [line.split(":")[:2] for line in templates_naming_a_game(tmp_path)] == [
        ["league/hall/templates/hall/room.html", "1"],
        ["templates/results/page.html", "1"],
        ["templates/results/page.html", "2"],
        ["templates/results/page.html", "3"],
    ]


def test_a_games_own_words_are_read_from_its_rules_and_counted_outside_its_package(tmp_path):
    write(
        tmp_path,
        {
            "league/games/cards/rules.py": """\
                class Cards(GameRules):
                    vocabulary = (r"\\btrump", r"pik(?:i|a)?\\b")
            """,
            "league/games/cards/forms.py": "trumps = 0  # the game's own package: not counted\n",
            "league/games/plain/game.py": "vocabulary = ('seat',)  # no rules.py: not a game, no words\n",
            "league/standings/statistics.py": """\
                trumps_won = 0
                LABEL = "Most Trumps"
                seats = "a strumpet's seat"  # not at a word's start, and "seat" is no game's word
                suit = "piki"
            """,
            "templates/public/player.html": "{{ row.trumps }}\n<td>{{ row.points }}</td>\n",
            "templates/games/cards/sheet.html": "{{ row.trumps }}\n",
        },
    )
    assert game_vocabularies(tmp_path) == {"cards": (r"\btrump", r"pik(?:i|a)?\b")}
    assert [line.split(":")[:2] for line in python_naming_a_game(tmp_path)] == [
        ["league/standings/statistics.py", "1"],
        ["league/standings/statistics.py", "2"],
        ["league/standings/statistics.py", "4"],
    ]
    assert [line.split(":")[:2] for line in templates_naming_a_game(tmp_path)] == [
        ["templates/public/player.html", "1"]
    ]


def main() -> None:
    """Print the figures for a closing note."""
    imports = project_imports()
    found_circles = circles(imports)
    sections = [
        listing("Import circles", (describe_circle(circle) for circle in found_circles)),
        listing("Imports inside a function", map(str, function_imports(imports))),
        listing("Private names imported from another module", map(str, private_imports(imports))),
        listing("Private names used through another module", private_uses()),
        listing("Imports of Django in scoring/ or league/draw/", map(str, impure_imports(imports))),
        listing("Python lines naming a game (league/, players/; outside league/games/)", python_naming_a_game()),
        listing("Template lines naming a game (outside the games' templates)", templates_naming_a_game()),
    ]
    print("\n\n".join(sections))


if __name__ == "__main__":
    main()
