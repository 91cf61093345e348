"""The first game (/learn/): every step can be passed by its expected action, a wrong
one is refused with an explanation and changes nothing, the explanation's points are the
rules' own, the pages are translated, and hostile input is refused without an error."""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import translation

import rules
from games.boardview import Draft
from learn.lessons import STEPS, Step
from tests.i18n.words import words
from tests.pages import HTMX, turn_fields

pytestmark = pytest.mark.django_db


def _fields(turn: rules.Turn) -> dict[str, object]:
    fields = turn_fields(0, turn)
    del fields["round"]
    return fields


def _url(step: Step) -> str:
    return reverse("learn:step", args=[step.number])


def _explanation(html: str) -> str:
    found = re.search(r'data-testid="explanation"[^>]*>(.*?)</div>', html, re.S)
    assert found is not None
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def _wrong_turn(step: Step) -> rules.Turn:
    """A legal turn that does not pass the step: the first the rules list."""
    return next(
        t for t in step.board.iter_turns(step.card, step.variants) if not step.judge(t).passed
    )


def test_every_step_is_passed_by_its_expected_action_up_to_the_finish_page(client: Client) -> None:
    response = client.get(reverse("learn:index"))
    assert response.status_code == 200
    start = reverse("learn:step", args=[1])
    assert f'href="{start}"' in response.content.decode()
    for step in STEPS:
        page = client.get(_url(step)).content.decode()
        assert f"Step {step.number} of {len(STEPS)}" in page
        assert str(step.title) in page
        response = client.post(_url(step), _fields(step.expected))
        assert response.status_code == 200
        html = response.content.decode()
        assert _explanation(html).startswith("Right!"), _explanation(html)
        assert 'data-testid="next"' in html
    # Progress is in a signed cookie, not a session row.
    assert client.cookies["learn_passed"]["samesite"] == "Lax"
    assert client.cookies["learn_passed"]["httponly"]
    assert "learn_passed" not in client.session
    # The last step's "Finish" leads to the finish page, which counts every step done.
    finish = client.get(reverse("learn:finish")).content.decode()
    assert f"Steps done: {len(STEPS)} of {len(STEPS)}." in finish
    assert f'href="{reverse("puzzles:index")}"' in finish
    assert "You have played the first game" in finish
    overview = client.get(reverse("learn:index")).content.decode()
    assert overview.count('data-testid="passed"') == len(STEPS)
    assert f'href="{reverse("learn:finish")}" data-testid="start"' in overview


def test_a_signed_in_player_learns_the_same_way(client_logged_in: Client) -> None:
    step = STEPS[0]
    response = client_logged_in.post(_url(step), _fields(step.expected), **HTMX)
    assert _explanation(response.content.decode()).startswith("Right!")
    overview = client_logged_in.get(reverse("learn:index")).content.decode()
    assert f'href="{_url(STEPS[1])}" data-testid="start"' in overview


