import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Club, Player, Team


class DataTable(tables.Table):
    """Plain markup styled by app.css rather than the Bootstrap default."""

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "data"}


class PlayerTable(DataTable):
    full_name = tables.LinkColumn(
        "players:player_edit",
        args=[tables.A("pk")],
        verbose_name=_("Name"),
        order_by=("last_name", "first_name"),
    )

    class Meta(DataTable.Meta):
        model = Player
        fields = ["full_name", "club", "gender", "licence", "active"]


class TeamTable(DataTable):
    name = tables.LinkColumn("players:team_edit", args=[tables.A("pk")])
    member_count = tables.Column(verbose_name=_("Members"))

    class Meta(DataTable.Meta):
        model = Team
        fields = ["name", "club", "captain", "member_count", "active"]


class ClubTable(DataTable):
    player_count = tables.Column(verbose_name=_("Players"))

    class Meta(DataTable.Meta):
        model = Club
        fields = ["name", "city", "player_count"]
