from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0021_fixed_seats_and_draw_history"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="seeded_draw",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "The first series seats the strongest players by rating at different tables, the next "
                    "strongest too, and so on; players without a rating count as the weakest. Later series "
                    "are drawn as usual."
                ),
                verbose_name="Seed the first series by rating",
            ),
        ),
    ]
