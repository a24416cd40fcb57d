"""The words players type, analysed with no search engine and no data model: folding (scripts, widths),
the terms of a text and of a query, question phrases, Chinese scripts, common English words, names."""
