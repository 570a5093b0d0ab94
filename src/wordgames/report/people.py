"""How close to people: the human ceilings and each model's share of them, from stored rows.

Nothing is computed here: the people's rows (subject ``people``, :class:`wordgames.subjects.
People`) and each model's ``<metric>.share_of_ceiling`` and ``<metric>.gap_to_people`` rows are
Score rows that went through :func:`wordgames.evaluate`; this module only finds them and pairs
them for the printers (``Results.summary()``, the report's first section).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SHARE, GAP = "share_of_ceiling", "gap_to_people"


@dataclass
class ModelShare:
    """One model's share of one ceiling (its agent in the people's role)."""

    label: str
    agent: str
    share: object  # Score
    gap: object | None  # Score

    @property
    def distinguishable(self) -> bool | None:
        """Whether the gap's 95 % interval leaves out 0 (``None``: no interval, or thin)."""
        g = self.gap
        if g is None or self.share.thin or not (g.ci_low == g.ci_low and g.ci_high == g.ci_high):
            return None
        return bool(g.ci_low > 0 or g.ci_high < 0)

    @property
    def verdict(self) -> str:
        """The paired comparison with a held-out person, in words ("" when there is none)."""
        if self.distinguishable is None:
            return ""
        if not self.distinguishable:
            return "not distinguishable from a held-out person"
        return "above a held-out person" if self.gap.ci_low > 0 else "below a held-out person"


@dataclass
class Ceiling:
    """The people's row of one data set and metric, and every model's share of it."""

    measure: str
    people_label: str
    people: object  # Score
    n_items: int | None = None
    shares: list[ModelShare] = field(default_factory=list)


def _is_people(desc: dict) -> bool:
    return desc.get("kind") == "people"


def _n_items(entry, dataset: str, metric: str) -> int | None:
    rows = (entry.result.get("tables") or {}).get("ceiling") or []
    row = next((r for r in rows if (r.get("dataset"), r.get("metric")) == (dataset, metric)), None)
    return None if row is None else int(row.get("n_items", 0))


def ceilings(coll) -> list[Ceiling]:
    """Every people row of ``coll`` with each other subject's share of it.

    A model's share is that of its agent in the column the people share
    (:attr:`wordgames.measure.Measure.shared_columns`: the nearest receiver, a player's
    receiver), else of the first agent of a role's shared group (the cluster sender).
    """
    from wordgames.report.collect import measure_spec

    out = []
    for e in coll.selected:
        if not _is_people(e.embedding):
            continue
        spec = measure_spec(e.measure)
        heads = [g[0] for g in spec.shared_columns] if spec is not None else []
        for s in e.scores:
            if s.agent != "people" or s.value != s.value:
                continue
            c = Ceiling(e.measure, e.label, s, _n_items(e, s.dataset, s.metric))
            for other in coll.selected:
                if other.measure != e.measure or _is_people(other.embedding):
                    continue
                c.shares += _shares_of(other, s.dataset, s.metric, heads)
            if c.shares or c.people is not None:
                out.append(c)
    return out


def _shares_of(entry, dataset: str, metric: str, heads: list[str]) -> list[ModelShare]:
    for head in heads:
        share = entry.value(dataset, head, f"{metric}.{SHARE}")
        if share is not None:
            gap = entry.value(dataset, head, f"{metric}.{GAP}")
            return [ModelShare(entry.label, share.agent, share, gap)]
    return []


def _interval(s) -> str:
    from wordgames.report.text import format_number

    if s.ci_low == s.ci_low and s.ci_high == s.ci_high:
        return f" [{format_number(s.ci_low)}, {format_number(s.ci_high)}]"
    return ""


def ceiling_lines(coll) -> list[str]:
    """``Results.summary()``'s first lines: each ceiling and each model's share, in words.

    Thin rows say so (and get no verdict); "above" or "below a held-out person" only when the
    paired gap's 95 % interval leaves out 0.
    """
    from wordgames.report.text import format_number, thin_text

    found = ceilings(coll)
    if not found:
        return []
    lines = ["how close to people (each held-out person by the others: the human ceiling)"]
    for c in found:
        p = c.people
        items = "" if c.n_items is None else f", {c.n_items:,} item{'s' * (c.n_items != 1)}"
        thin = f" ({thin_text(p.thin_reason)})" if p.thin else ""
        lines.append(
            f"  {c.measure}  {p.dataset}  {p.metric}: people {format_number(p.value)}"
            f"{_interval(p)} ({int(p.n):,} people{items}){thin}"
        )
        for m in c.shares:
            s = m.share
            tail = [m.verdict] if m.verdict else []
            tail += [thin_text(s.thin_reason)] if s.thin else []
            lines.append(
                f"    {m.label} ({m.agent}): {format_number(s.value)} of the ceiling"
                f"{_interval(s)}, n = {int(s.n):,}" + "".join(f"; {t}" for t in tail)
            )
    return lines
