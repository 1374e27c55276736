"""URL routes of the card API (mounted under /api/)."""

from rest_framework.routers import SimpleRouter

from cards.apis import CardViewSet, FactionViewSet, KeywordViewSet

router = SimpleRouter()
router.register("cards", CardViewSet, basename="card")
router.register("factions", FactionViewSet, basename="faction")
router.register("keywords", KeywordViewSet, basename="keyword")

urlpatterns = router.urls
