"""Settings, all from the environment (CONTRACT §4). Defaults are the embedded, no-network setup."""

from __future__ import annotations

import importlib.util
import os
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import TypedDict

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return default if value is None else [v.strip() for v in value.split(",") if v.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "django-insecure-turnframe-local-development-key-only-for-debug" if DEBUG else ""
)
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG=0")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",  # sign-in limits and lockout (below)
    "ninja",  # serves the OpenAPI docs from local static files (no CDN, CSP-clean)
    "registries",
    "conversations",
    "tools",  # development tools beside the engine (manage.py loadbench): commands only, no models, no URLs
]

# --- the domains this deployment serves: Django apps that register case kinds, acts and read tools through
# `registries` (the engine imports none of them). TURNFRAME_DOMAINS is a comma list of app labels, in
# order (the first one's words lead the page when a user has cases of several kinds); default: expenses.
TURNFRAME_DOMAINS = env_list("TURNFRAME_DOMAINS", ["expenses"])
if not TURNFRAME_DOMAINS:
    raise ImproperlyConfigured("TURNFRAME_DOMAINS names no domain app (e.g. TURNFRAME_DOMAINS=expenses,trips)")
INSTALLED_APPS += [domain for domain in TURNFRAME_DOMAINS if domain not in INSTALLED_APPS]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "turnframe_web.middleware.refuse_unstorable_urls",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "conversations.sessions.SessionAuthenticationMiddleware",  # Django's, with the user read with the session
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out sign-in into the 429 of conversations.auth
]

ROOT_URLCONF = "turnframe_web.urls"
ASGI_APPLICATION = "turnframe_web.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

# --- database: SQLite (WAL, IMMEDIATE, busy timeout) by default, anything dj-database-url reads otherwise
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
                                              conn_max_age=env_int("DB_CONN_MAX_AGE", 0))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # checkpoints run in a thread of each process (turnframe_web/sqlite.py); SQLite's own, on the commit that
        # crosses the threshold, only as a backstop
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                        " PRAGMA wal_autocheckpoint=20000;",
    }
    # each thread keeps its connection between requests and socket frames (DB_CONN_MAX_AGE unset): opening one
    # (the file, the PRAGMAs above, Django's SQL functions) cost about 1-2 ms, twice per message + click over
    # HTTP and four times over the socket (issue 23); the threads are bounded (HTTP_THREADS, TURN_THREADS), and
    # an idle SQLite connection outside a transaction holds no lock and no snapshot
    if "DB_CONN_MAX_AGE" not in os.environ:
        DATABASES["default"]["CONN_MAX_AGE"] = None
    # the test database is a file, one per test process: an in-memory SQLite database shared between
    # threads (double clicks, consumers) locks whole tables ("database table is locked")
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TURNFRAME_TEST_SQLITE_NAME") or str(
        Path(tempfile.gettempdir()) / f"turnframe-test-{os.getpid()}.sqlite3")}

# PostgreSQL: a connection pool per process (Django's psycopg pool), at most DB_POOL_MAX_SIZE connections
# (0 = no pool: one connection per thread, opened and closed per request). Threads that wait on a model
# give their connection back (readloop._complete), so the pool bounds what a process holds however many
# turns wait; a thread that finds the pool empty waits for one (DB_POOL_TIMEOUT_S) instead of meeting
# PostgreSQL's "too many clients". Persistent connections (DB_CONN_MAX_AGE) and a pool exclude each other.
DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 20)
if (DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX_SIZE > 0
        and not DATABASES["default"].get("CONN_MAX_AGE") and importlib.util.find_spec("psycopg_pool")):
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_MAX_SIZE), "max_size": DB_POOL_MAX_SIZE,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT_S", "60"))}

