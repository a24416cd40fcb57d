"""The MkDocs and Material adapter: the only package that knows MkDocs, Material and MkDocs' live-reload server.

Everything a page shows comes from :mod:`houserules.site`, a pure function of the
knowledge base; this package hands it to MkDocs and Material:

- :mod:`.plugin`: the ``houserules`` plugin of ``mkdocs.yml`` (the generated pages, the
  navigation, the files beside the pages, each page's policy);
- :mod:`.runner`: MkDocs' configuration and build for ``houserules build`` and the live preview;
- :mod:`.livepreview`: what the plugin keeps between the builds of a live preview (dirty builds);
- :mod:`.liveserver`: the live preview's server, its watch on the data folder and its folder;
- :mod:`.searchhandoff`: Material's search index in, the site's own index out;
- :mod:`.protocol`: what the search worker (``hr-search-worker.js``) and the Python side agree on;
- :mod:`.csp`: each page's Content-Security-Policy, also for the scripts injected into served pages.

Only public MkDocs API is used (``tests/test_adapter.py`` checks that no private name of
``mkdocs`` or ``material`` is used here); a move to another generator replaces this package,
``mkdocs.yml`` and ``site_overrides/``.
"""

import os

# Material warns of MkDocs 2 on every run; the versions are pinned (pyproject.toml).
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
