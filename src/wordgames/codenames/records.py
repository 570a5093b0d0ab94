"""Canonical human-play records for the Codenames measures.

Every source of human Codenames play (the Koyyalagunta et al. AMT pilot, the six studies in
``codenames-human``, a user's own JSONL/CSV) is mapped by its loader into one of two record
types:

* :class:`HumanReceiverRecord` -- a person saw a board and a clue and *picked* board words
  (the Human Receiver Dataset of the paper, section 4.1; Table 2 layout).
* :class:`HumanSenderRecord` -- a person saw a board with known colours and *gave* a clue
  (the Human Sender Dataset, section 4.2; Table 3 layout).

Colours are canonical: ``blue`` are the words the clue-giver's team must find; ``red`` the
opponent's words; ``neutral`` the bystanders; ``assassin`` the assassin word(s). Sources
that use "red" for "every word to avoid" are mapped so that ``red`` holds the opponent's
words only where the source says which those are, else all words to avoid. The measures use
:attr:`HumanSenderRecord.avoid` (every non-blue word) as the paper's R.

All words are lower-case and stripped; multi-word board words keep their space
(``"ice cream"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HumanReceiverRecord:
    """A person picked board words for a clue.

    Parameters
    ----------
    dataset : data set name (as declared in :mod:`wordgames.datasets`)
    record_id : stable id inside the data set (e.g. ``"<file>:<line>"`` or the source's id)
    board : every word on the board, in the source's order
    clue : the clue word
    chosen : the words the person picked, in the order picked (best first)
    clue_source : who gave the clue: the "initial model" name (``"glove"``, ``"bert"``...),
        ``"human"``, ``"gpt-4"``...
    number : the number given with the clue, if any
    intended : the clue-giver's intended target words, if the source records them
    blue, red, neutral, assassin : true colours, if the source records them
    meta : anything else worth keeping (worker id, trial, time)
    """

    dataset: str
    record_id: str
    board: tuple[str, ...]
    clue: str
    chosen: tuple[str, ...]
    clue_source: str = "unknown"
    number: int | None = None
    intended: tuple[str, ...] = ()
    blue: tuple[str, ...] = ()
    red: tuple[str, ...] = ()
    neutral: tuple[str, ...] = ()
    assassin: tuple[str, ...] = ()
    meta: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class HumanSenderRecord:
    """A person gave a clue for a board whose colours they knew.

    Parameters
    ----------
    dataset, record_id : as in :class:`HumanReceiverRecord`
    blue : the words the clue-giver's team must find
    red, neutral, assassin : the other board words by colour (canonical meaning above)
    clue : the clue the person gave
    targets : the words the person said the clue was for (may be empty if not recorded)
    number : the number given with the clue (defaults to ``len(targets)`` where absent)
    clue_source : ``"human"`` unless the source says otherwise
    meta : anything else worth keeping
    """

    dataset: str
    record_id: str
    blue: tuple[str, ...]
    red: tuple[str, ...]
    clue: str
    targets: tuple[str, ...] = ()
    number: int | None = None
    neutral: tuple[str, ...] = ()
    assassin: tuple[str, ...] = ()
    clue_source: str = "human"
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def avoid(self) -> tuple[str, ...]:
        """Every non-blue board word: the paper's R."""
        return self.red + self.neutral + self.assassin

    @property
    def board(self) -> tuple[str, ...]:
        return self.blue + self.avoid


@dataclass
class LoadedHumanData:
    """What a loader returns: records plus an account of every repair and every dropped row."""

    dataset: str
    receiver: list[HumanReceiverRecord] = field(default_factory=list)
    sender: list[HumanSenderRecord] = field(default_factory=list)
    repairs: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # file -> sha256
    notes: list[str] = field(default_factory=list)

    def count(self, kind: str, key: str, n: int = 1) -> None:
        """Count a repair (``kind="repairs"``) or an unrepairable dropped row (``"dropped"``)."""
        d = getattr(self, kind)
        d[key] = d.get(key, 0) + n
