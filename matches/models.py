"""Online play for every game kind: matches, seats, the append-only action log, idempotency records."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config import jsoncodec
from config.lru import LruCache
from matches.jsontypes import JSONObject, JSONValue

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models.expressions import Expression

FROM_BASE = "__from_base__"  # key of a stored snapshot: its top-level keys kept once in Match.state_base
_BASES: LruCache[tuple[int, int], JSONObject] = LruCache(512)  # (match id, seed) -> state_base


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbits(62)


class MatchStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


def remember_base(match_id: int, seed: int, base: JSONObject) -> None:
    """Keep a match's start snapshot in this process (it never changes once the match has started)."""
    _BASES.put((match_id, seed), base)


def known_base(match_id: int, seed: int) -> JSONObject | None:
    return _BASES.get((match_id, seed))


def split_snapshot(state: JSONObject, base: JSONObject | None) -> JSONObject:
    """What is stored for `state`: its top-level parts equal to the start snapshot are named, not repeated."""
    if not isinstance(state, dict) or not isinstance(base, dict) or FROM_BASE in state:
        return state
    same: list[JSONValue] = [k for k, v in state.items() if k in base and (base[k] is v or base[k] == v)]
    if not same:
        return state
    return {FROM_BASE: same, **{k: v for k, v in state.items() if k not in same}}


def join_snapshot(stored: JSONValue, base: JSONObject | None) -> JSONValue:
    """The full snapshot from what `split_snapshot` stored (a snapshot stored whole is returned as is)."""
    if not isinstance(stored, dict) or FROM_BASE not in stored:
        return stored
    if not isinstance(base, dict):
        raise ValueError("a split state snapshot needs its match's state_base")
    names = cast("list[str]", stored[FROM_BASE])  # split_snapshot wrote the names of base's keys
    return {**{k: base[k] for k in names}, **{k: v for k, v in stored.items() if k != FROM_BASE}}


class SnapshotField(models.JSONField):
    """The engine snapshot column: saved without the parts equal to `Match.state_base` (docs/style.md 10).

    Readers always see the full snapshot (`Match.from_db` joins it back), so `match.state` means the
    same everywhere; only the bytes written per action shrink (a Commandeer snapshot repeats ~40 KB of
    card definitions, a Westeros one ~55 KB of map data, which never change during a match).
    """

    def pre_save(self, model_instance: models.Model, add: bool) -> JSONValue:
        value = super().pre_save(model_instance, add)
        return split_snapshot(value, model_instance.snapshot_base())  # type: ignore[attr-defined]

    # The snapshot is the largest JSON written and read per action: orjson (config.jsoncodec) writes and
    # reads it in a fraction of the standard library's time, to and from the same JSON.
    def get_db_prep_value(
        self, value: object, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> object:
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=jsoncodec.dumps)
        return jsoncodec.dumps(value).decode()

    def from_db_value(
        self, value: str | bytes | None, expression: Expression, connection: BaseDatabaseWrapper
    ) -> object:
        if isinstance(value, (str, bytes)):
            try:
                return jsoncodec.loads(value)
            except ValueError:
                return value  # as JSONField does with what is not JSON
        return super().from_db_value(value, expression, connection)


