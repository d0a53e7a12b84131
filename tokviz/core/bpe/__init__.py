"""tokviz's own BPE: an incremental trainer streaming MergeStep events, an encoder, formats."""
