"""The small kit both rules engines share: the agent base, the budget clock, the arena runner and the
interface conformance suite. Pure Python without Django (``matches/__init__.py`` is empty, so an engine
importing ``matches.kit`` loads nothing of the play layer). Import the topic modules themselves."""
