"""A game for one or more players sharing one card sequence, and its outcome."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.board import Board
from rules.deck import Deck, load_deck
from rules.errors import IllegalMoveError, InvalidInputError
from rules.landscape import Score
from rules.model import ROUNDS, Card, Turn, Variants


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's result: score, place (1 = first) and whether the place is shared."""

    player: str
    score: Score
    place: int
    shared: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """Totals, tie-break lists and places; ``ranking`` groups players who share a place."""

    scores: Mapping[str, Score]
    ranking: tuple[tuple[str, ...], ...]

    @property
    def standings(self) -> list[Standing]:
        """One ``Standing`` per player, best first."""
        result = []
        place = 1
        for group in self.ranking:
            for player in group:
                result.append(Standing(player, self.scores[player], place, len(group) > 1))
            place += len(group)
        return result

    @property
    def winners(self) -> tuple[str, ...]:
        """The players in first place (several when they share the win)."""
        return self.ranking[0] if self.ranking else ()


def rank(scores: Mapping[str, Score]) -> tuple[tuple[str, ...], ...]:
    """Group players by place: total first, then best worker, second best, and so on."""
    longest = max((len(score.tiebreak) for score in scores.values()), default=0)

    def key(player: str) -> tuple[int, ...]:
        score = scores[player]
        return (score.total, *score.tiebreak, *[0] * (longest - len(score.tiebreak)))

    groups: list[list[str]] = []
    previous: tuple[int, ...] | None = None
    for player in sorted(scores, key=lambda p: (tuple(-k for k in key(p)), p)):
        if key(player) == previous:
            groups[-1].append(player)
        else:
            groups.append([player])
            previous = key(player)
    return tuple(tuple(group) for group in groups)


