"""Page routes of the online-play layer (lobby, match pages, replays)."""

urlpatterns: list = []
