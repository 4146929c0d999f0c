"""Helpers for testing stores: the core's conformance suite and a shared counter.

``run_store_conformance(store)`` runs the same behaviour cases the Rust, Node and wasm suites
run, on any store (including one written in Python); ``counter_increment(store, key)`` is one
exclusive read-modify-write, for checking that concurrent writers lose no update.
"""

from ._native import counter_increment, run_store_conformance

__all__ = ["counter_increment", "run_store_conformance"]
