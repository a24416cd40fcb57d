"""The site: every generated page as a pure function of the knowledge base, and the MkDocs adapter.

:func:`houserules.site.pages.site_pages` returns ``{docs path: Markdown}``; only
:mod:`houserules.site.plugin` knows MkDocs and Material.
"""
