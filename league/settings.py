"""Settings for Baśka League, read from the environment.

With nothing configured the app runs embedded: SQLite in ``var/``, Celery tasks
executed eagerly, ``DEBUG`` off. ``DATABASE_URL`` switches to PostgreSQL and
``CELERY_BROKER_URL`` to a real broker (Redis); production sets both.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

# The spellings of yes and no a deployer may use; anything else stops the start.
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_str(name: str, default: str = "") -> str:
    """The variable's value without surrounding blanks; unset or empty gives ``default``."""
    return os.environ.get(name, "").strip() or default


def misconfigured(name: str, accepted: str) -> ImproperlyConfigured:
    """The error that stops the start, naming the variable, its value and what would do."""
    return ImproperlyConfigured(f"{name}={os.environ.get(name)!r} is not understood; accepted values: {accepted}")


def env_bool(name: str, default: bool = False) -> bool:
    value = env_str(name).lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise misconfigured(name, f"{'/'.join(TRUE_WORDS)} for yes, {'/'.join(FALSE_WORDS)} for no (any case)")


def env_int(name: str, default: int) -> int:
    """A whole number of at least 0 (a count, seconds, minutes)."""
    value = env_str(name)
    if not value:
        return default
    if not (value.isascii() and value.isdigit()):
        raise misconfigured(name, "a whole number, 0 or more")
    return int(value)


def env_list(name: str, default: str) -> list[str]:
    """Comma-separated items; an item with a blank inside is a list separated the wrong way."""
    items = [item.strip() for item in env_str(name, default).split(",") if item.strip()]
    if any(len(item.split()) > 1 for item in items):
        raise misconfigured(name, "items separated by commas, e.g. 'liga.example.org,127.0.0.1'")
    return items


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default).upper()
    if value not in choices:
        raise misconfigured(name, ", ".join(choices))
    return value


BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("BASKA_VAR_DIR") or BASE_DIR / "var")


def local_secret_key() -> str:
    """A per-installation key kept in var/, so no secret lives in the repository
    and sessions survive a restart of the embedded server.

    Made once, readable by its owner only from the start, and published whole: the web
    server and the worker starting together both read the one key the first of them made.
    """
    path = VAR_DIR / "secret_key"
    try:
        if not path.exists():
            VAR_DIR.mkdir(parents=True, exist_ok=True)
            draft = VAR_DIR / f".secret_key.{os.getpid()}"
            descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(50))
            try:
                os.link(draft, path)  # fails, keeping the other key, when another process was first
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        return path.read_text().strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is not set and the generated key cannot be kept in {path} ({error.strerror}): "
            "set DJANGO_SECRET_KEY, or BASKA_VAR_DIR to a folder this user may write"
        ) from error


def secret_key() -> str:
    """``DJANGO_SECRET_KEY``; without it the embedded mode's key in var/, but never in
    production (``DJANGO_SECURE``): there web and worker, and every container of the image,
    must share one key the deployer chose, so a missing one stops the start."""
    key = env_str("DJANGO_SECRET_KEY")
    if key:
        return key
    if env_bool("DJANGO_SECURE"):
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set; with DJANGO_SECURE on (production) it must be: set it to a long "
            "random string, e.g. the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    return local_secret_key()


DEBUG = env_bool("DJANGO_DEBUG")
SECRET_KEY = secret_key()
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "league.apps.SuperuserAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "axes",
    "csp",
    "players",
    "league",
    "league.results",
    "league.standings",
    "league.printing",
    "league.games.baska.rulesets",
    "league.games",
    "league.signups",
    "league.privacy",
    "league.rating",
]

# The games a tournament may play: each one's rules object (league.games.base.GameRules), the
# default first. A third game is a new package under league/games/ and a line here (docs/games.md).
BASKA_GAMES = [
    "league.games.baska.rules.BASKA",
    "league.games.preferans.rules.PREFERANS",
]

