"""Issue 22, item 12: admin logins are server-side sessions (a random id per login, an expiry,
a logout), each with its own CSRF token; the login form has CSRF too, and failed logins are
limited with a doubling wait."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from tests.serve.conftest import ADMIN
from tests.serve.helpers import admin_login, hidden
from wordgames.serve.adminauth import FREE_FAILURES
from wordgames.serve.db import Database
from wordgames.serve.models import AdminSession, utcnow


def _logged_in(client) -> bool:
    return 'id="studies"' in client.get("/admin").text


@pytest.mark.slow
def test_each_login_is_its_own_random_session(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    a, b = client(), client()
    admin_login(a, ADMIN)
    admin_login(b, ADMIN)
    ca, cb = a.cookies.get("wg_admin"), b.cookies.get("wg_admin")
    assert ca and cb and ca != cb  # before: the same HMAC of the token on every login
    assert ADMIN not in ca and _logged_in(a) and _logged_in(b)
    # each session has its own CSRF token: b's does not work for a
    csrf_a = hidden(a.get("/admin/s/omo").text, "csrf")
    csrf_b = hidden(b.get("/admin/s/omo").text, "csrf")
    assert csrf_a != csrf_b
    assert a.post("/admin/s/omo/measures", data={"csrf": csrf_b}).status_code == 403
    assert a.post("/admin/s/omo/measures", data={"csrf": csrf_a}).status_code in (200, 303)


def test_logout_ends_the_session_and_its_cookie(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    admin_login(c, ADMIN)
    cookie = c.cookies.get("wg_admin")
    page = c.get("/admin").text
    assert 'id="logout"' in page
    r = c.post("/admin/logout", data={"csrf": hidden(page, "csrf")}, follow_redirects=False)
    assert r.status_code == 303
    assert not _logged_in(c)
    replay = client()
    replay.cookies.set("wg_admin", cookie, path="/admin")  # the old cookie, replayed
    assert not _logged_in(replay)
    assert replay.get("/admin/s/omo/export.zip").status_code == 403


def test_an_expired_session_is_refused(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    admin_login(c, ADMIN)
    assert _logged_in(c)
    db = Database(db_url)
    try:
        with db.write() as s:
            s.execute(update(AdminSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    finally:
        db.dispose()
    assert not _logged_in(c)


def test_the_login_form_has_csrf(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    c.get("/admin")  # the nonce cookie, but no token from the page
    r = c.post("/admin/login", data={"token": ADMIN}, follow_redirects=False)
    assert r.status_code == 403 and not _logged_in(c)
    other = client()
    page = other.get("/admin").text  # a token of another browser's form
    r = c.post("/admin/login", data={"token": ADMIN, "csrf": hidden(page, "csrf")})
    assert r.status_code == 403 and not _logged_in(c)


def test_failed_logins_wait_twice_as_long_each_time(app_for, db_url):
    app, client = app_for(db_url, slugs=["omo"])
    limiter = app.state.admin_limiter
    now = [1000.0]
    limiter.clock = lambda: now[0]
    c = client()
    for _ in range(FREE_FAILURES):
        assert admin_login(c, "wrong").status_code == 403
    assert admin_login(c, "wrong").status_code == 403  # the first that costs a wait (1 s)
    r = admin_login(c, ADMIN)  # even the right token waits
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and not _logged_in(c)
    now[0] += 1.01
    assert admin_login(c, "wrong").status_code == 403  # the wait is now 2 s
    now[0] += 1.5
    assert admin_login(c, ADMIN).status_code == 429
    now[0] += 0.6
    assert admin_login(c, ADMIN).status_code == 200 and _logged_in(c)
    assert limiter.wait("testclient") == 0  # a success clears the count
