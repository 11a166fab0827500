#!/usr/bin/env python3
"""Regenerates the binary assets of the sample presentations (PNG images and PDF media files).

Python 3 standard library only and deterministic: running it again rewrites identical bytes.
Shapes are drawn with signed distances (one sample per pixel, analytic anti-aliasing) or, for
shapes without a simple distance, 4x4 supersampling.

    python3 sample-content/tools/make_assets.py
"""
import math
import pathlib
import struct
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

DIGITS = {  # 5x7 bitmap font
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
}


def hex_color(text: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    value = int(text.lstrip("#"), 16)
    return ((value >> 16) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255, alpha)


class Canvas:
    """An RGBA float canvas; shapes are composited with source-over."""

    def __init__(self, width: int, height: int, background=(0.0, 0.0, 0.0, 0.0)):
        self.width, self.height = width, height
        self.pixels = [list(background) for _ in range(width * height)]

    def fill(self, shape, color) -> None:
        """shape = (coverage(x, y) -> 0..1 at pixel centres, bounding box (x0, y0, x1, y1))."""
        coverage, (x0, y0, x1, y1) = shape
        for y in range(max(0, int(y0)), min(self.height, int(math.ceil(y1)))):
            for x in range(max(0, int(x0)), min(self.width, int(math.ceil(x1)))):
                amount = coverage(x + 0.5, y + 0.5)
                if amount > 0:
                    self._blend(y * self.width + x, color, amount)

    def _blend(self, index: int, color, amount: float) -> None:
        r, g, b, a = color
        alpha = a * min(1.0, amount)
        dst = self.pixels[index]
        out_alpha = alpha + dst[3] * (1 - alpha)
        if out_alpha <= 0:
            return
        for channel, value in enumerate((r, g, b)):
            dst[channel] = (value * alpha + dst[channel] * dst[3] * (1 - alpha)) / out_alpha
        dst[3] = out_alpha

    def png(self) -> bytes:
        rows = []
        for y in range(self.height):
            row = bytearray([0])
            for pixel in self.pixels[y * self.width:(y + 1) * self.width]:
                row.extend(max(0, min(255, round(channel * 255))) for channel in pixel)
            rows.append(bytes(row))

        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 6, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
                + chunk(b"IEND", b""))


def edge(distance: float) -> float:
    """Coverage of a pixel whose centre is `distance` px outside a shape's edge."""
    return max(0.0, min(1.0, 0.5 - distance))


def around(cx, cy, reach):
    return (cx - reach - 1, cy - reach - 1, cx + reach + 1, cy + reach + 1)


def circle(cx, cy, r):
    return (lambda x, y: edge(math.hypot(x - cx, y - cy) - r)), around(cx, cy, r)


def ring(cx, cy, r, width, start=None, end=None):
    def coverage(x, y):
        if start is not None:
            angle = math.degrees(math.atan2(y - cy, x - cx)) % 360
            if not (start <= angle <= end):
                return 0.0
        return edge(abs(math.hypot(x - cx, y - cy) - r) - width / 2)
    return coverage, around(cx, cy, r + width)


def rounded_box(x0, y0, x1, y1, radius):
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - radius, (y1 - y0) / 2 - radius

    def coverage(x, y):
        qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
        outside = math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0)
        return edge(outside - radius)
    return coverage, (x0 - 1, y0 - 1, x1 + 1, y1 + 1)


def capsule(ax, ay, bx, by, width):
    def coverage(x, y):
        px, py, dx, dy = x - ax, y - ay, bx - ax, by - ay
        t = max(0.0, min(1.0, (px * dx + py * dy) / (dx * dx + dy * dy)))
        return edge(math.hypot(px - dx * t, py - dy * t) - width / 2)
    return coverage, (min(ax, bx) - width, min(ay, by) - width, max(ax, bx) + width, max(ay, by) + width)


def supersampled(inside, box):
    offsets = [(i + 0.5) / 4 - 0.5 for i in range(4)]
    return (lambda x, y: sum(inside(x + dx, y + dy) for dx in offsets for dy in offsets) / 16), box


def heart(cx, cy, size):
    def inside(x, y):
        u, v = (x - cx) / size, -(y - cy) / size + 0.1
        return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0
    return supersampled(inside, around(cx, cy, size * 1.4))


