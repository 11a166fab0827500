"""Slide records derived from HTML: swipe meta tags and slide order."""
from dataclasses import dataclass
from html.parser import HTMLParser

START_SLIDE = "index.html"
NEXT_META = "clm-swipe-next"
PREVIOUS_META = "clm-swipe-previous"


@dataclass(frozen=True)
class SlideLinks:
    swipe_next: str
    swipe_previous: str

    @property
    def linked(self) -> str:
        """`linkedSlides` CSV: every meta target, previous first (as StoryCLM lists them), no duplicates."""
        targets = [target for target in (self.swipe_previous, self.swipe_next) if target]
        return ",".join(dict.fromkeys(targets))


class _MetaReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        if tag != "meta":
            return
        values = {key.lower(): (value or "") for key, value in attrs}
        name = values.get("name", "").strip().lower()
        if name and name not in self.meta:
            self.meta[name] = values.get("content", "").strip()


def read_links(html: bytes) -> SlideLinks:
    """The `clm-swipe-next` / `clm-swipe-previous` targets of a slide ("" when absent)."""
    reader = _MetaReader()
    reader.feed(html.decode("utf-8", "replace"))
    reader.close()
    return SlideLinks(reader.meta.get(NEXT_META, ""), reader.meta.get(PREVIOUS_META, ""))


def slide_order(links: dict[str, SlideLinks]) -> list[str]:
    """index.html first, then the swipe-next chain from it, then every other slide by name."""
    ordered: list[str] = []
    current = START_SLIDE if START_SLIDE in links else None
    while current and current in links and current not in ordered:
        ordered.append(current)
        current = links[current].swipe_next
    return ordered + sorted(name for name in links if name not in ordered)
