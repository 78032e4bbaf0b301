"""Small foundations every layer may use: they import nothing else of bela.

Atomic file writes and the data folder's file checks (``files``), the one-app-per-slot
lock (``slot_lock``), names imported on first use (``lazy``) and the gate for text from
outside (``untrusted``). Nothing is imported here, so the engine's ``lazy_names`` costs
no more than that one module.
"""
