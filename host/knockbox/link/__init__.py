"""The link to a device: its serial port, the raw REPL, sync and deploy."""
