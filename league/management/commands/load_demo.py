from django.core.management.base import BaseCommand

from league.demo import DEMO_PASSWORD, demo_exists, load_demo


class Command(BaseCommand):
    help = "Fill an empty database with the demo league (does nothing if it is already there)."

    def handle(self, *args, **options) -> None:
        if demo_exists():
            self.stdout.write("The demo league is already loaded.")
            return
        accounts = load_demo()
        self.stdout.write(self.style.SUCCESS("Demo league loaded."))
        for username, role in accounts.items():
            self.stdout.write(f"  {role}: {username} / {DEMO_PASSWORD}")
