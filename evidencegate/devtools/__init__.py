"""Tools for working on evidencegate itself (not used by the engine): ``layers``."""
