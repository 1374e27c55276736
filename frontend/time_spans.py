"""Time spans ("3 hours, 5 minutes") for the `timeuntil`/`timesince` filters in Thai.

Django's own Thai catalogue has no entries for the time spans of `django.utils.timesince`, so "My games"
showed "59 minutes left" in a Thai page. The same msgids in this app's catalogue (which takes precedence
over Django's) fill the gap; makemessages finds them here.
"""

from __future__ import annotations

from django.utils.translation import ngettext_lazy

TIME_SPANS = {
    "year": ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    "month": ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    "week": ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    "day": ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    "hour": ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    "minute": ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
}
