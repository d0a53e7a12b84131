"""One module per ``tokviz`` subcommand (see tokviz/cli.py)."""