class Match(models.Model):
    """One match of one game kind. `seed` and `state` are server-side only; views go through the engine."""

    kind = models.CharField(
        max_length=30,
        db_index=True,
        help_text=_("Game kind (matches.games registry)"),
        verbose_name=_("kind"),
    )
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.WAITING, verbose_name=_("status")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    seed = models.BigIntegerField(
        help_text=_("Secret RNG seed; never shown while the match runs"), verbose_name=_("seed")
    )
    rules_config = models.JSONField(default=dict, blank=True, verbose_name=_("rules config"))
    state = SnapshotField(
        null=True, blank=True, help_text=_("Engine state snapshot (server only)"), verbose_name=_("state")
    )
    state_base = models.JSONField(
        null=True,
        editable=False,
        blank=True,
        help_text=_("The snapshot at the start: `state` stores only what differs (server only)"),
        verbose_name=_("state base"),
    )
    state_version = models.PositiveIntegerField(default=0, verbose_name=_("state version"))
    time_control = models.JSONField(default=dict, blank=True, verbose_name=_("time control"))
    is_public = models.BooleanField(
        default=True, help_text=_("Anyone may join (while open) and spectate"), verbose_name=_("is public")
    )
    rated = models.BooleanField(
        default=False,
        help_text=_("The result changes the players' ratings (humans only, a time control)"),
        verbose_name=_("rated"),
    )
    spectator_chat = models.BooleanField(
        default=False,
        help_text=_("Set at creation: spectators may write in the match's spectator chat channel"),
        verbose_name=_("spectator chat"),
    )
    # The API's and the lobby's default is on; off here, so matches made before it (and by code that starts
    # its own matches) keep waiting for a start.
    auto_start = models.BooleanField(
        default=False,
        help_text=_("Set at creation: the match starts by itself when its last seat is taken"),
        verbose_name=_("auto start"),
    )
    invite_token = models.CharField(
        max_length=40, unique=True, default=new_invite_token, verbose_name=_("invite token")
    )
    result = models.JSONField(
        null=True, blank=True, help_text=_('{"winner": seat|null, "reason": str}'), verbose_name=_("result")
    )
    # A failing AI/clock task (matches.tasks): counted, retried after a back-off, then the match is aborted
    # with reason "internal_error" (services.task_failed). Server and staff only.
    task_failures = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Failures in a row of this match's AI or clock task"),
        verbose_name=_("task failures"),
    )
    task_retry_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Back-off: the sweep does not run the match's tasks before then"),
        verbose_name=_("task retry at"),
    )
    task_error = models.TextField(
        blank=True,
        default="",
        help_text=_("The last task failure (staff only)"),
        verbose_name=_("task error"),
    )
    # A double submit of "create" returns the first match (services.lobby.match_create_once): the digest of the
    # creator's settings, or of their Idempotency-Key.
    create_digest = models.CharField(
        max_length=64, blank=True, default="", editable=False, verbose_name=_("create digest")
    )
    # The lobby's own facts (services.lobby / services.rematch): users the creator removed from the unstarted
    # table {"kicked": [{"user_id", "name"}]}, and the rematch offers of a finished match {"rematch": [seat
    # positions that asked]}. Public facts, shown in the snapshot.
    lobby = models.JSONField(default=dict, blank=True, verbose_name=_("lobby"))
    # The finished match this one is the rematch of: one rematch per match (the unique key makes a double
    # click create one match only).
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        editable=False,
        verbose_name=_("rematch of"),
    )

    # Not a column: the seats read together with the match (`matches.storage` / `matches.queries`), so the
    # reads of the same request need no second query; None when they were not read with it.
    seats_loaded: list[Seat] | None = None

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "is_public"]),
            models.Index(fields=["created_by", "create_digest"], name="match_create_digest"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} match #{self.pk} ({self.status})"

    @classmethod
    def from_db(cls, db: str | None, field_names: Collection[str], values: Collection[object]) -> Match:
        """Rows hold the snapshot split from its start part: hand readers the whole snapshot."""
        instance = super().from_db(db, field_names, values)
        loaded = instance.__dict__
        if isinstance(loaded.get("state_base"), dict) and loaded.get("seed") is not None:
            remember_base(instance.pk, loaded["seed"], loaded["state_base"])
        stored = loaded.get("state")
        if isinstance(stored, dict) and FROM_BASE in stored:
            instance.state = join_snapshot(stored, instance.snapshot_base())
        return instance

    def snapshot_base(self) -> JSONObject | None:
        """The start snapshot: loaded, else this process's copy, else one query (never changes after start)."""
        loaded = self.__dict__
        if "state_base" in loaded:
            base: JSONObject | None = loaded["state_base"]
            return base
        if self.pk is None:
            return None
        seed = loaded.get("seed")
        if seed is not None and (base := known_base(self.pk, seed)) is not None:
            return base
        row = Match.objects.filter(pk=self.pk).values_list("seed", "state_base").first()
        if row is None or row[1] is None:
            return None
        remember_base(self.pk, row[0], row[1])
        stored: JSONObject = row[1]
        return stored


