"""The words players type: query text analysis, the names a query can mean, the synonym tables."""
