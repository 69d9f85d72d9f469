"""Sessions as Django's ``cached_db`` keeps them (read from the cache, written to the database too,
so a restarted cache logs nobody out), with one change: the cache holds the session **signed**, as
the database does, not as a bare dict.

A bare dict could not be told from junk: a value of another version, a JSON object planted in
Redis or left by a restart from an old dump read as a session, and a table phone lost its PIN grant
(``bench/dependency_faults.py``: 403 on every deal after the cache was spoiled). A signed value
that does not verify is a miss, and the session is read from the database.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.sessions.backends import cached_db

logger = logging.getLogger("django.contrib.sessions")


class SessionStore(cached_db.SessionStore):
    cache_key_prefix = "league.sessions.signed:"

    def load(self) -> dict[str, Any]:
        data = self._cache.get(self.cache_key)
        session = self.decode(data) if isinstance(data, str) else {}
        if session:
            return session
        kept = self._get_session_from_db()
        if kept is None:
            return {}
        session = self.decode(kept.session_data)
        self._cache.set(self.cache_key, kept.session_data, self.get_expiry_age(expiry=kept.expire_date))
        return session

    def save(self, must_create: bool = False) -> None:
        super(cached_db.SessionStore, self).save(must_create)  # the database's row, as cached_db does
        try:
            self._cache.set(self.cache_key, self.encode(self._session), self.get_expiry_age())
        except Exception:
            logger.exception("Error saving to cache (%s)", self._cache)
