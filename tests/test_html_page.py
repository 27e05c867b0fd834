"""The HTML replay page in a real headless Chromium: it loads offline, seeks, follows its address,
filters, jumps to causes, compares two runs, says what Python's narration and diagnosis say, keeps
hostile text as text; the index of a run folder lists every result."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import test_llm_decentralized as talk
from conftest import need_paracook
from test_llm_runner import result_of
from test_render import make_replay, small_level, small_plan

from game.cli import main
from game.engine import parse_plan, simulate
from game.engine.items import cooking_progress
from game.engine.narration import narrate
from game.html import export_html
from game.html.page import embedded_json
from game.replay import ReplayError, load_replay, save_replay
from game.ui.render.gantt import span_lines
from game.ui.screens.compare import first_divergence, metric_differences

talk_server = talk.talk_server  # a scripted LLM server on 127.0.0.1, through the real openai client
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module, and one browser context (1440x900) in it: each Page is a new
    tab of that context (the pages keep nothing, no cookies nor storage, that another could see):
    a context of its own per page costs the browser more."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason='Playwright is not installed: pip install -e ".[test]"'
    )
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b.new_context(viewport={"width": 1440, "height": 900})
        b.close()


class Page:
    """A page opened from file:// in a new tab, with every request and script error it made."""

    def __init__(self, browser, path: Path, fragment: str = ""):
        self.page = browser.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.resolve().as_uri() + fragment)
        self.wait_ready()

    def __getattr__(self, name):
        return getattr(self.page, name)

    def t(self) -> float:
        return self.page.evaluate("window.paracook.view.t")

    def shot(self, selector: str = "#kitchen0") -> bytes:
        return self.page.locator(selector).screenshot()

    def becomes(self, expression: str, check, tries: int = 500) -> bool:
        """Whether the expression's value passes check within a few seconds (polled from here:
        the page's content security policy forbids the eval that wait_for_function needs)."""
        for _ in range(tries):
            if check(self.page.evaluate(expression)):
                return True
            self.page.wait_for_timeout(20)
        return False

    def wait_ready(self) -> None:
        assert self.becomes("document.body && document.body.dataset.ready", lambda v: v == "1"), self.errors

    def hash_becomes(self, check) -> bool:
        """The page writes the address a moment after the clock stops."""
        return self.becomes("location.hash", check)

    def texts(self, selector: str) -> list[str]:
        return self.page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")


@pytest.fixture
def failed_page(tmp_path):
    path, replay = make_replay(tmp_path, failed=True)
    out = tmp_path / "failed.html"
    export_html([replay], out, [str(path)])
    return out, replay


def test_the_page_loads_offline_without_a_single_network_request(browser, failed_page):
    out, _ = failed_page
    page = Page(browser, out)
    assert page.errors == []
    assert all(u.startswith(("file://", "data:")) for u in page.requests), page.requests
    assert page.requests[0] == out.resolve().as_uri()
    html = out.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html  # no CDN, nothing to fetch
    page.close()


def test_a_reloaded_page_draws_the_same_moment_again(browser, failed_page):
    """A reload finds the page's images loaded at once: they are drawn into the laid-out page."""
    out, _ = failed_page
    page = Page(browser, out, "#t=6")
    before = page.shot()
    page.reload()
    page.wait_ready()
    assert page.errors == [] and page.t() == 6 and page.shot() == before
    page.close()


