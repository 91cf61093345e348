from __future__ import annotations

from django.contrib import admin

from puzzles.models import Attempt, Puzzle, PuzzlePlayer


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin[Puzzle]):
    list_display = ["pk", "origin", "round", "rating", "attempts", "solves", "created_at"]
    list_filter = ["origin", "diagonal", "ferryman"]
    readonly_fields = ["key", "seat", "cards", "turns", "best_turn", "best_value", "runner_up"]


@admin.register(PuzzlePlayer)
class PuzzlePlayerAdmin(admin.ModelAdmin[PuzzlePlayer]):
    list_display = ["user", "rating", "rd", "attempts", "streak", "best_streak"]
    raw_id_fields = ["user"]


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin[Attempt]):
    list_display = ["user", "puzzle", "result", "rating_before", "rating_after", "created_at"]
    list_filter = ["result"]
    raw_id_fields = ["user", "puzzle"]
