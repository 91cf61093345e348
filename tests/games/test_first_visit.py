"""What a newcomer and a returning player read: places, plurals, counts, the end of a game."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from time_machine import TimeMachineFixture

from accounts.models import Notification, User
from games import selectors, services
from games.models import Game, Seat
from games.selectors import SoloStandingView
from moderation import services as moderation
from tests.factories import (
    PASSWORD,
    UserFactory,
    moderators_group,
    play_turn,
    reference_turn_of,
    solo_results,
    started_game,
)
from tests.pages import turn_fields

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


@pytest.fixture
def players() -> list[User]:
    return [UserFactory(username=name) for name in ("ana", "ben", "cy")]


def test_two_players_who_timed_out_are_not_winners(
    players: list[User], time_machine: TimeMachineFixture
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    play_turn(game, ben)
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1))
    services.deadlines_enforce(game=game)
    game.refresh_from_db()
    assert game.is_finished
    page = text_of(client_for(ana).get(detail(game)).content.decode())
    assert "· winner" not in page and "(shared)" not in page
    assert "timed out after 1 round" in page and "1 rounds" not in page
    assert "this game has no winner" in page


def test_a_resigned_player_and_a_banned_one_are_not_shared_winners(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben])
    for _ in range(3):
        play_turn(game, ana)
        play_turn(game, ben)
    services.seat_resign(game=game, user=ana)
    moderator = UserFactory(is_staff=True, is_superuser=True)
    moderation.user_ban(moderator=moderator, user=ben, reason="abuse")
    game.refresh_from_db()
    assert game.is_finished
    page = text_of(client_for(cy).get(detail(game)).content.decode())
    assert "· winner" not in page and "(shared)" not in page
    assert "resigned after 3 rounds" in page


def test_a_player_who_finished_wins_over_one_who_resigned(players: list[User]) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    play_turn(game, ben)
    services.seat_resign(game=game, user=ben)
    for _ in range(15):
        play_turn(game, ana)
    page = text_of(client_for(ben).get(detail(game)).content.decode())
    assert "ana · winner" in page and "(shared)" not in page
    assert "resigned after 1 round " in page + " "


def test_the_badge_counts_the_games_marked_your_move(players: list[User], user: User) -> None:
    ana, ben, cy = players
    waiting = started_game([ana, ben])  # round 1: waits for ana
    played = started_game([ana, cy])
    play_turn(played, ana)  # waits for cy, not ana
    services.game_create_solo(user=ana)  # a solo game waits for nobody
    page = client_for(ana).get(reverse("games:mine")).content.decode()
    badge = re.search(r'data-testid="nav-my-games">[^<]*<span class="badge"[^>]*>(\d+)<', page)
    assert badge is not None
    assert int(badge.group(1)) == page.count('data-testid="your-move"') == 1
    assert f'href="{detail(waiting)}"' in page


def test_a_round_past_its_deadline_never_reads_zero_minutes_left(
    players: list[User], time_machine: TimeMachineFixture
) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben, cy])
    play_turn(game, ana)
    play_turn(game, ben)
    game.refresh_from_db()
    assert game.deadline is not None
    time_machine.move_to(game.deadline - datetime.timedelta(seconds=20))
    page = text_of(client_for(ana).get(reverse("games:mine")).content.decode())
    assert "0 minutes" not in page and "less than a minute left" in page
    # Past it, the list closes the round (cy times out) instead of counting down to zero.
    time_machine.move_to(game.deadline + datetime.timedelta(seconds=5))
    page = text_of(client_for(ana).get(reverse("games:mine")).content.decode())
    assert "0 minutes" not in page
    assert Seat.objects.get(game=game, user=cy).status == Seat.Status.TIMED_OUT


def test_finished_games_are_listed_a_page_at_a_time(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    for seed in range(21):
        game = services.game_create_solo(user=user, seed=seed)
        services.seat_resign(game=game, user=user)
    client = client_for(user)
    first = client.get(reverse("games:mine")).content.decode()
    assert first.count("Solo game #") == 20 and "Page 1 of 2" in first
    second = client.get(reverse("games:mine"), {"page": "2"}).content.decode()
    assert second.count("Solo game #") == 1
    # A page number that is not one still shows a page.
    assert client.get(reverse("games:mine"), {"page": "\x00٣"}).status_code == 200


def test_a_draft_from_an_earlier_round_is_not_offered_again(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=3), 1)
    client = client_for(user)
    # The address the browser's Back returns to after round 1 was committed.
    response = client.get(detail(game), {"at": "0,1", "n": "1"})
    page = response.content.decode()
    assert "Round 2 of 16" in page
    assert "card--draft" not in page  # no position chosen for the new card
    assert "no-store" in response["Cache-Control"]
    assert "Abandon this game" in page


def test_the_final_page_offers_play_again_with_the_same_rules_and_the_best(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = services.game_create_solo(user=user, diagonal=True, ferryman=False, seed=4)
    game = play_rounds(game, 16)
    page = client_for(user).get(detail(game)).content.decode()
    assert "Abandon this game" not in page
    form = page[page.index(f'action="{reverse("games:new")}"') :]
    form = form[: form.index("</form>")]
    assert 'name="diagonal" value="on"' in form and "ferryman" not in form
    assert 'data-testid="personal-best"' in page
    assert "A new personal best" in page and "ranks #1" in page


def test_a_sealed_deals_final_page_claims_no_best_and_no_rank_yet(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    # A tournament's deal joins the boards when its seal lifts: until then its own final
    # page must not call it a personal best or give it a place on a board.
    game = services.game_create_solo(user=user, diagonal=True, ferryman=False, seed=4)
    Game.objects.filter(pk=game.pk).update(sealed_until=timezone.now() + datetime.timedelta(days=1))
    game = play_rounds(Game.objects.get(pk=game.pk), 16)
    page = client_for(user).get(detail(game)).content.decode()
    assert 'data-testid="final-result"' in page
    assert 'data-testid="personal-best"' not in page and "ranks #" not in page


def test_the_final_page_ranks_a_score_among_shown_players_and_the_own_best(user: User) -> None:
    others = UserFactory.create_batch(4)
    for other, score in zip(others, [50, 20, 60, 55], strict=True):
        solo_results(other, [score])
    User.objects.filter(pk=others[2].pk).update(
        banned_until=timezone.now() + datetime.timedelta(days=1)
    )
    User.objects.filter(pk=others[3].pk).update(deleted_at=timezone.now())
    earlier, later = (seat.game for seat in solo_results(user, [45, 40]))
    # Only the 50 beats either score: a banned or deleted player's results are not shown.
    assert selectors.solo_standing(later, user) == SoloStandingView(40, 45, False, 2)
    assert selectors.solo_standing(earlier, user) == SoloStandingView(45, 45, True, 2, True)


def test_a_score_below_the_own_best_is_not_ranked_but_the_best_is(user: User) -> None:
    # The all-time board shows each player once, with their best: a poor game takes no
    # place of its own there, and counting it among the others' bests would put it first.
    for other, score in zip(UserFactory.create_batch(3), [50, 40, 20], strict=True):
        solo_results(other, [score])
    best, poor = (seat.game for seat in solo_results(user, [36, 0]))
    assert selectors.solo_standing(poor, user) == SoloStandingView(0, 36, False, 3)
    page = text_of(client_for(user).get(detail(poor)).content.decode())
    assert "Your best in these rules, 36, ranks #3 on the all-time board." in page
    assert "This score ranks" not in page
    # The best's own page ranks it as the board does: ties go to the earlier achievement.
    solo_results(UserFactory(), [36], at=timezone.now() - datetime.timedelta(days=1))
    page = text_of(client_for(user).get(detail(best)).content.decode())
    assert "This score ranks #4 on the all-time board." in page
    assert "Your best in these rules, 36" not in page


def test_an_equal_best_is_ranked_where_the_first_one_stands(user: User) -> None:
    now = timezone.now()
    solo_results(UserFactory(), [50])
    solo_results(user, [36], at=now - datetime.timedelta(minutes=10))
    # Another's 36 came after the player's first one: below it on the board.
    solo_results(UserFactory(), [36], at=now - datetime.timedelta(minutes=5))
    [again] = (seat.game for seat in solo_results(user, [36]))
    assert selectors.solo_standing(again, user) == SoloStandingView(36, 36, False, 2, True)
    page = text_of(client_for(user).get(detail(again)).content.decode())
    assert "Your best in these rules: 36. This score ranks #2 on the all-time board." in page


def test_a_hidden_result_is_marked_for_its_owner_who_is_notified(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=4), 16)
    moderator = UserFactory(is_staff=True, is_superuser=True)
    moderation.result_hide(moderator=moderator, result=game.solo_result, reason="shared account")
    page = client_for(user).get(detail(game)).content.decode()
    assert 'data-testid="hidden-result"' in page
    notice = Notification.objects.get(user=user)
    assert "shared account" in notice.text and notice.url == detail(game)


def test_the_replay_starts_at_round_one(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=4), 16)
    page = client_for(user).get(reverse("games:replay", kwargs={"pk": game.pk})).content
    assert "After round 1 of 16" in page.decode()
    assert 'data-key="last"' in page.decode() and 'data-key="first"' not in page.decode()


@override_settings(DEBUG=False)
def test_error_pages_have_the_site_layout_and_a_way_back(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="site-header"' in page and 'data-testid="error-page"' in page
    assert f'href="{reverse("games:home")}"' in page
    assert 'rel="icon"' in page


@override_settings(DEBUG=False)
def test_a_refused_form_explains_itself_in_the_layout(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("games:new"), {})
    assert response.status_code == 403
    page = response.content.decode()
    assert 'data-testid="error-page"' in page and "That form has expired" in page


def test_the_server_error_page_renders_without_a_request_context() -> None:
    from django.template import loader

    page = loader.get_template("500.html").render({})
    assert "Something went wrong" in page and 'class="site-header"' in page


@override_settings(LIMES_SITE_URL="", ALLOWED_HOSTS=["limes.example.net", "testserver"])
def test_round_emails_link_to_the_host_the_site_is_served_on(
    players: list[User], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    play_turn(game, ana)
    game.refresh_from_db()
    number, turn = reference_turn_of(game, ben)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client_for(ben).post(
            reverse("games:play", kwargs={"pk": game.pk}),
            turn_fields(number, turn),
            HTTP_HOST="limes.example.net",
        )
    assert mail.outbox, "a correspondence round sends an email"
    assert f"http://limes.example.net{detail(game)}" in mail.outbox[0].body
    assert "localhost" not in mail.outbox[0].body


@override_settings(LIMES_SITE_URL="https://limes.example.org")
def test_a_configured_site_address_wins(
    players: list[User], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game, ana)
        play_turn(game, ben)
    assert f"https://limes.example.org{detail(game)}" in mail.outbox[0].body


def test_load_demo_sends_no_email() -> None:
    mail.outbox.clear()
    call_command("load_demo", stdout=StringIO())
    assert mail.outbox == []


def test_the_front_page_shows_a_real_landscape_and_its_replay(
    client: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=4), 16)
    page = client.get(reverse("games:home")).content.decode()
    assert 'data-testid="showcase"' in page and page.count('class="card ') == 16
    assert f'href="{reverse("games:replay", kwargs={"pk": game.pk})}"' in page


def test_the_front_page_draws_its_landscape_once_for_every_visitor(
    client: Client,
    user: User,
    play_rounds: Callable[[Game, int], Game],
    django_assert_num_queries: Callable[..., Any],
) -> None:
    play_rounds(services.game_create_solo(user=user, seed=4), 16)
    first = client.get(reverse("games:home")).content.decode()
    # The next visitor, in another process of the site, reads the figure from the cache.
    with django_assert_num_queries(0):
        again = Client().get(reverse("games:home")).content.decode()
    assert again.count('class="card ') == 16
    assert _showcase_html(again) == _showcase_html(first)


def test_a_hidden_game_leaves_the_front_page_at_once(
    client: Client,
    user: User,
    play_rounds: Callable[[Game, int], Game],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=4), 16)
    assert 'data-testid="showcase"' in client.get(reverse("games:home")).content.decode()
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(moderators_group())
    with django_capture_on_commit_callbacks(execute=True):
        moderation.game_hide(moderator=moderator, game=game, reason="Bot play")
    page = client.get(reverse("games:home")).content.decode()
    assert 'data-testid="showcase"' not in page
    assert reverse("games:replay", kwargs={"pk": game.pk}) not in page


def _showcase_html(page: str) -> str:
    return page[page.index('data-testid="showcase"') : page.index("</figure>")]


def test_the_admin_has_one_accounts_section(client: Client) -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    Group.objects.get_or_create(name="Moderators")
    client.force_login(admin)
    page = client.get(reverse("admin:index")).content.decode()
    captions = re.findall(r"<caption>\s*<a[^>]*>([^<]+)</a>", page)
    assert captions.count("Accounts") == 1
    assert "Authentication and Authorization" not in captions
    assert "Groups" in page and "Email addresses" in page
