"""The Compare panel: the same text through many encoders. ``panel`` wires the text and the rows job
(``jobs`` encode off the GUI thread, ``alignment`` works out the shared columns and boundaries,
``rows`` paints them); ``encoder_list``, ``corpus_tab`` and
``sentencepiece_tab`` are the panel's parts; ``tables`` and ``charts`` show the numbers."""
