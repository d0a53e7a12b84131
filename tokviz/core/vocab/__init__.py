"""Production vocabularies laid open (issue 26), Qt-free.

- :mod:`.ranks`   the rank table of a byte-level rank encoder, and the progress/cancel state long work takes
- :mod:`.merges`  merges recovered from ranks, the merge tree of any token, export as a tokviz BPE model
- :mod:`.reach`   tokens no text can produce on its own, and how much of a vocabulary a corpus uses
- :mod:`.diff`    what two vocabularies share, gain and renumber; a per-script census
- :mod:`.maps`    how an encoder splits the numbers 0–9999 and runs of spaces or tabs
"""
