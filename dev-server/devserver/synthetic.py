"""Synthetic content for benches: N clients × M presentations with packages of an exact size.

Client ids start at 1001, presentation ids at 10001 (after any sample content), numbered in order.
Each package holds K small HTML slides (index.html, slide2.html, …, chained by swipe meta tags)
and up to 8 incompressible payload files; it is generated on first download and cached on disk.
"""
from dataclasses import dataclass

from .catalog import PRESENTATION_DEFAULTS, Catalog, Client, Package, Presentation, Slide, blob_id_for
from .packages import SyntheticSource
from .slides import SlideLinks

FIRST_CLIENT_ID = 1001
FIRST_PRESENTATION_ID = 10001


@dataclass(frozen=True)
class SyntheticSpec:
    clients: int
    presentations: int
    size: int
    slides: int = 3

    def validate(self) -> None:
        if self.clients < 1 or self.presentations < 1:
            raise ValueError("--synthetic-clients and --synthetic-presentations must be at least 1")
        if not 1 <= self.slides <= 99:
            raise ValueError("--synthetic-slides must be between 1 and 99")
        if self.size >= 4 << 30:
            raise ValueError("--synthetic-size must be below 4 GiB (synthetic packages are plain zips)")


def slide_name(index: int) -> str:
    return "index.html" if index == 1 else f"slide{index}.html"


def slide_html(pid: int, index: int, count: int) -> tuple[bytes, SlideLinks]:
    links = SlideLinks(slide_name(index + 1) if index < count else "", slide_name(index - 1) if index > 1 else "")
    metas = "".join(f'<meta name="{name}" content="{target}">'
                    for name, target in (("clm-swipe-next", links.swipe_next),
                                         ("clm-swipe-previous", links.swipe_previous)) if target)
    html = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">{metas}'
            f"<title>Synthetic {pid} · slide {index}</title></head>\n"
            f"<body><h1>Synthetic presentation {pid}</h1><p>Slide {index} of {count}.</p></body></html>\n")
    return html.encode("utf-8"), links


def add_synthetic(catalog: Catalog, spec: SyntheticSpec) -> None:
    """Adds the synthetic clients and presentations. Raises ValueError for an impossible spec."""
    spec.validate()
    pid = FIRST_PRESENTATION_ID
    for client_index in range(spec.clients):
        client_id = FIRST_CLIENT_ID + client_index
        catalog.add_client(Client(client_id, f"Synthetic Client {client_index + 1}"))
        for number in range(1, spec.presentations + 1):
            pages = [(index, *slide_html(pid, index, spec.slides)) for index in range(1, spec.slides + 1)]
            slides = [Slide(pid * 100 + index, slide_name(index), html, links.swipe_next, links.swipe_previous,
                            links.linked) for index, html, links in pages]
            source = SyntheticSource(pid, spec.size, [(slide.name, slide.html) for slide in slides])
            source.layout(1)  # fails early when the size is too small
            fields = dict(PRESENTATION_DEFAULTS, order=number, shortDescription=f"{spec.size} bytes, synthetic")
            package = Package(pid * 10, 1, blob_id_for("package", pid), source)
            catalog.add_presentation(Presentation(pid, client_id, f"Synthetic {client_id}-{number}", 1, package,
                                                  slides, [], fields), [])
            pid += 1