class Game:
    r"""A game of Limes: every player builds a landscape from the same cards.

    Each round reveals the next card; every player then plays a ``Turn`` with it, in any
    order. When all have played, the next round begins. The game ends after 16 rounds, or
    when no player is left: a player who ``retire``\ s (resigns, or runs out of time) plays
    no more rounds and takes last place, and the others go on without them.
    """

    def __init__(
        self,
        players: Sequence[str],
        cards: Sequence[int],
        *,
        variants: Variants = Variants(),
        deck: Deck | None = None,
    ) -> None:
        if not players:
            raise InvalidInputError("a game needs at least one player")
        if len(set(players)) != len(players):
            raise InvalidInputError("two players have the same name")
        self.deck = deck or load_deck()
        self.players = tuple(players)
        self.cards = tuple(cards)
        for number in self.cards:
            self.deck.card(number)
        if len(set(self.cards)) != len(self.cards):
            raise InvalidInputError("a card appears twice in the card sequence")
        if len(self.cards) > ROUNDS:
            raise InvalidInputError(f"a game reveals at most {ROUNDS} cards, not {len(self.cards)}")
        self.variants = variants
        self.boards: dict[str, Board] = {player: Board() for player in self.players}
        self.turns: list[dict[str, Turn]] = []
        # Players who left, in the order they left, with the rounds they had played.
        self.retired: dict[str, int] = {}

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        rng: random.Random,
        *,
        variants: Variants = Variants(),
        deck: Deck | None = None,
    ) -> Game:
        """A new game whose 16 cards are dealt from the deck with ``rng``."""
        deck = deck or load_deck()
        return cls(players, deck.deal(rng), variants=variants, deck=deck)

    @classmethod
    def from_turns(
        cls,
        players: Sequence[str],
        cards: Sequence[int],
        turns: Mapping[str, Sequence[Turn]],
        *,
        retired: Iterable[str] = (),
        variants: Variants = Variants(),
        deck: Deck | None = None,
    ) -> Game:
        """The game as it stands after each player's ``turns``, without checking a rule.

        ``turns[player][i]`` is the player's turn of round ``i + 1``; ``retired`` names the
        players who left, in the order they left (each after their last turn). For games
        whose turns were checked when played: the same game as replaying them, except that
        within a round the turns are listed in seat order, not in the order they came.
        Raises ``InvalidInputError`` for an unknown player or more turns than cards.
        """
        game = cls(players, cards, variants=variants, deck=deck)
        leaving = list(retired)
        unknown = [player for player in [*turns, *leaving] if player not in game.boards]
        if unknown:
            raise InvalidInputError(f"{unknown[0]!r} does not play in this game")
        dealt = [game.deck.card(number) for number in game.cards]
        for player, own in turns.items():
            game.boards[player] = Board.from_turns(dealt, own)
        rounds = max((len(own) for own in turns.values()), default=0)
        game.turns = [
            {player: turns[player][i] for player in game.players if len(turns.get(player, ())) > i}
            for i in range(rounds)
        ]
        for player in leaving:
            game.retired[player] = len(turns.get(player, ()))
        return game

    @property
    def active_players(self) -> list[str]:
        """The players still in the game, in seat order."""
        return [player for player in self.players if player not in self.retired]

    @property
    def round(self) -> int:
        """The round in play, 1 to 16; 17 once all 16 rounds have been played."""
        if self.turns and any(player not in self.turns[-1] for player in self.active_players):
            return len(self.turns)
        return len(self.turns) + 1

    @property
    def is_over(self) -> bool:
        """Whether all 16 rounds have been played, or every player has left."""
        return self.round > ROUNDS or not self.active_players

    def rounds_played(self, player: str) -> int:
        """How many rounds ``player`` has played."""
        return sum(1 for turns in self.turns if player in turns)

    @property
    def current_card(self) -> Card | None:
        """The card revealed for the round in play; ``None`` when over or not yet known."""
        if self.is_over or self.round > len(self.cards):
            return None
        return self.deck.card(self.cards[self.round - 1])

    @property
    def revealed(self) -> tuple[int, ...]:
        """The card numbers revealed so far, in order."""
        return self.cards[: min(self.round, ROUNDS, len(self.cards))]

    def waiting_for(self) -> list[str]:
        """The players who still have to play the round in play, in seat order."""
        if self.is_over:
            return []
        played = self.turns[-1] if self.round == len(self.turns) else {}
        return [player for player in self.active_players if player not in played]

    def check(self, player: str, turn: Turn) -> Board:
        """The player's board after ``turn``, without playing it; raises on a broken rule."""
        if player not in self.boards:
            raise IllegalMoveError(f"{player!r} does not play in this game")
        if player in self.retired:
            raise IllegalMoveError(f"{player} has left the game")
        if self.is_over:
            raise IllegalMoveError("the game is over: all 16 rounds have been played")
        if player not in self.waiting_for():
            raise IllegalMoveError(f"{player} has already played round {self.round}")
        card = self.current_card
        if card is None:
            raise IllegalMoveError(f"the card of round {self.round} is not known")
        return self.boards[player].play(card, turn, self.variants)

    def play(self, player: str, turn: Turn) -> None:
        """Play ``player``'s turn of the round in play: all of it, or nothing if illegal."""
        board = self.check(player, turn)
        if self.round > len(self.turns):
            self.turns.append({})
        self.turns[-1][player] = turn
        self.boards[player] = board

    def retire(self, player: str) -> None:
        """Take ``player`` out of the game: they play no more rounds and rank last.

        Their landscape stays as it is. Raises ``IllegalMoveError`` if they are not in the
        game, have already left, or the game is over.
        """
        if player not in self.boards:
            raise IllegalMoveError(f"{player!r} does not play in this game")
        if player in self.retired:
            raise IllegalMoveError(f"{player} has already left the game")
        if self.is_over:
            raise IllegalMoveError("the game is over")
        self.retired[player] = self.rounds_played(player)

    def scores(self) -> dict[str, Score]:
        """Every player's score as the landscapes stand (final once the game is over)."""
        return {player: board.landscape.score() for player, board in self.boards.items()}

    def outcome(self) -> Outcome:
        """Totals, tie-break lists and places, as the game stands.

        Players still in the game are ranked by score (see ``rank``); those who left come
        after them, the more rounds played the better, sharing a place on equal rounds.
        """
        scores = self.scores()
        active = {player: scores[player] for player in self.active_players}
        ranking = list(rank(active))
        by_rounds = sorted(set(self.retired.values()), reverse=True)
        for rounds in by_rounds:
            ranking.append(tuple(p for p in self.players if self.retired.get(p) == rounds))
        return Outcome(scores, tuple(ranking))

    def replay_turns(self, turns: Iterable[Mapping[str, Turn]]) -> None:
        """Play recorded rounds in order; the error names the round and the player."""
        for round_turns in turns:
            for player, turn in round_turns.items():
                number = self.round
                try:
                    self.play(player, turn)
                except IllegalMoveError as error:
                    raise IllegalMoveError(f"round {number}, player {player}: {error}") from None
