"""The floor's background tasks (django-tasks): mail and web push, delivered by the task
worker (``manage.py task_worker``) and never inside a request. The tests run them at once."""

from __future__ import annotations

from django_tasks import task


@task()
def mail_send(to: str, subject: str, body: str, headers: dict[str, str], attempt: int) -> str:
    """Deliver one e-mail, queued again on failure (``mail.mail_deliver``)."""
    from floor import mail

    return mail.mail_deliver(to=to, subject=subject, body=body, headers=headers, attempt=attempt)


@task()
def turn_mail(user_id: int, origin: str) -> str:
    """A player's batched turn mail (``mail.turn_mail_send``)."""
    from floor import mail

    return mail.turn_mail_send(user_id=user_id, origin=origin)


@task()
def webpush_send(user_id: int, title: str, body: str, url: str, tag: str) -> str:
    """One notification pushed to each of a player's devices (``webpush.push_deliver``)."""
    from floor import webpush

    return webpush.push_deliver(user_id=user_id, title=title, body=body, url=url, tag=tag)
