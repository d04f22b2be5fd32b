class GameError(ValueError):
    """Bad input to the rules core: a short message naming the hand and the field."""
