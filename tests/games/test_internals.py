"""floor.internals: the reads compiled once give what the plain ORM gives, and the site
refuses to start on a Django the module was not written for."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import django
import pytest
from django.core import checks
from django.db.models import Model
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import Notification, User
from floor import internals
from games import selectors, services
from games.models import Game, Seat
from leaderboards.models import PlayerTotals, SoloStanding, WeeklyBest
from leaderboards.services import game_finished
from limes_site.chrome import menu_counts
from tests.factories import FinishedSoloFactory, UserFactory, reference_turn_of

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def fields(obj: object) -> dict[str, object]:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def seat_fields(seats: list[Seat]) -> list[tuple[object, ...]]:
    return [(fields(s), fields(s.game), s.user and fields(s.user)) for s in seats]


def plain_orm(settings: SettingsWrapper) -> None:
    settings.LIMES_ORM_INTERNALS = False
    assert not internals.in_use()


def test_the_game_read_gives_the_same_objects_without_the_internals(
    user: User,
    play_rounds: Callable[[Game, int], Game],
    settings: SettingsWrapper,
    django_assert_num_queries: Callable[..., Any],
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=3), 2)
    multi = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE, bots=["easy"])
    services.game_join(game=multi, user=UserFactory())
    assert internals.in_use()
    compiled = {pk: selectors.game_with_seats(pk) for pk in (game.pk, multi.pk)}
    plain_orm(settings)
    for pk, fast in compiled.items():
        # The plain ORM reads the seats, then hands them to the game by a prefetch.
        with django_assert_num_queries(2):
            loaded = selectors.game_with_seats(pk)
            assert loaded is not None and fast is not None
            seats = list(loaded.seats.all())
            # Everything the page reads of them came with those queries.
            assert seat_fields(seats) == seat_fields(list(fast.seats.all()))
        assert all(s.game is loaded for s in seats)
        assert fields(loaded) == fields(fast)
    assert selectors.game_with_seats(game.pk + 1000) is None


def test_a_game_handed_its_seats_reads_them_as_a_prefetch_would_either_way(
    user: User, settings: SettingsWrapper, django_assert_num_queries: Callable[..., Any]
) -> None:
    game = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=UserFactory())
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
    handed = selectors.with_seats(Game.objects.get(pk=game.pk), seats)
    with django_assert_num_queries(0):
        expected = [(fields(s), s.user and fields(s.user)) for s in handed.seats.all()]
    plain_orm(settings)
    # The plain ORM reads them again (one query), to the same seats.
    fresh = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(1):
        again = selectors.with_seats(fresh, seats)
    with django_assert_num_queries(0):
        assert [(fields(s), s.user and fields(s.user)) for s in again.seats.all()] == expected


def test_the_menu_counts_the_same_without_the_internals(
    user: User, settings: SettingsWrapper, django_assert_num_queries: Callable[..., Any]
) -> None:
    ana = UserFactory(username="ana")
    game = services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=ana)
    round_number, turn = reference_turn_of(Game.objects.get(pk=game.pk), user)
    services.move_submit(game_id=game.pk, user=user, round_number=round_number, turn=turn)
    Notification.objects.create(user=user, text="one")
    Notification.objects.create(user=ana, text="two")
    Notification.objects.create(user=ana, text="three")
    with django_assert_num_queries(1):
        mine = menu_counts(user=user)
    compiled = [mine, menu_counts(user=ana)]
    assert [(c.games_waiting, c.unread_notifications) for c in compiled] == [(0, 1), (1, 2)]
    plain_orm(settings)
    assert [menu_counts(user=u) for u in (user, ana)] == compiled


def _board_rows(user: User) -> list[dict[str, object]]:
    rows: list[Model] = [
        *SoloStanding.objects.filter(user=user),
        *PlayerTotals.objects.filter(user=user),
        *WeeklyBest.objects.filter(user=user),
    ]
    ignored = {"id", "user_id", "best_game_id", "game_id"}
    return [{k: v for k, v in fields(row).items() if k not in ignored} for row in rows]


def _finish_solo_games(user: User, scores: list[int]) -> None:
    start = datetime.datetime(2026, 6, 10, 9, 0, tzinfo=datetime.UTC)
    for i, score in enumerate(scores):
        seat = FinishedSoloFactory(
            game__created_by=user,
            game__finished_at=start + datetime.timedelta(minutes=i),
            score=score,
        )
        game_finished(game=seat.game, seats=[Seat.objects.select_related("user").get(pk=seat.pk)])


def test_the_standings_upsert_writes_the_rows_the_plain_orm_writes(
    settings: SettingsWrapper,
) -> None:
    # Twelve results: the recent average counts the last ten; a tie keeps the earlier best.
    scores = [38, 45, 41, 45, 30, 44, 39, 42, 40, 36, 43, 37]
    compiled, plain = UserFactory(), UserFactory()
    _finish_solo_games(compiled, scores)
    plain_orm(settings)
    _finish_solo_games(plain, scores)
    assert _board_rows(plain) == _board_rows(compiled)
    standing = SoloStanding.objects.get(user=plain)
    assert (standing.games, standing.best_score) == (12, 45)
    assert standing.recent_average == sum(scores[-10:]) / 10
    first_45 = Game.objects.filter(created_by=plain, seats__score=45).order_by("finished_at")[0]
    assert standing.best_game_id == first_45.pk


def test_the_site_refuses_a_django_it_was_not_written_for(
    monkeypatch: pytest.MonkeyPatch, settings: SettingsWrapper
) -> None:
    assert internals.check_django_version() == []
    monkeypatch.setattr(django, "VERSION", (6, 0, 0, "final", 0))
    errors = checks.run_checks(tags=[checks.Tags.compatibility])
    assert [e.id for e in errors] == ["limes.E001"]
    assert errors[0].level == checks.ERROR
    assert "written for Django 5.2, not 6.0" in errors[0].msg
    # Meanwhile nothing reaches into the unknown Django: the plain ORM serves the pages.
    assert not internals.in_use()
    settings.LIMES_ORM_INTERNALS = False
    assert internals.check_django_version() == []


def _row(model: type[Model], pk: int) -> dict[str, object]:
    return dict(model._default_manager.filter(pk=pk).values().get())


def test_the_columns_saver_writes_what_save_writes_and_sends_its_signals(
    user: User, settings: SettingsWrapper
) -> None:
    from django.db import DatabaseError
    from django.db.models.signals import post_save, pre_save

    game = services.game_create_solo(user=user, seed=3)
    saver = internals.ColumnsSaver(Game, ("version", "updated_at", "round"))
    sent: list[tuple[str, object, object]] = []

    def heard(signal: str) -> Callable[..., None]:
        def receiver(sender: object, instance: Game, **kwargs: Any) -> None:
            sent.append((signal, instance.version, kwargs.get("update_fields")))

        return receiver

    before, after = heard("pre"), heard("post")
    pre_save.connect(before, sender=Game)
    post_save.connect(after, sender=Game)
    try:
        game.version, game.round, game.seats_max = 5, 2, 9  # seats_max: not written
        saver(game)
        fast = _row(Game, game.pk)
        fast_sent = list(sent)
        plain_orm(settings)
        game.version += 1
        sent.clear()
        saver(game)
        plain = _row(Game, game.pk)
    finally:
        pre_save.disconnect(before, sender=Game)
        post_save.disconnect(after, sender=Game)
    assert fast["version"] == 5 and fast["round"] == 2 and fast["seats_max"] != 9
    assert plain["updated_at"] != fast["updated_at"]  # stamped, as auto_now is
    written = frozenset({"version", "updated_at", "round"})
    assert fast_sent == [("pre", 5, written), ("post", 5, written)]
    assert sent == [("pre", 6, written), ("post", 6, written)]
    assert {k: v for k, v in fast.items() if k not in ("version", "updated_at")} == {
        k: v for k, v in plain.items() if k not in ("version", "updated_at")
    }
    settings.LIMES_ORM_INTERNALS = True
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        saver(game)


def test_the_inserter_adds_the_row_create_adds(user: User, settings: SettingsWrapper) -> None:
    from games.models import Move

    game = services.game_create_solo(user=user, seed=3)
    seat = game.seats.get()
    insert = internals.Inserter(Move)
    values: dict[str, Any] = {
        "seat": seat,
        "round": 1,
        "card": 7,
        "card_row": 0,
        "card_col": 1,
        "rotation": 90,
        "worker": Move.Worker.MOVE,
        "worker_from": [0, 0],
        "worker_to": [1, 1],
    }
    fast = insert(**values)
    assert fast.pk is not None and not fast._state.adding
    plain_orm(settings)
    plain = insert(**{**values, "round": 2})
    ours, theirs = _row(Move, fast.pk), _row(Move, plain.pk)
    for row in (ours, theirs):
        row.pop("id")
        assert isinstance(row.pop("created_at"), datetime.datetime)
    assert ours == {**theirs, "round": 1}
    assert fast.worker_from == [0, 0] and ours["worker_to"] == [1, 1]


def test_the_inserter_keeps_an_id_given_and_refuses_an_unsaved_relation(user: User) -> None:
    from games.models import Move

    game = services.game_create_solo(user=user, seed=3)
    seat = game.seats.get()
    insert = internals.Inserter(Move)
    values: dict[str, Any] = {
        "seat": seat,
        "round": 1,
        "card": 7,
        "card_row": 0,
        "card_col": 1,
        "rotation": 0,
    }
    given = insert(**values, pk=987_654)
    assert given.pk == 987_654 and Move.objects.filter(pk=987_654).exists()
    # As create: a seat not saved yet is an error, and no row is written.
    with pytest.raises(ValueError, match="unsaved related object"):
        insert(**{**values, "seat": Seat(game=game, user=user)})
    assert Move.objects.count() == 1