MIDDLEWARE = [
    # first, before the host check and the HTTPS redirect: the container's probe asks
    # http://127.0.0.1:8000/zdrowie/
    "league.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "league.errors.DatabaseUnavailableMiddleware",
    # last, as django-axes asks: it turns a locked-out login into its lockout page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "league.urls"
WSGI_APPLICATION = "league.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "players.context_processors.player_register",
                "league.games.context_processors.game_tools",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # A referee and a table scorer may write at the same moment; wait rather than fail. A transaction
    # takes the write lock when it begins (IMMEDIATE): one that read first and wrote then would be
    # refused at once ("database is locked") instead of waiting, as two sign-ups at once were.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    # Tests get a file as well (one per test process), not Django's in-memory default: with an
    # in-memory database the live server's request threads share the test's one connection, so a
    # phone's heartbeat still being answered while a browser test ends broke the next tests'
    # database. With a file every thread has its own connection and waits for the lock, as here.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}

# PIN attempts and cached standings live here; several gunicorn workers must share
# them, so production points CACHE_URL at Redis.
CACHE_URL = env_str("CACHE_URL")
# A cache that is down must slow pages, not break them: league.cache_backend answers
# misses instead of raising, and /zdrowie/ reports it.
CACHES = {
    "default": {"BACKEND": "league.cache_backend.ForgivingRedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A table phone's page reports to the server every this many seconds while it is open (its
# heartbeat); the control room shows a table whose phones were silent for 3 of them as offline.
TABLE_HEARTBEAT_SECONDS = 20

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Brute-force protection: five wrong passwords for one account from one address
# lock that pair out for 15 minutes (django-axes keeps the count in the database,
# so it holds across gunicorn workers).
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind a reverse proxy every client has the proxy's address. Only a connection from one of
# these addresses may name the client in X-Forwarded-For (league.net.client_ip); without
# the setting the header is ignored, so nobody can choose the address they are counted under.
TRUSTED_PROXIES = env_list("BASKA_TRUSTED_PROXIES", "")
AXES_CLIENT_IP_CALLABLE = "league.net.client_ip"

# Uploads: a request body over 2.5 MB is refused before any view reads it, and an uploaded
# file (player list, exchange file, logo) over BASKA_UPLOAD_MAX_BYTES is refused by its form.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
BASKA_UPLOAD_MAX_BYTES = env_int("BASKA_UPLOAD_MAX_BYTES", 2 * 1024 * 1024)

# Batch prints lay out their pages in a process per usable CPU (league.printing.tasks.usable_cpus);
# BASKA_PRINT_PROCESSES caps that (0: no cap), e.g. to leave CPUs to the web processes.
BASKA_PRINT_PROCESSES = env_int("BASKA_PRINT_PROCESSES", 0)

# E-mail (the sign-ups' confirmations): printed to the console until EMAIL_HOST names an SMTP server.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "liga@localhost")
# RODO: days after a tournament its sign-ups keep their e-mail addresses and phone numbers
# (league.privacy.tasks erases them; docs/privacy.md).
BASKA_SIGNUP_CONTACT_DAYS = env_int("BASKA_SIGNUP_CONTACT_DAYS", 30)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "pl"
LANGUAGES = [("pl", "Polski"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# 05.12.2026 rather than Django's "5 grudnia 2026" (league/formats/pl)
FORMAT_MODULE_PATH = ["league.formats"]
TIME_ZONE = "Europe/Warsaw"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("DJANGO_MEDIA_ROOT") or VAR_DIR / "media")
# Static files go to phones in a hall, often on a weak network, so they are sent compressed and
# cached for good: collectstatic with the manifest storage writes every file under a name carrying a
# hash of its content, with a gzip (.gz) and a brotli (.br) copy beside it, and lists the names in
# STATIC_ROOT/staticfiles.json. With that manifest the pages link the hashed names and WhiteNoise,
# which serves them from this very process (no other server in the embedded mode or the image),
# answers them compressed as the browser accepts and "immutable" (a changed file gets a new name).
# Unset, DJANGO_STATIC_MANIFEST follows the manifest's presence, so the first collectstatic runs
# with it on (`make run` and the image do); "no" serves the files of static/ as they are, for a minute.
STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", (STATIC_ROOT / "staticfiles.json").is_file())
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Without the manifest WhiteNoise serves the files straight from the finders, so a checkout needs
# no collectstatic step; with DEBUG it does too, as the pages then link the names of static/.
WHITENOISE_USE_FINDERS = DEBUG or not STATIC_MANIFEST
# The fonts are read from disk by the PDF printing and never sent to a browser: compressing them
# would only triple collectstatic's time.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf")
WHITENOISE_AUTOREFRESH = DEBUG

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# Unset, tasks run eagerly in the web process; the in-memory transport only keeps
# Celery from looking for a broker on localhost.
CELERY_TASK_ALWAYS_EAGER = not env_str("CELERY_BROKER_URL")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "memory://")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# How long a web process reuses a tournament's standings stamp for the page it keeps ready
# for anonymous spectators (league.public.page_store): results reach them within this time.
STANDINGS_STAMP_SECONDS = 1

# Tasks outside an installed app's own tasks module (autodiscovery finds league.printing.tasks).
CELERY_IMPORTS = ("league.standings.tasks",)
# Celery beat (the deployed configuration's `beat` service) runs these; the embedded default has no
# beat: there `manage.py erase_signup_contacts` runs the same task (from cron, docs/privacy.md).
CELERY_BEAT_SCHEDULE = {
    "erase-signup-contacts": {"task": "league.privacy.erase_signup_contacts", "schedule": 24 * 60 * 60},
}

# Content-Security-Policy (django-csp): scripts only from our own static files or the few
# inline blocks that carry the per-response nonce; no plugins, no framing, no foreign fetches.
# Inline style attributes stay allowed: the templates use them for layout, and CSS cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

SESSION_COOKIE_HTTPONLY = True
# Sessions are read from the cache (Redis with CACHE_URL), signed, and kept in the database too,
# so a page costs no session query and a restarted cache logs nobody out.
SESSION_ENGINE = "league.sessions"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if env_bool("DJANGO_SECURE"):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A modest HSTS by default: subdomains and the browsers' preload list only when the
    # deployer says so, since both are hard to take back.
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 86400)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD")
    # The deploy check's nudges towards both flags are a choice made above, not an oversight.
    SILENCED_SYSTEM_CHECKS = [
        check
        for check, chosen in (("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS), ("security.W021", SECURE_HSTS_PRELOAD))
        if not chosen
    ]
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a refusal (403) is one line: the traceback of a permission check says nothing to the admin
    "filters": {"refusals_in_one_line": {"()": "league.errors.RefusalInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals_in_one_line"]}},
    "root": {"handlers": ["console"], "level": env_choice("DJANGO_LOG_LEVEL", "WARNING", LOG_LEVELS)},
    # kombu warns that the in-memory transport has no host name on every eager task
    "loggers": {"kombu.connection": {"level": "ERROR"}},
}
