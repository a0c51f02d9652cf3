"""The one exception type for bad input: the message names the field, the value and what is allowed."""

import difflib
from collections.abc import Iterable


class HcschedError(ValueError):
    """Invalid user input (a file, a scenario field, a parameter)."""


def describe_error(exc: BaseException) -> str:
    """One line for any error, as the CLI and the dashboard show it: a bad input's own message, or what went wrong
    inside hcsched with the exception's type (never a traceback)."""
    if isinstance(exc, HcschedError):
        return str(exc)
    text = " ".join(str(exc).split()) or "no message"
    return (f"{type(exc).__name__}: {text} (an error inside hcsched, not in your input as far "
            "as it checks; please report it)")


def did_you_mean(name: str, valid: Iterable[str], n: int = 3, cutoff: float = 0.5) -> str:
    """"did you mean a or b? " for the names of ``valid`` close to ``name`` (difflib), or "" when none is."""
    close = difflib.get_close_matches(str(name), list(valid), n=n, cutoff=cutoff)
    return f"did you mean {' or '.join(close)}? " if close else ""
