"""The daemon: the one loop that owns the game, its configuration, the banker PIN, systemd notify,
and the command line."""
