"""The colour science of the colour-vision check, in plain Python: sRGB colours as dichromats see them and
the CIEDE2000 difference between two colours.

Deuteranopia and protanopia follow Machado, Oliveira & Fernandes (2009), "A physiologically-based model
for simulation of color vision deficiency", their matrices for severity 1.0, applied to linear sRGB.
Tritanopia follows Brettel, Viénot & Mollon (1997), "Computerized simulation of color appearance for
dichromats": in the LMS cone space of Viénot, Brettel & Mollon (1999) (Smith & Pokorny's fundamentals
from Judd-Vos XYZ, that paper's matrices), a colour keeps L and M and takes the S that puts it on the
half-plane through white and the 485 nm or the 660 nm light (Judd-Vos colour-matching functions), the one
on its side of the plane through white and the S axis. The difference is CIEDE2000 (Sharma, Wu & Dalal
2005) in CIE Lab with D65 as white; sRGB is IEC 61966-2-1 with its matrix made from its primaries.

These are the methods, constants and order of operations of ColorAide (`Color.filter("deutan" |
"protan", method="machado")`, `filter("tritan", method="brettel")`, `.convert("srgb").clip()` and
`delta_e(method="2000")`), which the check used until importing it (about 0.1 s) was most of a first
`cardtool validate`: tests/test_colour_vision.py compares every number here with ColorAide's (ColorAide
stays a development dependency, as that reference). A colour's whole simulation and difference take
microseconds; nothing here imports more than math.
"""

from __future__ import annotations

import math

Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]

#: Machado et al. (2009), severity 1.0: linear sRGB to linear sRGB.
MACHADO_DEUTERANOPIA: Matrix = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                                (-0.011820, 0.042940, 0.968881))
MACHADO_PROTANOPIA: Matrix = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                              (-0.003882, -0.048116, 1.051998))

#: Viénot, Brettel & Mollon (1999): XYZ (Judd-Vos) to LMS (Smith & Pokorny 1975), and linear RGB to XYZ
#: (in percent).
XYZ_TO_LMS: Matrix = ((0.15514, 0.54312, -0.03286), (-0.15514, 0.45684, 0.03286), (0.0, 0.0, 0.01608))
RGB_TO_XYZ_VIENOT: Matrix = ((40.9568, 35.5041, 17.9167), (21.3389, 70.6743, 7.9868), (1.86297, 11.462, 91.2367))
#: Brettel's two anchors for tritanopes: the 485 nm and 660 nm lights in Judd-Vos XYZ (the CIE 1931 2°
#: colour-matching functions as Judd (1951) and Vos (1978) corrected them, the XYZ of the matrix above).
XYZ_485NM: Vector = (0.056985, 0.16987, 0.5864)
XYZ_660NM: Vector = (0.16161, 0.061, 1.1906e-05)

#: sRGB (IEC 61966-2-1): primaries' and white's chromaticities (x, y).
SRGB_PRIMARIES = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06))
D65 = (0.31270, 0.32900)
LAB_EPSILON, LAB_KAPPA = 216 / 24389, 24389 / 27


def _dot(row: Vector, vector: Vector) -> float:
    return row[0] * vector[0] + row[1] * vector[1] + row[2] * vector[2]


def _apply(matrix: Matrix, vector: Vector) -> Vector:
    return _dot(matrix[0], vector), _dot(matrix[1], vector), _dot(matrix[2], vector)


def _product(first: Matrix, second: Matrix) -> Matrix:
    columns = tuple(zip(*second))
    return tuple(tuple(_dot(row, column) for column in columns) for row in first)


def _cross(a: Vector, b: Vector) -> Vector:
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


def _inverse(m: Matrix) -> Matrix:
    """The inverse by cofactors (the matrices here are well conditioned)."""
    columns = _cross(m[1], m[2]), _cross(m[2], m[0]), _cross(m[0], m[1])
    det = _dot(m[0], columns[0])
    return tuple(tuple(column[i] / det for column in columns) for i in range(3))


def _white_xyz(xy: tuple[float, float]) -> Vector:
    x, y = xy
    return x / y, 1.0, (1 - x - y) / y


def _rgb_to_xyz_matrix() -> Matrix:
    """sRGB's linear RGB to XYZ: each primary's XYZ scaled so that RGB white is D65 with Y = 1."""
    primaries = tuple(zip(*(_white_xyz(xy) for xy in SRGB_PRIMARIES)))  # columns: each primary's XYZ
    scale = _apply(_inverse(primaries), _white_xyz(D65))
    return tuple(tuple(row[i] * scale[i] for i in range(3)) for row in primaries)


RGB_TO_XYZ = _rgb_to_xyz_matrix()
WHITE = _white_xyz(D65)
RGB_TO_LMS = _product(XYZ_TO_LMS, tuple(tuple(v / 100 for v in row) for row in RGB_TO_XYZ_VIENOT))
LMS_TO_RGB = _inverse(RGB_TO_LMS)


