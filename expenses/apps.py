from django.apps import AppConfig


class ExpensesConfig(AppConfig):
    name = "expenses"
    verbose_name = "Expense claims (example domain)"
    default_auto_field = "django.db.models.BigAutoField"
