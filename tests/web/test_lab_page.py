"""The lab page in a real browser (issue 27.6): a simulation started from the form and followed to
the end by the workers of `heirloom serve`, then the report: seat advantage with its interval, the
length histogram and the feature table, sortable; the Parquet downloads; the same report on a phone."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow


def test_a_simulation_from_the_lab_page_and_its_report(contexts, http, tmp_path):
    context, watch = contexts()
    page = context.new_page()
    page.goto("/ui/lab/adas_dream")
    form = page.get_by_test_id("simulate-form")
    form.locator("[name=players]").fill("2")
    form.locator("[name=bot-0]").select_option("random")
    form.locator("[name=bot-1]").select_option("random")
    form.locator("[name=games]").fill("8")
    form.get_by_role("button").click()
    progress = page.get_by_test_id("simulation-progress")
    expect(progress).to_be_visible()
    expect(progress).to_contain_text("8 of 8 games played (done)", timeout=120_000)
    expect(page.get_by_test_id("report-summary")).to_contain_text("8 finished games")
    chart = page.get_by_test_id("seat-advantage").locator("svg")
    expect(chart.locator("rect[data-seat]")).to_have_count(2)
    bars = page.get_by_test_id("length-histogram").locator("rect[data-games]")
    assert sum(int(bars.nth(i).get_attribute("data-games")) for i in range(bars.count())) == 8
    table = page.get_by_test_id("feature-impact")
    rows = table.locator("tbody tr")
    expect(rows.first).to_be_visible()
    table.get_by_role("button", name="Used (n)").click()
    counts = [int(rows.nth(i).locator("td").nth(1).text_content().split(" of ")[0]) for i in range(rows.count())]
    assert counts == sorted(counts, reverse=True)
    with page.expect_download() as download:
        page.get_by_test_id("download-games").click()
    assert download.value.suggested_filename == "adas_dream-games.parquet"
    page.screenshot(path=str(tmp_path / "lab-1280.png"))
    simulation = page.locator("#f-simulation").input_value()

    phone, phone_watch = contexts(390, 844)
    small = phone.new_page()
    small.goto("/ui/lab/adas_dream")
    small.locator("#f-simulation").fill(simulation)
    small.locator("#filters").get_by_role("button").click()
    expect(small.get_by_test_id("report-summary")).to_contain_text("8 finished games")
    expect(small.get_by_test_id("seat-advantage").locator("rect[data-seat]")).to_have_count(2)
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    small.screenshot(path=str(tmp_path / "lab-390.png"))
    watch.check()
    phone_watch.check()
