from django.core.management.base import BaseCommand

from conversations.turns import cards_settle_orphaned, turns_recover_all


class Command(BaseCommand):
    help = ("Finish turns a crash left running (resume journaled commands by key, recompose replies), then settle "
            "cards left answering with no turn.")

    def handle(self, *args, **options):
        recovered = turns_recover_all()
        self.stdout.write(f"recovered {len(recovered)} turn(s)" + (f": {', '.join(recovered)}" if recovered else ""))
        settled = cards_settle_orphaned()  # after the turns: a card whose turn was just recovered is settled by it
        if settled:
            self.stdout.write(f"settled {len(settled)} card(s) left answering with no turn: {', '.join(settled)}")
