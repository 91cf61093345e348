"""Seat.turns: each seat's rounds as limes-game/1 turns, copied from its moves."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

BATCH = 500


def _turn(move: Any) -> dict[str, Any]:
    # The limes-game/1 turn (docs: FORMATS.md section 2), as rules.turn_to_json writes it.
    worker: dict[str, Any] | None = None
    if move.worker == "place":
        worker = {"place": move.worker_to}
    elif move.worker == "move":
        worker = {"move": {"from": move.worker_from, "to": move.worker_to}}
    return {"card_at": [move.card_row, move.card_col], "rotation": move.rotation, "worker": worker}


def copy_moves(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    seats = Seat.objects.filter(rounds_played__gt=0).order_by("pk")
    last = 0
    while True:
        batch = list(seats.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        turns: dict[int, list[dict[str, Any]]] = {seat.pk: [] for seat in batch}
        for move in Move.objects.filter(seat__in=batch).order_by("seat_id", "round"):
            turns[move.seat_id].append(_turn(move))
        for seat in batch:
            seat.turns = turns[seat.pk]
        Seat.objects.bulk_update(batch, ["turns"])
        last = batch[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_verbose_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="turns",
            field=models.JSONField(
                blank=True, default=list, editable=False, null=True, verbose_name="turns"
            ),
        ),
        migrations.RunPython(copy_moves, migrations.RunPython.noop, elidable=True),
    ]
