"""The Compare panel: the same text through many encoders (``jobs`` encode off the GUI thread, ``rows``
draws them aligned, ``charts`` and the tables show the numbers)."""
