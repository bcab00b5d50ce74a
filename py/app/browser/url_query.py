"""Query strings read and written as ``urllib.parse`` does, for the page (MicroPython has no ``urllib``).

``query_params`` reads ``location.search`` like ``parse_qsl(...,
keep_blank_values=True)``; ``query_string`` writes like ``urlencode``;
``decode_utf8`` decodes like ``bytes.decode("utf-8", "replace")``, which
MicroPython lacks too.  Tests compare all three with CPython's own.
"""

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~"
"""The characters a query keeps as they are; every other byte of the UTF-8 text is written ``%XX``."""
HEX_DIGITS = "0123456789abcdefABCDEF"


def query_params(query: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of ``query`` (``location.search``: one leading ``?`` is dropped), in order.

    As ``urllib.parse.parse_qsl(query, keep_blank_values=True)``: fields split
    on ``&``, a name without ``=`` has the value "", ``+`` is a space, ``%XX``
    escapes are UTF-8 and a malformed sequence reads as U+FFFD.
    """
    if query.startswith("?"):
        query = query[1:]
    pairs: list[tuple[str, str]] = []
    for field in query.split("&"):
        if field:
            name, _, value = field.partition("=")
            pairs.append((_unquote(name.replace("+", " ")), _unquote(value.replace("+", " "))))
    return pairs


def query_string(pairs: list[tuple[str, str]]) -> str:
    """``pairs`` as a query (without ``?``) that ``query_params`` reads back; as ``urllib.parse.urlencode``."""
    return "&".join(_quote(name) + "=" + _quote(value) for name, value in pairs)


def _quote(text: str) -> str:
    return "".join(
        chr(byte) if chr(byte) in UNRESERVED else "+" if byte == 32 else f"%{byte:02X}" for byte in text.encode()
    )


def _unquote(text: str) -> str:
    """``%XX`` escapes decoded; a character that is not ASCII stays as it is and ends a run of escapes."""
    if "%" not in text:
        return text
    pieces: list[str] = []
    run = bytearray()  # escapes and ASCII characters, decoded together
    i = 0
    while i < len(text):
        char = text[i]
        hex_pair = text[i + 1 : i + 3]
        if char == "%" and len(hex_pair) == 2 and hex_pair[0] in HEX_DIGITS and hex_pair[1] in HEX_DIGITS:
            run.append(int(hex_pair, 16))
            i += 3
            continue
        if ord(char) < 0x80:
            run.append(ord(char))
        else:
            pieces.append(decode_utf8(run))
            pieces.append(char)
            run = bytearray()
        i += 1
    pieces.append(decode_utf8(run))
    return "".join(pieces)


def decode_utf8(data: bytes | bytearray) -> str:
    """``data`` as UTF-8, each malformed part one U+FFFD, as CPython's ``decode(errors="replace")``.

    MicroPython's ``decode`` has no error handler: it raises on any bad byte.
    A malformed part is the longest start of a valid sequence (Unicode's
    "maximal subpart"), or one byte that no sequence starts with.
    """
    chars: list[str] = []
    i, end = 0, len(data)
    while i < end:
        lead = data[i]
        i += 1
        if lead < 0x80:
            chars.append(chr(lead))
            continue
        if 0xC2 <= lead <= 0xDF:
            needed, code, low, high = 1, lead & 0x1F, 0x80, 0xBF
        elif 0xE0 <= lead <= 0xEF:  # no overlong forms (E0), no surrogates (ED)
            needed, code = 2, lead & 0x0F
            low, high = (0xA0 if lead == 0xE0 else 0x80), (0x9F if lead == 0xED else 0xBF)
        elif 0xF0 <= lead <= 0xF4:  # no overlong forms (F0), nothing above U+10FFFF (F4)
            needed, code = 3, lead & 0x07
            low, high = (0x90 if lead == 0xF0 else 0x80), (0x8F if lead == 0xF4 else 0xBF)
        else:
            chars.append("\ufffd")
            continue
        while needed and i < end and low <= data[i] <= high:
            code = (code << 6) | (data[i] & 0x3F)
            needed -= 1
            i += 1
            low, high = 0x80, 0xBF
        chars.append("\ufffd" if needed else chr(code))
    return "".join(chars)
