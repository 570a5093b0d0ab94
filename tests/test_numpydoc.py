"""Issue 42: the API a plug-in author calls carries numpydoc Parameters, Returns and Examples.

The modules below are checked whole (their ``__all__`` or the names listed): a new public
callable there must come with its sections. The examples themselves run as doctests.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

#: module -> the public names a user or a plug-in author calls (None: the module's __all__)
API = {
    "wordgames": None,
    "wordgames.agents": [
        "AgentSpec",
        "agent",
        "declared_agent",
        "declared_in",
        "all_agents",
        "list_agents",
        "get_agent",
        "usable",
    ],  # fmt: skip
    "wordgames.subjects": [
        "PlayerSubject",
        "Question",
        "from_spec",
        "chat",
        "kind_of",
        "kind_parameters",
        "kind_options",
    ],
    "wordgames.embeddings": None,
    "wordgames.testing": None,
    "wordgames.manifest": ["FamilyManifest", "Role", "manifests", "roles", "role"],
    "wordgames.datasets": None,
    "wordgames.datasets.fetch": ["fetch_dataset"],
    "wordgames.optiontext": ["parse_value", "parse_options", "option_rows"],
    # what a measure's author calls: its context, result, options' checks and thinness
    "wordgames.measure": None,  # its __all__: the records and the measure author's API
    # what an agent that asks a player, a data reader and a printer of user text call
    "wordgames.reading": [
        "Read",
        "Tally",
        "ask_and_read",
        "reprompts_of",
        "take_tally",
        "format_failure_score",
        "answers_read_row",
    ],  # fmt: skip
    "wordgames.registry": [
        "get_measure",
        "all_measures",
        "select_measures",
        "plugin_measures",
        "extra_measures",
    ],  # fmt: skip
    # the statistics a measure's author computes its intervals, comparisons and ceilings with
    "wordgames.stats": [
        "mean_ci",
        "rank_summary",
        "bootstrap_ci",
        "paired_bootstrap_ci",
        "percentile_interval",
        "rowwise_spearman",
        "spearman_pairwise",
        "spearman_interval",
        "wilson_interval",
    ],  # fmt: skip
    "wordgames.paired": ["item_record", "pack", "unpack", "paired_difference", "top_group"],
    "wordgames.ceiling": [
        "expected_ap",
        "tied_positions",
        "Clustered",
        "cluster_means",
        "weighted_mean",
        "cluster_mean_ci",
        "Share",
        "share_of_ceiling",
    ],  # fmt: skip
    "wordgames.precheck": ["Coverage", "known_rows", "coverage_of", "game_words"],
    "wordgames.textio": [
        "decode_utf8",
        "bad_word_reason",
        "strip_bom",
        "parse_json",
        "gunzip",
        "read_bytes",
        "visible",
        "literal",
    ],  # fmt: skip
}


def _callables():
    for module, names in API.items():
        mod = importlib.import_module(module)
        for name in names if names is not None else mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{module}.{name}", obj


def _section(doc: str, title: str) -> bool:
    return re.search(rf"^{title}\n-{{3,}}$", doc, re.MULTILINE) is not None


def _params(obj) -> list[str]:
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return []
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [
        name
        for name, p in sig.parameters.items()
        if name not in ("self", "cls") and not (inspect.isclass(obj) and p.kind in variadic)
    ]  # a class's *args/**kwargs are a base's (a Protocol's), not its own


@pytest.mark.parametrize("name,obj", list(_callables()), ids=[n for n, _ in _callables()])
def test_every_public_callable_has_its_numpydoc_sections(name, obj):
    doc = inspect.getdoc(obj) or ""
    missing = []
    if _params(obj) and not _section(doc, "Parameters"):
        missing.append("Parameters")
    if inspect.isfunction(obj):
        ret = inspect.signature(obj).return_annotation
        if ret not in ("None", None) and not _section(doc, "Returns"):
            missing.append("Returns")
    if ">>>" not in doc:
        missing.append("Examples")
    assert missing == [], f"{name} lacks {', '.join(missing)}"


def test_the_check_finds_a_missing_section():
    def undocumented(x: int) -> int:
        """Twice ``x``."""
        return 2 * x

    doc = inspect.getdoc(undocumented)
    assert not _section(doc, "Parameters") and ">>>" not in doc and _params(undocumented) == ["x"]
