"""Django project package: settings, URLs, ASGI/WSGI entry points and the Celery app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
