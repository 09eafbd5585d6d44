from django.apps import AppConfig


class ExpensesConfig(AppConfig):
    name = "expenses"
    verbose_name = "Expense claims (example domain)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the ``expense_claim`` case kind, its acts, read tools, the approver system its submissions
        are sent to, demo claims and the local interpreter."""
        from registries import (
            register_act,
            register_case_kind,
            register_demo_cases,
            register_interpreter,
            register_outbox_destination,
            register_read_tool,
        )

        from .acts import ACTS
        from .approver import NAME, approver
        from .demo import demo_cases
        from .domain import EXPENSE_CLAIM
        from .interpreter import interpret
        from .read_tools import READ_TOOLS

        register_case_kind(EXPENSE_CLAIM)
        for act in ACTS:
            register_act(act)
        for tool in READ_TOOLS:
            register_read_tool(tool)
        register_outbox_destination(NAME, approver)
        register_demo_cases(demo_cases)
        register_interpreter(interpret)
