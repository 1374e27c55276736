"""Pages of players' records: a profile (/players/<username>/) and a leaderboard per game kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from config.errors import ApplicationError
from matches import players
from matches.pages import game_label

# How a listed game ended, in the reader's language (players.SHORT_REASONS keeps the English for the API).
REASON_LABELS = {
    "concede": _("by concession"),
    "concession": _("by concession"),
    "timeout": _("on time"),
    "six_defeated": _("six defeated"),
    "no_units": _("no units left"),
    "turn_limit": _("turn limit"),
    "seven_castles": _("seven castles"),
    "round_limit": _("after the last round"),
    "aborted": _("aborted: no first move"),
}

CHART_W, CHART_H, CHART_PAD = 600, 160, 24  # the rating chart's SVG box (it scales to its column)


class ChartDot(TypedDict):
    x: float
    y: float
    rating: int
    match: int | None


class RatingChart(TypedDict):
    width: int
    height: int
    points: str  # the SVG polyline's points
    dots: list[ChartDot]
    high: int
    low: int
    high_y: int
    low_y: int
    first: int
    last: int


def rating_chart(history: Sequence[players.RatingPoint]) -> RatingChart | None:
    """The rating history as an SVG polyline: points in a CHART_W × CHART_H box, and its axis labels."""
    if not history:
        return None
    values = [history[0]["before"]] + [h["rating"] for h in history]
    low: float  # widened to a float around a flat line
    high: float
    low, high = min(values), max(values)
    if high - low < 40:  # a flat line sits mid-chart, not on an edge
        mid = (high + low) / 2
        low, high = mid - 20, mid + 20
    span_x = max(1, len(values) - 1)
    inner_w, inner_h = CHART_W - 2 * CHART_PAD, CHART_H - 2 * CHART_PAD

    def xy(i: int, v: float) -> tuple[float, float]:
        return (
            round(CHART_PAD + inner_w * i / span_x, 1),
            round(CHART_PAD + inner_h * (1 - (v - low) / (high - low)), 1),
        )

    points = [xy(i, v) for i, v in enumerate(values)]
    dots: list[ChartDot] = [
        {"x": x, "y": y, "rating": h["rating"], "match": h["match"]}
        for (x, y), h in zip(points[1:], history, strict=True)
    ]
    return {
        "width": CHART_W,
        "height": CHART_H,
        "points": " ".join(f"{x},{y}" for x, y in points),
        "dots": dots,
        "high": round(high),
        "low": round(low),
        "high_y": CHART_PAD,
        "low_y": CHART_H - CHART_PAD,
        "first": values[0],
        "last": values[-1],
    }


def _or_404(error: ApplicationError) -> Http404:
    return Http404(error.message)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public profile."""
    try:
        data = players.player_profile(username=username, viewer=request.user)
    except ApplicationError as error:
        raise _or_404(error) from error
    for k in data["kinds"]:
        k["chart"] = rating_chart(k["history"])
        k["label"] = game_label(k["kind"])
    for g in data["recent_games"]:
        g["label"] = game_label(g["kind"])
        if g["reason"] in REASON_LABELS:
            g["reason_label"] = str(REASON_LABELS[g["reason"]])
    return render(
        request,
        "frontend/players/profile.html",
        {
            "profile": data,
            "is_you": request.user.is_authenticated and request.user.get_username() == username,
        },
    )


def leaderboard_index(request: HttpRequest) -> HttpResponse:
    """/leaderboard/ and /players/: the first rated kind's board."""
    return redirect("leaderboard", kind=players.rated_kinds()[0])


def leaderboard(request: HttpRequest, kind: str) -> HttpResponse:
    """The rated players of one game kind, 50 a page."""
    try:
        qs = players.leaderboard(kind)
    except ApplicationError as error:
        raise _or_404(error) from error
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    rows = [players.leaderboard_row(r, page.start_index() + i) for i, r in enumerate(page.object_list)]
    return render(
        request,
        "frontend/players/leaderboard.html",
        {
            "kind": kind,
            "label": game_label(kind),
            "kinds": [(k, game_label(k)) for k in players.rated_kinds()],
            "rows": rows,
            "page": page,
        },
    )
