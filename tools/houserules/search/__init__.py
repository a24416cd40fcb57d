"""Search: one analysis (CJK bigrams, English stems, traditional → simplified) for the command line and the site.

``analysis`` tokenizes; ``documents`` is what the Whoosh index of the CLI holds, ``cache``
builds and keeps it, ``index`` queries it; ``shards`` exports that index's scores as the
site's sharded browser index, which ``siteindex`` builds for a site; ``evaluate`` scores both on
the judged queries.
"""
