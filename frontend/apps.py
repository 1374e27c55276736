from django.apps import AppConfig


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from frontend.language import remember_on_login

        user_logged_in.connect(remember_on_login, dispatch_uid="frontend.language.remember_on_login")
