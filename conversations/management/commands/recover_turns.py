from django.core.management.base import BaseCommand

from conversations.runtime import turns_recover_all


class Command(BaseCommand):
    help = "Finish turns a crash left running: resume journaled commands by key, recompose replies."

    def handle(self, *args, **options):
        recovered = turns_recover_all()
        self.stdout.write(f"recovered {len(recovered)} turn(s)" + (f": {', '.join(recovered)}" if recovered else ""))
