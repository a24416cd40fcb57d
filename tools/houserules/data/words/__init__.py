"""The synonym tables of the data as the query analysis uses them (the analysis itself: :mod:`houserules.text`)."""
