"""The e-mail a person gets after signing up, and again when their sign-up moves up from the waiting
list: what the private link's page says (the sign-up and its status), with the link."""

from __future__ import annotations

from celery import shared_task
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from league.signups.models import SignUp


@shared_task(name="league.signups.confirmation_mail")
def signup_confirmation_mail(signup_id: int, link: str, language: str) -> None:
    """Send the sign-up as it stands to its e-mail address, in the language of the page that changed it.

    Sending again is harmless (the same message twice), so a broker that is down costs nothing
    (``league.queueing.enqueue_or_run`` sends it from the web process then)."""
    signup = SignUp.objects.select_related("tournament", "tournament__signup_window").filter(pk=signup_id).first()
    if signup is None or not signup.email:
        return
    with translation.override(language):
        context = {"signup": signup, "tournament": signup.tournament, "link": link}
        # one line whatever the tournament's name holds: a line break in a subject is refused by send_mail
        subject = " ".join(render_to_string("signups/mail_subject.txt", context).split())
        body = render_to_string("signups/mail_body.txt", context)
    send_mail(subject, body, None, [signup.email])
