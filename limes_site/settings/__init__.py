"""Settings: ``base`` holds everything shared; ``dev``, ``test`` and ``prod`` adjust it."""
