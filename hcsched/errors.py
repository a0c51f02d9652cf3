"""The one exception type for bad input: the message names the field, the value and what is allowed."""


class HcschedError(ValueError):
    """Invalid user input (a file, a scenario field, a parameter)."""
