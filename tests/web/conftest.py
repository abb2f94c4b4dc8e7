"""Fixtures of the browser tests: a real `heirloom serve` on a free port against the real
Redis (its own key prefix), and Chromium driven by Playwright for Python.

The browser is Debian's `/usr/bin/chromium` (or Playwright's own Chromium when installed).
With `CI=true` a missing browser fails the run; elsewhere the browser tests are skipped
with the reason. One server and one browser per test module keep the suite quick.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import redis

from domain.eventstore.admin import delete_prefix
from tests.support.api_fixtures import *  # noqa: F403  (fixtures for the HTTP-level page tests)
from tests.support.api_server import RunningServer, server_env
from tests.support.redis_fixtures import find_redis_url, new_prefix

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def no_browser(reason: str):
    if in_ci():
        pytest.fail(f"CI=true and no browser for the page tests: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


@pytest.fixture(scope="module")
def playwright_instance():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        no_browser(f"Playwright for Python is not installed ({error})")
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright_instance):
    options = {"args": BROWSER_ARGS}
    if Path(CHROMIUM).exists():
        options["executable_path"] = CHROMIUM
    try:
        browser = playwright_instance.chromium.launch(**options)
    except Exception as error:  # no Debian chromium and no Playwright browser download
        no_browser(f"Chromium does not start ({str(error).splitlines()[0]}); install the `chromium` package")
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def web_server():
    """`heirloom serve` in its own process on the real Redis, under a prefix of its own."""
    url = find_redis_url()
    prefix = new_prefix()
    with RunningServer(server_env(REDIS_URL=url, REDIS_KEY_PREFIX=prefix)) as server:
        yield server
    client = redis.Redis.from_url(url)
    try:
        delete_prefix(client, prefix)
    finally:
        client.close()


@pytest.fixture(scope="module")
def http(web_server):
    with httpx.Client(base_url=web_server.url, timeout=30) as client:
        yield client


class Watch:
    """What a browser context did that a test forbids: requests to another origin, console
    errors and uncaught exceptions (the expected ones can be excused by substring)."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.foreign: list[str] = []
        self.requested: list[str] = []
        self.errors: list[str] = []

    def attach(self, context) -> None:
        def on_request(request) -> None:
            parts = urlsplit(request.url)
            self.requested.append(request.url)
            if parts.scheme in ("data", "blob", "about"):
                return
            if f"{parts.scheme}://{parts.netloc}" != self.origin:
                self.foreign.append(request.url)

        context.on("request", on_request)
        context.on("page", lambda page: self.watch_page(page))

    def watch_page(self, page) -> None:
        page.on("console", lambda message: message.type == "error" and self.errors.append(
            f"{page.url}: {message.text}"))
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))

    def check(self, excused: tuple[str, ...] = ()) -> None:
        assert not self.foreign, f"requests to another origin: {self.foreign}"
        errors = [e for e in self.errors if not any(text in e for text in excused)]
        assert not errors, f"console errors: {errors}"


@pytest.fixture
def contexts(browser, web_server):
    """`new_context(width=1280, height=800)` -> (context, watch); all checked and closed after."""
    made = []

    def new_context(width: int = 1280, height: int = 800):
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=web_server.url)
        context.set_default_timeout(10_000)
        watch = Watch(web_server.url)
        watch.attach(context)
        made.append((context, watch))
        return context, watch

    yield new_context
    for context, _ in made:
        context.close()
