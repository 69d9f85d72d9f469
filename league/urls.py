from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from league.games import registered_games
from league.public import views as public_views

from . import health
from .login import LoginForm

urlpatterns = [
    path("", public_views.home, name="home"),
    *(pattern for game in registered_games().values() for pattern in game.public_urls()),
    path("turnieje/", include("league.exchange.urls")),
    path("turnieje/", include("league.tournaments.urls")),
    path("turnieje/", include("league.results.referee.urls")),
    path("turnieje/", include("league.results.table.urls")),
    path("turnieje/", include("league.printing.urls")),
    path("turnieje/", include("league.hall.urls")),
    path("sezony-ligi/", include("league.seasons.urls")),
    path("", include("players.urls")),
    path("", include("league.public.urls")),
    path("", include("league.rating.urls")),
    path("", include("league.leagues.urls")),
    path("", include("league.signups.urls")),
    path("", include("league.privacy.urls")),
    path("konto/logowanie/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("konto/wyloguj/", auth_views.LogoutView.as_view(), name="logout"),
    # Without CSRF protection, so that public pages can be the same for every visitor (kept
    # ready, league.public.page_store): at worst another site switches a visitor's language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("zdrowie/", health.health, name="health"),
    # for browsers and readers that ask for the icon without reading the page's <link rel="icon">
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.ico")), name="favicon"),
]

handler403 = "league.errors.permission_denied"
handler500 = "league.errors.server_error"
