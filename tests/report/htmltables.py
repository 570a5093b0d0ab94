"""Read back a report with html.parser: its tables (cell texts), images, headings and tags."""

from __future__ import annotations

from html.parser import HTMLParser


class ReportParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self.imgs: list[str] = []  # the stored plots
        self.comparison_imgs: list[str] = []  # the figures the report draws itself
        self.tags: dict[str, int] = {}
        self.text: list[str] = []
        self.headings: list[str] = []
        self._cell: list[str] | None = None
        self._depth = 0
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img" and "comparison" in (a.get("class") or "").split():
            self.comparison_imgs.append(a.get("src", ""))
        elif tag == "img":
            self.imgs.append(a.get("src", ""))
        elif tag in ("h2", "h3", "h4"):
            self._heading = []
        elif tag in ("span", "br") and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag in ("h2", "h3", "h4") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._heading is not None:
            self._heading.append(data)


def parse(text: str) -> ReportParser:
    p = ReportParser()
    p.feed(text)
    p.close()
    return p


def find_table(p: ReportParser, first_header: str, must_have: str) -> list[list[str]]:
    """The first table whose header row starts with ``first_header`` and holds ``must_have``."""
    for t in p.tables:
        if (
            t
            and t[0]
            and t[0][0].startswith(first_header)
            and any(must_have in c for row in t for c in row)
        ):
            return t
    raise AssertionError(f"no table starting {first_header!r} holding {must_have!r}")


def row_of(table: list[list[str]], first_cell: str) -> list[str]:
    for row in table:
        if row and row[0].startswith(first_cell):
            return row
    raise AssertionError(f"no row {first_cell!r}")