def test_seeking_by_the_scrub_bar_and_keys_changes_the_clock_the_kitchen_and_the_address(
    browser, failed_page
):
    out, replay = failed_page
    page = Page(browser, out)
    assert page.t() == 0 and page.text_content("#clock") == "t = 0 / 10"
    before = page.shot()
    box = page.locator("#scrub .track").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
    assert page.t() == pytest.approx(5, abs=0.1)
    assert page.shot() != before
    assert page.hash_becomes(lambda h: h.startswith("#t=5"))  # the address follows within 0.1 s
    page.keyboard.press("End")
    assert page.t() == replay.timeline.end == 10 and page.text_content("#clock") == "t = 10 / 10"
    assert page.hash_becomes(lambda h: h == "#t=10")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")  # the first event
    assert page.t() == replay.timeline.times[1]
    # the marks: a served order (none here), the error, the likeliest cause, as the viewer marks them
    assert page.locator("#scrub .m-error").get_attribute("title") == "error at t = 10"
    cause = replay.result["diagnosis"]["causes"][0]
    assert page.locator("#scrub .m-cause").get_attribute("title") == f"cause at t = 6: {cause['text']}"
    assert page.locator("#scrub .m-served").count() == 0
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    assert page.text_content("#speed") == "16x"
    page.keyboard.press("Space")  # plays until the end of the run, then stops
    assert page.becomes("[window.paracook.view.t, window.paracook.view.playing]", lambda v: v == [10, False])
    assert page.text_content("#play") == "Play"
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()
    page.close()


def test_the_fragment_opens_a_moment_and_an_agent(browser, failed_page):
    out, _ = failed_page
    plain = Page(browser, out, "#t=6")
    assert plain.t() == 6 and plain.text_content("#clock") == "t = 6 / 10"
    picture = plain.shot()
    plain.keyboard.press("Home")  # the start, as a page opened without a fragment shows it
    assert plain.t() == 0 and plain.shot() != picture  # the fragment moved the kitchen
    agent = Page(browser, out, "#t=6&agent=agent2")
    assert agent.t() == 6 and agent.eval_on_selector("#agent-filter", "e => e.value") == "agent2"
    assert agent.shot() != picture  # agent2 is ringed
    shown = agent.eval_on_selector_all("#rows div:not(.hidden)", "els => els.map(e => e.textContent)")
    assert shown and all("agent2" in line for line in shown)
    cause = Page(browser, out, "#cause")
    assert cause.t() == 6  # the diagnosis's first cause
    for p in (plain, agent, cause):
        p.close()


def test_a_filter_shows_only_that_stations_events_and_python_counts_the_same(browser, failed_page):
    out, replay = failed_page
    page = Page(browser, out)
    story = narrate(replay.level, replay.timeline, replay.rules, replay.result["error_detail"])
    all_rows = len(page.texts("#rows div:not(.hidden)"))
    log_picture = page.shot("#rows")
    page.select_option("#station-filter", "chopping_board1")
    assert page.shot("#rows") != log_picture
    shown = page.texts("#rows div:not(.hidden)")
    expected = [e.sentence() for e in story.filtered(station="chopping_board1") if e.kind != "move"]
    assert shown == expected and len(shown) < all_rows
    page.close()


def test_go_to_cause_seeks_and_draws_what_the_link_to_that_moment_draws(browser, failed_page):
    out, replay = failed_page
    page = Page(browser, out, "#t=10")
    cause_t = replay.result["diagnosis"]["causes"][0]["t"]
    end_picture = page.shot()
    page.click("#why0 button.goto")
    assert page.t() == cause_t
    assert page.hash_becomes(lambda h: h == f"#t={cause_t}")
    moved = page.shot()
    assert moved != end_picture
    direct = Page(browser, out, f"#t={cause_t}")
    assert direct.shot() == moved
    assert page.locator("#rows .current").text_content().startswith(f"t = {cause_t} ")
    page.close()
    direct.close()


def test_the_pages_sentences_are_pythons(browser, failed_page):
    out, replay = failed_page
    page = Page(browser, out)
    page.check("#moves")
    story = narrate(replay.level, replay.timeline, replay.rules, replay.result["error_detail"])
    assert page.texts("#rows div") == [e.sentence() for e in story.events]
    diagnosis = replay.result["diagnosis"]
    assert page.text_content("#why0 .summary") == diagnosis["summary"]
    causes = [
        t.removeprefix("Why: ")
        for t in page.eval_on_selector_all("#why0 .cause", "els => els.map(e => e.firstChild.textContent)")
    ]
    assert causes == [c["text"] for c in diagnosis["causes"]]
    # the Gantt's hover text: the viewer's span_lines for the same bar
    for i, span in enumerate(replay.timeline.spans):
        if span.status == "rejected":
            continue
        x, y = page.evaluate(f"window.paracook.spanPoint(0, {i})")
        page.mouse.move(x, y)
        assert page.text_content("#tip") == "\n".join(span_lines(span, story)), span
    page.close()


