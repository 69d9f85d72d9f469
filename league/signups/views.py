"""Pages of online sign-ups: the public form and private link (no login, never kept ready: each
carries its own CSRF token and one-time form token), and the organiser's window and list."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from league.privacy.selectors import notice_shown
from league.public.views import visible_tournament
from league.queueing import enqueue_or_run
from league.signups import selectors, services
from league.signups.forms import RegisterSearchForm, SignUpForm, SignUpsTickedForm, SignUpWindowForm, new_form_token
from league.signups.limits import signup_send_allowed
from league.signups.links import LinkExpired, signup_of_token, signup_token
from league.signups.models import SignUp
from league.signups.tasks import signup_confirmation_mail
from league.tournaments.roles import organiser_required
from league.tournaments.views import show_errors

# The query parameter by which a search result picks the player of the register who signs up.
PICK_PARAM = "gracz"


def _chosen_player(value: str) -> selectors.PublicPlayer | None:
    """The player of the register picked by a search result's link or the form's ``player`` field."""
    return selectors.public_player(pk=int(value)) if value.isdigit() else None


@never_cache
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The public sign-up: find yourself in the register, or type your name; then your contact."""
    tournament = visible_tournament(request, slug)
    window = selectors.signup_window(tournament=tournament)
    context = {
        "tournament": tournament,
        "window": window,
        "open": selectors.signups_open(window=window, now=timezone.now()),
    }
    context["notice_version"], context["notice"] = notice_shown(league=tournament.league)
    context["retention_days"] = settings.BASKA_SIGNUP_CONTACT_DAYS
    if request.method != "POST":
        search = RegisterSearchForm(request.GET)
        query = search.cleaned_data["q"] if search.is_valid() else ""
        chosen = _chosen_player(request.GET.get(PICK_PARAM, ""))
        form = SignUpForm(
            initial={
                "form_token": new_form_token(),
                "player": chosen.pk if chosen else None,
                "notice_version": context["notice_version"],
            }
        )
        # the register is searched only for a tournament taking sign-ups: the search serves nothing else
        found = selectors.register_search(text=query) if query and context["open"] else []
        return render(
            request,
            "signups/signup.html",
            {**context, "search": search, "query": query, "found": found, "chosen": chosen, "form": form},
        )
    if not signup_send_allowed(request):
        context["refused"] = _("Too many sign-ups from your network for now. Try again in an hour.")
        return render(request, "signups/signup.html", context, status=429)
    form = SignUpForm(request.POST)
    chosen, candidates = _chosen_player(request.POST.get("player", "")), []
    if form.is_valid():
        data = form.cleaned_data
        player = data["player"]
        if player is None and not data["not_listed"]:
            candidates = selectors.namesakes(first_name=data["first_name"], last_name=data["last_name"])
        if not candidates:
            try:
                signup, made = services.signup_create(
                    tournament=tournament,
                    form_token=data["form_token"],
                    page=request.path,
                    player=player,
                    first_name=data["first_name"],
                    last_name=data["last_name"],
                    gender=data["gender"],
                    club=data["club"],
                    email=data["email"],
                    phone=data["phone"],
                    team=data["team"],
                    language=get_language(),
                    notice_version=data["notice_version"],
                    contact_consent=data["contact_consent"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                return _signed_up(request, signup, made=made)
    # nothing was stored with this form's token: the form shown again carries a new one
    form.data = form.data.copy()
    form.data["form_token"] = new_form_token()
    return render(request, "signups/signup.html", {**context, "form": form, "chosen": chosen, "candidates": candidates})


def _link(signup: SignUp) -> str:
    return reverse("signups:detail", args=[signup.tournament.slug, signup_token(signup=signup)])


def _mail(request: HttpRequest, signup: SignUp, event: str) -> None:
    """The sign-up as it stands and what just happened to it (``tasks.EVENTS``), with its private
    link, to its e-mail address (if it has one)."""
    if signup.email:
        link = request.build_absolute_uri(_link(signup))
        enqueue_or_run(signup_confirmation_mail, signup.pk, link, event)


def _signed_up(request: HttpRequest, signup: SignUp, *, made: bool) -> HttpResponse:
    """To the private link's page; a new sign-up with an e-mail address gets the link by e-mail too."""
    if made:
        _mail(request, signup, "signed_up")
    messages.success(request, _("Thank you: your sign-up is in."))
    return redirect(_link(signup))


@never_cache
def signup_detail(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The sign-up as its private link shows it, with the button that cancels it: a first tap asks
    (the place may go to the next on the waiting list), the second, confirmed, cancels."""
    try:
        signup = signup_of_token(token=token, slug=slug)
    except LinkExpired:
        return render(request, "signups/link_expired.html", status=410)
    if signup is None:
        raise Http404
    cancelling = request.method == "POST" and signup.status != SignUp.Status.CANCELLED
    if cancelling and request.POST.get("confirm") == "yes":
        try:
            moved = services.signup_cancel(signup=signup, user=None, page=request.path)
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Your sign-up is cancelled."))
            _mail(request, signup, "cancelled")
            if moved is not None:
                _mail(request, moved, "moved_up")
        return redirect(request.path)
    place = selectors.waiting_place(signup=signup) if signup.status == SignUp.Status.WAITING else None
    window = selectors.signup_window(tournament=signup.tournament)
    return render(
        request,
        "signups/detail.html",
        {
            "signup": signup,
            "tournament": signup.tournament,
            "window": window,
            "waiting_place": place,
            "asking": cancelling,
        },
    )


@organiser_required
def signup_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's sign-ups by status, to confirm (with a match for each new person) or cancel."""
    tournament = request.tournament
    rows, counts = selectors.signup_list(tournament=tournament)
    window = selectors.signup_window(tournament=tournament)
    return render(
        request,
        "signups/list.html",
        {
            "tournament": tournament,
            "window": window,
            # as the public page says: the closing time and the tournament's start close them too
            "taking_signups": selectors.signups_open(window=window, now=timezone.now()),
            "rows": rows,
            "counts": [(status, label, counts[status]) for status, label in SignUp.Status.choices],
            "new_player": services.NEW_PLAYER,
        },
    )


@organiser_required
def signup_window_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Open or close the sign-ups, and their closing time, places, waiting list and note."""
    tournament = request.tournament
    window = selectors.signup_window(tournament=tournament)
    form = SignUpWindowForm(request.POST or None, instance=window)
    if form.is_valid():
        try:
            services.signup_window_save(
                tournament=tournament, user=request.user, page=request.path, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error("closes_at", error)
        else:
            messages.success(request, _("Sign-up settings saved."))
            return redirect("signups:list", slug=slug)
    return render(request, "signups/window_form.html", {"tournament": tournament, "form": form})


def _ticked(request: HttpRequest) -> SignUpsTickedForm | None:
    form = SignUpsTickedForm(request.POST, tournament=request.tournament)
    if form.is_valid():
        return form
    for errors in form.errors.values():
        for message in errors:
            messages.error(request, message)
    return None


@organiser_required
@require_POST
def signups_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Register the ticked sign-ups, each as the player the organiser matched it to."""
    form = _ticked(request)
    if form is not None:
        try:
            confirmed = services.signups_confirm(
                tournament=request.tournament,
                choices=form.cleaned_data["choices"],
                user=request.user,
                page=request.path,
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Confirmed and registered: %(count)s.") % {"count": len(confirmed)})
            for signup in confirmed:
                _mail(request, signup, "confirmed")
    return redirect("signups:list", slug=slug)


@organiser_required
@require_POST
def signups_cancel(request: HttpRequest, slug: str) -> HttpResponse:
    """Cancel the ticked sign-ups; the waiting list moves up into the places freed."""
    form = _ticked(request)
    if form is not None:
        try:
            moved = services.signups_cancel(
                tournament=request.tournament,
                signups=form.cleaned_data["signups"],
                user=request.user,
                page=request.path,
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Cancelled: %(count)s.") % {"count": len(form.cleaned_data["signups"])})
            for signup in form.cleaned_data["signups"]:
                if signup.status != SignUp.Status.CANCELLED:  # as it was: a resent form mails nobody twice
                    _mail(request, signup, "cancelled")
            for signup in moved:
                messages.info(request, _("%(name)s moved up from the waiting list.") % {"name": signup.full_name})
                _mail(request, signup, "moved_up")
    return redirect("signups:list", slug=slug)
