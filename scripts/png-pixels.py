#!/usr/bin/env python3
"""Prints the RGBA of pixels of a PNG, one `x,y rrggbbaa` a line: the export tests read rsvg-convert's
output with it. Standard library only (zlib); 8-bit RGB or RGBA, not interlaced, as rsvg-convert writes.

    scripts/png-pixels.py picture.png 10,4 65,24
"""
import struct
import sys
import zlib


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        sys.exit(f"{path}: only 8-bit RGB/RGBA without interlace (got depth {depth}, colour type {color})")
    channels = 4 if color == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    width, height, channels, rows = decode(sys.argv[1])
    print(f"size {width}x{height}")
    for point in sys.argv[2:]:
        x, y = (int(v) for v in point.split(","))
        if not (0 <= x < width and 0 <= y < height):
            sys.exit(f"{point} is outside the {width}x{height} picture")
        pixel = rows[y][x * channels:(x + 1) * channels]
        alpha = pixel[3] if channels == 4 else 255
        print(f"{x},{y} {pixel[0]:02x}{pixel[1]:02x}{pixel[2]:02x}{alpha:02x}")


if __name__ == "__main__":
    main()
