from django.apps import AppConfig


class TripsConfig(AppConfig):
    name = "trips"
    verbose_name = "Travel rebooking (second example domain)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the ``trip`` case kind, its acts, read tools and demo trip, through the public API only.
        No local interpreter: the embedded one belongs to the expense domain; drive trips with a real model
        or the scripted provider."""
        from registries import (
            register_act,
            register_case_kind,
            register_demo_cases,
            register_outbox_destination,
            register_read_tool,
        )

        from .acts import ACTS
        from .booking import NAME, LocalBookingSystem
        from .demo import demo_cases
        from .domain import TRIP
        from .read_tools import READ_TOOLS

        register_case_kind(TRIP)
        for act in ACTS:
            register_act(act)
        for tool in READ_TOOLS:
            register_read_tool(tool)
        register_demo_cases(demo_cases)
        register_outbox_destination(NAME, LocalBookingSystem)
