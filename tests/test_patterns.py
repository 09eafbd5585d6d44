"""The interpreter's whole-word patterns (``expenses.interpreter.patterns``): compiled once, found as ``re`` finds them."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from expenses.interpreter.patterns import word_finditer, word_pattern, word_search


def test_a_word_stands_alone_by_its_edge() -> None:
    assert word_search("uber", "took an uber home")
    assert word_search("uber", "ubereats") is None
    assert word_search("bolt", "a bolt-on") and word_search("bolt", "a bolt-on", r"\w-") is None
    assert [m.start() for m in word_finditer("taxi", "taxi, taxi and taxis")] == [0, 6]


def test_a_pattern_is_compiled_once() -> None:
    assert word_pattern("scandic", r"\w'") is word_pattern("scandic", r"\w'")


@given(st.text(alphabet="ab -'", max_size=12), st.text(alphabet="ab -'", max_size=30),
       st.sampled_from([r"\w", r"\w'", r"\w-", r"\w'-"]))
def test_it_finds_what_the_pattern_written_out_finds(word, text, edge) -> None:
    expected = re.search(rf"(?<![{edge}]){re.escape(word)}(?![{edge}])", text) if word else None
    found = word_search(word, text, edge)
    assert (found and found.span()) == (expected and expected.span())
