"""Settings come from the environment (CONTRACT §4), and the production settings pass
``manage.py check --deploy``. Each case runs Django in a fresh subprocess with exactly that
environment, so nothing of this test process leaks in.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# what the suite's own lanes set; a subprocess must start from none of it
LANE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "TURNFRAME_TEST_POSTGRES", "TURNFRAME_TEST_REDIS",
                  "TURNFRAME_TEST_DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")

DUMP = textwrap.dedent("""
    import json
    import django
    from django.conf import settings
    django.setup()
    db = settings.DATABASES["default"]
    print(json.dumps({
        "db": {k: db.get(k) for k in ("ENGINE", "NAME", "USER", "HOST", "PORT", "OPTIONS")},
        "layer": settings.CHANNEL_LAYERS["default"],
        "turnframe": settings.TURNFRAME,
        "debug": settings.DEBUG,
        "allowed_hosts": settings.ALLOWED_HOSTS,
        "login_limits": {"enabled": settings.AXES_ENABLED, "limit": settings.AXES_FAILURE_LIMIT,
                         "lockout_s": settings.AXES_COOLOFF_TIME.total_seconds(),
                         "proxies": settings.TRUSTED_PROXY_COUNT},
    }, default=str))
""")


def clean_env(**variables: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LANE_VARIABLES and not k.startswith("TURNFRAME_")}
    return env | {"DJANGO_SETTINGS_MODULE": "turnframe_web.settings"} | variables


def run(args: list[str], **variables: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean_env(**variables), capture_output=True,
                          text=True, timeout=120)


def settings_under(**variables: str) -> dict:
    result = run(["-c", DUMP], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_env(**more: str) -> dict[str, str]:
    return {"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "turnframe.example.com"} | more


# --------------------------------------------------------------------------- check --deploy


def test_production_settings_pass_check_deploy_without_warnings():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_with_postgres_and_redis_pass_check_deploy():
    env = production_env(DATABASE_URL="postgres://postgres@127.0.0.1:5432/turnframe",
                         REDIS_URL="redis://127.0.0.1:6379/0")
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_does_flag_the_development_defaults():
    result = run(["manage.py", "check", "--deploy"])
    assert "security.W018" in result.stdout + result.stderr  # DEBUG on: the check is not vacuous


@pytest.mark.parametrize(("variables", "check"), [
    ({"TURNFRAME_LOGIN_FAILURE_LIMIT": "0"}, "turnframe.W001"),
    ({"TURNFRAME_TOKEN_TTL_DAYS": "0"}, "turnframe.W002"),
    ({"ALLOWED_HOSTS": "localhost,127.0.0.1"}, "turnframe.W003"),
])
def test_check_deploy_flags_our_development_only_settings(variables, check):
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production_env(**variables))
    assert result.returncode != 0 and check in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run(["manage.py", "check"], DEBUG="0", ALLOWED_HOSTS="turnframe.example.com")
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_production_turns_on_secure_cookies_and_hsts():
    probe = ("import django; from django.conf import settings; django.setup(); "
             "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, settings.SECURE_SSL_REDIRECT, "
             "settings.SECURE_HSTS_SECONDS > 0, settings.DEBUG)")
    result = run(["-c", probe], **production_env())
    assert result.stdout.split() == ["True", "True", "True", "True", "False"], result.stderr


# --------------------------------------------------------------------------- parsing the environment


def test_the_defaults_are_sqlite_in_wal_mode_and_an_in_memory_layer():
    s = settings_under()
    assert s["db"]["ENGINE"] == "django.db.backends.sqlite3" and s["db"]["NAME"].endswith("db.sqlite3")
    options = s["db"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"] and "synchronous=NORMAL" in options["init_command"]
    assert s["layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    t = s["turnframe"]
    assert (t["MODE"], t["PROVIDER"], t["FALLBACK_PROVIDER"], t["SCRIPT"]) == ("controlled_agentic", "local", None,
                                                                               None)
    assert (t["MAX_ROUNDS"], t["MAX_CALLS"], t["MAX_MESSAGE_CHARS"]) == (4, 8, 4000)
    assert t["DEMO_PASSWORD"] == "turnframe-demo" and t["APPROVER_URL"] is None
    assert s["debug"] is True


def test_database_url_selects_postgresql_and_redis_url_the_redis_layer():
    s = settings_under(DATABASE_URL="postgres://tf:secret@db.internal:5433/turnframe",
                       REDIS_URL="redis://cache.internal:6380/2")
    assert s["db"]["ENGINE"] == "django.db.backends.postgresql"
    assert (s["db"]["NAME"], s["db"]["USER"], s["db"]["HOST"], int(s["db"]["PORT"])) == (
        "turnframe", "tf", "db.internal", 5433)
    assert "transaction_mode" not in (s["db"]["OPTIONS"] or {})
    assert s["layer"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    (host,) = s["layer"]["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache.internal:6380/2"


def test_every_turnframe_variable_is_read():
    s = settings_under(TURNFRAME_MODE="deterministic", TURNFRAME_PROVIDER="scripted",
                       TURNFRAME_FALLBACK_PROVIDER="local", TURNFRAME_SCRIPT="/tmp/script.json",
                       TURNFRAME_MODEL="gpt-x", TURNFRAME_MAX_ROUNDS="2", TURNFRAME_MAX_CALLS="3",
                       TURNFRAME_MAX_MESSAGE_CHARS="100", TURNFRAME_DEMO_PASSWORD="hunter22",
                       TURNFRAME_APPROVER_URL="https://approver.example/api/approvals",
                       TURNFRAME_APPROVER_TIMEOUT_S="2.5")
    t = s["turnframe"]
    assert (t["MODE"], t["PROVIDER"], t["FALLBACK_PROVIDER"], t["SCRIPT"], t["MODEL"]) == (
        "deterministic", "scripted", "local", "/tmp/script.json", "gpt-x")
    assert (t["MAX_ROUNDS"], t["MAX_CALLS"], t["MAX_MESSAGE_CHARS"], t["DEMO_PASSWORD"]) == (2, 3, 100, "hunter22")
    assert (t["APPROVER_URL"], t["APPROVER_TIMEOUT_S"]) == ("https://approver.example/api/approvals", 2.5)


def test_the_sign_in_limits_come_from_the_environment():
    assert settings_under()["login_limits"] == {"enabled": True, "limit": 5, "lockout_s": 900, "proxies": 0}
    assert settings_under(TURNFRAME_LOGIN_FAILURE_LIMIT="10", TURNFRAME_LOGIN_LOCKOUT_MINUTES="2.5",
                          TURNFRAME_TRUSTED_PROXY_COUNT="1")["login_limits"] == {
        "enabled": True, "limit": 10, "lockout_s": 150, "proxies": 1}
    assert settings_under(TURNFRAME_LOGIN_FAILURE_LIMIT="0")["login_limits"]["enabled"] is False


def test_the_redis_layer_reads_for_longer_than_its_blocking_pop_so_idle_sockets_live():
    """channels_redis waits on an idle socket with a blocking pop of ``brpop_timeout`` (5 s); a socket
    timeout no longer than that closes every idle socket (1011). 0 means no socket timeout at all."""
    from channels_redis.core import RedisChannelLayer

    pop = RedisChannelLayer.brpop_timeout
    (host,) = settings_under(REDIS_URL="redis://cache.internal:6379/0")["layer"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] == 30 > pop and host["socket_keepalive"] is True
    (host,) = settings_under(REDIS_URL="redis://r:6379/0", TURNFRAME_REDIS_SOCKET_TIMEOUT_S="3")["layer"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] > pop
    (host,) = settings_under(REDIS_URL="redis://r:6379/0", TURNFRAME_REDIS_SOCKET_TIMEOUT_S="0")["layer"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] is None


def test_the_token_lifetime_comes_from_the_environment():
    assert settings_under()["turnframe"]["TOKEN_TTL_DAYS"] == 30
    assert settings_under(TURNFRAME_TOKEN_TTL_DAYS="0")["turnframe"]["TOKEN_TTL_DAYS"] == 0


def test_a_sqlite_database_url_keeps_wal_and_the_busy_timeout(tmp_path):
    path = tmp_path / "other.sqlite3"
    probe = textwrap.dedent("""
        import django
        from django.conf import settings
        django.setup()
        from django.db import connection
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            print(settings.DATABASES["default"]["NAME"], cursor.fetchone()[0])
    """)
    result = run(["-c", probe], DATABASE_URL=f"sqlite:///{path}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(path), "wal"]


# --------------------------------------------------------------------------- the Redis channel layer


def _redis_url() -> str:
    return os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def _redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def _skip_without_redis() -> None:
    if not os.environ.get("REDIS_URL") and not _redis_reachable():
        reason = "Redis is not reachable at 127.0.0.1:6379 (and REDIS_URL is not set)"
        print(f"\nSKIP: {reason}")
        pytest.skip(reason)


@pytest.fixture
def redis_layer():
    _skip_without_redis()
    from channels_redis.core import RedisChannelLayer

    return RedisChannelLayer(hosts=[_redis_url()], prefix=f"turnframe-test-{uuid.uuid4().hex[:8]}")


async def test_the_redis_layer_round_trips_a_group_message(redis_layer):
    channel = await redis_layer.new_channel()
    await redis_layer.group_add("conversation.cnv_TEST", channel)
    await redis_layer.group_send("conversation.cnv_TEST", {"type": "stream.event", "event": {"seq": 1}})
    message = await asyncio.wait_for(redis_layer.receive(channel), timeout=5)
    assert message == {"type": "stream.event", "event": {"seq": 1}}
    await redis_layer.group_discard("conversation.cnv_TEST", channel)
    await redis_layer.flush()


async def test_another_process_reaches_this_one_through_redis(redis_layer):
    """The point of the Redis layer: a turn run in one process streams to sockets held by another."""
    channel = await redis_layer.new_channel()
    group = f"conversation.cnv_{uuid.uuid4().hex[:8]}"
    await redis_layer.group_add(group, channel)
    sender = textwrap.dedent(f"""
        from asgiref.sync import async_to_sync
        from channels_redis.core import RedisChannelLayer
        layer = RedisChannelLayer(hosts=[{_redis_url()!r}], prefix={redis_layer.prefix!r})
        async_to_sync(layer.group_send)({group!r}, {{"type": "stream.event", "event": {{"type": "turn.started"}}}})
    """)
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", sender, cwd=ROOT, env=clean_env())
    assert await asyncio.wait_for(process.wait(), timeout=60) == 0
    message = await asyncio.wait_for(redis_layer.receive(channel), timeout=5)
    assert message["event"] == {"type": "turn.started"}
    await redis_layer.flush()


async def test_the_configured_layer_is_redis_in_the_redis_lane():
    if not (os.environ.get("TURNFRAME_TEST_REDIS") == "1" or os.environ.get("REDIS_URL")):
        pytest.skip("the Redis lane runs with TURNFRAME_TEST_REDIS=1 or REDIS_URL")
    _skip_without_redis()
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add("conversation.cnv_LANE", channel)
    await layer.group_send("conversation.cnv_LANE", {"type": "stream.event", "event": {"seq": 7}})
    assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["event"] == {"seq": 7}
    await layer.group_discard("conversation.cnv_LANE", channel)


async def test_the_configured_redis_layer_keeps_waiting_past_its_pop_timeout():
    """The layer exactly as the settings build it, on a real Redis: a receive that waits 12 s (two
    blocking pops and more) gets its message instead of a TimeoutError."""
    _skip_without_redis()
    from channels_redis.core import RedisChannelLayer

    config = settings_under(REDIS_URL=_redis_url())["layer"]["CONFIG"]
    layer = RedisChannelLayer(hosts=config["hosts"], prefix=f"turnframe-idle-{uuid.uuid4().hex[:8]}")
    channel = await layer.new_channel()

    async def later():
        await asyncio.sleep(12)
        await layer.send(channel, {"type": "stream.event", "event": {"seq": 1}})

    sender = asyncio.create_task(later())
    try:
        assert (await asyncio.wait_for(layer.receive(channel), timeout=30))["event"] == {"seq": 1}
    finally:
        await sender
        await layer.flush()
