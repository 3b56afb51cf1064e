"""The package version: the one definition, read by pyproject.toml and by the package's modules.

Modules import it from here (never ``from evidencegate import __version__``, which would import
the package from inside its own import).
"""

__version__ = "0.1.0"
