"""DRF's own error messages that our API shows and DRF's Thai catalogue lacks (or words badly).

Nothing calls this module: it exists so that `makemessages` (run inside config/) puts these strings into
config/locale, where we translate them. config/locale is in LOCALE_PATHS, which Django searches before
DRF's catalogue, so our wording is used in both languages. Keep the msgids exactly as DRF writes them.
"""

from django.utils.translation import gettext_noop

# rest_framework.exceptions: the generic answers of config/errors.py's handler.
MESSAGES = (
    gettext_noop("A server error occurred."),
    gettext_noop("Invalid input."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Not found."),
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("Request was throttled."),
    # rest_framework.fields: the commonest field error (decks/serializers.py raises it too).
    gettext_noop("This field is required."),
    # Throttled formats these lazy strings before its ngettext, so each is looked up as a singular msgid.
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
    # The API documentation: the page-number paginators' parameter descriptions (DRF's Thai catalogue lacks
    # them) and drf-spectacular's description of an empty answer (it ships no catalogue at all).
    gettext_noop("A page number within the paginated result set."),
    gettext_noop("Number of results to return per page."),
    gettext_noop("No response body"),
)
