"""Development tools beside the engine, not part of it: ``manage.py loadbench`` (the runtime under load through
real daphne processes). Nothing in ``conversations``, ``registries`` or the domains imports this package."""
