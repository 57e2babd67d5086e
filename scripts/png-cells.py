#!/usr/bin/env python3
"""Prints, for each cell of a terminal picture, where its ink is: the export tests compare what two renderers
(rsvg-convert, headless Chromium) drew, cell by cell. Ink is a pixel far from the cell's background (its most
common colour). One JSON list per row, one [ink pixels, centre x, centre y] per cell, the centre in pixels from
the cell's top left (-1 without ink).

    scripts/png-cells.py picture.png ORIGIN_X,ORIGIN_Y COLSxROWS [CELL_WIDTHxCELL_HEIGHT]
"""
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
png_pixels = __import__("png-pixels")

# A channel this far from the background is ink: anti-aliased edges fainter than this are not counted.
INK_DISTANCE = 90


def main():
    path, origin, size = sys.argv[1:4]
    cell = sys.argv[4] if len(sys.argv) > 4 else "9x18"
    ox, oy = (int(v) for v in origin.split(","))
    cols, rows = (int(v) for v in size.split("x"))
    cw, ch = (int(v) for v in cell.split("x"))
    width, height, channels, data = png_pixels.decode(path)
    pixels = [[tuple(line[x * channels:x * channels + 3]) for x in range(width)] for line in data]
    for row in range(rows):
        line = []
        for col in range(cols):
            x0, y0 = ox + col * cw, oy + row * ch
            colours = [pixels[y][x] for y in range(y0, y0 + ch) for x in range(x0, x0 + cw)
                       if x < width and y < height]
            background = Counter(colours).most_common(1)[0][0]
            ink = [(x - x0, y - y0) for y in range(y0, y0 + ch) for x in range(x0, x0 + cw)
                   if x < width and y < height
                   and max(abs(a - b) for a, b in zip(pixels[y][x], background)) > INK_DISTANCE]
            if ink:
                line.append([len(ink), round(sum(p[0] for p in ink) / len(ink), 1),
                             round(sum(p[1] for p in ink) / len(ink), 1)])
            else:
                line.append([0, -1, -1])
        print(json.dumps(line))


if __name__ == "__main__":
    main()
