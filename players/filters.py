import django_filters
from django.utils.translation import gettext_lazy as _

from .models import Player


class PlayerFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(label=_("name or licence"), method="search")

    class Meta:
        model = Player
        fields = ["q", "club", "gender", "active"]

    def search(self, queryset, name: str, value: str):
        return queryset.search(value)
