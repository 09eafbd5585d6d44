"""Sign-out ends the socket (issue 20, 6): signing out, revoking the token a socket signed in with, and a
password change close the sockets they ended with 4401, on one process and (the Redis lane) across
processes; a frame read after the credential ended is never run, even before the close arrives.

Each test connects through the full ASGI application of ``turnframe_web.asgi`` with an Origin, the
way a browser (session cookie) or an API client (``Authorization: Bearer``) does.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.utils import timezone

from conversations import consumers, signout
from conversations.auth import token_create
from conversations.models import ApiToken, Conversation, Turn
from conversations.services import demo_seed
from turnframe_web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://127.0.0.1:8000"
PASSWORD = "signout-test-password"
HELLO = {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}}
CLOSED_4401 = {"type": "websocket.close", "code": 4401}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def world(transactional_db):
    demo_seed(password=PASSWORD)
    User = get_user_model()
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    return {
        "alice": alice, "bob": bob,
        "alice_conversation": Conversation.objects.create(owner=alice, mode="controlled_agentic"),
        "alice_other_conversation": Conversation.objects.create(owner=alice, mode="controlled_agentic"),
        "bob_conversation": Conversation.objects.create(owner=bob, mode="controlled_agentic"),
    }


def signed_in(user) -> Client:
    """A browser signed in as ``user`` (its own session)."""
    client = Client()
    client.force_login(user)
    return client


async def socket(conversation, *, client: Client | None = None, token: str | None = None):
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", ORIGIN.encode())]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/conversations/{conversation.id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def still_open(communicator) -> bool:
    """Open and still running frames: a ping is answered with a pong."""
    await communicator.send_json_to({"type": "ping"})
    return (await communicator.receive_json_from(timeout=5))["type"] == "pong"


async def close(*communicators) -> None:
    await consumers.drain()
    for communicator in communicators:
        await communicator.disconnect()


def turns_of(conversation) -> int:
    return Turn.objects.filter(conversation=conversation).count()


# --------------------------------------------------------------------------- sign-out


@pytest.mark.parametrize("path", ["/logout/", "/api/auth/logout"])
async def test_signing_out_closes_the_sockets_of_that_session_with_4401(world, path):
    browser = await database_sync_to_async(signed_in)(world["alice"])
    first = await socket(world["alice_conversation"], client=browser)
    second = await socket(world["alice_other_conversation"], client=browser)
    assert await still_open(first) and await still_open(second)
    response = await database_sync_to_async(browser.post)(path)
    assert response.status_code in (200, 302)
    assert await first.receive_output(timeout=20) == CLOSED_4401
    assert await second.receive_output(timeout=20) == CLOSED_4401
    await close(first, second)


async def test_signing_out_on_one_device_leaves_the_others_sockets_open(world):
    laptop = await database_sync_to_async(signed_in)(world["alice"])
    phone = await database_sync_to_async(signed_in)(world["alice"])
    on_laptop = await socket(world["alice_conversation"], client=laptop)
    on_phone = await socket(world["alice_conversation"], client=phone)
    await database_sync_to_async(laptop.post)("/logout/")
    assert await on_laptop.receive_output(timeout=20) == CLOSED_4401
    assert await on_phone.receive_nothing(timeout=0.5)
    assert await still_open(on_phone)
    await close(on_laptop, on_phone)


async def test_the_sign_out_notice_closes_the_socket_although_its_session_is_not_deleted_yet(world):
    """Django sends ``user_logged_out`` before it deletes the session, and another process may take the
    notice at once: the notice names the ended session, so its sockets close without looking."""
    laptop = await database_sync_to_async(signed_in)(world["alice"])
    phone = await database_sync_to_async(signed_in)(world["alice"])
    on_laptop = await socket(world["alice_conversation"], client=laptop)
    on_phone = await socket(world["alice_conversation"], client=phone)
    await database_sync_to_async(signout.sockets_recheck)(user_ids=[world["alice"].pk],
                                                          ended_session=laptop.cookies["sessionid"].value)
    assert await on_laptop.receive_output(timeout=20) == CLOSED_4401
    assert await on_phone.receive_nothing(timeout=0.5)
    assert await still_open(on_phone)
    await close(on_laptop, on_phone)


async def test_a_message_sent_right_after_sign_out_is_not_run(world, script):
    """However the notice and the frame race, the frame is read after the session ended: no turn."""
    text = script("hello after signing out", HELLO)
    browser = await database_sync_to_async(signed_in)(world["alice"])
    communicator = await socket(world["alice_conversation"], client=browser)
    await database_sync_to_async(browser.post)("/logout/")
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "late"})
    assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(communicator)
    assert await database_sync_to_async(turns_of)(world["alice_conversation"]) == 0


@pytest.mark.parametrize("frame", ["message", "respond", "ping"])
async def test_a_frame_read_after_the_session_ended_is_refused_even_with_no_notice(world, script, frame):
    """The session is deleted behind the socket's back (no sign-out signal, so no notice comes): the next
    frame is not run and the socket closes with 4401."""
    text = script("hello from a dead session", HELLO)
    browser = await database_sync_to_async(signed_in)(world["alice"])
    communicator = await socket(world["alice_conversation"], client=browser)
    key = browser.cookies["sessionid"].value
    await database_sync_to_async(Session.objects.filter(session_key=key).delete)()
    await communicator.send_json_to({"message": {"type": "message", "text": text},
                                     "respond": {"type": "respond", "interaction": "int_x", "option": "confirm"},
                                     "ping": {"type": "ping"}}[frame])
    assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(communicator)
    assert await database_sync_to_async(turns_of)(world["alice_conversation"]) == 0


async def test_a_frame_read_after_the_session_expired_is_refused(world, script):
    text = script("hello from an expired session", HELLO)
    browser = await database_sync_to_async(signed_in)(world["alice"])
    communicator = await socket(world["alice_conversation"], client=browser)
    key = browser.cookies["sessionid"].value
    await database_sync_to_async(Session.objects.filter(session_key=key).update)(
        expire_date=timezone.now() - timezone.timedelta(seconds=1))
    await communicator.send_json_to({"type": "message", "text": text})
    assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(communicator)
    assert await database_sync_to_async(turns_of)(world["alice_conversation"]) == 0


async def test_a_socket_of_a_deactivated_user_runs_no_frame(world, script):
    text = script("hello while deactivated", HELLO)
    browser = await database_sync_to_async(signed_in)(world["alice"])
    communicator = await socket(world["alice_conversation"], client=browser)
    await database_sync_to_async(get_user_model().objects.filter(pk=world["alice"].pk).update)(is_active=False)
    await communicator.send_json_to({"type": "message", "text": text})
    assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(communicator)
    assert await database_sync_to_async(turns_of)(world["alice_conversation"]) == 0


# --------------------------------------------------------------------------- bearer tokens


async def test_a_socket_signs_in_with_a_bearer_token_and_runs_a_turn(world, script):
    text = script("hello over a token", HELLO)
    token, _ = await database_sync_to_async(token_create)(user=world["alice"])
    communicator = await socket(world["alice_conversation"], token=token)
    await communicator.send_json_to({"type": "message", "text": text})
    async with asyncio.timeout(15):
        while (event := await communicator.receive_json_from(timeout=15))["type"] != "turn.completed":
            pass
    assert event["turn"]["status"] == "completed"
    await close(communicator)


@pytest.mark.parametrize("header", ["Bearer tf_not_a_token", "Bearer ", "Basic YWxpY2U6cHc="])
async def test_a_socket_with_a_bad_authorization_header_is_closed_with_4401_despite_a_session(world, header):
    """A credential that fails signs in no one, also beside a good session cookie."""
    browser = await database_sync_to_async(signed_in)(world["alice"])
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", ORIGIN.encode()), (b"authorization", header.encode()),
               (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/conversations/{world['alice_conversation'].id}/",
                                         headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    assert await communicator.receive_output(timeout=20) == CLOSED_4401


async def test_a_token_socket_on_another_users_conversation_is_closed_with_4404(world):
    token, _ = await database_sync_to_async(token_create)(user=world["alice"])
    communicator = await socket(world["bob_conversation"], token=token)
    assert await communicator.receive_output(timeout=20) == {"type": "websocket.close", "code": 4404}


async def test_revoking_the_token_closes_the_socket_that_signed_in_with_it_and_no_other(world):
    revoked, _ = await database_sync_to_async(token_create)(user=world["alice"])
    kept, _ = await database_sync_to_async(token_create)(user=world["alice"])
    browser = await database_sync_to_async(signed_in)(world["alice"])
    on_revoked = await socket(world["alice_conversation"], token=revoked)
    on_kept = await socket(world["alice_conversation"], token=kept)
    on_session = await socket(world["alice_conversation"], client=browser)
    response = await database_sync_to_async(
        Client(headers={"Authorization": f"Bearer {revoked}"}).delete)("/api/auth/token")
    assert response.json() == {"revoked": 1}
    assert await on_revoked.receive_output(timeout=20) == CLOSED_4401
    assert await on_kept.receive_nothing(timeout=0.5) and await on_session.receive_nothing(timeout=0.1)
    assert await still_open(on_kept) and await still_open(on_session)
    await close(on_revoked, on_kept, on_session)


async def test_revoking_every_token_closes_every_token_socket_of_the_account(world):
    tokens = [(await database_sync_to_async(token_create)(user=world["alice"]))[0] for _ in range(2)]
    sockets = [await socket(world["alice_conversation"], token=t) for t in tokens]
    response = await database_sync_to_async(
        Client(headers={"Authorization": f"Bearer {tokens[0]}"}).delete)("/api/auth/token?all=true")
    assert response.json() == {"revoked": 2}
    for communicator in sockets:
        assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(*sockets)


async def test_a_frame_read_after_the_token_ended_is_refused_even_with_no_notice(world, script):
    """Revoked by a write that sends no notice (or the token simply expired): the frame is not run."""
    text = script("hello from a dead token", HELLO)
    token, row = await database_sync_to_async(token_create)(user=world["alice"])
    communicator = await socket(world["alice_conversation"], token=token)
    assert await still_open(communicator)
    await database_sync_to_async(ApiToken.objects.filter(pk=row.pk).update)(
        expires_at=timezone.now() - timezone.timedelta(seconds=1))
    await communicator.send_json_to({"type": "message", "text": text})
    assert await communicator.receive_output(timeout=20) == CLOSED_4401
    await close(communicator)
    assert await database_sync_to_async(turns_of)(world["alice_conversation"]) == 0


# --------------------------------------------------------------------------- password change


def change_password(user_id) -> None:
    user = get_user_model().objects.get(pk=user_id)
    user.set_password("a-brand-new-password")
    user.save()


async def test_a_password_change_closes_every_socket_of_the_account_and_no_one_elses(world):
    laptop = await database_sync_to_async(signed_in)(world["alice"])
    phone = await database_sync_to_async(signed_in)(world["alice"])
    token, _ = await database_sync_to_async(token_create)(user=world["alice"])
    bobs_browser = await database_sync_to_async(signed_in)(world["bob"])
    alices = [await socket(world["alice_conversation"], client=laptop),
              await socket(world["alice_other_conversation"], client=phone),
              await socket(world["alice_conversation"], token=token)]
    bobs = await socket(world["bob_conversation"], client=bobs_browser)
    await database_sync_to_async(change_password)(world["alice"].pk)
    for communicator in alices:
        assert await communicator.receive_output(timeout=20) == CLOSED_4401
    assert await bobs.receive_nothing(timeout=0.5)
    assert await still_open(bobs)
    await close(*alices, bobs)


async def test_the_password_change_page_closes_the_other_devices_sockets_and_keeps_its_own_session(world):
    """The admin's password change page (Django's ``PasswordChangeView``): the device that changed it stays
    signed in (its session is re-keyed) and may reconnect; the other device's socket closes."""
    staff = await database_sync_to_async(get_user_model().objects.get)(username="admin")
    conversation = await database_sync_to_async(Conversation.objects.create)(owner=staff, mode="controlled_agentic")
    laptop = await database_sync_to_async(signed_in)(staff)
    phone = await database_sync_to_async(signed_in)(staff)
    on_phone = await socket(conversation, client=phone)
    response = await database_sync_to_async(laptop.post)("/admin/password_change/", {
        "old_password": PASSWORD, "new_password1": "Changed-on-the-laptop-7", "new_password2": "Changed-on-the-laptop-7"})
    assert response.status_code == 302, response.content[:2000]
    assert await on_phone.receive_output(timeout=20) == CLOSED_4401
    on_laptop = await socket(conversation, client=laptop)  # the laptop's new session key
    assert await still_open(on_laptop)
    await close(on_phone, on_laptop)


