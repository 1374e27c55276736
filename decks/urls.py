"""URL routes of this app."""

urlpatterns: list = []
