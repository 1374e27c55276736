"""The pages' own records: one-time form tokens, so a form sent twice does its work once."""

from django.conf import settings
from django.db import models


class FormSubmission(models.Model):
    """A form token spent by a user; a second submit of the same form finds it and gets the first answer.

    The page puts a fresh random token in the form; the view inserts this row in the same transaction as
    the work (e.g. creating a deck). A double click sends the token twice: the second insert hits the
    unique constraint (on PostgreSQL it waits for the first transaction, on SQLite the write lock does),
    and the view answers with the first submit's result instead of doing the work again.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64)
    result_url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "token"], name="form_submission_once")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.token}"
