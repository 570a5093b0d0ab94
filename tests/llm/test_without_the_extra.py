"""Without the llm extra, a chat subject says which extra to install (never a bare traceback)."""

from __future__ import annotations

import sys

import pytest

from wordgames.errors import OptionalDependencyError


def test_a_chat_subject_without_openai_names_the_extra(monkeypatch):
    from wordgames.llm import ChatSubject

    monkeypatch.setitem(sys.modules, "openai", None)  # as if it were not installed
    subject = ChatSubject("m", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(OptionalDependencyError, match=r"pip install 'wordgames\[llm\]'"):
        subject.check()