@pytest.mark.parametrize("step", STEPS, ids=lambda s: str(s.number))
def test_a_wrong_action_is_refused_with_an_explanation_and_the_step_stays(
    client: Client, step: Step
) -> None:
    response = client.post(_url(step), _fields(_wrong_turn(step)), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    explanation = _explanation(html)
    assert explanation.startswith("Not yet.") and len(explanation) > 40
    # The learner's card stays where they put it, to be turned or moved: no "Next step".
    assert 'data-testid="commit"' in html and 'data-testid="next"' not in html
    assert "card--draft" in html
    wrong = Draft.from_turn(_wrong_turn(step))
    assert response["HX-Replace-Url"] == f"{_url(step)}?{wrong.params()}"
    assert "learn_passed" not in client.cookies


def test_the_refusal_names_what_is_wrong() -> None:
    farmer = STEPS[1]
    no_worker = rules.Turn(farmer.expected.placement, None)
    assert "place a worker" in farmer.judge(no_worker).explanation
    tower_zone = next(
        point
        for point, zone in farmer.board.place(
            farmer.card, farmer.expected.placement
        ).landscape.iter_zones()
        if zone.terrain != rules.Terrain.FIELD
        and point in [p for p, _ in farmer.card.placed_zones(*_placement_args(farmer.expected))]
    )
    wrong = farmer.judge(rules.Turn(farmer.expected.placement, rules.PlaceWorker(tower_zone)))
    assert not wrong.passed and "Put it on field" in wrong.explanation


def _placement_args(turn: rules.Turn) -> tuple[tuple[int, int], int]:
    return turn.placement.card_at, turn.placement.rotation


@pytest.mark.parametrize("step", STEPS, ids=lambda s: str(s.number))
def test_the_explanation_s_points_are_the_rules_own_scoring(step: Step) -> None:
    verdict = step.judge(step.expected)
    assert verdict.passed
    after = step.board.play(step.card, step.expected, step.variants)
    score = after.landscape.score()
    numbers = [int(n) for n in re.findall(r"\d+", verdict.explanation)]
    worker = step.expected.worker
    if step.kind == "join":
        assert step.point is not None
        assert numbers == [len(after.landscape.region_zones(step.point))]
    elif step.kind in ("total", "diagonal"):
        assert numbers == [score.total]
    else:
        assert isinstance(worker, rules.PlaceWorker | rules.MoveWorker)
        zone = worker.zone if isinstance(worker, rules.PlaceWorker) else worker.target
        assert numbers[0] == next(w.points for w in score.workers if w.zone == zone)


def test_show_me_puts_the_expected_action_on_the_board(client: Client) -> None:
    step = STEPS[1]
    page = client.get(_url(step)).content.decode()
    show = re.search(r'href="([^"]+)"[^>]*data-testid="show-me"', page)
    assert show is not None
    shown = client.get(show.group(1).replace("&amp;", "&"), **HTMX).content.decode()
    assert 'name="place"' in shown and "one good way" in shown


@pytest.mark.parametrize("step", STEPS, ids=lambda s: str(s.number))
def test_show_me_draws_every_step_s_expected_action_ready_to_check(
    client: Client, step: Step
) -> None:
    url = f"{_url(step)}?{Draft.from_turn(step.expected).params()}&show=1"
    html = client.get(url).content.decode()
    assert "one good way" in html and 'class="error"' not in html
    at = "{},{}".format(*step.expected.placement.card_at)
    assert f'name="at" value="{at}"' in html
    assert 'data-testid="commit"' in html
    assert not re.search(r'data-testid="commit"\s+disabled', html)


def test_the_draft_is_drawn_on_the_board_with_the_game_s_own_controls(client: Client) -> None:
    step = STEPS[0]
    first = client.get(_url(step)).content.decode()
    assert 'data-key="rotate"' in first and 'class="slot"' in first
    assert 'aria-keyshortcuts="1"' in first
    placed = client.get(_url(step) + "?rot=90&at=1,0", **HTMX).content.decode()
    assert placed.lstrip().startswith('<section id="board"')
    assert 'name="at" value="1,0"' in placed
    # The card is placed: the commit button is live, and the first card stays unchanged.
    assert 'data-testid="commit"' in placed
    assert not re.search(r'data-testid="commit"\s+disabled', placed)
    assert re.search(r'data-testid="commit"\s+disabled', first)


@pytest.mark.parametrize("language", ["cs", "de", "fr"])
def test_step_pages_are_translated(client: Client, language: str) -> None:
    client.cookies["django_language"] = language
    step = STEPS[1]
    html = client.get(_url(step), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        title, task = str(step.title), str(step.task)
    with translation.override("en"):
        english_title, english_task = str(step.title), str(step.task)
    assert title != english_title and task != english_task
    page = html.replace("&#x27;", "'")
    assert title in page and task in page
    assert english_task not in page
    response = client.post(_url(step), _fields(step.expected), HTTP_ACCEPT_LANGUAGE=language)
    explanation = _explanation(response.content.decode())
    assert not {"your", "each", "field", "farmer"} & set(words(explanation))


@pytest.mark.parametrize(
    "url",
    ["/learn/0/", "/learn/10/", "/learn/99999999999999999999999/", "/learn/١/", "/learn/1/2/"],
)
def test_steps_out_of_range_are_not_found(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    "data",
    [
        {"rot": "\x00"},
        {"rot": "90", "at": "99999999999999999999999,0"},
        {"rot": "²"},
        {"rot": "0", "at": "١,0"},
        {"rot": "45", "at": "0,1"},
        {"rot": "0", "at": "a/b"},
        {"rot": "0"},
    ],
)
def test_hostile_input_is_refused_and_nothing_is_stored(
    client: Client, data: dict[str, str]
) -> None:
    url = reverse("learn:step", args=[1])
    assert client.post(url, data).status_code == 400
    assert client.get(url, data).status_code in (200, 400)
    assert "learn_passed" not in client.cookies


def test_an_illegal_slot_is_refused_as_a_rule(client: Client) -> None:
    response = client.post(reverse("learn:step", args=[1]), {"rot": "0", "at": "5,5"})
    assert response.status_code == 422
    assert "The card cannot go there." in _explanation(response.content.decode())
    assert "learn_passed" not in client.cookies


def test_the_menu_and_the_front_page_lead_to_the_first_game(client: Client) -> None:
    home = client.get(reverse("games:home")).content.decode()
    assert f'href="{reverse("learn:index")}" data-testid="nav-learn"' in home
    assert 'data-testid="learn-link"' in home


def test_the_finish_page_says_so_when_steps_are_left_and_links_the_next_one(
    client: Client,
) -> None:
    finish = client.get(reverse("learn:finish")).content.decode()
    assert "You have played the first game" not in finish
    assert f"Steps done: 0 of {len(STEPS)}." in finish
    assert f'href="{reverse("learn:step", args=[1])}" data-testid="continue"' in finish


def test_cookieless_passed_steps_add_no_session_row() -> None:
    # A script posting the right answer again and again, without cookies.
    step = STEPS[0]
    before = Session.objects.count()
    for _ in range(10):
        response = Client().post(_url(step), _fields(step.expected))
        assert _explanation(response.content.decode()).startswith("Right!")
    assert Session.objects.count() == before
    assert response.cookies["learn_passed"].value


def test_a_tampered_progress_cookie_is_ignored(client: Client) -> None:
    client.cookies["learn_passed"] = ",".join(str(s.number) for s in STEPS)
    finish = client.get(reverse("learn:finish"))
    assert finish.status_code == 200
    assert f"Steps done: 0 of {len(STEPS)}." in finish.content.decode()
    step = STEPS[0]
    client.post(_url(step), _fields(step.expected))
    signed = client.cookies["learn_passed"].value
    # A good signature does not carry over to an edited value.
    client.cookies["learn_passed"] = signed.replace("1", "1,2,3,4", 1)
    assert "Steps done: 0 of" in client.get(reverse("learn:finish")).content.decode()
    client.cookies["learn_passed"] = signed
    assert "Steps done: 1 of" in client.get(reverse("learn:finish")).content.decode()
