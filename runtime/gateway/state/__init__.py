"""Gateway state: Responses conversations and opaque reasoning state kept for clients and
upstreams that cannot keep it themselves (docs/gateway.md, "State")."""

from .store import DEFAULT_TTL, MemoryStore, StateUnavailable, Store, default_state_url, open_store

__all__ = [
    "DEFAULT_TTL",
    "MemoryStore",
    "StateUnavailable",
    "Store",
    "default_state_url",
    "open_store",
]
