"""The `knockbox` commands, one module each (the table is knockbox.cli.COMMANDS). A command module
has HELP (one line for `knockbox --help`), DESCRIPTION (or None: HELP), arguments(parser) and
run(args, out, err) -> exit code; shared helpers are in knockbox.commands.common."""
