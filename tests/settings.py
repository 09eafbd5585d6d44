"""The test suite's settings: the deployment's, with both example domains installed (expenses and trips), so
``make test`` runs each domain's tests and the engine is always exercised with more than one case kind."""

import os

os.environ.setdefault("TURNFRAME_DOMAINS", "expenses,trips")
# the suite drives recovery itself; a served process it starts says so when it wants the sweep
os.environ.setdefault("TURNFRAME_LEASE_SWEEP", "0")

from turnframe_web.settings import *  # noqa: E402,F403
