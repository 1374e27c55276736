from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"
    verbose_name = _("Frontend")  # the admin's heading of this app's models

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from frontend.language import remember_on_login

        user_logged_in.connect(remember_on_login, dispatch_uid="frontend.language.remember_on_login")