def test_positions_and_cooking_follow_the_engine_between_events(browser, tmp_path):
    path, replay = make_replay(tmp_path)
    out = tmp_path / "ok.html"
    export_html([replay], out, [str(path)])
    page = Page(browser, out)
    tl = replay.timeline
    agents = list(replay.level.agent_names)
    times = [k / 4 for k in range(0, int(tl.end * 4) + 1)]
    # the page's answers for all the moments in one call, not a call (a round trip) per moment
    positions = page.evaluate(
        "ts => ts.map(t => [0, 1].map(a => window.paracook.positionAt(window.paracook.runs[0], a, t,"
        " window.paracook.frameAt(window.paracook.runs[0], t))))",
        times,
    )
    cooking = [t for t in times if (item := tl.state_at(t)["stations"]["stove1"]) and item.get("required")]
    fractions = page.evaluate(
        "ts => ts.map(t => { const r = window.paracook.runs[0];"
        " const k = r.stations.findIndex(s => s[0] === 'stove1');"
        " const ref = r.st[window.paracook.frameAt(r, t)][k];"
        " return window.paracook.cookFraction(r.items[ref][1], t, true); })",
        cooking,
    )
    assert cooking  # the run cooks: the fractions are compared at some moments
    for t, got in zip(times, positions, strict=True):
        assert got == [list(tl.position_at(a, t)) for a in agents], t
    for t, frac in zip(cooking, fractions, strict=True):
        done, required = cooking_progress(tl.state_at(t)["stations"]["stove1"], t, True)
        assert frac == pytest.approx(done / required), t
    page.close()


def test_hostile_text_stays_text(browser, tmp_path):
    level = small_level().replace(
        title='<script>window.pwned = 1</script><img src=x onerror="window.pwned=2">'
    )
    plan = parse_plan(small_plan(), level.agent_names)
    message = "</script><script>window.pwned = 3</script>\u2028&amp;"
    source = {
        "kind": "llm",
        "messages": [{"time": 1, "round": 1, "sender": "agent1", "receivers": ["agent2"], "text": message}],
    }
    path = save_replay(tmp_path / "evil.json", level, plan, simulate(level, plan), source)
    out = tmp_path / "evil.html"
    export_html([load_replay(path)], out, [str(path)])
    html = out.read_text(encoding="utf-8")
    assert "<script>window" not in html and "</script><script>" not in html and "\u2028" not in html
    page = Page(browser, out, "#t=5")
    assert page.evaluate("window.pwned") is None and page.errors == []
    assert page.text_content("h1") == level.title
    assert page.texts("#messages .msg div:last-child") == [f'"{message}"']
    page.close()


def test_embedded_json_escapes_what_could_end_the_script_element():
    text = embedded_json({"a": "</script><!-- & \u2028\u2029 >"})
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == {"a": "</script><!-- & \u2028\u2029 >"}


def test_two_runs_side_by_side_jump_to_their_first_divergence(browser, tmp_path):
    a_path, a = make_replay(tmp_path, failed=True)
    b_path, b = make_replay(tmp_path)
    out = tmp_path / "both.html"
    assert main(["export", str(a_path), str(b_path), str(out)]) == 0
    page = Page(browser, out)
    agents = list(a.level.agent_names)
    diverge = first_divergence(a.timeline, b.timeline, agents)
    assert diverge is not None and page.locator("#kitchen1").is_visible()
    assert page.texts("#differences div") == metric_differences(a.result, b.result, agents)
    assert page.locator("#scrub .m-diverge").count() == 1
    before = (page.shot("#kitchen0"), page.shot("#kitchen1"))
    page.click("#godiverge")
    assert page.t() == diverge
    after = (page.shot("#kitchen0"), page.shot("#kitchen1"))
    assert after[0] != before[0] and after[1] != before[1]
    page.keyboard.press("End")
    assert page.t() == max(a.timeline.end, b.timeline.end)
    page.close()


