"""An example plug-in for the harness: a game (Nim, :mod:`harness_nim.game`) and a variant
(alpha-beta with shallow cutoffs only, :mod:`harness_nim.variant`).

Each entry point imports only its own module: the registries load plug-ins at the end of
their own import, so this package imports nothing here.
"""
