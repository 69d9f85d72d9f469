"""The e-mails a person who signed up gets, one for each change they should know of: signed up,
moved up from the waiting list into a place, confirmed by the organiser, cancelled. Each says
what the private link's page says (the sign-up and its status), with the link while it still
serves, in the language the person signed up in."""

from __future__ import annotations

from celery import shared_task
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from league.privacy.selectors import privacy_footer
from league.signups.models import SignUp

EVENTS = ("signed_up", "moved_up", "confirmed", "cancelled")


@shared_task(name="league.signups.confirmation_mail")
def signup_confirmation_mail(signup_id: int, link: str, event: str = "signed_up") -> None:
    """Send the sign-up as it stands and what just happened to it (``event``, one of
    :data:`EVENTS`) to its e-mail address, in the sign-up's language.

    Sending again is harmless (the same message twice), so a broker that is down costs nothing
    (``league.queueing.enqueue_or_run`` sends it from the web process then). A message queued by
    the version before, whose third argument was a language, is sent as a sign-up's."""
    signup = SignUp.objects.select_related("tournament", "tournament__signup_window").filter(pk=signup_id).first()
    if signup is None or not signup.email:
        return
    event = event if event in EVENTS else "signed_up"
    with translation.override(signup.language):
        context = {
            "signup": signup,
            "tournament": signup.tournament,
            "link": link,
            "event": event,
            "privacy": privacy_footer(league=signup.tournament.league, link=link),
        }
        # one line whatever the tournament's name holds: a line break in a subject is refused by send_mail
        subject = " ".join(render_to_string("signups/mail_subject.txt", context).split())
        body = render_to_string("signups/mail_body.txt", context)
    send_mail(subject, body, None, [signup.email])