def polygon(points):
    def inside(x, y):
        result = False
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                result = not result
        return result
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return supersampled(inside, (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1))


def digit(canvas: Canvas, char: str, cx: float, cy: float, cell: float, color) -> None:
    rows = DIGITS[char]
    left, top = cx - cell * 2.5, cy - cell * 3.5
    for row, bits in enumerate(rows):
        for column, bit in enumerate(bits):
            if bit == "1":
                x, y = left + column * cell, top + row * cell
                canvas.fill(rounded_box(x + 0.5, y + 0.5, x + cell - 0.5, y + cell - 0.5, cell * 0.25), color)


def step_badge(canvas: Canvas, number: str, cx: float, cy: float, radius: float) -> None:
    canvas.fill(circle(cx, cy, radius), hex_color("#0E7C86"))
    canvas.fill(ring(cx, cy, radius - radius * 0.12, radius * 0.06), hex_color("#FFFFFF", 0.6))
    digit(canvas, number, cx, cy, radius * 0.16, hex_color("#FFFFFF"))


def cardiora() -> dict[str, bytes]:
    logo = Canvas(160, 160)
    logo.fill(circle(80, 80, 76), hex_color("#B3123A"))
    logo.fill(ring(80, 80, 68, 3), hex_color("#FFFFFF", 0.5))
    logo.fill(heart(80, 78, 34), hex_color("#FFFFFF"))
    pack = Canvas(320, 200)
    pack.fill(rounded_box(20, 30, 300, 180, 10), hex_color("#1A1A2E", 0.18))
    pack.fill(rounded_box(12, 20, 292, 170, 10), hex_color("#FFFFFF"))
    pack.fill(rounded_box(12, 20, 292, 70, 10), hex_color("#B3123A"))
    pack.fill(circle(262, 45, 16), hex_color("#FFFFFF"))
    pack.fill(heart(262, 44, 8), hex_color("#B3123A"))
    for index, width in enumerate((180, 140, 200, 90)):
        pack.fill(rounded_box(32, 88 + index * 18, 32 + width, 96 + index * 18, 4), hex_color("#5B6170", 0.55))
    pattern = Canvas(48, 48, hex_color("#FFF7F8"))
    pattern.fill(capsule(-8, 56, 56, -8, 2.0), hex_color("#B3123A", 0.07))
    return {"img/logo.png": logo.png(), "img/pack.png": pack.png(), "img/pattern.png": pattern.png()}


def respira() -> dict[str, bytes]:
    logo = Canvas(160, 160)
    logo.fill(circle(80, 80, 76), hex_color("#0E7C86"))
    for radius in (22, 38, 54):
        logo.fill(ring(52, 80, radius, 7, 300, 360), hex_color("#FFFFFF"))
        logo.fill(ring(52, 80, radius, 7, 0, 60), hex_color("#FFFFFF"))
    images = {"img/logo.png": logo.png()}
    for number in "1234":
        badge = Canvas(120, 120)
        step_badge(badge, number, 60, 60, 56)
        images[f"img/step-{number}.png"] = badge.png()
    poster = Canvas(800, 240, hex_color("#F2FAFA"))
    for index, number in enumerate("1234"):
        cx = 110 + index * 193
        if index:
            poster.fill(capsule(cx - 116, 120, cx - 94, 120, 8), hex_color("#7FC4C9"))
            poster.fill(polygon([(cx - 96, 106), (cx - 76, 120), (cx - 96, 134)]), hex_color("#7FC4C9"))
        step_badge(poster, number, cx, 120, 70)
    images["mediafiles/respira-steps.png"] = poster.png()
    return images


def glucobalance() -> dict[str, bytes]:
    logo = Canvas(160, 160)
    logo.fill(polygon([(80, 12), (124, 88), (36, 88)]), hex_color("#E8772E"))
    logo.fill(circle(80, 100, 46), hex_color("#E8772E"))
    logo.fill(ring(80, 100, 28, 7, 20, 160), hex_color("#FFFFFF"))
    molecule = Canvas(240, 160)
    atoms = [(120 + 50 * math.cos(math.radians(a)), 80 + 50 * math.sin(math.radians(a))) for a in range(30, 390, 60)]
    for (x1, y1), (x2, y2) in zip(atoms, atoms[1:] + atoms[:1]):
        molecule.fill(capsule(x1, y1, x2, y2, 6), hex_color("#5B6170"))
    molecule.fill(capsule(atoms[0][0], atoms[0][1], 214, 122, 6), hex_color("#5B6170"))
    for x, y in atoms:
        molecule.fill(circle(x, y, 13), hex_color("#E8772E"))
    molecule.fill(circle(214, 122, 11), hex_color("#2E6BE8"))
    return {"img/logo.png": logo.png(), "img/molecule.png": molecule.png()}


