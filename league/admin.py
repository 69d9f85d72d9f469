"""Admin for organisers: tournaments with their series and registrations inline."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from league.models import Bye, DrawLog, Registration, Season, Series, TableAssignment, Tournament
from league.tournaments.services import ensure_series


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "best_of"]
    list_filter = ["year"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}


class SeriesInline(admin.TabularInline):
    model = Series
    fields = ["number", "status", "seed", "algorithm", "drawn_at", "results_entered"]
    readonly_fields = ["seed", "algorithm", "drawn_at"]
    extra = 0


class RegistrationInline(admin.TabularInline):
    model = Registration
    fields = ["player", "team", "checked_in", "fee_paid", "first_series", "withdrawn_after_series"]
    autocomplete_fields = ["player", "team"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "season", "ruleset_preset", "series_count", "draw_published"]
    list_filter = ["season", "ruleset_preset", "date", "draw_published"]
    search_fields = ["name", "venue", "organiser_name"]
    date_hierarchy = "date"
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["draw_seed", "created", "updated"]
    inlines = [SeriesInline, RegistrationInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "date", "venue", "season", "counts_for_season"]}),
        (_("Organiser"), {"fields": ["organiser_name", "organiser_logo", "organisers", "referees"]}),
        (
            _("Rules"),
            {
                "fields": [
                    "ruleset_preset",
                    "ruleset_data",
                    "series_count",
                    "deals_per_series",
                    "time_limit_minutes",
                    "uses_big_points",
                ]
            },
        ),
        (
            _("Rankings"),
            {
                "fields": [
                    "team_ranking",
                    "team_best_of",
                    "publish_individual",
                    "publish_women",
                    "publish_men",
                    "publish_teams",
                ]
            },
        ),
        (_("Status"), {"fields": ["registration_open", "draw_published", "draw_seed", "created", "updated"]}),
    ]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # A raised series count gets its new series planned straight away.
        ensure_series(form.instance)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "team", "checked_in", "fee_paid", "first_series", "withdrawn_after_series"]
    list_editable = ["checked_in", "fee_paid"]
    list_filter = ["tournament", "checked_in", "fee_paid"]
    search_fields = ["player__first_name", "player__last_name", "team__name", "tournament__name"]
    autocomplete_fields = ["player", "team", "tournament"]


class TableAssignmentInline(admin.TabularInline):
    model = TableAssignment
    autocomplete_fields = ["player"]
    extra = 0


class ByeInline(admin.TabularInline):
    model = Bye
    fields = ["player", "big_points", "small_points"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed", "drawn_at", "results_entered"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    readonly_fields = ["seed", "algorithm", "drawn_at"]
    inlines = [TableAssignmentInline, ByeInline]


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
