"""The Vocabulary panel (issue 26): ``state`` holds its truth without Qt, ``jobs`` the work it runs
off the GUI thread, ``views`` its four tabs (merge tree, reachability and use, diff, maps), ``tables``
and ``heatmap`` the widgets they share, ``panel`` the panel that wires them to the session."""
