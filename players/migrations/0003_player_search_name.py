"""Players' names as searches compare them (players.models.search_key), for the players on file."""

from django.db import migrations, models

from players.models import search_key

BATCH = 500


def fill_search_names(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    players = list(Player.objects.only("pk", "first_name", "last_name"))
    for player in players:
        player.search_name = search_key(f"{player.first_name} {player.last_name}")
    Player.objects.bulk_update(players, ["search_name"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_register_authors_clean_names_pending_imports"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_name",
            field=models.TextField(db_index=True, default="", editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(fill_search_names, migrations.RunPython.noop),
    ]
