import django_filters
from django.utils.translation import gettext_lazy as _

from .forms import SEARCH_MAX_CHARS
from .models import Player


class PlayerFilter(django_filters.FilterSet):
    # Its form field refuses a NUL and an endless text; the list then shows the error, unfiltered.
    q = django_filters.CharFilter(label=_("name or licence"), method="search", max_length=SEARCH_MAX_CHARS)

    class Meta:
        model = Player
        fields = ["q", "club", "gender", "active"]

    def search(self, queryset, name: str, value: str):
        return queryset.search(value)
