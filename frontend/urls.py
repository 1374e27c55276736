"""Page routes: home, accounts, card browser, deck builder."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import notify_views, rules_views, tutorial_views, views
from . import westeros_views as westeros_views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/settings/", notify_views.user_settings, name="user-settings"),
    path("accounts/unsubscribe/<str:token>/", notify_views.unsubscribe, name="unsubscribe"),
    path("play/mine/", notify_views.my_games_page, name="my-games"),  # after /play/'s routes: no clash
    path("cards/", views.card_list, name="card-list"),
    path("cards/<slug:slug>/", views.card_detail, name="card-detail"),
    path("decks/", views.deck_list, name="deck-list"),
    path("decks/public/", views.deck_public, name="deck-public"),
    path("decks/shared/<str:share_id>/", views.deck_shared, name="deck-shared"),
    path("decks/<int:deck_id>/", views.deck_builder, name="deck-builder"),
    path("rules/commandeer/", rules_views.rules_page, {"game": "commandeer"}, name="rules-commandeer"),
    path("rules/westeros/", rules_views.rules_page, {"game": "westeros"}, name="rules-westeros"),
    path("learn/<slug:game>/", tutorial_views.tutorial_page, name="tutorial"),
    path("westeros/map/", westeros_views.map_explorer, name="westeros-map-page"),
    path("westeros/games/<int:match_id>/", westeros_views.game_page, name="westeros-game"),
    path("westeros/games/<int:match_id>/replay/", westeros_views.replay_page, name="westeros-replay"),
]
