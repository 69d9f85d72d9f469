"""Admin for superusers (league.admin_site): tournaments with their series and registrations inline.

The inlines only show. Series status, seats and byes change through the
services, which check the rules (teammates apart, no redraw after results) and
keep the draw log; the admin actions here call those services.
"""

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.games import registered_games
from league.models import Bye, DrawLog, Registration, Season, Series, TableAssignment, Tournament
from league.ranking_lists import PUBLISH_FIELDS
from league.standings.refresh import standings_touch
from league.tournaments.draws import series_draw
from league.tournaments.forms import TournamentForm, game_settings_fields
from league.tournaments.selectors import series_last_drawn, tournament_played
from league.tournaments.services import TABLE_FIELDS, series_ensure


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "best_of"]
    list_filter = ["year"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


class ReadOnlyInline(admin.TabularInline):
    """An inline that lists rows without adding, changing or deleting any."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeriesInline(ReadOnlyInline):
    model = Series
    fields = ["number", "status", "seed", "algorithm", "drawn_at", "results_entered"]
    show_change_link = True


class RegistrationInline(ReadOnlyInline):
    model = Registration
    fields = ["player", "team", "checked_in", "fee_paid", "first_series", "withdrawn_after_series"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm  # the same bounds and logo check as the organiser's screen
    list_display = ["name", "date", "venue", "season", "game", "series_count", "draw_published"]
    list_filter = ["season", "game", "date", "draw_published"]
    search_fields = ["name", "venue", "organiser_name"]
    date_hierarchy = "date"
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "referees"]
    # the game's settings are edited as the organiser's form shows them; the whole value is shown too
    readonly_fields = ["game_settings", "draw_seed", "created", "updated"]
    inlines = [SeriesInline, RegistrationInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> list[str]:
        """As on the organiser's screen: the rules stay once deals are played, the game and the
        table size once a series is drawn (the game's stored rows are re-read under them)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and series_last_drawn(tournament=obj) is not None:
            fields += list(TABLE_FIELDS)
        return fields

    def fixed_settings(self, obj: Tournament | None) -> set[str]:
        """The games' settings that deals played fix: left out of the form (the stored value shows them)."""
        if obj is None or not tournament_played(tournament=obj):
            return set()
        return {name for game in registered_games().values() for name in game.settings_class.rules_fields}

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> list:
        """The fieldsets, the games' settings the form holds among the rules."""
        fixed = self.fixed_settings(obj)
        settings = [name for name in game_settings_fields() if name not in fixed]
        return [
            (
                None,
                {"fields": ["name", "slug", "date", "start_time", "venue", "league", "season", "counts_for_season"]},
            ),
            (_("Organiser"), {"fields": ["organiser_name", "organiser_logo", "organisers", "referees"]}),
            (
                _("Rules"),
                {
                    "fields": [
                        "game",
                        *settings,
                        "game_settings",
                        "table_size",
                        "series_count",
                        "time_limit_minutes",
                        "uses_big_points",
                    ]
                },
            ),
            (_("Rankings"), {"fields": ["team_ranking", "team_best_of", *PUBLISH_FIELDS]}),
            (_("Status"), {"fields": ["registration_open", "draw_published", "draw_seed", "created", "updated"]}),
        ]

    def get_form(self, request: HttpRequest, obj: Tournament | None = None, change: bool = False, **kwargs):
        """The organiser's form on the model's fields; the games' settings are its own fields
        (those deals played fix left out)."""
        settings = game_settings_fields()
        fields = kwargs.pop("fields", None) or flatten_fieldsets(self.get_fieldsets(request, obj))
        form = super().get_form(
            request, obj, change, fields=[name for name in fields if name not in settings], **kwargs
        )
        fixed = self.fixed_settings(obj)

        class AdminTournamentForm(form):
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, **kwargs)
                # the own rows of a game (Baśka's own rules) are chosen on the organiser's screen only
                for name in fixed | self.linked_names:
                    self.fields.pop(name, None)

        return AdminTournamentForm

    actions = ["plan_missing_series"]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # A raised series count gets its new series planned straight away.
        series_ensure(tournament=form.instance)
        standings_touch(tournament_id=form.instance.pk)

    @admin.action(description=_("Plan the missing series"), permissions=["change"])
    def plan_missing_series(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            series_ensure(tournament=tournament)
        self.message_user(request, gettext("The missing series are planned."), messages.SUCCESS)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "team", "checked_in", "fee_paid", "first_series", "withdrawn_after_series"]
    list_filter = ["tournament", "checked_in", "fee_paid"]
    search_fields = ["player__first_name", "player__last_name", "team__name", "tournament__name"]
    autocomplete_fields = ["player", "team", "tournament"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        standings_touch(tournament_id=obj.tournament_id)

    def delete_model(self, request, obj) -> None:
        super().delete_model(request, obj)
        standings_touch(tournament_id=obj.tournament_id)


class TableAssignmentInline(ReadOnlyInline):
    model = TableAssignment
    fields = ["table", "seat", "player"]


class ByeInline(ReadOnlyInline):
    model = Bye
    fields = ["player"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed", "drawn_at", "results_entered"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    # Everything here is the draw's, the referee's or the organiser's, through their services:
    # publishing a series that is still being played would show unconfirmed protocols.
    fields = ["tournament", "number", "status", "seed", "algorithm", "drawn_at", "results_entered", "results_published"]
    readonly_fields = fields
    inlines = [TableAssignmentInline, ByeInline]
    actions = ["draw_again"]

    def has_add_permission(self, request) -> bool:
        # Series are planned from the tournament's series count (the "plan the missing series" action).
        return False

    @admin.action(description=_("Draw the selected series (again) with a new seed"), permissions=["change"])
    def draw_again(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        for series in queryset.select_related("tournament").order_by("tournament", "number"):
            try:
                [drawn] = series_draw(tournament=series.tournament, numbers=[series.number], user=request.user)
            except ValidationError as error:
                self.message_user(request, f"{series}: {' '.join(error.messages)}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    gettext("%(series)s drawn with seed %(seed)s.") % {"series": series, "seed": drawn.seed},
                    messages.SUCCESS,
                )


@admin.register(DrawLog)
class DrawLogAdmin(admin.ModelAdmin):
    list_display = ["created", "series", "action", "seed", "repeats", "user"]
    list_filter = ["action", "series__tournament"]
    search_fields = ["series__tournament__name"]
    readonly_fields = ["series", "action", "seed", "algorithm", "repeats", "user", "created", "details"]

    def has_add_permission(self, request) -> bool:
        # The log records what the draw service did; it is never written by hand.
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
