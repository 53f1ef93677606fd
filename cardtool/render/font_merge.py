"""One font program out of many subsets of it: what lets a sheet PDF carry each font once.

Every card face is its own PDF (so a build can keep and reuse it by content, render/cache.py), and
WeasyPrint embeds in each the subset of each TrueType font that the face uses. It subsets keeping every
glyph at its place in the original font (retained glyph ids), so glyph n of any subset is either glyph n
of the original or empty. The union of the subsets of one font is then simply, glyph by glyph, the one
that has it: `Union.font` rebuilds glyf, loca, hmtx, hhea, maxp, head and post for that union and
keeps the other tables that do not depend on which glyphs are present from the first subset.

Subsets merge only when they agree: the same font name and name table, and every glyph both hold
byte for byte the same (`Union.agrees`); anything else (a CFF font, a table that is not
TrueType) is left as it was. The result depends only on the set of subsets, never on their order.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

KEPT = (b"OS/2", b"cmap", b"cvt ", b"fpgm", b"gasp", b"name", b"prep")  # tables taken from one subset
NEEDED = (b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp")


class NotMergeable(ValueError):
    """The bytes are not a TrueType font this module can merge."""


def _tables(data: bytes) -> dict[bytes, bytes]:
    if len(data) < 12 or data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        raise NotMergeable("not a TrueType font")
    count = struct.unpack_from(">H", data, 4)[0]
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if offset + length > len(data):
            raise NotMergeable("a table runs past the end of the font")
        tables[tag] = data[offset:offset + length]
    if any(tag not in tables for tag in NEEDED):
        raise NotMergeable("a table every TrueType font needs is missing")
    return tables


@dataclass(frozen=True)
class TrueTypeSubset:
    """A subset's tables and the glyphs it holds (non-empty outlines), by glyph id."""

    tables: dict[bytes, bytes]
    count: int  # glyph ids it covers
    glyphs: dict[int, bytes]
    order: bytes  # what subsets are sorted by, so the first one is the same whatever the faces' order

    @classmethod
    def of(cls, data: bytes) -> "TrueTypeSubset":
        tables = _tables(data)
        head, maxp, hhea = tables[b"head"], tables[b"maxp"], tables[b"hhea"]
        if len(head) < 54 or len(maxp) < 6 or len(hhea) < 36:
            raise NotMergeable("a header table is too short")
        count = struct.unpack_from(">H", maxp, 4)[0]
        long_offsets = struct.unpack_from(">h", head, 50)[0] == 1
        width = 4 if long_offsets else 2
        loca = tables[b"loca"]
        metric_count = struct.unpack_from(">H", hhea, 34)[0]
        if len(loca) < (count + 1) * width or metric_count < 1 or len(tables[b"hmtx"]) < 4 * metric_count:
            raise NotMergeable("the loca or hmtx table is too short")
        offsets = struct.unpack_from(f">{count + 1}{'L' if long_offsets else 'H'}", loca)
        scale = 1 if long_offsets else 2
        glyf = tables[b"glyf"]
        # An empty glyph's offset equals the next one's, so the last glyph id at each distinct offset is
        # the one whose outline starts there (dict() of the pairs keeps the last: quick for 5,000 ids).
        last = dict(zip(offsets, range(count + 1)))
        glyphs = {gid: glyf[start * scale:offsets[gid + 1] * scale]
                  for start, gid in sorted(last.items(), key=lambda item: item[1])
                  if gid < count and offsets[gid + 1] > start}
        return cls(tables, count, glyphs, hashlib.sha256(data).digest())

    def identity(self) -> bytes:
        """What subsets of one font share: its name table."""
        return self.tables.get(b"name", b"")

    def metric(self, gid: int) -> tuple[int, int]:
        """(advance width, left side bearing) of a glyph id."""
        hmtx, count = self.tables[b"hmtx"], struct.unpack_from(">H", self.tables[b"hhea"], 34)[0]
        if gid < count:
            return struct.unpack_from(">Hh", hmtx, 4 * gid)
        advance = struct.unpack_from(">H", hmtx, 4 * (count - 1))[0]
        at = 4 * count + 2 * (gid - count)
        return advance, (struct.unpack_from(">h", hmtx, at)[0] if at + 2 <= len(hmtx) else 0)


