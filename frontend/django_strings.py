"""Django's own messages on our account pages that Django's Thai catalogue leaves untranslated.

Nothing calls this module: it exists so that `makemessages` puts these strings into frontend/locale, where
we translate them. Django looks a message up in every catalogue (LOCALE_PATHS, then the apps, then its
own) and a string one of them lacks is found in the next, so these fill the gaps of django.contrib.auth's
and Django's Thai files without replacing any translation they do have. Keep the msgids exactly as Django
writes them (curly apostrophes included).
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# The sign-up form (django.contrib.auth.forms.UserCreationForm) and the password validators.
MESSAGES = (
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."
    ),
)
PLURAL_MESSAGES = (
    ngettext_lazy(
        "This password is too short. It must contain at least %(min_length)d character.",
        "This password is too short. It must contain at least %(min_length)d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
)
