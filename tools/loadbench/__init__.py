"""The pieces of ``manage.py loadbench`` (tools/management/commands/loadbench.py), one module per job: the
fixtures it writes (the scripted model, the lanes), the daphne processes it starts, the clients that drive them,
and the figures it reports."""
