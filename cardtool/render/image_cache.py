"""Card images kept in the build cache (render/cache.py): a face's PNG and its contact-sheet thumbnail,
under the digest of the face's own PDF and the image's size, so a build with one changed card
rasterises one image. Outside a build (no cache) every image is rasterised, as before.
"""

from __future__ import annotations

import io
from pathlib import Path

from cardtool.render.cache import BuildCache, code_fingerprint, digest, key_of

KIND = "image"
PNG = b"\x89PNG\r\n\x1a\n"


class ImageReuse:
    """Which of a deck's images the cache holds, and keeping the ones made now."""

    def __init__(self, cache: BuildCache | None, face_pdfs: list[bytes], size: tuple[int, int, int]):
        self.cache = cache
        self.keys = [key_of(KIND, code_fingerprint(), digest(pdf), repr(size)) for pdf in face_pdfs] \
            if cache is not None else []
        self.thumbs: dict[int, object] = {}

    def missing(self, stage: Path, files: list[str]) -> list[int]:
        """Write the cached images into the staging folder; the indexes of those still to make."""
        if self.cache is None:
            return list(range(len(files)))
        from PIL import Image, UnidentifiedImageError

        todo = []
        for index, (key, file) in enumerate(zip(self.keys, files)):
            entry = self.cache.get(KIND, key)
            png = self.cache.read(entry.blobs.get("png", "")) if entry is not None else None
            thumb = self.cache.read(entry.blobs.get("thumb", "")) if entry is not None else None
            try:
                ok = png is not None and thumb is not None and png.startswith(PNG) and thumb.startswith(PNG)
                picture = Image.open(io.BytesIO(thumb)) if ok else None
                if picture is not None:
                    picture.load()
            except (OSError, ValueError, UnidentifiedImageError):
                picture = None
            if picture is None:
                if entry is not None:
                    self.cache.damaged(key)
                todo.append(index)
                continue
            (stage / file).write_bytes(png)
            self.thumbs[index] = picture.convert("RGB")
        self.cache.tally.reused[KIND] = self.cache.tally.reused.get(KIND, 0) + len(files) - len(todo)
        self.cache.tally.made[KIND] = self.cache.tally.made.get(KIND, 0) + len(todo)
        return todo

    def thumbnails(self, stage: Path, files: list[str], made: list[int], thumbs: list) -> list:
        """Every thumbnail in order, the cached and those just made (which are kept in the cache)."""
        for index, thumb in zip(made, thumbs):
            self.thumbs[index] = thumb
            if self.cache is not None:
                buffer = io.BytesIO()
                thumb.save(buffer, format="PNG", compress_level=3)
                path = stage / files[index]
                self.cache.store(KIND, self.keys[index], {}, {
                    "png": self.cache.put(path.read_bytes(), source=path),
                    "thumb": self.cache.put(buffer.getvalue())})
        return [self.thumbs[index] for index in range(len(files))]
