"""One module per `main.py` subcommand."""
