class UserError(Exception):
    """A mistake the user can fix: printed as `knockbox: message`, exit code 1, no traceback."""
