# SPDX-License-Identifier: Apache-2.0
"""parse_substitution: text with ``$(name arg ...)`` substitutions -> a list of them."""

import re
from typing import Any, List, Optional, Text

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

    def parts(self, stop: Text, quote: Optional[Text] = None) -> List[Substitution]:
        """
        Text and substitutions until an unescaped character of ``stop`` (or the end).

        ``quote``: the quote the text is in (inside it the other quote is a plain character
        and nested substitutions' arguments cannot be quoted), as upstream's grammar.
        """
        result: List[Substitution] = []
        buffer: List[str] = []

        def flush() -> None:
            if buffer:
                result.append(TextSubstitution(text=''.join(buffer)))
                buffer.clear()

        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c == '\\' and self.pos + 1 < len(self.text):
                buffer.append(self.text[self.pos + 1])     # \$( \( \) \' \" \\ ...
                self.pos += 2
            elif self.peek(2) == '$(':
                flush()
                result.append(self.substitution(quote))
            elif c in stop:
                break
            elif stop == _ARG_STOP and c == quote:
                raise self.error(f'unexpected {c} in a substitution in {c}-quoted text')
            elif stop == _ARG_STOP and quote is None and c in '\'"':
                flush()
                self.pos += 1
                result.extend(self.parts(c, c) or [TextSubstitution(text='')])
                if self.peek() != c:
                    raise self.error(f'unterminated {c}-quoted argument')
                self.pos += 1
            else:
                buffer.append(c)
                self.pos += 1
        flush()
        return result

    def substitution(self, quote: Optional[Text] = None) -> Substitution:
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
            before = self.pos
            arguments.append(self.parts(_ARG_STOP, quote))
            if self.pos == before:
                raise self.error(f"unexpected '{self.peek()}' in '$({name}'")
        return instantiate_substitution(name, arguments)


def parse_substitution(string_value: Text) -> List[Substitution]:
    """Parse text with ``$(name arg ...)`` into substitutions (args may nest and be quoted)."""
    if not string_value:
        return [TextSubstitution(text='')]
    reader = _Reader(string_value)
    result = reader.parts('')
    return result


def parse_if_substitutions(value: Any) -> Any:
    """
    Return ``value`` with the text in it parsed (upstream's parse_if_substitutions).

    Text with substitutions becomes a list of them, plain text (escapes replaced) stays
    text, a list is parsed item by item (its items other than text must all be of one
    type, else ValueError); any other value is returned as it is.
    """
    if isinstance(value, str):
        parsed = parse_substitution(value)
        if len(parsed) == 1 and type(parsed[0]) is TextSubstitution:
            return parsed[0].text
        return parsed
    if isinstance(value, list):
        kinds = {type(item) for item in value if not isinstance(item, str)}
        if len(kinds) > 1:
            raise ValueError(f'the items of {value!r} are not all of one type '
                             f'({", ".join(sorted(k.__name__ for k in kinds))})')
        return [parse_if_substitutions(item) for item in value]
    return value


def replace_escaped_characters(data: Text) -> Text:
    r"""Return ``data`` with every escaped character (``\x``) replaced by the character."""
    return re.sub(r'\\(.)', r'\1', data)
