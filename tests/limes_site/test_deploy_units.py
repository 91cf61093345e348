"""The systemd units of deploy/: what they expose and what they run."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import NoReverseMatch, get_resolver, reverse

UNITS = settings.BASE_DIR / "deploy" / "systemd"


def _unit(name: str) -> str:
    return (UNITS / name).read_text()


@pytest.mark.parametrize("name", ["limes-app@.service", "limes-stream@.service"])
def test_gunicorn_listens_on_loopback_unless_told_another_private_address(name: str) -> None:
    unit = _unit(name)
    (bind,) = re.findall(r"--bind (\S+)", unit)
    assert bind == "${LIMES_BIND_ADDRESS}:%i"
    assert "Environment=LIMES_BIND_ADDRESS=127.0.0.1" in unit
    assert "0.0.0.0" not in unit


def test_no_two_gunicorn_masters_share_a_control_socket() -> None:
    # Without it each master opens ~/.gunicorn/gunicorn.ctl, the same for every instance
    # of a host: the last one started would take the others' commands.
    for name in ("limes-app@.service", "limes-stream@.service"):
        assert "--no-control-socket" in _unit(name)
    cluster = (settings.BASE_DIR / "scripts" / "cluster").read_text()
    starts = re.findall(r"python -m gunicorn (?:[^\n]*\\\n)*[^\n]*", cluster)
    assert len(starts) == 2
    assert all("--no-control-socket" in start for start in starts)


def test_views_run_on_wsgi_and_event_streams_on_asgi() -> None:
    # scripts/cluster's split: a stream on a sync worker would hold the worker; a view
    # under uvicorn pays a thread hop each way.
    assert "limes_site.wsgi:application" in _unit("limes-app@.service")
    assert "uvicorn_worker.UvicornWorker" not in _unit("limes-app@.service")
    stream = _unit("limes-stream@.service")
    assert "limes_site.asgi:application" in stream
    assert "uvicorn_worker.UvicornWorker" in stream


def test_the_proxy_sends_streams_to_the_stream_servers_without_delay() -> None:
    config = (settings.BASE_DIR / "deploy" / "haproxy.cfg").read_text()
    streams = config.split("\nbackend streams\n", 1)[1]
    assert "option http-no-delay" in streams
    assert "server stream1 127.0.0.1:@STREAM1_PORT@ check" in streams
    assert "track app/app1 backup" in streams


def test_the_worker_unit_runs_the_worker_that_takes_back_dead_workers_tasks() -> None:
    assert "manage.py task_worker" in _unit("limes-worker.service")


def test_a_worker_is_kept_for_the_computers_queue_alone() -> None:
    # No mail, push or analysis there: nothing slow outside can hold a computer's answer.
    (command,) = re.findall(r"ExecStart=(.*)", _unit("limes-computers.service"))
    assert "manage.py task_worker" in command
    assert command.endswith("--queue-name computers")
    cluster = (settings.BASE_DIR / "scripts" / "cluster").read_text()
    assert "task_worker --no-reload --interval 0.25 --queue-name computers" in cluster
    serve = (settings.BASE_DIR / "scripts" / "serve").read_text()
    assert "task_worker --no-reload --interval 0.25 --queue-name computers" in serve


@pytest.mark.parametrize(
    ("path", "to_the_stream_servers"),
    [
        ("/lobby/stream/", True),
        ("/games/12/stream/", True),
        ("/tournaments/3/stream/", True),
        ("/challenges/stream/", True),
        # A player named "stream", and paths that only end like a stream's.
        ("/players/stream/", False),
        ("/games/12/stream/x/", False),
        ("/x/lobby/stream/", False),
        ("/games/new/stream/", False),
    ],
)
def test_the_proxy_sends_only_the_stream_paths_to_the_stream_servers(
    path: str, to_the_stream_servers: bool
) -> None:
    config = (settings.BASE_DIR / "deploy" / "haproxy.cfg").read_text()
    (pattern,) = re.findall(r"acl event_stream path_reg (\S+)", config)
    assert bool(re.search(pattern, path)) is to_the_stream_servers


def test_expired_sessions_are_cleared_every_hour() -> None:
    assert "manage.py clearsessions" in _unit("limes-clearsessions.service")
    assert "OnCalendar=hourly" in _unit("limes-clearsessions.timer")


def _stream_paths() -> list[str]:
    # Every URL whose view holds an event stream (named "…stream"), with a sample id.
    paths = []
    for namespace, (_prefix, resolver) in get_resolver().namespace_dict.items():
        for name in resolver.reverse_dict:
            if isinstance(name, str) and name.endswith("stream"):
                try:
                    paths.append(reverse(f"{namespace}:{name}", kwargs={"pk": 7}))
                except NoReverseMatch:
                    paths.append(reverse(f"{namespace}:{name}"))
    return paths


def test_every_stream_the_site_serves_goes_to_the_stream_servers() -> None:
    config = (settings.BASE_DIR / "deploy" / "haproxy.cfg").read_text()
    (pattern,) = re.findall(r"acl event_stream path_reg (\S+)", config)
    paths = _stream_paths()
    assert len(paths) >= 4
    assert [path for path in paths if not re.search(pattern, path)] == []
