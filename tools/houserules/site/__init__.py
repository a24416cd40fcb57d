"""The site: every generated page as a pure function of the knowledge base, and the files beside the pages.

:func:`houserules.site.pages.site_pages` returns ``{docs path: Markdown}``; the
adapter (:mod:`houserules.adapter`) hands the pages to MkDocs and Material, which nothing here imports.
"""
