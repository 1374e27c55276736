"""Page routes: home, accounts, card browser, deck builder."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from . import westeros_views as westeros_views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("cards/", views.card_list, name="card-list"),
    path("cards/<slug:slug>/", views.card_detail, name="card-detail"),
    path("decks/", views.deck_list, name="deck-list"),
    path("decks/shared/<str:share_id>/", views.deck_shared, name="deck-shared"),
    path("decks/<int:deck_id>/", views.deck_builder, name="deck-builder"),
    path("westeros/map/", westeros_views.map_explorer, name="westeros-map-page"),
    path("westeros/games/<int:match_id>/", westeros_views.game_page, name="westeros-game"),
    path("westeros/games/<int:match_id>/replay/", westeros_views.replay_page, name="westeros-replay"),
]
