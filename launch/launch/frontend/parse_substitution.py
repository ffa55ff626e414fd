# SPDX-License-Identifier: Apache-2.0
"""parse_substitution: text with ``$(name arg ...)`` substitutions -> a list of them."""

from typing import List, Text, Tuple

from .expose import instantiate_substitution
from ..substitution import Substitution
from ..substitutions import TextSubstitution

_ARG_STOP = ' \t\n)'
_NAME_CHARS = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-')


class _Reader:

    def __init__(self, text: Text) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: Text) -> ValueError:
        return ValueError(f"{message} at column {self.pos + 1} of '{self.text}'")

    def peek(self, n: int = 1) -> Text:
        return self.text[self.pos:self.pos + n]

    def parts(self, stop: Text) -> List[Substitution]:
        """Text and substitutions until an unescaped character of ``stop`` (or the end)."""
        result: List[Substitution] = []
        buffer: List[str] = []

        def flush() -> None:
            if buffer:
                result.append(TextSubstitution(text=''.join(buffer)))
                buffer.clear()

        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c == '\\' and self.pos + 1 < len(self.text) and stop:
                buffer.append(self.text[self.pos + 1])
                self.pos += 2
            elif self.peek(2) == '$(':
                flush()
                result.append(self.substitution())
            elif c in stop:
                break
            elif stop == _ARG_STOP and c in '\'"':
                flush()
                self.pos += 1
                result.extend(self.parts(c) or [TextSubstitution(text='')])
                if self.peek() != c:
                    raise self.error(f'unterminated {c}-quoted argument')
                self.pos += 1
            else:
                buffer.append(c)
                self.pos += 1
        flush()
        return result

    def substitution(self) -> Substitution:
        self.pos += 2
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _NAME_CHARS:
            self.pos += 1
        name = self.text[start:self.pos]
        if not name:
            raise self.error("expected a substitution name after '$('")
        arguments: List[List[Substitution]] = []
        while True:
            while self.peek().isspace():
                self.pos += 1
            if self.pos >= len(self.text):
                raise self.error(f"unterminated '$({name}'")
            if self.peek() == ')':
                self.pos += 1
                break
            arguments.append(self.parts(_ARG_STOP))
        return instantiate_substitution(name, arguments)


def parse_substitution(string_value: Text) -> List[Substitution]:
    """Parse text with ``$(name arg ...)`` into substitutions (args may nest and be quoted)."""
    if not string_value:
        return [TextSubstitution(text='')]
    reader = _Reader(string_value)
    result = reader.parts('')
    return result


def parse_if_substitutions(value) -> Tuple[bool, object]:
    """Return (True, substitutions) for text with substitutions, else (False, value)."""
    if isinstance(value, str) and '$(' in value:
        return True, parse_substitution(value)
    return False, value