def northwind() -> dict[str, bytes]:
    logo = Canvas(160, 160)
    logo.fill(circle(80, 80, 76), hex_color("#1F3A68"))
    star = []
    for index in range(8):
        angle = math.radians(index * 45 - 90)
        radius = 62 if index % 2 == 0 else 18
        star.append((80 + radius * math.cos(angle), 80 + radius * math.sin(angle)))
    logo.fill(polygon(star), hex_color("#FFFFFF"))
    logo.fill(circle(80, 80, 8), hex_color("#F2B134"))
    shield = Canvas(120, 140)
    shield.fill(polygon([(60, 6), (112, 24), (104, 84), (60, 134), (16, 84), (8, 24)]), hex_color("#1F3A68"))
    shield.fill(capsule(38, 72, 54, 90, 10), hex_color("#FFFFFF"))
    shield.fill(capsule(54, 90, 86, 50, 10), hex_color("#FFFFFF"))
    return {"img/logo.png": logo.png(), "img/shield.png": shield.png()}


def pdf(title: str, lines: list[str]) -> bytes:
    """A one-page PDF 1.4 with Helvetica text and a correct cross-reference table."""
    def text(value: str) -> str:
        return value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    commands = ["BT", "/F2 18 Tf", "56 780 Td", f"({text(title)}) Tj", "/F1 11 Tf", "0 -30 Td", "15 TL"]
    commands += [f"({text(line)}) '" for line in lines] + ["ET"]
    stream = "\n".join(commands).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        b"<< /Title (" + text(title).encode("latin-1") + b") /Producer (sclm sample-content tools) >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


PDFS = {
    "cardiora-detail-aid/mediafiles/cardiora-smpc.pdf": pdf(
        "Cardiora 10 mg film-coated tablets", [
            "Summary of product characteristics (abridged). FICTIONAL PRODUCT FOR DEMONSTRATION.",
            "", "1. Composition: each tablet contains 10 mg velmisartan.",
            "2. Indication: essential hypertension in adults.",
            "3. Posology: 10 mg once daily; 5 mg in moderate hepatic impairment.",
            "4. Contraindications: pregnancy (2nd and 3rd trimester), hypersensitivity.",
            "5. Undesirable effects: dizziness (common), hyperkalaemia (uncommon).",
            "", "sclm sample content - not medical information."]),
    "glucobalance-congress/mediafiles/glucobalance-poster.pdf": pdf(
        "GLUCO-26: a 26-week randomised trial (poster)", [
            "FICTIONAL STUDY FOR DEMONSTRATION.", "",
            "Design: 612 adults with type 2 diabetes, HbA1c 7.5-10.0 %, randomised 1:1.",
            "Primary endpoint: change in HbA1c from baseline to week 26.",
            "Result: -1.4 % with GlucoBalance vs -0.6 % with placebo (p < 0.001).",
            "Hypoglycaemia: 2.1 % vs 1.8 %.", "", "sclm sample content - not medical information."]),
    "northwind-vaccination/mediafiles/adult-schedule.pdf": pdf(
        "Adult vaccination schedule (demo)", [
            "Northwind Health - FICTIONAL SCHEDULE FOR DEMONSTRATION.", "",
            "Influenza: every autumn.", "Tetanus-diphtheria booster: every 10 years.",
            "Pneumococcal: once at 65 years.", "Shingles: two doses from 50 years.", "",
            "Ask your pharmacist or physician for the schedule that applies to you."]),
}

IMAGES = {
    "cardiora-detail-aid": cardiora,
    "respira-inhaler-training": respira,
    "glucobalance-congress": glucobalance,
    "northwind-vaccination": northwind,
}


def main() -> None:
    outputs = dict(PDFS)
    for folder, make in IMAGES.items():
        outputs.update({f"{folder}/{name}": data for name, data in make().items()})
    for name, data in sorted(outputs.items()):
        path = ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
