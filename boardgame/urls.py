"""Read-only Westeros data API, mounted at /api/westeros/."""

from django.urls import path

from boardgame import apis

urlpatterns = [
    path("map/", apis.WesterosMapApi.as_view(), name="westeros-map"),
    path("houses/", apis.HouseListApi.as_view(), name="westeros-houses"),
    path("house-cards/", apis.HouseCardListApi.as_view(), name="westeros-house-cards"),
    path("setups/<int:player_count>/", apis.SetupDetailApi.as_view(), name="westeros-setup"),
]
