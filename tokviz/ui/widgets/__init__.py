"""Reusable widgets that draw Encodings: the token view, the byte layers and the chat composer."""
