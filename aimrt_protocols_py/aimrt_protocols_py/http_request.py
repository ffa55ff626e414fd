# SPDX-License-Identifier: Apache-2.0
"""
One HTTP/1.1 request header block of AimRT's `http` channel, and the answers to it.

`parse_head` checks a header block against RFC 9110 syntax (strict request line and
header lines) and the channel's rules (POST only, Content-Length bodies under a size
limit), returning a `Request` or raising `Rejected` with the status to answer. The
server (http_server) frames the byte stream and calls it once per request.
"""
from http import HTTPStatus
import re
from typing import NamedTuple

#: Longest reason text sent back in an error answer.
MAX_REASON_CHARS = 200

# RFC 9110 syntax: methods are upper-case tokens here (as every standard method is),
# one space between the three parts, only HTTP/1.0 and HTTP/1.1.
_REQUEST_LINE = re.compile(rb'([A-Z]+) ([\x21-\x7e]+) HTTP/1\.([01])')
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_BAD_VALUE = re.compile(rb'[\x00-\x08\x0a-\x1f\x7f]')
_DIGITS = re.compile(rb'[0-9]+')

#: The answer to a request handled with 200 on a connection kept alive.
OK = (b'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n'
      b'Content-Length: 0\r\n\r\n')
#: The interim answer to `Expect: 100-continue`.
CONTINUE = b'HTTP/1.1 100 Continue\r\n\r\n'


class Request(NamedTuple):
    """A parsed request header block; its body of `length` bytes follows."""

    path: str
    content_type: str
    length: int
    #: the connection closes after the answer (HTTP/1.0 or `Connection: close`)
    close: bool
    #: the client sent `Expect: 100-continue`
    expect_continue: bool


class Rejected(Exception):
    """A request answered with a 4xx/5xx and the connection closed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def answer(status: int, reason: str, close: bool) -> bytes:
    """Return the answer: `status`, `reason` as text/plain, `Connection: close` if asked."""
    payload = reason[:MAX_REASON_CHARS].encode('utf-8', 'replace')
    extra = b'Allow: POST\r\n' if status == 405 else b''
    if close:
        extra += b'Connection: close\r\n'
    return (b'HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n'
            b'Content-Length: %d\r\n%s\r\n' % (status, HTTPStatus(status).phrase.encode(),
                                               len(payload), extra)) + payload


def parse_head(head: bytes, max_body: int) -> Request:
    """Parse one header block (without its blank line); raise Rejected when it is bad."""
    lines = head.split(b'\r\n')
    m = _REQUEST_LINE.fullmatch(lines[0])
    if m is None:
        raise Rejected(400, 'bad request line (need "METHOD /path HTTP/1.1")')
    method, path, minor = m.groups()
    length = None
    ctype = ''
    close = minor == b'0'
    expect = False
    chunked = False
    for line in lines[1:]:
        name, sep, value = line.partition(b':')
        if not sep or not _TOKEN.fullmatch(name):
            raise Rejected(400, 'bad header line')
        value = value.strip(b' \t')
        if _BAD_VALUE.search(value):
            raise Rejected(400, 'bad header value')
        name = name.lower()
        if name == b'content-length':
            if not _DIGITS.fullmatch(value) or (length is not None and
                                                int(value) != length):
                raise Rejected(400, 'bad Content-Length')
            length = int(value)
        elif name == b'content-type':
            ctype = value.decode('latin-1')
        elif name == b'connection':
            tokens = value.lower()
            if b'close' in tokens:
                close = True
            elif b'keep-alive' in tokens:
                close = False
        elif name == b'transfer-encoding':
            chunked = True
        elif name == b'expect' and value.lower() == b'100-continue':
            expect = True
    if method != b'POST':
        raise Rejected(405, 'only POST is accepted')
    if chunked:
        raise Rejected(501, 'Transfer-Encoding is not implemented; send Content-Length')
    if length is None:
        raise Rejected(411, 'Content-Length required')
    if length >= max_body:     # as waitress did: the limit is exclusive
        raise Rejected(413, 'body of %d bytes or more' % max_body)
    return Request(path.decode('latin-1'), ctype, length, close, expect)
