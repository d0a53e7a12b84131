"""Helpers shared by several test modules (never imported from one test module into another)."""
