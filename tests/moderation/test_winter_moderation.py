"""Moderation covers Carcassonne: Winter Edition as it covers Limes: hidden results (and
the Winter ratings recomputed without them), bans, reports and chat, each action audited."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from leaderboards import gamelists
from leaderboards.models import WinterRating
from moderation import services
from moderation.models import AuditEntry, Report
from social.models import ChatMessage
from tests.factories import ReportFactory, UserFactory, started_game
from tests.pages import client_for
from wintergames import selectors as winter_selectors
from wintergames import services as winter_services
from wintergames.models import WinterGame, WinterSeat
from wintergames.pollstate import poll_states
from wintergames.signals import winter_game_finished

pytestmark = pytest.mark.django_db

START = timezone.now() - datetime.timedelta(days=3)


def finished(people: list[User], *, hours: int) -> WinterGame:
    """A Winter game of ``people`` placed in that order, finished ``hours`` after START and
    rated as it finished (the live update, ``winter_game_finished``)."""
    game = WinterGame.objects.create(
        seed=1,
        status=WinterGame.Status.FINISHED,
        finished_at=START + datetime.timedelta(hours=hours),
    )
    WinterSeat.objects.bulk_create(
        WinterSeat(game=game, position=i, user=user, place=i + 1, score=60 - 10 * i)
        for i, user in enumerate(people)
    )
    seats = list(game.seats.select_related("user").order_by("position"))
    winter_game_finished.send(sender=WinterGame, game=game, seats=seats, state=None)
    return game


def ratings() -> dict[int, tuple[float, float, int]]:
    """Every Winter rating: (mu, sigma, games) by player."""
    return {r.user_id: (r.mu, r.sigma, r.games) for r in WinterRating.objects.all()}


def same(
    these: dict[int, tuple[float, float, int]], those: dict[int, tuple[float, float, int]]
) -> bool:
    return these.keys() == those.keys() and all(
        these[key] == pytest.approx(those[key]) for key in these
    )


def running(first: User, second: User) -> WinterGame:
    """A Winter game of two people, in play."""
    game = winter_services.game_create(
        user=first, players=2, computers=0, level="easy", farmers=True, pace="untimed", seed=3
    )
    winter_services.game_join(game_id=game.pk, user=second)
    game.refresh_from_db()
    assert game.is_running
    return game


@pytest.fixture
def ana(db: None) -> User:
    return UserFactory(username="ana")


@pytest.fixture
def ben(db: None) -> User:
    return UserFactory(username="ben")


# Hiding a Winter game


def test_hiding_a_winter_game_is_audited_and_tells_its_players(
    moderator: User, ana: User, ben: User
) -> None:
    game = finished([ana, ben], hours=1)
    version = game.version
    assert poll_states.get(game.pk) == (version, game.deadline)  # as an open page's poll
    hidden = services.game_hide(moderator=moderator, game=game, reason="Collusion")
    assert isinstance(hidden, WinterGame)
    game.refresh_from_db()
    assert (game.hidden, game.hidden_reason, game.version) == (True, "Collusion", version + 1)
    # The polls' cached state moved on with it: open pages redraw on their next poll.
    assert poll_states.get(game.pk) == (game.version, game.deadline)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.winter_game, entry.game, entry.target, entry.reason) == (
        AuditEntry.Action.HIDE_GAME,
        game,
        None,
        None,
        "Collusion",
    )
    assert entry.details == {"winter_game": game.pk, "players": ["ana", "ben"]}
    for player in (ana, ben):
        notice = Notification.objects.get(user=player)
        assert notice.url == f"/winter/games/{game.pk}/"
        assert notice.text == (
            f"A moderator hid your Carcassonne: Winter Edition game #{game.pk} from the "
            "ratings: Collusion"
        )

    services.game_unhide(moderator=moderator, game=game)
    game.refresh_from_db()
    assert (game.hidden, game.hidden_reason) == (False, "")
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.UNHIDE_GAME, winter_game=game
    ).exists()
    # Showing it again tells nobody anything.
    assert Notification.objects.count() == 2


def test_each_player_reads_the_notice_in_their_own_language(moderator: User, ana: User) -> None:
    jana = UserFactory(username="jana", language="cs")
    game = finished([ana, jana], hours=1)
    services.game_hide(moderator=moderator, game=game, reason="Shared account")
    assert Notification.objects.get(user=jana).text == (
        f"Moderátor vyřadil vaši hru Carcassonne: Zimní edice č. {game.pk} z hodnocení: "
        "Shared account"
    )
    assert Notification.objects.get(user=ana).text.startswith("A moderator hid your")


def test_hiding_twice_without_a_reason_or_unhiding_a_shown_game_is_refused(
    moderator: User, ana: User, ben: User
) -> None:
    game = finished([ana, ben], hours=1)
    with pytest.raises(ValidationError, match="reason"):
        services.game_hide(moderator=moderator, game=game, reason="  ")
    with pytest.raises(ValidationError, match="at most 200"):
        services.game_hide(moderator=moderator, game=game, reason="x" * 201)
    with pytest.raises(ValidationError, match="not hidden") as shown:
        services.game_unhide(moderator=moderator, game=game)
    assert shown.value.status == 409  # type: ignore[attr-defined]
    services.game_hide(moderator=moderator, game=game, reason="Collusion")
    with pytest.raises(ValidationError, match="already hidden") as again:
        services.game_hide(moderator=moderator, game=game, reason="Again")
    assert again.value.status == 409  # type: ignore[attr-defined]
    assert AuditEntry.objects.count() == 1


def test_only_moderators_of_winter_games_may_hide_one(
    player: User, ana: User, ben: User, moderator: User, superuser: User
) -> None:
    game = finished([ana, ben], hours=1)
    # Staff who may hide Limes games, not Winter ones: the service itself says no.
    limes_only = UserFactory(username="limes-only", is_staff=True)
    limes_only.user_permissions.add(
        Permission.objects.get(content_type__app_label="games", codename="change_game")
    )
    banned = UserFactory(username="banned-mod", is_staff=True)
    banned.groups.set(moderator.groups.all())
    services.user_ban(moderator=superuser, user=banned, reason="Abuse")
    for who in (player, limes_only, User.objects.get(pk=banned.pk)):
        with pytest.raises(PermissionDenied):
            services.game_hide(moderator=who, game=game, reason="No")
    game.refresh_from_db()
    assert not game.hidden
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.HIDE_GAME).exists()


# The Winter ratings without a hidden game


def test_hiding_a_game_takes_it_out_of_the_ratings_and_unhiding_puts_it_back(
    moderator: User, ana: User, ben: User
) -> None:
    carl = UserFactory(username="carl")
    finished([ana, ben], hours=1)
    finished([ben, ana, carl], hours=2)
    # The ratings as they stand without the third game: the live update's own figures.
    without = ratings()
    third = finished([carl, ana], hours=3)
    with_it = ratings()
    assert not same(with_it, without)

    services.game_hide(moderator=moderator, game=third, reason="Shared account")
    assert same(ratings(), without)

    services.game_unhide(moderator=moderator, game=third)
    assert same(ratings(), with_it)


def test_a_player_whose_only_rated_game_is_hidden_has_no_rating(
    moderator: User, ana: User, ben: User
) -> None:
    carl = UserFactory(username="carl")
    finished([ana, ben], hours=1)
    only = finished([carl, ana], hours=2)
    services.game_hide(moderator=moderator, game=only, reason="Smurf")
    assert not WinterRating.objects.filter(user=carl).exists()
    assert WinterRating.objects.get(user=ana).games == 1
    # Off the rating board too, with nothing left to show.
    assert "carl" not in Client().get("/leaderboards/winter/rating/").content.decode()


def test_a_game_hidden_while_it_runs_rates_nobody_when_it_ends(
    moderator: User, ana: User, ben: User
) -> None:
    game = running(ana, ben)
    services.game_hide(moderator=moderator, game=game, reason="Collusion")
    game.refresh_from_db()
    WinterSeat.objects.filter(game=game).update(score=10)
    WinterSeat.objects.filter(game=game, user=ana).update(place=1)
    WinterSeat.objects.filter(game=game, user=ben).update(place=2)
    seats = list(game.seats.select_related("user").order_by("position"))
    winter_game_finished.send(sender=WinterGame, game=game, seats=seats, state=None)
    assert not WinterRating.objects.exists()


def test_the_command_replays_every_visible_game(
    moderator: User, ana: User, ben: User, capsys: pytest.CaptureFixture[str]
) -> None:
    finished([ana, ben], hours=1)
    finished([ben, ana], hours=2)
    hidden = finished([ana, ben], hours=3)
    WinterGame.objects.filter(pk=hidden.pk).update(hidden=True)
    live = ratings()
    WinterRating.objects.all().delete()
    call_command("recompute_winter_ratings")
    assert capsys.readouterr().out.strip() == "Rated 2 Winter games."
    # Hidden behind the live update's back: the replay leaves it out, one game fewer each.
    assert {user: games for user, (_mu, _sigma, games) in ratings().items()} == {
        ana.pk: 2,
        ben.pk: 2,
    }
    assert live[ana.pk][2] == 3


# The public lists


def test_a_hidden_game_leaves_the_profile_but_stays_in_the_players_own_list(
    moderator: User, ana: User, ben: User
) -> None:
    game = finished([ana, ben], hours=1)
    link = f'href="/winter/games/{game.pk}/"'
    assert link in client_for(ben).get("/players/ana/").content.decode()
    services.game_hide(moderator=moderator, game=game, reason="Collusion")
    assert link not in client_for(ben).get("/players/ana/").content.decode()
    assert link not in Client().get("/players/ana/").content.decode()
    assert gamelists.winter_games_of(ana).finished == []
    own = gamelists.winter_games_of(ana, with_hidden=True).finished
    assert [entry.game.pk for entry in own] == [game.pk]


def test_the_lobby_lists_no_hidden_game_nor_one_a_banned_player_sits_at(
    moderator: User, ana: User, ben: User
) -> None:
    hidden = winter_services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    # Ben's, who is banned below.
    winter_services.game_create(
        user=ben, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    shown = winter_services.game_create(
        user=UserFactory(), players=3, computers=0, level="easy", farmers=True, pace="untimed"
    )
    signature = gamelists.winter_lobby_signature()
    services.game_hide(moderator=moderator, game=hidden, reason="Offensive")
    services.user_ban(moderator=moderator, user=ben, reason="Abuse")
    assert [game.pk for game in winter_selectors.games_open()] == [shown.pk]
    assert gamelists.winter_lobby_signature() != signature
    # Their own list still has it.
    assert hidden.pk in [game.pk for game in winter_selectors.games_of(ana)]


# Bans


def test_a_ban_resigns_the_players_winter_games_in_play(
    moderator: User, ana: User, ben: User, committed: Callable[[], Any]
) -> None:
    game = running(ana, ben)
    over = finished([ana, ben], hours=1)
    with committed():
        services.user_ban(moderator=moderator, user=ana, reason="Abuse")
    seat = WinterSeat.objects.get(game=game, user=ana)
    assert seat.resigned and seat.bot_level == winter_services.RESIGNED_LEVEL
    assert not WinterSeat.objects.get(game=game, user=ben).resigned
    # A finished game is left as it ended.
    assert not WinterSeat.objects.get(game=over, user=ana).resigned
    entry = AuditEntry.objects.get(action=AuditEntry.Action.BAN)
    assert entry.details["winter_games_resigned"] == 1


# Reports


def test_a_player_of_a_winter_game_is_reported_from_its_page(ana: User, ben: User) -> None:
    game = running(ana, ben)
    client = client_for(ben)
    url = f"{reverse('moderation:report', args=['ana'])}?winter_game={game.pk}"
    page = client.get(url).content.decode()
    assert f"in Carcassonne: Winter Edition game #{game.pk}" in page
    assert f'name="winter_game" value="{game.pk}"' in page
    assert f'href="/winter/games/{game.pk}/">Cancel' in page
    answer = client.post(
        reverse("moderation:report", args=["ana"]),
        {"winter_game": str(game.pk), "category": "abuse", "text": "Stalls every turn."},
    )
    assert answer.status_code == 302 and answer["Location"] == f"/winter/games/{game.pk}/"
    report = Report.objects.get()
    assert (report.winter_game, report.game, report.target) == (game, None, ana)


def test_a_winter_game_the_target_did_not_play_is_dropped(ana: User, ben: User) -> None:
    elsewhere = running(UserFactory(), UserFactory())
    report = services.report_create(
        reporter=ben, target=ana, category="abuse", text="Rude all along.", winter_game=elsewhere
    )
    assert report.winter_game is None


def test_a_report_names_one_game_at_most(ana: User, ben: User) -> None:
    winter = running(ana, ben)
    limes = started_game([ana, ben])
    answer = client_for(ben).post(
        reverse("moderation:report", args=["ana"]),
        {
            "game": str(limes.pk),
            "winter_game": str(winter.pk),
            "category": "abuse",
            "text": "Rude all along.",
        },
    )
    assert answer.status_code == 302
    report = Report.objects.get()
    assert (report.game, report.winter_game) == (None, None)


@pytest.mark.parametrize(
    "value", ["abc", "%00", "-1", "1.5", "²", "9" * 19, "99999999", "0x10", " 1"]
)
def test_the_report_page_takes_hostile_winter_game_numbers(
    ana: User, ben: User, value: str
) -> None:
    client = client_for(ben)
    page = client.get(f"{reverse('moderation:report', args=['ana'])}?winter_game={value}")
    assert page.status_code == 200
    assert "Winter Edition game #" not in page.content.decode()
    answer = client.post(
        reverse("moderation:report", args=["ana"]),
        {"winter_game": value, "category": "other", "text": "Something is wrong."},
    )
    assert answer.status_code == 302 and answer["Location"] == "/players/ana/"
    assert Report.objects.get().winter_game is None


def test_the_report_link_of_a_winter_page_names_the_game(ana: User, ben: User) -> None:
    # As a Winter game's page includes it: there ``game`` is the Winter game.
    game = running(ana, ben)
    html = Template(
        '{% include "moderation/_report_link.html" with target=target winter_game=game %}'
    ).render(Context({"user": ben, "target": ana, "game": game}))
    assert f'href="/report/ana/?winter_game={game.pk}"' in html
    assert "Report ana" in html


def test_a_winter_game_page_offers_to_report_each_other_person_at_the_table(
    ana: User, ben: User
) -> None:
    game = running(ana, ben)
    page = client_for(ben).get(f"/winter/games/{game.pk}/").content.decode()
    assert f'href="/report/ana/?winter_game={game.pk}"' in page
    assert "/report/ben/" not in page  # nobody reports themselves


# Chat in a Winter game


@pytest.fixture
def winter_rude(ana: User, ben: User) -> ChatMessage:
    game = running(ana, ben)
    return ChatMessage.objects.create(winter_game=game, author=ana, text="you play like a potato")


def test_a_winter_chat_message_is_reported_by_a_player_of_its_game(
    ben: User, winter_rude: ChatMessage
) -> None:
    game = winter_rude.winter_game
    assert game is not None
    client = client_for(ben)
    # The chat panel's link may name the game by its number as ``game``: the message
    # names its own game, whatever the address says.
    url = f"{reverse('moderation:report', args=['ana'])}?game={game.pk}&message={winter_rude.pk}"
    page = client.get(url).content.decode()
    assert 'data-testid="reported-message">you play like a potato<' in page
    answer = client.post(
        reverse("moderation:report", args=["ana"]),
        {"message": str(winter_rude.pk), "category": "chat", "text": "Insults in the chat."},
    )
    assert answer["Location"] == f"/winter/games/{game.pk}/"
    report = Report.objects.get()
    assert (report.chat_message, report.winter_game, report.game) == (winter_rude, game, None)


def test_a_winter_chat_message_is_not_reported_by_someone_who_cannot_read_it(
    winter_rude: ChatMessage,
) -> None:
    # A spectator reads (and may report) a public game's chat, as in Limes; a hidden
    # game's chat is its players' and the staff's only.
    game = winter_rude.winter_game
    assert game is not None
    game.hidden = True
    game.save(update_fields=["hidden"])
    stranger = UserFactory(username="stranger")
    client = client_for(stranger)
    url = f"{reverse('moderation:report', args=['ana'])}?message={winter_rude.pk}"
    assert "potato" not in client.get(url).content.decode()
    report = services.report_create(
        reporter=stranger,
        target=winter_rude.author,  # type: ignore[arg-type]
        category="chat",
        text="Insults in the chat.",
        chat_message=winter_rude,
    )
    assert (report.chat_message, report.winter_game) == (None, None)


def test_hiding_a_winter_chat_message_from_its_report_is_audited_with_its_game(
    moderator_client: Client, moderator: User, ana: User, winter_rude: ChatMessage
) -> None:
    report = ReportFactory(
        target=ana,
        winter_game=winter_rude.winter_game,
        chat_message=winter_rude,
        category=Report.Category.CHAT,
        text="Insults in the chat.",
    )
    page = moderator_client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    html = page.content.decode()
    game_id = winter_rude.winter_game_id
    assert f'href="/winter/games/{game_id}/"' in html
    assert "you play like a potato" in html
    answer = moderator_client.post(
        reverse("admin:moderation_report_chat", args=[report.pk, "hide"]),
        {"hide-reason": "Insult"},
    )
    assert answer.status_code == 302
    winter_rude.refresh_from_db()
    assert winter_rude.hidden
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.winter_game_id, entry.game, entry.report, entry.target) == (
        AuditEntry.Action.HIDE_MESSAGE,
        game_id,
        None,
        report,
        ana,
    )
    log = moderator_client.get(reverse("admin:moderation_auditentry_changelist"))
    assert f'href="/winter/games/{game_id}/"' in log.content.decode()
    services.chat_message_unhide(moderator=moderator, message=winter_rude)
    winter_rude.refresh_from_db()
    assert not winter_rude.hidden


def test_the_chat_admin_links_a_winter_message_to_its_game(
    moderator_client: Client, winter_rude: ChatMessage
) -> None:
    game_id = winter_rude.winter_game_id
    listing = moderator_client.get(reverse("admin:social_chatmessage_changelist"))
    assert f'href="/winter/games/{game_id}/"' in listing.content.decode()
    page = moderator_client.get(reverse("admin:social_chatmessage_change", args=[winter_rude.pk]))
    html = page.content.decode()
    assert f'href="/admin/wintergames/wintergame/{game_id}/change/"' in html
    assert f'href="/winter/games/{game_id}/"' in html


# The admin


def test_a_moderator_hides_a_winter_game_from_its_admin_page(
    moderator_client: Client, ana: User, ben: User
) -> None:
    game = finished([ana, ben], hours=1)
    listing = moderator_client.get(reverse("admin:wintergames_wintergame_changelist"))
    assert listing.status_code == 200
    assert f"/admin/wintergames/wintergame/{game.pk}/change/" in listing.content.decode()
    page = moderator_client.get(reverse("admin:wintergames_wintergame_change", args=[game.pk]))
    html = page.content.decode()
    assert 'name="seed"' not in html and "Seed" not in html
    assert f"/winter/games/{game.pk}/" in html  # "View on site"
    url = reverse("admin:wintergames_wintergame_moderate", args=[game.pk, "hide_games"])
    assert f'href="{url}"' in html
    form = moderator_client.get(url).content.decode()
    assert "The Winter ratings are recomputed at once" in form
    answer = moderator_client.post(url, {"apply": "1", "reason": "Collusion"})
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.hidden and game.hidden_reason == "Collusion"
    assert AuditEntry.objects.get().winter_game == game
    page = moderator_client.get(reverse("admin:wintergames_wintergame_change", args=[game.pk]))
    unhide = reverse("admin:wintergames_wintergame_moderate", args=[game.pk, "unhide_games"])
    assert f'href="{unhide}"' in page.content.decode()


@pytest.mark.parametrize("object_id", ["abc", "%00", "0", "99999999999999999999"])
def test_the_winter_game_admin_takes_hostile_numbers(
    moderator_client: Client, object_id: str
) -> None:
    url = f"/admin/wintergames/wintergame/{object_id}/moderate/hide_games/"
    assert moderator_client.get(url).status_code == 404


def test_a_player_reaches_no_winter_game_admin(client: Client, player: User) -> None:
    game = WinterGame.objects.create(seed=1)
    client.force_login(player)
    url = reverse("admin:wintergames_wintergame_moderate", args=[game.pk, "hide_games"])
    answer = client.post(url, {"apply": "1", "reason": "No"})
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    game.refresh_from_db()
    assert not game.hidden
