"""The daemon: the banker's UI state machine, the durable journal, config and the main loop."""