def _tritan_wings() -> tuple[Vector, tuple[Matrix, Matrix]]:
    """Brettel's tritanope: the normal of the plane through white and the S axis (which side a colour is
    on), and for each side, LMS to linear RGB through the half-plane of white and that side's anchor."""
    white = _apply(RGB_TO_LMS, (1.0, 1.0, 1.0))
    separator = _cross(white, (0.0, 0.0, 1.0))
    wings = []
    for anchor in (XYZ_485NM, XYZ_660NM):
        normal = _cross(white, _apply(XYZ_TO_LMS, anchor))  # L, M kept; S solved from normal . lms = 0
        project = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (-normal[0] / normal[2], -normal[1] / normal[2], 0.0))
        wings.append((_dot(separator, _apply(XYZ_TO_LMS, anchor)) > 0, _product(LMS_TO_RGB, project)))
    # the wing whose anchor lies on the positive side of the separator takes the colours on that side
    positive = next(m for side, m in wings if side)
    negative = next(m for side, m in wings if not side)
    return separator, (negative, positive)


TRITAN_SEPARATOR, TRITAN_WINGS = _tritan_wings()


def parse_hex(colour: str) -> Vector:
    """sRGB channels 0 to 1 of "#rrggbb" (or "#rgb")."""
    digits = colour[1:] if colour.startswith("#") else ""
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    try:
        if len(digits) != 6:
            raise ValueError
        return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        raise ValueError(f"not a colour as #rrggbb: {colour!r}") from None


def to_hex(rgb: Vector) -> str:
    """ "#rrggbb" of sRGB channels 0 to 1 (rounded half up, as ColorAide and CSS do)."""
    return "#" + "".join(f"{int(math.floor(min(max(c, 0.0), 1.0) * 255 + 0.5)):02x}" for c in rgb)


def to_linear(rgb: Vector) -> Vector:
    """sRGB's transfer function undone (mirrored for negative values)."""
    return tuple(math.copysign(((abs(c) + 0.055) / 1.055) ** 2.4, c) if abs(c) > 0.04045 else c / 12.92
                 for c in rgb)


def from_linear(rgb: Vector) -> Vector:
    return tuple(math.copysign(1.055 * abs(c) ** (1 / 2.4) - 0.055, c) if abs(c) > 0.0031308 else 12.92 * c
                 for c in rgb)


def simulate(rgb: Vector, vision: str | None) -> Vector:
    """The sRGB colour (channels 0 to 1) as a dichromat sees it, clipped to sRGB; vision is None (normal
    vision: the colour itself), "deutan", "protan" (Machado) or "tritan" (Brettel)."""
    if vision is None:
        return rgb
    linear = to_linear(rgb)
    if vision == "tritan":
        lms = _apply(RGB_TO_LMS, linear)
        seen = _apply(TRITAN_WINGS[_dot(lms, TRITAN_SEPARATOR) > 0], lms)
    else:
        seen = _apply({"deutan": MACHADO_DEUTERANOPIA, "protan": MACHADO_PROTANOPIA}[vision], linear)
    return tuple(min(max(c, 0.0), 1.0) for c in from_linear(seen))


def to_lab(rgb: Vector) -> Vector:
    """CIE Lab (D65 white) of an sRGB colour."""
    xyz = _apply(RGB_TO_XYZ, to_linear(rgb))
    fx, fy, fz = (math.copysign(abs(v) ** (1 / 3), v) if v > LAB_EPSILON else (LAB_KAPPA * v + 16) / 116
                  for v in (v / w for v, w in zip(xyz, WHITE)))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(first: Vector, second: Vector) -> float:
    """CIEDE2000 between two Lab colours (kL = kC = kH = 1), Sharma, Wu & Dalal's equations 2 to 22."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c7 = ((math.hypot(a1, b1) + math.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + 25 ** 7)))
    ap1, ap2 = (1 + g) * a1, (1 + g) * a2
    cp1, cp2 = math.sqrt(ap1 ** 2 + b1 ** 2), math.sqrt(ap2 ** 2 + b2 ** 2)
    hp1, hp2 = _hue(ap1, b1), _hue(ap2, b2)
    chromatic = cp1 * cp2 != 0
    hdiff = hp1 - hp2
    dh = 0.0 if not chromatic else hdiff if abs(hdiff) <= 180 else hdiff + (-360 if hdiff > 180 else 360)
    dhp = 2 * math.sqrt(cp2 * cp1) * math.sin(math.radians(dh / 2))
    hsum = hp1 + hp2
    hpm = hsum if not chromatic else hsum / 2 if abs(hdiff) <= 180 else (hsum + (360 if hsum < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(hpm - 30)) + 0.24 * math.cos(math.radians(2 * hpm))
         + 0.32 * math.cos(math.radians(3 * hpm + 6)) - 0.20 * math.cos(math.radians(4 * hpm - 63)))
    dt = 30 * math.exp(-(((hpm - 275) / 25) ** 2))
    cpm = (cp1 + cp2) / 2
    rc = 2 * math.sqrt(cpm ** 7 / (cpm ** 7 + 25 ** 7))
    lightness = ((l1 + l2) / 2 - 50) ** 2
    sl, sc, sh = 1 + 0.015 * lightness / math.sqrt(20 + lightness), 1 + 0.045 * cpm, 1 + 0.015 * cpm * t
    rt = -math.sin(math.radians(2 * dt)) * rc
    dl, dc, dhs = (l1 - l2) / sl, (cp1 - cp2) / sc, dhp / sh
    return math.sqrt(dl ** 2 + dc ** 2 + dhs ** 2 + rt * dc * dhs)


def _hue(a: float, b: float) -> float:
    """Hue angle in degrees, 0 to 360 (0 for a grey)."""
    if a == 0 and b == 0:
        return 0.0
    angle = math.atan2(b, a)
    return math.degrees(angle + math.tau if angle < 0 else angle)
