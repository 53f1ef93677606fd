"""Same input, same bytes: the one fixed time written into every output, and content-derived PDF ids.

A PDF records when it was made in three places: its /CreationDate and /ModDate, and the 'modified'
stamp of every font subset embedded in it (fontTools writes the time of the subsetting). All three are
the time SOURCE_DATE_EPOCH names when it is set (https://reproducible-builds.org/specs/source-date-epoch/,
which fontTools and matplotlib also read), else FIXED_EPOCH. A PDF's /ID is an MD5 digest of its
content, never a random number. Two builds of the same deck with the same cardtool are then identical
byte for byte, so a build can be diffed, cached and checked.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone

from cardtool.errors import UsageError

#: The time outputs carry when SOURCE_DATE_EPOCH is not set: 2000-01-01 00:00:00 UTC.
FIXED_EPOCH = 946_684_800
ENV = "SOURCE_DATE_EPOCH"


def epoch() -> int:
    """Seconds since 1970 that outputs record as their making time."""
    value = os.environ.get(ENV)
    if value is None:
        return FIXED_EPOCH
    if not value.strip().isdigit():
        raise UsageError(f"{ENV}={value!r} is not a whole number of seconds since 1970-01-01 UTC")
    return int(value)


def moment() -> datetime:
    return datetime.fromtimestamp(epoch(), tz=timezone.utc)


def pdf_date() -> str:
    """The making time as a PDF date string, e.g. D:20000101000000Z."""
    return moment().strftime("D:%Y%m%d%H%M%SZ")


def w3c_date() -> str:
    """The making time as WeasyPrint's metadata wants it, e.g. 2000-01-01T00:00:00Z."""
    return moment().strftime("%Y-%m-%dT%H:%M:%SZ")


@contextmanager
def fixed_clock() -> Iterator[None]:
    """While inside, SOURCE_DATE_EPOCH is set (to epoch()), so libraries that stamp times use it."""
    value = str(epoch())
    before = os.environ.get(ENV)
    os.environ[ENV] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)


def weasyprint_pdf(document) -> bytes:
    """A laid-out WeasyPrint document as PDF bytes with the fixed dates and an /ID from its content."""
    document.metadata.created = document.metadata.modified = w3c_date()
    with fixed_clock():
        return document.write_pdf(pdf_identifier=True)  # pydyf: True means an MD5 digest of the objects


def digest(parts: Iterable[bytes]) -> bytes:
    """An MD5 digest of some bytes, for a PDF /ID."""
    md5 = hashlib.md5(usedforsecurity=False)
    for part in parts:
        md5.update(part)
    return md5.digest()


def pypdf_stamp(writer, identifier: bytes) -> None:
    """Give a pypdf writer the fixed dates and a content-derived /ID (pypdf writes none by default and
    random ones when it does: the second half of the trailer /ID array is where they would go)."""
    from pypdf.generic import ArrayObject, ByteStringObject

    writer.add_metadata({"/CreationDate": pdf_date(), "/ModDate": pdf_date()})
    writer._ID = ArrayObject([ByteStringObject(identifier), ByteStringObject(identifier)])  # no public setter
