"""The shapes of the play layer's reads (`matches.selectors`): what a seat's line, a lobby card, a viewer's
snapshot, a log line, a legal action and a replay hold, as the API documents them (`matches.api_types`), and
what a fresh submit's answer holds for the submitter's snapshot."""

from __future__ import annotations

from typing import NotRequired, Protocol, TypedDict

from matches.games.kind import A, LegalActions, S
from matches.jsontypes import JSONObject, JSONValue
from matches.models import ActionLog, Match


class SeatSummary(TypedDict):
    """Who sits in a seat, its clock and timeouts (public facts only)."""

    position: int
    name: str
    is_ai: bool
    is_you: bool
    clock_ms: int
    running: bool
    deadline: str | None
    consecutive_timeouts: int
    house: str
    left: bool
    auto_pass: NotRequired[bool]  # the viewer's own seat only


class SeatingSummary(TypedDict):
    """The table's seating before the start (W-1.1) and the players the creator removed."""

    mode: str
    houses: list[str]
    free: list[str]
    kicked: list[str]
    picking: int | None


class RematchSummary(TypedDict):
    """A finished match's rematch offer."""

    offered_by: list[int]
    offered_by_names: list[str]
    players: list[int]
    match_id: int | None


class MatchSummary(TypedDict):
    """The lobby card of a match: no game state at all."""

    id: int
    kind: str
    status: str
    is_public: bool
    rated: bool
    unrated_reason: str
    auto_start: bool
    created_by: str
    created_at: str
    time_control: JSONObject
    state_version: int
    result: JSONObject | None
    seats: list[SeatSummary]
    seats_needed: int
    you: int | None
    result_text: str
    result_reason: str
    seating: SeatingSummary | None
    rematch: RematchSummary | None
    rematch_of: int | None
    invite_token: NotRequired[str]  # the creator's only


class LegalActionItem(TypedDict):
    """A legal action as the viewer submits it, in plain words."""

    action: JSONObject
    description: str


class LogItem(TypedDict):
    """One log line as one viewer may read it."""

    version: int
    seat: int
    source: str
    text: str
    created_at: str
    consequences: list[JSONObject]
    action: NotRequired[JSONValue]  # unless a part of it is hidden from the viewer


class Snapshot(MatchSummary):
    """Everything one viewer's page shows."""

    server_time: str
    log_since: int | None
    view: JSONObject | None
    current_players: list[int]
    legal_actions: list[LegalActionItem]
    log: list[LogItem]
    chat: JSONObject


class ReplayFrame(TypedDict):
    """One step of a replay: its log line (none for the start) and the view after it."""

    version: int
    seat: int | None
    text: str
    consequences: list[JSONObject]
    view: JSONObject
    source: NotRequired[str]
    created_at: NotRequired[str]
    action: NotRequired[JSONValue]


class Replay(TypedDict):
    """A finished match step by step, as one viewer may see it."""

    id: int
    kind: str
    result: JSONObject | None
    seats: list[SeatSummary]
    you: int | None
    frames: list[ReplayFrame]


class SubmitAnswer(Protocol[S, A]):
    """What a fresh submit's answer holds for the submitter's snapshot (`services.submit.SubmitResult`; reads
    do not import the services)."""

    @property
    def state_version(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def match(self) -> Match | None: ...

    @property
    def state(self) -> S | None: ...

    @property
    def entry(self) -> ActionLog | None: ...

    @property
    def entries(self) -> list[ActionLog]: ...

    @property
    def legal(self) -> LegalActions[S, A] | None: ...