# the test suite's PostgreSQL lane (`TURNFRAME_TEST_POSTGRES=1`): the machines' local server
if env_bool("TURNFRAME_TEST_POSTGRES", False):
    DATABASES["default"] = dj_database_url.parse(
        os.environ.get("TURNFRAME_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"))
    # one test database per test process, so two runs on the same server do not drop each other's
    DATABASES["default"]["TEST"] = {"NAME": f"test_turnframe_{os.getpid()}"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer: in-memory by default, Redis when REDIS_URL is set
REDIS_URL = os.environ.get("REDIS_URL", "").strip() or (
    "redis://127.0.0.1:6379/0" if env_bool("TURNFRAME_TEST_REDIS", False) else "")
# An idle socket's consumer waits on the layer with a blocking pop of 5 s (channels_redis's BZPOPMIN);
# redis-py's default socket_timeout is 5 s too, so every idle socket died after ~5 s ("Timeout reading
# from …", closed 1011). The read may wait longer than the pop: 30 s by default, so a Redis that stops
# answering is still noticed (0 = wait for ever; anything shorter than 10 s is raised to 10 s).
REDIS_SOCKET_TIMEOUT_S = float(os.environ.get("TURNFRAME_REDIS_SOCKET_TIMEOUT_S", "30"))
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {
        "hosts": [{"address": REDIS_URL, "socket_keepalive": True,
                   "socket_timeout": max(REDIS_SOCKET_TIMEOUT_S, 10) if REDIS_SOCKET_TIMEOUT_S > 0 else None}],
        "prefix": os.environ.get("TURNFRAME_REDIS_PREFIX", "turnframe"),
        # channels_redis queues the messages of every socket of one process under ONE Redis key, and
        # group_send silently drops a message when that key holds `capacity` (default 100) already: a
        # hundred turns finishing at once on one process lost their turn.completed events (issue 11, 5)
        "capacity": env_int("TURNFRAME_REDIS_CAPACITY", 10_000)}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- sign-in limits (django-axes, its database handler): every failed sign-in on /api/auth/login,
# /api/auth/token, /login/ and /admin/login/ is counted per account and per client address; at the
# limit both are locked for the lockout time (each further failure restarts it) and answered 429
# ``rate_limited`` with Retry-After (conversations.auth.lockout_response). 0 turns the limit off.
LOGIN_FAILURE_LIMIT = env_int("TURNFRAME_LOGIN_FAILURE_LIMIT", 5)
AXES_ENABLED = LOGIN_FAILURE_LIMIT > 0
AXES_FAILURE_LIMIT = max(LOGIN_FAILURE_LIMIT, 1)
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("TURNFRAME_LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one reaching the limit locks
# a success does not wipe the count: it would also wipe the failures of the other accounts tried from
# that address, so an attacker with one account of their own could guess the others without limit
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "conversations.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "conversations.auth.client_address"
# behind N reverse proxies that append to X-Forwarded-For, the client is the Nth address from the right
TRUSTED_PROXY_COUNT = env_int("TURNFRAME_TRUSTED_PROXY_COUNT", 0)
AXES_VERBOSE = False
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    # validates nothing: Django tells it of every password change, and it revokes the account's API tokens
    {"NAME": "conversations.auth.RevokeTokensOnPasswordChange"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TZ_NAME", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

# --- security: strict CSP (no inline script), secure cookies when not debugging
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}
SESSION_COOKIE_HTTPONLY = True
# database sessions (Django's table), read by the store, a request's user with its session (conversations.sessions)
SESSION_ENGINE = "conversations.sessions"
CSRF_COOKIE_HTTPONLY = False  # the chat page reads it for X-CSRFToken
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Turnframe (CONTRACT §4)
# provider names -> factories (dotted paths), loaded like AUTHENTICATION_BACKENDS; add an entry to plug one in
TURNFRAME_PROVIDERS = {
    "local": "conversations.providers.registry.local_provider",
    "scripted": "conversations.providers.registry.scripted_provider",
    "openai": "conversations.providers.registry.openai_provider",
    "anthropic": "conversations.providers.registry.anthropic_provider",
}


class TurnframeSettings(TypedDict):
    """The type of each ``TURNFRAME`` key (its default and its comment are below, once): what mypy checks readers
    against. A key the code reads must be here (tests/test_settings_defaults.py)."""

    MODE: str
    PROVIDER: str
    FALLBACK_PROVIDER: str | None
    SCRIPT: str | None
    MODEL: str | None
    MAX_ROUNDS: int
    MAX_CALLS: int
    MAX_MESSAGE_CHARS: int
    MAX_QUEUED_MESSAGES: int
    TURN_LEASE_S: float
    LEASE_SWEEP: bool
    MAX_CONTEXT_CASES: int
    DEMO_PASSWORD: str
    CARD_TTL_MINUTES: float
    TOKEN_TTL_DAYS: float
    PROVIDER_TIMEOUT_S: float
    TURN_THREADS: int
    HTTP_THREADS: int
    MAX_WS_FRAME_BYTES: int
    WS_PING_S: float
    APPROVER_URL: str | None
    APPROVER_TIMEOUT_S: float
    OUTBOX_MAX_ATTEMPTS: int
    OUTBOX_RECONCILE_AFTER_S: float
    OUTBOX_SENDING_LEASE_S: float


TURNFRAME: TurnframeSettings = {
    "MODE": os.environ.get("TURNFRAME_MODE", "controlled_agentic"),
    "PROVIDER": os.environ.get("TURNFRAME_PROVIDER", "local"),
    "FALLBACK_PROVIDER": os.environ.get("TURNFRAME_FALLBACK_PROVIDER", "").strip() or None,
    "SCRIPT": os.environ.get("TURNFRAME_SCRIPT", "").strip() or None,
    "MODEL": os.environ.get("TURNFRAME_MODEL", "").strip() or None,
    "MAX_ROUNDS": env_int("TURNFRAME_MAX_ROUNDS", 4),
    "MAX_CALLS": env_int("TURNFRAME_MAX_CALLS", 8),
    "MAX_MESSAGE_CHARS": env_int("TURNFRAME_MAX_MESSAGE_CHARS", 4000),
    "MAX_QUEUED_MESSAGES": env_int("TURNFRAME_MAX_QUEUED_MESSAGES", 20),
    # a running turn's lease (conversations/turns/lease.py): renewed every third of it while the turn runs; a
    # process that stops without a word leaves its turns to the others this long after its last renewal
    "TURN_LEASE_S": float(os.environ.get("TURNFRAME_TURN_LEASE_S", "30")),
    # a served process recovers the turns whose lease expired (off: only `manage.py recover_turns` does)
    "LEASE_SWEEP": env_bool("TURNFRAME_LEASE_SWEEP", True),
    # the open cases a turn shows the model (and resolves names among): the active one and the most recently
    # changed, up to this many; a case beyond them is reached by a search read tool or its id
    "MAX_CONTEXT_CASES": env_int("TURNFRAME_MAX_CONTEXT_CASES", 50),
    "DEMO_PASSWORD": os.environ.get("TURNFRAME_DEMO_PASSWORD", "turnframe-demo"),
    # a card (Interaction) left unanswered this long expires: a click then answers 409 interaction_expired and
    # changes nothing (0: never; docs/security.md, *Cards*)
    "CARD_TTL_MINUTES": float(os.environ.get("TURNFRAME_CARD_TTL_MINUTES", "1440")),
    # bearer tokens expire this many days after they are issued (0: never)
    "TOKEN_TTL_DAYS": float(os.environ.get("TURNFRAME_TOKEN_TTL_DAYS", "30")),
    "PROVIDER_TIMEOUT_S": float(os.environ.get("TURNFRAME_PROVIDER_TIMEOUT_S", "60")),
    # per provider (README, *Real models*): a CPU-only local server can take minutes over a first call
    "OPENAI_TIMEOUT_S": float(os.environ.get("TURNFRAME_OPENAI_TIMEOUT_S", "0")) or None,
    "ANTHROPIC_TIMEOUT_S": float(os.environ.get("TURNFRAME_ANTHROPIC_TIMEOUT_S", "0")) or None,
    # the bound on one model answer (``max_tokens`` of every call): a runaway answer stops there, cut off
    "MODEL_MAX_TOKENS": env_int("TURNFRAME_MODEL_MAX_TOKENS", 1024),
    # how the OpenAI-compatible adapter first asks for the answer's shape: json_schema (default), json_object or
    # none; it steps down by itself when a server refuses one (conversations/providers/openai_provider.py)
    "OPENAI_RESPONSE_FORMAT": os.environ.get("TURNFRAME_OPENAI_RESPONSE_FORMAT", "").strip() or None,
    # the threads a process runs socket turns on (conversations.consumers); a turn waiting on a model holds
    # one thread but no database connection, so this bounds how many turns of one process wait at once
    "TURN_THREADS": env_int("TURNFRAME_TURN_THREADS", 200),
    # the threads a process serves HTTP requests on, each request whole on one (turnframe_web/handler.py): an
    # HTTP message holds its thread for its whole turn, model included, so as wide as the turns' pool
    "HTTP_THREADS": env_int("TURNFRAME_HTTP_THREADS", 200),
    "MAX_WS_FRAME_BYTES": env_int("TURNFRAME_MAX_WS_FRAME_BYTES", 64_000),
    # the chat page's keep-alive: a `ping` frame this often on an open socket, answered by `pong`
    "WS_PING_S": float(os.environ.get("TURNFRAME_WS_PING_S", "25")),
    # the outbox (SPEC §19): the approver system's URL; unset = the built-in local approver
    "APPROVER_URL": os.environ.get("TURNFRAME_APPROVER_URL", "").strip() or None,
    "APPROVER_TIMEOUT_S": float(os.environ.get("TURNFRAME_APPROVER_TIMEOUT_S", "10")),
    "OUTBOX_MAX_ATTEMPTS": env_int("TURNFRAME_OUTBOX_MAX_ATTEMPTS", 20),
    "OUTBOX_RECONCILE_AFTER_S": float(os.environ.get("TURNFRAME_OUTBOX_RECONCILE_AFTER_S", "30")),
    "OUTBOX_SENDING_LEASE_S": float(os.environ.get("TURNFRAME_OUTBOX_SENDING_LEASE_S", "300")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}, "daphne": {"level": "WARNING"},
                "axes": {"level": "WARNING"}},  # failures and lockouts, not every step
}
