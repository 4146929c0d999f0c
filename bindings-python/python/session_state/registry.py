"""The sub-agent registry over any store: :class:`AgentRegistry` (the core's ``AgentRegistry``,
the methods of MoAI-ADK's ``SessionManager`` under the core's names: ``register``,
``resume_id``, ``should_resume``, ``agent_result``, ``chain_results``, ``chain_summary``,
``clear_agent``, ``all_sessions``, ``repair``, ``prune(older_than_days=..., keep_agent_ids=[...],
apply=False)``, ...), and the transcript functions.

``AgentRegistry(store, sessions_key=None, chains_key=None, journal_key=None, *, journal=False,
max_document_bytes=None)``: the keys default to ``.moai/memory/agent-sessions.json``,
``.moai/memory/workflow-chains.json`` and ``.moai/memory/agent-sessions.journal.jsonl``.
:class:`session_state.moai.SessionManager` is the seed's drop-in class over the same files.
"""

from ._native import AgentRegistry, export_transcript, parse_transcript, read_transcript
from ._types import PrunePlan, RegistryRepair

__all__ = [
    "AgentRegistry",
    "PrunePlan",
    "RegistryRepair",
    "export_transcript",
    "parse_transcript",
    "read_transcript",
]