class Union:
    """Agreeing subsets of one font, and the glyphs they hold together."""

    def __init__(self):
        self.subsets: list[tuple[TrueTypeSubset, frozenset[int]]] = []
        self.glyphs: dict[int, bytes] = {}

    def agrees(self, subset: TrueTypeSubset) -> bool:
        """Whether the subset is of the same font and every glyph it shares with the union is the same."""
        return not self.subsets or (subset.identity() == self.subsets[0][0].identity() and all(
            self.glyphs.get(gid, glyph) == glyph for gid, glyph in subset.glyphs.items()))

    def add(self, subset: TrueTypeSubset, used: frozenset[int]) -> None:
        """Take a subset in (glyph ids `used` are those its face draws, empty ones such as a space too)."""
        self.subsets.append((subset, used))
        self.glyphs.update(subset.glyphs)

    def font(self) -> bytes:
        """One TrueType font holding every glyph of the union."""
        ordered = sorted(self.subsets, key=lambda pair: pair[0].order)
        count = max(s.count for s, _ in ordered)
        metrics: dict[int, tuple[int, int]] = {}
        for subset, used in ordered:
            for gid in sorted(used | subset.glyphs.keys()):
                if gid < subset.count and gid not in metrics:
                    metrics[gid] = subset.metric(gid)
        return _font(ordered[0][0].tables, [s.tables for s, _ in ordered], count, self.glyphs, metrics)


def _font(first: dict[bytes, bytes], all_tables: list[dict[bytes, bytes]], count: int, glyph_map: dict[int, bytes],
          metric_map: dict[int, tuple[int, int]]) -> bytes:
    glyphs = [glyph_map.get(gid, b"") for gid in range(count)]
    glyphs = [glyph + b"\0" * (-len(glyph) % 4) for glyph in glyphs]
    offsets, position = [], 0
    for glyph in glyphs:
        offsets.append(position)
        position += len(glyph)
    offsets.append(position)
    head = bytearray(first[b"head"])
    struct.pack_into(">L", head, 8, 0)  # checkSumAdjustment, set in _sfnt
    boxes = [struct.unpack_from(">hhhh", tables[b"head"], 36) for tables in all_tables]
    struct.pack_into(">hhhh", head, 36, min(b[0] for b in boxes), min(b[1] for b in boxes),
                     max(b[2] for b in boxes), max(b[3] for b in boxes))
    struct.pack_into(">h", head, 50, 1)  # long loca offsets
    hhea = bytearray(first[b"hhea"])
    struct.pack_into(">H", hhea, 10, max(struct.unpack_from(">H", t[b"hhea"], 10)[0] for t in all_tables))
    struct.pack_into(">H", hhea, 34, count)
    maxp = bytearray(first[b"maxp"])
    struct.pack_into(">H", maxp, 4, count)
    if len(maxp) >= 32:  # version 1.0: limits a renderer sizes its buffers by, the largest of any
        for offset in range(6, 32, 2):
            struct.pack_into(">H", maxp, offset, max(struct.unpack_from(">H", t[b"maxp"], offset)[0]
                                                     for t in all_tables if len(t[b"maxp"]) >= 32))
    post = bytearray(first.get(b"post", b"")[:32].ljust(32, b"\0"))
    struct.pack_into(">L", post, 0, 0x00030000)  # version 3: no glyph names
    tables = {tag: first[tag] for tag in KEPT if tag in first}
    tables.update({b"glyf": b"".join(glyphs), b"loca": struct.pack(f">{len(offsets)}L", *offsets),
                   b"hmtx": struct.pack(f">{count * 'Hh'}", *(v for gid in range(count)
                                                               for v in metric_map.get(gid, (0, 0)))),
                   b"head": bytes(head), b"hhea": bytes(hhea), b"maxp": bytes(maxp), b"post": bytes(post)})
    return _sfnt(tables)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}L", data)) & 0xFFFFFFFF


def _sfnt(tables: dict[bytes, bytes]) -> bytes:
    tags = sorted(tables)
    count = len(tags)
    power = 1 << (count.bit_length() - 1)
    header = struct.pack(">LHHHH", 0x00010000, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    offset = 12 + 16 * count
    records, bodies = [], []
    for tag in tags:
        data = tables[tag]
        records.append(struct.pack(">4sLLL", tag, _checksum(data), offset, len(data)))
        bodies.append(data + b"\0" * (-len(data) % 4))
        offset += len(bodies[-1])
    font = bytearray(header + b"".join(records) + b"".join(bodies))
    head_at = 12 + 16 * count + sum(len(b) for tag, b in zip(tags, bodies) if tag < b"head")
    struct.pack_into(">L", font, head_at + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)
