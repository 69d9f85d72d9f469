"""Standings (klasyfikacje): who leads a tournament and a season, and what a series' tables show.

- ``tables``: a table's result (wynik stolika): its seats and small points read once, its places and big points;
- ``compute``: a tournament's lists from the database, ranked by ``scoring``, keyed by primary key;
- ``seasons``: a season's tables added up from its tournaments' lists;
- ``refresh``: the one entry point every writer calls (``standings_touch``): a new stored stamp, then the recompute;
- ``cache``: both kept in Django's cache under the tournament's stamp;
- ``selectors``: the reads of the public pages (a series' tables and byes, a player's or team's history);
- ``tasks``: the Celery task that recomputes the cache after results change.

The ranking lists themselves (keys, titles, publish flags) and how their points print are
defined once in ``league.ranking_lists``. The exchange package, not this one, turns primary
keys into exchange-file ids.
"""
