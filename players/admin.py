from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _

from league.models import Tournament
from league.standings.refresh import standings_touch_many

from . import services
from .models import Club, Player, PlayerRemoval, Team, TeamMember


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "player_count"]
    search_fields = ["name", "city"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(player_count=Count("players"))

    @admin.display(description=_("players"), ordering="player_count")
    def player_count(self, club: Club) -> int:
        return club.player_count

    def save_model(self, request, obj, form, change) -> None:
        if change:  # renamed: through the service, which moves the stamps of the pages naming it
            services.club_update(club=obj, name=obj.name, city=obj.city)
        else:
            super().save_model(request, obj, form, change)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "gender", "club", "licence", "active"]
    list_display_links = ["last_name", "first_name"]
    list_filter = ["active", "gender", "club"]
    search_fields = ["last_name", "first_name", "licence"]
    autocomplete_fields = ["club"]
    readonly_fields = ["created", "updated"]
    list_select_related = ["club"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        standings_touch_many(tournaments=Tournament.objects.filter(registrations__player=obj))  # its name is shown


class TeamMemberFormSet(BaseInlineFormSet):
    """Applies the team rules of ``services.team_validate`` to admin edits too."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        members = [
            form.cleaned_data["player"]
            for form in self.forms
            if form.cleaned_data.get("player") and not form.cleaned_data.get("DELETE")
        ]
        team = self.instance
        try:
            services.team_validate(
                team=team if team.pk else None,
                members=members,
                captain=team.captain,
                active=team.active,
            )
        except ValidationError as error:
            raise ValidationError(error.messages) from error


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    formset = TeamMemberFormSet
    autocomplete_fields = ["player"]
    extra = 0
    min_num = services.MIN_TEAM_SIZE
    max_num = services.MAX_TEAM_SIZE


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "captain", "member_count", "active"]
    list_filter = ["active", "club"]
    search_fields = ["name", "members__last_name"]
    autocomplete_fields = ["club", "captain"]
    inlines = [TeamMemberInline]
    list_select_related = ["club", "captain"]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        standings_touch_many(tournaments=Tournament.objects.filter(registrations__team=form.instance))

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("members"))

    @admin.display(description=_("members"), ordering="member_count")
    def member_count(self, team: Team) -> int:
        return team.member_count


@admin.register(TeamMember)
class TeamMemberAdmin(admin.ModelAdmin):
    """Read-mostly list of who plays where; edit members on the team page."""

    list_display = ["player", "team", "team_active"]
    list_filter = ["team_active", "team"]
    search_fields = ["player__last_name", "player__first_name", "team__name"]
    autocomplete_fields = ["team", "player"]
    list_select_related = ["player", "team"]


@admin.register(PlayerRemoval)
class PlayerRemovalAdmin(admin.ModelAdmin):
    list_display = ["created", "__str__", "merged_into", "user", "reason"]
    readonly_fields = ["created", "user", "reason", "player_pk", "merged_into", "old", "new", "moved"]
    list_select_related = ["merged_into", "user"]

    def has_add_permission(self, request) -> bool:
        # The log records what the merge and delete services did; it is never written by hand.
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
