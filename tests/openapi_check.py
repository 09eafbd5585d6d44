"""Every API answer the suite receives is held against the OpenAPI the server serves (/api/openapi.json).

``tests/conftest.py`` runs ``check_answer`` on every response of Django's test ``Client`` under ``/api/``: the
operation must declare the status it answered, and the body must match the schema declared for that status —
strictly: a key the schema does not document, a required key the body lacks, a value of another type, all fail
the test that made the request. So the docs at /api/docs cannot drift from what the server sends."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

UNCHECKED = ("/api/openapi.json", "/api/docs")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # as the OpenAPI names it: /api/conversations/{conversation_id}
    pattern: re.Pattern[str]
    responses: dict[str, Any]


def strict(schema: Any) -> Any:
    """``schema`` with every object that lists its properties closed to others (``additionalProperties:
    false``), unless it says otherwise (a free-form ``dict[str, Any]`` says ``true``)."""
    if isinstance(schema, dict):
        out = {k: strict(v) for k, v in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


class Spec:
    """The served OpenAPI document, read once, and its operations by method and path."""

    def __init__(self, document: dict[str, Any]):
        self.document = strict(copy.deepcopy(document))
        self.operations = [
            Operation(method, path, re.compile("^" + re.sub(r"\\{[^/}]+\\}", "[^/]+", re.escape(path)) + "$"),
                      op["responses"])
            for path, ops in self.document["paths"].items() for method, op in ops.items()]

    def operation(self, method: str, path: str) -> Operation | None:
        return next((op for op in self.operations if op.method == method.lower() and op.pattern.match(path)), None)

    def problems(self, method: str, path: str, status: int, content: bytes) -> list[str]:
        """What is wrong with this answer against the documented operation ([] when it matches, or when no
        documented operation has this method and path: ninja's own 404/405)."""
        op = self.operation(method, path)
        if op is None:
            return []
        declared = op.responses.get(str(status))
        where = f"{method.upper()} {op.path} answered {status}"
        if declared is None:
            return [f"{where}, a status its OpenAPI does not declare (it declares {sorted(op.responses)})"]
        media = (declared.get("content") or {}).get("application/json")
        if media is None:
            return [] if not content else [f"{where} with a body its OpenAPI says it has none"]
        try:
            body = json.loads(content)
        except ValueError:
            return [f"{where} with a body that is not JSON: {content[:200]!r}"]
        validator = Draft202012Validator({**media["schema"], "components": self.document["components"]})
        return [f"{where}: {'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"
                for e in sorted(validator.iter_errors(body), key=lambda e: list(map(str, e.absolute_path)))]


_spec: Spec | None = None


def served_spec() -> Spec:
    global _spec
    if _spec is None:
        from django.test import Client

        response = Client().get("/api/openapi.json")
        assert response.status_code == 200, response.content[:300]
        _spec = Spec(response.json())
    return _spec


def check_answer(request: dict[str, Any], response) -> None:
    """Fail when ``response`` (to the WSGI ``request`` the test client sent) breaks the served OpenAPI."""
    path = request.get("PATH_INFO", "")
    if not path.startswith("/api/") or path.startswith(UNCHECKED):
        return
    if response.get("Content-Type", "").startswith("text/html"):
        return  # not an operation's answer (a page Django served for a path ninja does not route)
    problems = served_spec().problems(request["REQUEST_METHOD"], path, response.status_code, response.content)
    assert not problems, "the answer does not match the OpenAPI at /api/docs:\n  " + "\n  ".join(problems)