class Seat(models.Model):
    """A place at the table: a user or an AI, its deck snapshot and its clock."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("user"),
    )
    ai_agent = models.CharField(
        max_length=20,
        blank=True,
        help_text=_("Non-empty for an AI seat, e.g. greedy"),
        verbose_name=_("AI agent"),
    )
    deck_id = models.BigIntegerField(
        null=True,
        blank=True,
        help_text=_("decks.Deck chosen (checked at start)"),
        verbose_name=_("deck id"),
    )
    deck_snapshot = models.JSONField(
        default=dict, blank=True, help_text=_("Deck as played (server only)"), verbose_name=_("deck snapshot")
    )
    clock_remaining_ms = models.BigIntegerField(default=0, verbose_name=_("clock remaining (ms)"))
    clock_started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("clock started at"))
    clock_carry_ms = models.BigIntegerField(
        default=0,
        help_text=_(
            "For a decision taken back (matches.clocks.SeatClock.carry_ms): the last increment added, "
            "or the time used on the decision so far"
        ),
        verbose_name=_("clock carry (ms)"),
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True, verbose_name=_("deadline"))
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0, verbose_name=_("consecutive timeouts"))
    has_moved = models.BooleanField(default=False, verbose_name=_("has moved"))
    auto_pass = models.BooleanField(
        default=True,
        help_text=_(
            "Pass at once for this seat when the phase's Pass is its only legal action (the player's choice)"
        ),
        verbose_name=_("auto pass"),
    )
    # Westeros: the house this seat plays (W-1.1), picked in the waiting room or drawn at the start.
    house = models.CharField(max_length=20, blank=True, default="", verbose_name=_("house"))
    # The player left the running game and the AI plays their seat on (their name stays, marked).
    left_at = models.DateTimeField(null=True, blank=True, verbose_name=_("left at"))
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=_("joined at"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=models.Q(user__isnull=False), name="seat_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of match #{self.match_id}"

    @property
    def is_ai(self) -> bool:
        return bool(self.ai_agent)

    def _name_parts(self) -> tuple[str, list[str]]:
        """The seat's name and its marks: ("alice", []), ("AI", ["hard"]), ("alice", ["AI", "left"])."""
        if not self.is_ai:
            return (self.user.get_username() if self.user else "?"), []
        if self.user_id is None:
            return "AI", [self.ai_agent]
        return (self.user.get_username() if self.user else "?"), ["AI", "left"] if self.left_at else ["AI"]

    @property
    def display_name(self) -> str:
        """The player's name; an AI seat that was a player's keeps their name, marked "(AI, left)" when they
        left the game, "(AI)" when the AI took over otherwise (a concession, timeouts)."""
        name, marks = self._name_parts()
        return f"{name} ({', '.join(marks)})" if marks else name

    @property
    def title(self) -> str:
        """The seat in a sentence about the whole table: in Westeros its house first, "Stark (alice)",
        "Stark (AI, hard)", "Stark (alice, AI)" (six seats may be "AI (hard)"); otherwise `display_name`."""
        if not self.house:
            return self.display_name
        name, marks = self._name_parts()
        return f"{self.house.title()} ({', '.join([name, *marks])})"


