"""Draw the app icons of the site (site_overrides/assets/images/icon-*.png) with Pillow.

    .venv/bin/python tools/make_icons.py

A brown tile (the site's header colour) holding a light card with 房规 on it: legible
at 48 px on a home screen. The maskable icon fills its whole square with brown and
keeps the card inside the central safe zone (a circle of 80 % of the width), so a
phone may cut it to any shape.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

BROWN = "#795649"
CARD = "#fff6e5"  # the answer box of the site
ACCENT = "#e08a00"  # its border
FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
OUT = Path(__file__).resolve().parents[1] / "site_overrides" / "assets" / "images"


def icon(size: int, maskable: bool) -> Image.Image:
    scale = 4  # draw large, then shrink: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=BROWN)
        card = 0.56  # the card's share of the width: its corners stay inside the 80 % circle
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=BROWN)
        card = 0.72
    side = big * card
    left, top = (big - side) / 2, (big - side) / 2
    draw.rounded_rectangle((left, top, left + side, top + side), radius=side * 0.1, fill=CARD)
    draw.rectangle((left, top + side * 0.1, left + side * 0.06, top + side * 0.9), fill=ACCENT)
    font = ImageFont.truetype(FONT, int(side * 0.42))
    for line, text in enumerate(("房", "规")):
        y = top + side * (0.27 + 0.46 * line)
        draw.text(
            (big / 2 + side * 0.03, y),
            text,
            font=font,
            fill=BROWN,
            anchor="mm",
            stroke_width=max(1, round(side * 0.012)),
            stroke_fill=BROWN,
        )  # the font has no bold
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
