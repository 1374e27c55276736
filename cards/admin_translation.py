"""modeltranslation's admin for curated game data (docs/i18n-data.md), shared by the cards and Westeros admins."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from modeltranslation.admin import TranslationAdmin


class DataTranslationAdmin(TranslationAdmin):  # type: ignore[type-arg]
    """Each translated field once per language (name [en], name [th], name [zh-hans]).

    modeltranslation copies a custom form's `Meta.fields` onto the admin's `fields` on the first request;
    beside declared `fieldsets` that makes Django's system check fail (admin.E005) from then on, so an
    admin with fieldsets uses them alone.
    """

    def _get_declared_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if self.fieldsets:
            return self._patch_fieldsets(self.fieldsets)
        return super()._get_declared_fieldsets(request, obj)
