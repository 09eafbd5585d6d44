"""Registries over HTTP (CONTRACT §6): what is registered, and its status in the audit mirror."""

from ninja import Router

from turnframe_web.schemas import with_errors

from .registry import get_registry
from .schemas import ActOut, ReadToolOut
from .services import entry_statuses

# mounted with the API's authentication (turnframe_web.api)
router = Router(exclude_unset=True)


@router.get("/read-tools", response=with_errors({200: list[ReadToolOut]}, 401, 422))
def read_tools(request):
    statuses = entry_statuses()
    return [{"name": t.name, "description": t.description, "mutability": t.declared_mutability,
             "timeout_ms": t.timeout_ms, "max_result_bytes": t.max_result_bytes, "purposes": list(t.purposes),
             "kind": t.kind, "status": statuses.get(t.name, "active")} for t in get_registry().read_tools.values()]


@router.get("/acts", response=with_errors({200: list[ActOut]}, 401, 422))
def acts(request):
    statuses = entry_statuses()
    return [{"name": a.name, "case_kind": a.case_kind, "mutability": str(a.mutability), "description": a.description,
             "claim_phrases": list(a.claim_phrases), "quoted_fields": list(a.quoted_fields),
             "status": statuses.get(a.name, "active")} for a in get_registry().acts.values()]