class ActionLog(models.Model):
    """Append-only: one row per applied action; `version` is the state version it produced (1, 2, ...)."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        AI = "ai", _("AI")
        TIMEOUT = "timeout", _("Timeout default")
        AUTO = "auto", _("Automatic pass")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="actions", verbose_name=_("match")
    )
    version = models.PositiveIntegerField(verbose_name=_("version"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    source = models.CharField(
        max_length=10, choices=Source.choices, default=Source.PLAYER, verbose_name=_("source")
    )
    action = models.JSONField(verbose_name=_("action"))
    descriptions = models.JSONField(
        default=dict,
        help_text=_('Plain words per viewer: {"0": ..., "1": ..., "spectator": ...}'),
        verbose_name=_("descriptions"),
    )
    messages = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            'The same words as messages, rendered in each reader\'s language: {"game", "names": '
            '{"1": name, ...}, "0": message, "1": ..., "spectator": ...} (docs/play-layer.md); empty on older rows'
        ),
        verbose_name=_("messages"),
    )
    consequences = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            'What the action caused, per viewer: {"0": [...], "1": [...], "spectator": [...]}, '
            'each item {"text", "kind", "square", "amount"} (docs/play-layer.md)'
        ),
        verbose_name=_("consequences"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("action log")
        verbose_name_plural = _("action logs")
        ordering = ["match", "version"]
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="actionlog_unique_version")]

    def __str__(self) -> str:
        return f"#{self.match_id} v{self.version}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("The action log is append-only.")
        super().save(*args, **kwargs)


class IdempotencyRecord(models.Model):
    """The first answer to a submission key: a retried request returns it instead of applying again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user"))
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="idempotency_records", verbose_name=_("match")
    )
    key = models.CharField(max_length=100, verbose_name=_("key"))
    request_hash = models.CharField(max_length=64, verbose_name=_("request hash"))
    response = models.JSONField(verbose_name=_("response"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(fields=["user", "match", "key"], name="idempotency_unique_key")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class ChatMessage(models.Model):
    """One chat message of a match channel (`matches.chat` decides who reads and writes which channel).

    Never part of the action log. Staff hide a message from the admin: it stays here for review, marked
    hidden, and no read returns it. Private channels ("private:<house>-<house>") are never shown in the
    admin: only the two houses' players ever read them (docs/play-layer.md, "Chat").
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("match")
    )
    channel = models.CharField(
        max_length=40, help_text=_('"table", "spectators" or "private:<a>-<b>"'), verbose_name=_("channel")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("author")
    )
    seat = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("The author's seat then, if any"),
        verbose_name=_("seat"),
    )
    body = models.TextField(max_length=500, verbose_name=_("body"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    hidden = models.BooleanField(
        default=False, help_text=_("Hidden by staff: kept for review, never shown"), verbose_name=_("hidden")
    )
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_at = models.DateTimeField(null=True, blank=True, verbose_name=_("hidden at"))

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "channel", "id"], name="chat_channel_history")]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.channel} {self.pk}"


class ChatMute(models.Model):
    """`user` no longer sees `muted`'s chat messages (in any match; filtered on the server)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes", verbose_name=_("user")
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("muted")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class YourTurnEmail(models.Model):
    """One "your turn" e-mail sent for one seat's deadline (matches.services.emails).

    The unique constraint is the at-most-once guarantee: the row is inserted in the same transaction
    that sends the mail, so a retried task or a second worker finds it and sends nothing.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    deadline = models.DateTimeField(verbose_name=_("deadline"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    sent_at = models.DateTimeField(auto_now_add=True, verbose_name=_("sent at"))

    class Meta:
        verbose_name = _("your-turn e-mail")
        verbose_name_plural = _("your-turn e-mails")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position", "deadline"], name="your_turn_email_once_per_deadline"
            )
        ]

    def __str__(self) -> str:
        return f"your-turn e-mail #{self.match_id} seat {self.position} ({self.deadline:%Y-%m-%d %H:%M})"


# Ratings of rated matches (Glicko-2 per Commandeer player, OpenSkill per Westeros player) and the cached
# end-of-game summary of a finished match. The writes are `matches.services.ratings`; the reads
# `matches.players` and `matches.summary`.


class PlayerRating(models.Model):
    """One player's rating in one game kind (only rated games count; see `services.ratings`).

    Glicko-2 kinds use `rating`, `deviation`, `volatility`; OpenSkill kinds `mu`, `sigma`, and `rating` is
    the displayed ordinal. `rating` is always the number shown and sorted on.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user")
    )
    kind = models.CharField(
        max_length=30, help_text=_("Game kind (matches.games registry)"), verbose_name=_("kind")
    )
    rating = models.FloatField(
        help_text=_("The displayed rating (Glicko-2 rating, or OpenSkill ordinal)"), verbose_name=_("rating")
    )
    deviation = models.FloatField(
        default=0.0, help_text=_("Glicko-2 rating deviation (RD)"), verbose_name=_("deviation")
    )
    volatility = models.FloatField(
        default=0.0, help_text=_("Glicko-2 volatility"), verbose_name=_("volatility")
    )
    mu = models.FloatField(default=0.0, help_text=_("OpenSkill mu"), verbose_name=_("mu"))
    sigma = models.FloatField(default=0.0, help_text=_("OpenSkill sigma"), verbose_name=_("sigma"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    wins = models.PositiveIntegerField(default=0, verbose_name=_("wins"))
    losses = models.PositiveIntegerField(default=0, verbose_name=_("losses"))
    draws = models.PositiveIntegerField(default=0, verbose_name=_("draws"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="playerrating_one_per_kind")]
        indexes = [models.Index(fields=["kind", "-rating"], name="playerrating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating: written once, in the transaction that ends the match."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("user"),
    )
    kind = models.CharField(max_length=30, verbose_name=_("kind"))
    position = models.PositiveSmallIntegerField(help_text=_("The user's seat"), verbose_name=_("position"))
    place = models.PositiveSmallIntegerField(
        help_text=_("Final standing: 1 = first (equal places share a number)"),
        verbose_name=_("place"),
    )
    score = models.FloatField(
        help_text=_("1 win, 0.5 draw, 0 loss (Glicko-2); share of opponents beaten (OpenSkill)"),
        verbose_name=_("score"),
    )
    before = models.FloatField(verbose_name=_("before"))
    after = models.FloatField(verbose_name=_("after"))
    deviation_after = models.FloatField(
        default=0.0,
        help_text=_("RD (Glicko-2) or sigma (OpenSkill) after"),
        verbose_name=_("deviation after"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratingchange_once_per_match")]
        indexes = [models.Index(fields=["user", "kind", "-created_at"], name="ratingchange_history")]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.user_id}: {self.before:.0f} -> {self.after:.0f}"


class MatchSummary(models.Model):
    """The end-of-game summary of a finished match, computed once from its log (`matches.summary`)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="game_summary", verbose_name=_("match")
    )
    data = models.JSONField(verbose_name=_("data"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("match summary")
        verbose_name_plural = _("match summaries")

    def __str__(self) -> str:
        return f"summary of #{self.match_id}"
