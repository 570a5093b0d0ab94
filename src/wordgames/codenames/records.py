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

Sources without team colours (boards where the clue giver chose the targets freely) use
``blue`` = the giver's intended words and ``red`` = every other board word; Codenames Duet has
no opponent, so there ``red`` is empty and ``neutral``/``assassin`` hold the words to avoid.
Each loader's module docstring (and ``docs/codenames-data.md``) says which applies.

All words are lower-case and stripped; multi-word board words keep their space
(``"ice cream"``). A record stands for ``count`` identical decisions (1 except where a source
publishes aggregate counts). :class:`LoadedHumanData` counts every repaired row
(``repairs``), every row left out with its reason (``dropped``) and every row kept but marked
in its record's ``meta`` (``flagged``).
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
    count : how many people made exactly this decision (1 for row-level data; sources that
        publish aggregate counts, e.g. Shen et al. 2018, give one record per distinct decision
        with its count: weight means by it)
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
    count: int = 1


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
    meta : anything else worth keeping (``meta["candidate_clues"]``: where the person chose the
        clue from a fixed list, that list -- rank only those candidates)
    count : how many people gave exactly this clue for this board (see
        :class:`HumanReceiverRecord`)
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
    count: int = 1

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
    #: rows kept as records but worth knowing about (e.g. the pilot's prefilled copies);
    #: each such record says why in its ``meta``
    flagged: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str, key: str, n: int = 1) -> None:
        """Count a repair, an unrepairable dropped row or a kept but marked row, by ``kind``.

        ``kind`` is ``"repairs"``, ``"dropped"`` or ``"flagged"`` respectively.
        """
        d = getattr(self, kind)
        d[key] = d.get(key, 0) + n

    def summary(self) -> dict:
        """Record counts, repairs, drops and flags: what a result record or listing shows."""
        return {
            "dataset": self.dataset,
            "n_receiver": len(self.receiver),
            "n_sender": len(self.sender),
            "receiver_decisions": sum(r.count for r in self.receiver),
            "sender_decisions": sum(s.count for s in self.sender),
            "repairs": dict(self.repairs),
            "dropped": dict(self.dropped),
            "flagged": dict(self.flagged),
        }