def test_export_refuses_a_hostile_replay_with_the_viewers_message(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["level"]["title"] = "<script>alert(1)</script>"  # edited after saving: the checksum fails
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    truncated = tmp_path / "cut.json"
    truncated.write_bytes(path.read_bytes()[:500])
    for broken in (bad, truncated):
        with pytest.raises(ReplayError) as viewer:
            load_replay(broken)
        out = tmp_path / f"{broken.stem}.html"
        assert main(["export", str(broken), str(out)]) == 2
        assert capsys.readouterr().err.strip() == f"error: {viewer.value}"
        assert not out.exists()


@pytest.fixture(scope="module")
def tutorial_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs") / "tutorial"
    assert (
        main(["solve", "--suite", "tutorial", "--out", str(folder), "--time-limit", "0.05", "--no-progress"])
        == 0
    )
    return folder


def test_the_index_of_a_run_folder_links_every_tasks_page(browser, tutorial_runs, tmp_path, capsys):
    site = tmp_path / "site"
    assert main(["report", str(tutorial_runs), "--by", "level", "--html", str(site)]) == 0
    results = sorted((tutorial_runs / "results").glob("*.json"))
    assert len(results) >= 5
    page = Page(browser, site / "index.html")
    links = page.eval_on_selector_all("#runs a", "els => els.map(a => a.getAttribute('href'))")
    assert len(links) == len(results) == page.locator("#runs tbody tr").count()
    tasks = page.eval_on_selector_all("#runs a", "els => els.map(a => a.textContent)")
    assert sorted(tasks) == sorted(json.loads(r.read_text())["task"]["id"] for r in results)
    for link in links:
        assert (site / link).is_file()  # every tutorial run was served: no #cause
    page.click("#runs a >> nth=0")
    assert page.becomes("window.paracook ? location.pathname : ''", lambda p: "/runs/" in p)
    page.wait_ready()
    assert page.locator("#kitchen0").is_visible() and page.errors == []
    page.close()


def test_the_index_filters_by_outcome_and_error_kind(browser, tmp_path, capsys):
    folder = tmp_path / "loose"
    make_replay(folder, failed=True)
    make_replay(folder)
    shutil.copy(folder / "ok.json", folder / "ok2.json")
    site = tmp_path / "site"
    assert main(["report", str(folder), "--dedupe", "all", "--html", str(site)]) == 0
    page = Page(browser, site / "index.html")
    assert page.locator("#runs tbody tr").count() == 3
    page.select_option("#filter-outcome", "failed")
    rows = page.texts("#runs tbody tr")
    assert len(rows) == 1 and "process_failed" in rows[0]
    assert page.text_content("#count") == "1 of 3 runs"
    page.click("#runs a")  # a failed run's page opens at its likeliest cause
    assert page.becomes("window.paracook ? window.paracook.view.t : null", lambda t: t == 6)
    page.go_back()
    assert page.becomes("document.getElementById('runs') ? 1 : 0", lambda v: v == 1)
    page.wait_ready()
    page.select_option("#filter-outcome", "")
    page.click("th[data-key=oct]")
    octs = page.eval_on_selector_all("#runs tbody tr td:nth-child(8)", "els => els.map(e => +e.textContent)")
    assert octs == sorted(octs) and octs[0] == 10
    page.close()


def test_the_viewers_why_box_and_the_pages_say_the_same(browser, tmp_path):
    """A same-instant conflict is only named once the plan is run again: the viewer and the page
    both show the run's own diagnosis, worked out with its plan."""
    import pygame
    from diagnosis_corpus import build, load_cases

    from game.ui.screens.replay import ReplayScreen

    case = next(c for c in load_cases() if c.id == "chef_and_prep_arrive_together")
    level, plan = build(case)
    path = save_replay(
        tmp_path / "clash.json", level, parse_plan(plan, level.agent_names), simulate(level, plan)
    )
    replay = load_replay(path)
    assert [c["kind"] for c in replay.result["diagnosis"]["causes"]][0] == "same_instant"
    pygame.init()
    pygame.display.set_mode((1440, 900))
    viewer = ReplayScreen(replay)
    out = tmp_path / "clash.html"
    export_html([replay], out, [str(path)])
    page = Page(browser, out, "#cause")
    need = page.text_content("#why0 .summary + div")
    causes = page.eval_on_selector_all("#why0 .cause", "els => els.map(e => e.firstChild.textContent)")
    assert [need, *(c.removeprefix("Why: ") for c in causes)] == viewer.diagnosis.lines()
    assert page.t() == viewer.diagnosis.jump
    page.close()


def test_an_unwritable_page_is_refused_with_a_message(tmp_path, capsys):
    path, _ = make_replay(tmp_path)
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    assert main(["export", str(path), str(blocker / "run.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {blocker / 'run.html'}: cannot write the page")


def test_a_failed_decentralized_llm_run_is_one_click_from_its_cause(browser, talk_server, tmp_path, capsys):
    """An LLM run folder (the chef never asks for the pan, so its Interact on table2 fails) as a
    site: the index says failed, its link opens the page at the cause, with the conversation."""
    chef = [*talk.chef_script(None), ("reply", talk.say(talk.CHEF_R3)), ("reply", talk.say(talk.CHEF_R3))]
    talk_server.script("You are agent1.", *chef)
    talk_server.script("You are agent2.", *talk.server_script())
    out = tmp_path / "run"
    # in a thread of its own: Playwright's sync API keeps an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(main, talk.talk_args(talk_server, out, [talk.PAN_LEVEL])).result() == 0
    r = result_of(out, "01_pan_across")
    replay = load_replay(out / r["replay"])
    site = tmp_path / "site"
    assert main(["report", str(out), "--html", str(site)]) == 0
    page = Page(browser, site / "index.html")
    (row,) = page.texts("#runs tbody tr")
    assert "failed" in row and r["error_detail"]["kind"] in row
    page.click("#runs a")
    cause = replay.result["diagnosis"]["causes"][0]["t"]
    assert page.becomes("window.paracook ? window.paracook.view.t : null", lambda t: t == cause)
    page.wait_ready()
    assert page.text_content("#why0 .summary") == replay.result["diagnosis"]["summary"]
    sent = [m for m in r["messages"] if m["time"] <= cause]
    assert (
        page.text_content("#messages h3")
        == f"Messages  {len(sent)} of {len(r['messages'])} sent by t = {cause:g}"
    )
    assert page.texts("#messages .msg div:last-child") == [f'"{m["text"]}"' for m in sent]
    page.keyboard.press("End")  # by the end every message was sent
    assert page.texts("#messages .msg div:last-child") == [f'"{m["text"]}"' for m in r["messages"]]
    assert r["messages"] and page.errors == []
    page.close()


def test_a_served_human_run_from_the_paper(browser, tmp_path):
    """A human plan of the ParaCook data, run and saved as a replay: served, no why box."""
    from game.report.files import paracook_level_of

    root = need_paracook()
    result_file = root / "human" / "sashimi" / "seed_126" / "agent_num_2" / "orders_num_2.json"
    human = json.loads(result_file.read_text(encoding="utf-8"))
    level = paracook_level_of(result_file, "sashimi/seed_126/agent_num_2/orders_num_2")
    plan = parse_plan(human["plan"], level.agent_names)
    result = simulate(level, plan)
    assert result.done and result.time == human["time"]
    path = save_replay(tmp_path / "human.json", level, plan, result, {"kind": "human", "player": "ParaCook"})
    out = tmp_path / "human.html"
    assert main(["export", str(path), str(out)]) == 0
    page = Page(browser, out, f"#t={human['time']}")
    assert page.text_content(".headline").startswith(f"Success: 2/2 orders served, OCT {human['time']}")
    assert page.locator("#why0").count() == 0 and page.locator("#scrub .m-served").count() == 2
    page.close()
