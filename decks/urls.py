"""Routes of the deck builder API (under /api/) and the accounts API."""

from django.urls import path

from decks import accounts, apis, public_apis

app_name = "decks"

_per_deck = [
    ("export/", apis.DeckExportApi, "export"),
    ("stats/", apis.DeckStatsApi, "stats"),
    ("sample-hand/", apis.DeckSampleHandApi, "sample-hand"),
    ("draw-odds/", apis.DeckDrawOddsApi, "draw-odds"),
]

urlpatterns = [
    path("decks/", apis.DeckListCreateApi.as_view(), name="list"),
    path("decks/validate/", apis.DeckValidateApi.as_view(), name="validate"),
    path("decks/import/", apis.DeckImportApi.as_view(), name="import"),
    path("decks/public/", public_apis.PublicDeckListApi.as_view(), name="public"),
    path("decks/<int:pk>/like/", public_apis.DeckLikeApi.as_view(), name="like"),
    path("decks/<int:pk>/copy/", public_apis.DeckCopyApi.as_view(), name="copy"),
    path("decks/shared/<str:share_id>/copy/", public_apis.DeckCopyApi.as_view(), name="shared-copy"),
    path("decks/<int:pk>/", apis.DeckDetailApi.as_view(), name="detail"),
    path("decks/<int:pk>/revisions/", apis.DeckRevisionListApi.as_view(), name="revisions"),
    path("decks/<int:pk>/revisions/<int:number>/", apis.DeckRevisionDetailApi.as_view(), name="revision"),
    path(
        "decks/<int:pk>/revisions/<int:number>/restore/",
        apis.DeckRevisionRestoreApi.as_view(),
        name="revision-restore",
    ),
    path("decks/shared/<str:share_id>/", apis.DeckSharedApi.as_view(), name="shared"),
    *[path(f"decks/<int:pk>/{suffix}", view.as_view(), name=name) for suffix, view, name in _per_deck],
    *[
        path(f"decks/shared/<str:share_id>/{suffix}", view.as_view(), name=f"shared-{name}")
        for suffix, view, name in _per_deck
    ],
    path("auth/signup/", accounts.SignupApi.as_view(), name="signup"),
    path("auth/token/", accounts.TokenApi.as_view(), name="token"),
    path("auth/logout/", accounts.LogoutApi.as_view(), name="logout"),
    path("auth/me/", accounts.MeApi.as_view(), name="me"),
]
