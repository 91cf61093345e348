"""The site's shared vocabulary, below every app: what any of them may say to another.

``core.errors`` (the refusal every service raises and every view understands),
``core.tokens`` (the one scheme of the tokens a page gives its polls and streams) and
``core.links`` (many URLs of one route from a single ``reverse()``). It imports Django
and nothing of the apps: ``accounts`` and everything above may use it.
"""
