"""Draw the web app's icons once (icons/icon-192.png, icons/icon-512.png); the PNGs are committed.

The 2048 tile of the original palette (#edc22e, white digits) on the board's
colour (#bbada0), full bleed so the icon is also "maskable": the tile stays
inside the central circle that any launcher mask keeps.  Needs Pillow
(``.venv/bin/pip install pillow``); the font is the first bold sans found.

    python tools/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ICONS = Path(__file__).resolve().parent.parent / "icons"
SIZES = (192, 512)
BOARD = "#bbada0"
TILE = "#edc22e"
DIGITS = "#f9f6f2"
FONTS = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in FONTS:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def draw_icon(size: int) -> Image.Image:
    scale = 4  # drawn large and reduced: smooth edges without antialiasing options
    big = size * scale
    image = Image.new("RGB", (big, big), BOARD)
    draw = ImageDraw.Draw(image)
    tile = big * 0.6  # inside the maskable safe zone (a circle of 80% of the width)
    corner = (big - tile) / 2
    draw.rounded_rectangle((corner, corner, corner + tile, corner + tile), radius=big * 0.05, fill=TILE)
    draw.text((big / 2, big / 2), "2048", fill=DIGITS, font=font(int(tile * 0.3)), anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> int:
    ICONS.mkdir(exist_ok=True)
    for size in SIZES:
        path = ICONS / f"icon-{size}.png"
        draw_icon(size).save(path, optimize=True)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
