"""Vector drawings in millimetres, written as SVG, PDF or a raster image.

Mats and calibration boards are drawn once as a list of shapes and written in every format, so
what is printed and what the tests render are the same drawing. SVG and PDF are vector files
whose sizes are exact when printed at 100 %; PNG is a raster at a chosen dpi with the dpi
recorded in the file, so printing it "at actual size" is exact too.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: bool = True  # filled black, or outlined
    grey: float = 0.0  # 0 black .. 1 white
    stroke_mm: float = 0.4


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    size_mm: float
    text: str
    grey: float = 0.0


@dataclass
class Drawing:
    width_mm: float
    height_mm: float
    shapes: list = field(default_factory=list)

    def rect(self, x, y, w, h, **style) -> None:
        self.shapes.append(Rect(x, y, w, h, **style))

    def text(self, x, y, size_mm, text, grey=0.0) -> None:
        self.shapes.append(Text(x, y, size_mm, text, grey))

    # -- writers --
    def save(self, path: str | Path, dpi: int = 300) -> Path:
        """Write by the file's extension: .svg, .pdf or .png."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.to_svg())
        elif suffix == ".pdf":
            path.write_bytes(self.to_pdf())
        elif suffix == ".png":
            path.write_bytes(self.to_png(dpi))
        else:
            raise ValueError(f"cannot write {path.name}: use a .pdf, .svg or .png file name")
        return path

    def to_svg(self) -> str:
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width_mm}mm" height="{self.height_mm}mm" '
                 f'viewBox="0 0 {self.width_mm} {self.height_mm}">',
                 f'<rect x="0" y="0" width="{self.width_mm}" height="{self.height_mm}" fill="white"/>']
        for s in self.shapes:
            colour = _hex(s.grey)
            if isinstance(s, Rect):
                style = (f'fill="{colour}"' if s.fill else
                         f'fill="none" stroke="{colour}" stroke-width="{s.stroke_mm}"')
                parts.append(f'<rect x="{s.x:.4f}" y="{s.y:.4f}" width="{s.w:.4f}" height="{s.h:.4f}" {style} '
                             f'shape-rendering="crispEdges"/>')
            else:
                parts.append(f'<text x="{s.x:.3f}" y="{s.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
                             f'font-size="{s.size_mm:.3f}" fill="{colour}">{_xml(s.text)}</text>')
        parts.append("</svg>\n")
        return "\n".join(parts)

    def to_pdf(self) -> bytes:
        """A one-page PDF (points = mm * 72 / 25.4; PDF's y axis points up)."""
        k = 72 / MM_PER_INCH
        height = self.height_mm
        ops = []
        for s in self.shapes:
            g = f"{s.grey:.3f}"
            if isinstance(s, Rect):
                box = f"{s.x * k:.3f} {(height - s.y - s.h) * k:.3f} {s.w * k:.3f} {s.h * k:.3f} re"
                ops.append(f"{g} g {box} f" if s.fill else f"{g} G {s.stroke_mm * k:.3f} w {box} S")
            else:
                ops.append(f"BT /F1 {s.size_mm * k:.3f} Tf {g} g {s.x * k:.3f} {(height - s.y) * k:.3f} Td "
                           f"({_pdf_text(s.text)}) Tj ET")
        content = "\n".join(ops).encode("latin-1", "replace")
        width_pt, height_pt = self.width_mm * k, self.height_mm * k
        objects = [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt:.3f} {height_pt:.3f}] "
             f"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>").encode(),
            b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        ]
        out = bytearray(b"%PDF-1.4\n")
        offsets = []
        for number, body in enumerate(objects, start=1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
        out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)

    def raster(self, px_per_mm: float) -> np.ndarray:
        """A grey-scale image of the drawing (uint8, white paper), ``px_per_mm`` pixels per millimetre."""
        w, h = round(self.width_mm * px_per_mm), round(self.height_mm * px_per_mm)
        image = np.full((h, w), 255, np.uint8)
        for s in self.shapes:
            value = int(round(255 * s.grey))
            if isinstance(s, Rect):
                x0, y0 = round(s.x * px_per_mm), round(s.y * px_per_mm)
                x1, y1 = round((s.x + s.w) * px_per_mm), round((s.y + s.h) * px_per_mm)
                if s.fill:
                    image[y0:y1, x0:x1] = value
                else:
                    cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), value,
                                  max(1, round(s.stroke_mm * px_per_mm)), cv2.LINE_AA)
            else:
                scale = s.size_mm * px_per_mm / 30.0  # Hershey simplex is ~30 px tall at scale 1
                cv2.putText(image, s.text, (round(s.x * px_per_mm), round(s.y * px_per_mm)),
                            cv2.FONT_HERSHEY_SIMPLEX, scale, value, max(1, round(scale * 2)), cv2.LINE_AA)
        return image

    def to_png(self, dpi: int = 300) -> bytes:
        ok, encoded = cv2.imencode(".png", self.raster(dpi / MM_PER_INCH))
        if not ok:
            raise RuntimeError("OpenCV could not encode the PNG")
        return _with_dpi(encoded.tobytes(), dpi)


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk after IHDR so printers and viewers know the physical size."""
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def _hex(grey: float) -> str:
    v = int(round(255 * grey))
    return f"#{v:02x}{v:02x}{v:02x}"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _pdf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
