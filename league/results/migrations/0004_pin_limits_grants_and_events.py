"""The table's count of wrong PINs, the grants that completed and confirmed a protocol, and its other changes.

Issue 11: a cap on wrong PINs per table kept in the database, confirmation from a second
grant (or a referee) recorded, and the referee's new PIN and unlocking logged.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("results", "0003_protocols_of_drawn_series"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="protocol",
            name="completed_by_grant",
            field=models.CharField(blank=True, db_default="", max_length=32, verbose_name="marked complete by grant"),
        ),
        migrations.AddField(
            model_name="protocol",
            name="confirmed_by_grant",
            field=models.CharField(blank=True, db_default="", max_length=32, verbose_name="confirmed by grant"),
        ),
        migrations.AddField(
            model_name="protocol",
            name="confirmed_by_user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="confirmed by referee",
            ),
        ),
        migrations.AddField(
            model_name="protocol",
            name="wrong_pins",
            field=models.PositiveSmallIntegerField(
                db_default=0, default=0, verbose_name="wrong PINs since the last unlock"
            ),
        ),
        migrations.CreateModel(
            name="ProtocolEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("completed", "marked complete"),
                            ("confirmed", "confirmed"),
                            ("pin_renewed", "new PIN"),
                            ("unlocked", "PIN page unlocked"),
                        ],
                        max_length=12,
                        verbose_name="action",
                    ),
                ),
                ("seat", models.CharField(blank=True, max_length=1, verbose_name="seat")),
                ("grant", models.CharField(blank=True, max_length=32, verbose_name="grant")),
                ("created", models.DateTimeField(auto_now_add=True, verbose_name="when")),
                (
                    "protocol",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="results.protocol",
                        verbose_name="protocol",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "change of a protocol",
                "verbose_name_plural": "changes of protocols",
                "ordering": ["protocol", "created", "pk"],
            },
        ),
    ]
