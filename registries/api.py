"""Registries over HTTP (CONTRACT §6): what is registered, and its status in the audit mirror."""

from ninja import Router

from .registry import get_registry
from .services import entry_statuses

router = Router()


@router.get("/read-tools")
def read_tools(request):
    statuses = entry_statuses()
    return [{"name": t.name, "description": t.description, "mutability": t.declared_mutability,
             "timeout_ms": t.timeout_ms, "max_result_bytes": t.max_result_bytes, "purposes": list(t.purposes),
             "kind": t.kind, "status": statuses.get(t.name, "active")} for t in get_registry().read_tools.values()]


@router.get("/acts")
def acts(request):
    statuses = entry_statuses()
    return [{"name": a.name, "case_kind": a.case_kind, "mutability": str(a.mutability), "description": a.description,
             "claim_phrases": list(a.claim_phrases), "quoted_fields": list(a.quoted_fields),
             "status": statuses.get(a.name, "active")} for a in get_registry().acts.values()]
