"""Production vocabularies laid open (issue 26), Qt-free.

- :mod:`.ranks`   the rank table of a byte-level rank encoder, and the progress/cancel state long work takes
- :mod:`.merges`  merges recovered from ranks, the merge tree of any token, search by text/bytes/id
- :mod:`.file_merges` the merges a byte-level BPE tokenizer.json / GGUF lists, in the same shape
- :mod:`.encoder_merges` either of the two for one encoder, cached per encoder
- :mod:`.export`  a rank vocabulary as a tokviz BPE model (exact), and BPE-dropout through it
- :mod:`.table`   a vocabulary as ``{token bytes: id}``, cached per encoder
- :mod:`.scripts` the script class of a token, a per-script census
- :mod:`.reach`   tokens no text can produce on its own, and how much of a vocabulary a corpus uses
- :mod:`.diff`    what two vocabularies share, gain and renumber; a per-script census
- :mod:`.maps`    how an encoder splits the numbers 0–9999 and runs of spaces or tabs
"""
