"""RGB card faces to press CMYK through littleCMS (Pillow's ImageCms), with a total-ink limit.

The sRGB side is Pillow's built-in sRGB profile; the CMYK side is an ICC output profile found on the
machine (never downloaded): --cmyk-profile FILE, else CARDTOOL_CMYK_PROFILE, else the first of
PROFILE_PATHS that exists. Debian's ghostscript package (libgs-common) installs a SWOP profile there.
A shop's total-ink limit (DriveThruCards: 240%) is then enforced pixel by pixel: where C+M+Y+K is over
the limit, cyan, magenta and yellow are scaled down and black is kept, so a dark area stays a rich
black (black plus some colour) within the limit instead of a muddy 300% mix.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardtool.errors import UsageError

ENV = "CARDTOOL_CMYK_PROFILE"
#: Where an installed CMYK output profile is looked for, in order (Debian/Ubuntu paths).
PROFILE_PATHS = (
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",  # apt-get install ghostscript (libgs-common)
    "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    "/usr/share/color/icc/ISOcoated_v2_eci.icc",
    "/usr/share/color/icc/CoatedFOGRA39.icc",
)


@dataclass(frozen=True)
class CmykProfile:
    """An ICC output profile: where it is, what it calls itself, and its bytes (embedded in PDF/X)."""

    path: Path
    description: str
    data: bytes


def find_profile(explicit: Path | None = None) -> CmykProfile:
    """The CMYK profile to convert to; a UsageError that says how to get one when there is none."""
    candidates = [explicit] if explicit is not None else \
        ([Path(os.environ[ENV])] if os.environ.get(ENV) else [Path(p) for p in PROFILE_PATHS])
    for path in candidates:
        if path.is_file():
            return _load(path.resolve())
    if explicit is not None or os.environ.get(ENV):
        raise UsageError(f"CMYK profile {candidates[0]} does not exist")
    raise UsageError("no CMYK ICC profile on this machine: install one (on Debian or Ubuntu "
                     "'apt-get install ghostscript' brings a SWOP profile) or give one with --cmyk-profile FILE "
                     f"or {ENV}=FILE (for example your shop's own profile)")


@lru_cache(maxsize=4)
def _load(path: Path) -> CmykProfile:
    from PIL import ImageCms

    try:
        profile = ImageCms.getOpenProfile(str(path))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise UsageError(f"{path} is not an ICC profile: {exc}") from None
    if profile.profile.xcolor_space.strip() != "CMYK":
        raise UsageError(f"{path} is an ICC profile for {profile.profile.xcolor_space.strip()}, not CMYK")
    return CmykProfile(path, (profile.profile.profile_description or path.name).strip(), path.read_bytes())


@lru_cache(maxsize=4)
def _transform(path: Path):
    from PIL import ImageCms

    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(path)), "RGB",
                                   "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def to_cmyk(image, profile: CmykProfile, ink_limit: int | None):
    """An RGB PIL image as CMYK through the profile, its total ink at most ink_limit percent."""
    from PIL import ImageCms

    cmyk = ImageCms.applyTransform(image.convert("RGB"), _transform(profile.path))
    return limit_ink(cmyk, ink_limit) if ink_limit is not None else cmyk


def limit_ink(cmyk, ink_limit: int):
    """Scale C, M and Y down where C+M+Y+K is over ink_limit percent; K is kept (up to the limit)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(cmyk, dtype=np.float32)
    limit = ink_limit * 255 / 100
    k = np.minimum(pixels[..., 3], limit)
    colour = pixels[..., :3].sum(axis=-1)
    room = limit - k
    scale = np.where(colour + k > limit, room / np.maximum(colour, 1e-6), 1.0)
    pixels[..., :3] *= scale[..., None]
    pixels[..., 3] = k
    # floor, so rounding never lifts a pixel back over the limit
    return Image.fromarray(np.floor(pixels + 1e-3).clip(0, 255).astype(np.uint8), "CMYK")


def total_ink(cmyk) -> tuple[float, tuple[int, int]]:
    """The highest C+M+Y+K of a CMYK image in percent, and where (x, y) it is."""
    import numpy as np

    pixels = np.asarray(cmyk, dtype=np.uint16).sum(axis=-1)
    index = int(pixels.argmax())
    y, x = divmod(index, pixels.shape[1])
    return float(pixels.flat[index]) * 100 / 255, (x, y)


def cmyk_jpeg(image, profile: CmykProfile, ink_limit: int | None, dpi: int) -> bytes:
    """The image as a CMYK JPEG whose DECODED pixels keep within ink_limit: JPEG's rounding can lift a dark
    edge a few percent, so the limit is tightened by what the last try overshot until the file keeps it."""
    from PIL import Image

    target = ink_limit
    for _ in range(4):
        buffer = io.BytesIO()
        to_cmyk(image, profile, target).save(buffer, format="JPEG", quality=100, subsampling=0, dpi=(dpi, dpi))
        if ink_limit is None:
            break
        with Image.open(io.BytesIO(buffer.getvalue())) as decoded:
            ink, _ = total_ink(decoded)
        if ink <= ink_limit:
            break
        target = max(100, int(target - (ink - ink_limit)) - 1)
    return buffer.getvalue()
