"""The floor's own state: the task workers' beats and the batching of turn mails."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TaskWorker(models.Model):
    """A task worker (``manage.py task_worker``) and its last sign of life.

    The tasks a worker claimed are put back in the queue once its beat is older than the
    lease (``floor.taskqueue``): a worker killed mid-task leaves nothing stuck.
    """

    worker_id = models.CharField(_("worker id"), max_length=64, primary_key=True)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    beat_at = models.DateTimeField(_("last beat at"), default=timezone.now, db_index=True)

    class Meta:
        db_table = "games_taskworker"  # made by the games app, before the floor had its own
        verbose_name = _("task worker")
        verbose_name_plural = _("task workers")

    def __str__(self) -> str:
        return f"worker {self.worker_id}, last beat {self.beat_at:%Y-%m-%d %H:%M:%S}"


class TurnMail(models.Model):
    """The batching of a player's turn mails (``floor.mail``): when the last one went, and
    whether one is waiting for the interval to pass."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    due = models.BooleanField(_("due"), default=False)

    class Meta:
        db_table = "games_turnmail"
        verbose_name = _("turn mail")
        verbose_name_plural = _("turn mails")

    def __str__(self) -> str:
        return f"turn mail of user {self.user_id}"
