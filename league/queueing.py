"""Queue a Celery task, or do its work here when the broker cannot take it.

The league's tasks are all conveniences (standings ready before anyone asks, a
batch of protocols printed off the web process): their work can also be done in
the process that asked for it. So a broker that is down, or unreachable, must
never turn the click that queued a task into a server error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import Task
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)


def enqueue_or_run(task: Task, *args: Any, fallback: Callable[..., Any] | None = None) -> None:
    """Queue ``task(*args)``; with the broker unreachable call ``fallback(*args)`` instead
    (the task's own body when none is given).

    Never raises: it runs after a commit, where a raise would turn saved work into a
    server error; a failing fallback is logged, and the task is written so that its
    work can be done again later (standings are recomputed by the next reader, a
    print job says it failed).
    """
    try:
        task.delay(*args)
    except (BrokerError, OSError) as error:
        logger.warning("Broker unavailable (%s); running %s in this process", error, task.name)
        try:
            (fallback or task.run)(*args)
        except Exception:
            logger.exception("In-process run of %s failed", task.name)
