"""Player reports: filing them, their limits, the queue, and telling the reporter."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from moderation import services
from moderation.models import AuditEntry, Report
from tests.factories import ReportFactory, SeatFactory, UserFactory

pytestmark = pytest.mark.django_db

TEXT = "Called everyone names all game long."


def report(reporter: User, target: User, **kwargs: object) -> Report:
    return services.report_create(
        reporter=reporter,
        target=target,
        category=kwargs.pop("category", Report.Category.ABUSIVE_PLAY),  # type: ignore[arg-type]
        text=kwargs.pop("text", TEXT),  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )


def test_a_player_reports_another_from_a_game(client: Client, user: User, player: User) -> None:
    game = SeatFactory(
        user=player, game__created_by=player, game__status="finished", game__round=17
    ).game
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])

    form = client.get(url, {"game": game.pk}).content.decode()
    assert "Suspected cheating" in form and f'value="{game.pk}"' in form
    response = client.post(
        url, {"category": "cheating", "text": TEXT, "game": game.pk}, follow=True
    )

    assert response.redirect_chain[-1][0] == reverse("games:detail", args=[game.pk])
    assert "A moderator will look at your report" in response.content.decode()
    saved = Report.objects.get()
    assert (saved.reporter, saved.target, saved.game, saved.category) == (
        user,
        player,
        game,
        "cheating",
    )


def test_a_report_about_a_game_one_may_not_see_goes_back_to_the_profile(
    client: Client, user: User, player: User
) -> None:
    # Today's daily challenge of another player: hidden from whoever has not finished
    # their own attempt, so the way back is the profile, not a page that would be a 404.
    game = SeatFactory(
        user=player,
        game__created_by=player,
        game__status="finished",
        game__round=17,
        game__daily=timezone.now().date(),
    ).game
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])
    response = client.post(url, {"category": "cheating", "text": TEXT, "game": game.pk})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile", args=[player.username])
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 404
    assert Report.objects.get().game == game


def test_the_report_link_shows_only_to_other_signed_in_players(
    client: Client, user: User, player: User
) -> None:
    from django.template import Context, Template

    template = Template('{% include "moderation/_report_link.html" with target=target %}')
    url = reverse("moderation:report", args=[player.username])
    assert url in template.render(Context({"user": user, "target": player}))
    assert url not in template.render(Context({"user": player, "target": player}))
    from django.contrib.auth.models import AnonymousUser

    assert url not in template.render(Context({"user": AnonymousUser(), "target": player}))


def test_a_report_needs_a_category_and_some_words(client: Client, user: User, player: User) -> None:
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])
    response = client.post(url, {"category": "", "text": "bad"})
    assert response.status_code == 200
    assert "at least 10 characters" in response.content.decode()
    assert not Report.objects.exists()


def test_nobody_reports_themselves(client: Client, user: User) -> None:
    client.force_login(user)
    client.post(
        reverse("moderation:report", args=[user.username]), {"category": "other", "text": TEXT}
    )
    assert not Report.objects.exists()
    with pytest.raises(ValidationError, match="cannot report yourself"):
        report(user, user)


def test_one_open_report_per_reporter_and_player(user: User, player: User) -> None:
    first = report(user, player)
    with pytest.raises(ValidationError, match="already reported"):
        report(user, player, category=Report.Category.OTHER)
    report(UserFactory(), player)  # someone else may

    first.status = Report.Status.DISMISSED
    first.save()
    report(user, player)  # and once it is handled, the reporter may again
    assert Report.objects.filter(reporter=user).count() == 2


def test_the_database_keeps_one_open_report_per_pair(user: User, player: User) -> None:
    ReportFactory(reporter=user, target=player)
    with pytest.raises(IntegrityError):
        ReportFactory(reporter=user, target=player)


def test_a_player_files_at_most_three_reports_an_hour(
    client: Client, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets = [UserFactory() for _ in range(4)]
    for target in targets[:3]:
        report(user, target)
    with pytest.raises(ValidationError, match="at most 3 reports an hour"):
        report(user, targets[3])

    client.force_login(user)
    page = client.post(
        reverse("moderation:report", args=[targets[3].username]),
        {"category": "other", "text": TEXT},
    ).content.decode()
    assert "at most 3 reports an hour" in page
    assert Report.objects.count() == 3

    later = timezone.now() + datetime.timedelta(hours=1, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    report(user, targets[3])
    assert Report.objects.count() == 4


def test_the_queue_lists_open_reports_oldest_first_with_links(
    moderator_client: Client, player: User
) -> None:
    game = SeatFactory(user=player, game__created_by=player).game
    now = timezone.now()
    newer = ReportFactory(target=player, created_at=now, text="The newer complaint here.")
    older = ReportFactory(target=player, game=game, created_at=now - datetime.timedelta(hours=2))
    ReportFactory(status=Report.Status.RESOLVED, text="Already handled one.")

    queue = moderator_client.get(reverse("admin:moderation_report_changelist"), follow=True)
    assert queue.redirect_chain[-1][0].endswith("?status__exact=open")
    page = queue.content.decode()

    older_url = reverse("admin:moderation_report_change", args=[older.pk])
    newer_url = reverse("admin:moderation_report_change", args=[newer.pk])
    assert page.index(older_url) < page.index(newer_url)
    assert "Already handled one" not in page
    assert reverse("admin:accounts_user_change", args=[player.pk]) in page
    assert reverse("admin:games_game_change", args=[game.pk]) in page
    assert f"?target__id__exact={player.pk}" in page  # the player's earlier reports
    assert f"?user__id__exact={player.pk}" in page  # and bans

    earlier = moderator_client.get(
        reverse("admin:moderation_report_changelist"), {"target__id__exact": player.pk}
    ).content.decode()
    assert older_url in earlier and newer_url in earlier


def test_resolving_a_report_tells_the_reporter(
    client: Client, moderator: User, user: User, player: User
) -> None:
    handled = report(user, player)
    services.report_resolve(moderator=moderator, report=handled, note="Renamed them")

    handled.refresh_from_db()
    assert handled.status == Report.Status.RESOLVED and handled.handled_by == moderator
    client.force_login(user)
    home = client.get(reverse("games:home")).content.decode()
    assert 'data-testid="nav-notifications"' in home and 'class="badge"' in home

    page = client.get(reverse("moderation:notifications")).content.decode()
    assert f"Your report about {player.username} was reviewed" in page
    assert "Renamed them" not in page  # the note is for moderators
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    assert 'class="badge"' not in client.get(reverse("games:home")).content.decode()


def test_the_queue_resolves_with_a_note_and_writes_the_log(
    moderator_client: Client, moderator: User, user: User, player: User
) -> None:
    handled = report(user, player)
    url = reverse("admin:moderation_report_changelist")
    moderator_client.post(
        url,
        {
            "action": "dismiss_reports",
            "_selected_action": [handled.pk],
            "apply": "1",
            "reason": "Friendly banter",
        },
    )
    handled.refresh_from_db()
    assert handled.status == Report.Status.DISMISSED and handled.note == "Friendly banter"
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.report, entry.reason) == (
        AuditEntry.Action.DISMISS_REPORT,
        player,
        handled,
        "Friendly banter",
    )
    assert "found no rule broken" in Notification.objects.get(user=user).text
    with pytest.raises(ValidationError, match="already handled"):
        services.report_resolve(moderator=moderator, report=handled, note="again")


def test_notifications_need_a_signed_in_player(client: Client) -> None:
    response = client.get(reverse("moderation:notifications"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_a_report_page_shows_the_whole_report_and_its_buttons(
    moderator_client: Client, user: User, player: User
) -> None:
    filed = report(user, player)
    page = moderator_client.get(
        reverse("admin:moderation_report_change", args=[filed.pk])
    ).content.decode()
    assert TEXT in page and 'name="text"' not in page
    resolve = reverse("admin:moderation_report_moderate", args=[filed.pk, "resolve_reports"])
    assert resolve in page

    moderator_client.post(resolve, {"apply": "1", "reason": "Warned them"})
    filed.refresh_from_db()
    assert filed.status == Report.Status.RESOLVED
    page = moderator_client.get(
        reverse("admin:moderation_report_change", args=[filed.pk])
    ).content.decode()
    assert resolve not in page  # nothing left to do


def _without_csrf(page: bytes) -> str:
    # The CSRF token is masked afresh on every page: the only part allowed to differ.
    page_text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page.decode())
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", page_text)


def test_past_the_hourly_limit_the_answer_does_not_say_who_played(
    client: Client, user: User, player: User
) -> None:
    sat = SeatFactory(user=player, game__created_by=player, game__status="finished").game
    other = SeatFactory(game__status="finished").game
    for target in [UserFactory() for _ in range(3)]:
        report(user, target)
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])
    answers = []
    for game in (sat, other):
        response = client.post(url, {"category": "cheating", "text": TEXT, "game": game.pk})
        assert response.status_code == 200
        page = _without_csrf(response.content)
        # Both games are public: the form names each; nothing else may differ. (Whole
        # numbers only: "#2" must not touch the theme colour "#2f6b3a".)
        page = re.sub(rf"#{game.pk}\b", "#N", page)
        for shown in (f'value="{game.pk}"', f"/games/{game.pk}/"):
            page = page.replace(shown, shown.replace(str(game.pk), "N"))
        answers.append(page)
    assert "at most 3 reports an hour" in answers[0]
    assert answers[0] == answers[1]
    assert Report.objects.count() == 3


def test_a_report_about_a_game_the_player_did_not_play_is_filed_without_it(
    client: Client, user: User, player: User
) -> None:
    played_by_others = SeatFactory(game__status="finished", game__round=17).game
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])
    response = client.post(url, {"category": "cheating", "text": TEXT, "game": played_by_others.pk})
    # The same answer as for a game they played in: back to the game, report filed.
    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[played_by_others.pk])
    assert Report.objects.get().game is None


def test_the_form_names_no_game_the_reporter_may_not_see(
    client: Client, user: User, player: User
) -> None:
    private = SeatFactory(user=player, game__created_by=player, game__status="active").game
    client.force_login(user)
    url = reverse("moderation:report", args=[player.username])
    shown = client.get(url, {"game": private.pk}).content.decode()
    missing = client.get(url, {"game": private.pk + 1}).content.decode()
    assert f"#{private.pk}" not in shown
    # The number asked for comes back in the form (and in the language menu's way back
    # to this page); nothing else differs.
    assert _without_csrf(shown.encode()) == _without_csrf(missing.encode()).replace(
        f'value="{private.pk + 1}"', f'value="{private.pk}"'
    ).replace(f"?game={private.pk + 1}", f"?game={private.pk}")
    for value in ("²", "\x00", "9" * 30):
        assert client.get(url, {"game": value}).status_code == 200


def test_a_fresh_notification_says_now_and_an_older_one_how_long_ago(
    client: Client, user: User
) -> None:
    """Not "0 minutes ago": a notice of this minute reads "now"."""
    Notification.objects.create(user=user, text="fresh", url="/")
    older = Notification.objects.create(user=user, text="older", url="/")
    Notification.objects.filter(pk=older.pk).update(
        created_at=timezone.now() - datetime.timedelta(hours=3)
    )
    client.force_login(user)
    page = client.get(reverse("moderation:notifications")).content.decode()
    assert ">now</time>" in page and "3\xa0hours ago</time>" in page
    assert "0\xa0minutes" not in page
