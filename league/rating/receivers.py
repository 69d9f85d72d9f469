"""What the ratings do when another room writes: a merge of two players (``players.services``)
moves every row of one to the other, ratings included, without running the standings' task;
once it commits, the kept player's ratings are rated again from their first series on."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from league.rating.services import ratings_after_merge
from players.models import PlayerRemoval


@receiver(post_save, sender=PlayerRemoval, dispatch_uid="rating-after-merge")
def rate_merged_player(sender: type[PlayerRemoval], instance: PlayerRemoval, created: bool, **kwargs: Any) -> None:
    if created and instance.merged_into_id is not None:
        transaction.on_commit(lambda: ratings_after_merge(player=instance.merged_into))
