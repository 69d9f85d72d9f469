"""The ids of players and teams in exchange files and standings."""

from __future__ import annotations

from league.models import Tournament


def external_ids(tournament: Tournament) -> tuple[dict[int, str], dict[int, str]]:
    """Player pk → id and team pk → id for everyone registered for ``tournament``.

    An imported tournament keeps the file's ids (docs/interfaces.md §4: "id is the id
    from the imported file where there was one"); everyone else gets an id made
    from the primary key (``p12``, ``t3``), suffixed where it would collide with a
    file's id, since the ids are read back as keys.
    """
    rows = list(
        tournament.registrations.order_by("pk").values_list("player_id", "team_id", "external_id", "team_external_id")
    )
    taken = {ext for _, _, ext, _ in rows if ext} | {ext for _, _, _, ext in rows if ext}
    players: dict[int, str] = {}
    teams: dict[int, str] = {}

    def fallback(prefix: str, pk: int) -> str:
        candidate = f"{prefix}{pk}"
        while candidate in taken:
            candidate += "x"
        taken.add(candidate)
        return candidate

    for player_id, team_id, external, team_external in rows:
        players[player_id] = external or fallback("p", player_id)
        if team_id is not None and team_id not in teams:
            teams[team_id] = team_external or fallback("t", team_id)
    return players, teams