# --------------------------------------------------------------------------- across processes (Redis lane)


def _redis_lane_or_skip() -> None:
    if "Redis" not in django_settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        pytest.skip("the Redis lane runs with TURNFRAME_TEST_REDIS=1 (Redis at 127.0.0.1:6379) or REDIS_URL")


def _other_process_env() -> dict[str, str]:
    """The environment of a second process of the same deployment: this test database, this Redis."""
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    if db["ENGINE"].endswith("postgresql"):
        env["TURNFRAME_TEST_POSTGRES"] = "1"
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        env["TURNFRAME_TEST_DATABASE_URL"] = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    else:
        env.pop("TURNFRAME_TEST_POSTGRES", None)
        env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    return env


OTHER_PROCESS = """
import sys
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
from conversations.auth import token_revoke
from conversations.models import ApiToken
setup_test_environment()
cookie, token_id = sys.argv[1], int(sys.argv[2])
browser = Client()
browser.cookies["sessionid"] = cookie
assert browser.post("/api/auth/logout").status_code == 200
assert token_revoke(tokens=ApiToken.objects.filter(pk=token_id), because="by_staff") == 1
print("done")
"""


async def test_a_sign_out_and_a_revocation_in_another_process_close_the_sockets_here(world):
    """A second process of the deployment (its own channel layer and Redis connections) signs the browser
    out and revokes the token; the sockets held by this process close with 4401 through Redis."""
    _redis_lane_or_skip()
    browser = await database_sync_to_async(signed_in)(world["alice"])
    token, row = await database_sync_to_async(token_create)(user=world["alice"])
    on_session = await socket(world["alice_conversation"], client=browser)
    on_token = await socket(world["alice_other_conversation"], token=token)
    assert await still_open(on_session) and await still_open(on_token)
    result = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", OTHER_PROCESS, browser.cookies["sessionid"].value, str(row.pk)],
        cwd=ROOT, env=_other_process_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "done" in result.stdout, result.stderr[-3000:]
    assert await on_session.receive_output(timeout=10) == CLOSED_4401
    assert await on_token.receive_output(timeout=10) == CLOSED_4401
    await close(on_session, on_token)
