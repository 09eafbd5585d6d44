from django.conf import settings
from django.core.management.base import BaseCommand

from conversations.services import demo_seed


class Command(BaseCommand):
    help = "Create the demo users (alice, bob, admin) and the demo cases the installed domains register. Safe to run again."

    def handle(self, *args, **options):
        cases = demo_seed(password=settings.TURNFRAME["DEMO_PASSWORD"])
        self.stdout.write(f"demo users: alice, bob, admin (staff); cases: {', '.join(c.title for c in cases)}")
