"""The data layer: the strict YAML reader, the vocabularies, the JSON Schemas, the model and the loader.

Nothing here imports from the rest of the package: every later stage (checks,
rendering, search, exports, print, site) starts from a loaded
:class:`~houserules.data.reading.model.KnowledgeBase`.
"""
