"""The paper's game configurations as named presets (Table 1, Table 2, appendices C and D).

Every preset is one declared :class:`Preset` record: the world, channel, rule length ``l``,
word size ``d`` (GS: symbols; QT: bits), message length, targets and distractors, and the
paper's reported values for its row. All presets share the agents of the paper's Table 2
(:data:`TABLE2`: batch 10, Adam lr 0.0005, LSTM cells, sender 60/60, receiver 40/40) and the
Thing world's 270-dimensional token one-hots (appendix C). GS messages longer than one word end
at an EOS symbol (symbol 0, EGG's convention), so they have a variable length.

- Table 1 (20 targets and 20 distractors): ``shape-gs-l1`` ... ``thing-qt-l4``. Messages have
  ``l`` words: the paper's ``l = 1`` rows have as many distinct messages as words
  (``#w = #m``), so one word per message.
- Appendix D, Tables 3 and 4 (8 targets and 8 distractors): ``d01`` ... ``d16``, the paper's
  experiment numbers, with its word and message lengths.

Only the standard library is needed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PRESETS", "TABLE1_PAPER", "TABLE2", "Preset", "get_preset", "table1_preset"]

# Table 2: the agents' hyper-parameters (the same for both games here)
TABLE2 = {
    "batch_size": 10,
    "lr": 0.0005,
    "cell": "lstm",
    "sender_hidden": 60,
    "sender_embed": 60,
    "receiver_hidden": 40,
    "receiver_embed": 40,
}
# how long a preset trains unless told otherwise (the paper: 200 epochs, ~10 h on an A100);
# bound a session with --time-limit and resume it later
TRAINING = {"steps": 200_000, "eval_every": 500, "eval_turns": 200, "checkpoint_seconds": 60.0}
WORLD_PARAMS = {"thing": {"encoding": "tokens"}, "shape": {"image_size": 32}}

TABLE1_COLUMNS = (
    "Game", "Com", "l", "d", "Cons", "Phrs", "#w", "#m",
    "Acc", "TopSim", "AMI", "CBM", "Amb", "Para", "Unm",
)  # fmt: skip
# the paper's Table 1, row by row (its columns: TopSim sits between Acc and AMI;
# CBM + Amb + Para = 1 in every row)
TABLE1_PAPER = (
    ("Shape", "GS", 1, 17, 17, 17, 11, 11, 0.84, 0.44, 0.76, 0.62, 0.37, 0.01, 0.25),
    ("Shape", "QT", 1, 5, 17, 17, 26, 26, 0.87, 0.39, 0.85, 0.52, 0.41, 0.08, 0.0),
    ("Shape", "GS", 4, 17, 17, 34, 16, 226, 0.78, 0.34, 0.38, 0.52, 0.48, 0.0, 0.01),
    ("Shape", "QT", 4, 5, 17, 34, 26, 187, 0.83, 0.23, 0.37, 0.55, 0.37, 0.08, 0.0),
    ("Thing", "GS", 1, 50, 50, 50, 18, 18, 0.86, 0.45, 0.72, 0.38, 0.62, 0.0, 0.55),
    ("Thing", "QT", 1, 6, 50, 50, 50, 50, 0.92, 0.07, 0.74, 0.73, 0.25, 0.02, 0.0),
    ("Thing", "GS", 4, 50, 50, 901, 36, 198, 0.63, 0.33, 0.03, 0.24, 0.76, 0.0, 0.28),
    ("Thing", "QT", 4, 6, 50, 901, 64, 450, 0.77, 0.14, 0.05, 0.23, 0.69, 0.08, 0.0),
)

TABLE3_COLUMNS = (
    "Exp", "Game", "Comm", "Label Len", "word Len", "Msg Len", "Best Epoch", "ACC", "AMI",
    "Best Match",
)  # fmt: skip
# the paper's Table 3 (experiment 5's Best Match 1.401 is as printed; it cannot be a CBM score)
TABLE3_PAPER = (
    (1, "Shape", "gs", 1, 8, 4, 97, 0.829, 0.404, 0.405),
    (2, "Shape", "gs", 1, 64, 4, 96, 0.843, 0.390, 0.339),
    (3, "Shape", "gs", 4, 8, 1, 8, 0.742, 0.490, 0.152),
    (4, "Shape", "gs", 4, 64, 1, 10, 0.748, 0.413, 0.130),
    (5, "Shape", "qt", 1, 3, 4, 86, 0.878, 0.540, 1.401),
    (6, "Shape", "qt", 1, 64, 4, 85, 0.991, 0.000, 0.001),
    (7, "Shape", "qt", 4, 3, 1, 9, 0.768, 0.474, 0.152),
    (8, "Shape", "qt", 4, 64, 1, 12, 0.897, 0.021, 0.009),
    (9, "Thing", "gs", 1, 8, 4, 83, 0.793, 0.102, 0.091),
    (10, "Thing", "gs", 1, 64, 4, 94, 0.798, 0.074, 0.151),
    (11, "Thing", "gs", 4, 8, 1, 97, 0.655, 0.016, 0.052),
    (12, "Thing", "gs", 4, 64, 1, 99, 0.626, 0.014, 0.058),
    (13, "Thing", "qt", 1, 3, 4, 96, 0.838, 0.267, 0.119),
    (14, "Thing", "qt", 1, 64, 4, 100, 0.973, 0.000, 0.014),
    (15, "Thing", "qt", 4, 3, 1, 26, 0.622, 0.020, 0.057),
    (16, "Thing", "qt", 4, 64, 1, 96, 0.844, 0.000, 0.013),
)
TABLE4_COLUMNS = (
    "Exp", "Unq Msgs", "Unq Wrds", "Unq Prs", "Unq Cons", "Totl Edgs", "Good Edgs",
    "Amb Edgs", "Phrs Edgs", "Totl Cons", "Unm Cons", "Par Scor", "Prc", "Rcl",
)  # fmt: skip
# the paper's Table 4 ("4k" / "1k" as printed: 4000 / 1000)
TABLE4_PAPER = (
    (1, 258, 7, 17, 17, 4000, 1621, 2379, 0, 1000, 444, 0, 0.137, 0.546),
    (2, 442, 55, 17, 17, 4000, 1356, 1724, 920, 1000, 0, 0.23, 0.144, 0.577),
    (3, 8, 8, 34, 17, 4000, 610, 390, 0, 4000, 1457, 0, 0.61, 0.152),
    (4, 44, 44, 34, 17, 4000, 520, 326, 154, 4000, 0, 0.04, 0.52, 0.13),
    (5, 238, 8, 17, 17, 4000, 1605, 2395, 0, 1000, 385, 0, 0.144, 0.577),
    (6, 1000, 3899, 17, 17, 4000, 46, 0, 3954, 1000, 0, 0.99, 0.011, 0.044),
    (7, 7, 7, 34, 17, 4000, 607, 393, 0, 4000, 1727, 0, 0.607, 0.152),
    (8, 974, 974, 34, 17, 4000, 38, 0, 962, 4000, 0, 0.24, 0.038, 0.009),
    (9, 543, 7, 50, 50, 4000, 366, 3634, 0, 1000, 807, 0, 0.048, 0.19),
    (10, 806, 60, 50, 50, 4000, 601, 3369, 30, 1000, 0, 0.01, 0.1, 0.399),
    (11, 8, 8, 901, 50, 4000, 210, 790, 0, 4000, 3332, 0, 0.21, 0.052),
    (12, 21, 21, 901, 50, 4000, 233, 767, 0, 4000, 2267, 0, 0.233, 0.058),
    (13, 412, 8, 50, 50, 4000, 478, 3522, 0, 1000, 795, 0, 0.046, 0.184),
    (14, 1000, 3991, 50, 50, 4000, 57, 0, 3943, 1000, 0, 0.99, 0.013, 0.052),
    (15, 11, 6, 901, 50, 4000, 229, 771, 0, 4000, 3483, 0, 0.229, 0.057),
    (16, 1000, 1000, 901, 50, 4000, 50, 0, 950, 4000, 0, 0.24, 0.05, 0.013),
)


@dataclass(frozen=True)
class Preset:
    """One configuration of the paper's games, with the paper's values for its row.

    Attributes
    ----------
    name : the preset's name (``thing-qt-l1``, ``d05``)
    table : ``"1"`` (Table 1) or ``"3"`` (appendix D, Tables 3 and 4)
    world, channel, rule_length : the game (``l``)
    word : ``d``: GS vocabulary size (with EOS when messages are longer than one word), QT bits
    max_len : words per message (GS with EOS: at most)
    n_targets, n_distractors : candidates per turn (Table 1: 20 and 20, appendix D: 8 and 8)
    paper : the paper's row, by the paper's column names
    """

    name: str
    table: str
    world: str
    channel: str
    rule_length: int
    word: int
    max_len: int
    n_targets: int
    n_distractors: int
    paper: dict = field(default_factory=dict)

    @property
    def eos(self) -> bool:
        """GS messages of more than one word end at EOS (EGG's variable-length messages)."""
        return self.channel == "gs" and self.max_len > 1

    def trainer_params(self) -> dict:
        """Keyword arguments of :class:`~wordgames.emergent.games.train.GameTrainer`."""
        word = {"vocab_size": self.word} if self.channel == "gs" else {"word_dim": self.word}
        return {
            "world": self.world,
            "channel": self.channel,
            "rule_length": self.rule_length,
            "n_targets": self.n_targets,
            "n_distractors": self.n_distractors,
            "max_len": self.max_len,
            **word,
            "eos": self.eos,
            "world_params": dict(WORLD_PARAMS[self.world]),
            **TABLE2,
            **TRAINING,
        }

    def describe(self) -> str:
        """One line: the configuration in the paper's terms."""
        msg = f"up to {self.max_len} words + EOS" if self.eos else f"{self.max_len} word(s)"
        return (
            f"{self.world} {self.channel.upper()} l={self.rule_length} d={self.word}, {msg}, "
            f"{self.n_targets}+{self.n_distractors} candidates (Table {self.table})"
        )

    def validate(self) -> Preset:
        """Check the record against the paper's row and the trainer; returns the preset."""
        from wordgames.emergent.games.train import GameTrainer

        p = self.paper
        if self.table == "1":
            expected = (p["Game"].lower(), p["Com"].lower(), p["l"], p["d"], 20, self.rule_length)
        else:
            expected = (p["Game"].lower(), p["Comm"], p["Label Len"], p["word Len"], 8,
                        p["Msg Len"])  # fmt: skip
        mine = (self.world, self.channel, self.rule_length, self.word, self.n_targets, self.max_len)
        if mine != expected or self.n_targets != self.n_distractors:
            raise ValueError(f"preset {self.name}: {mine} does not match the paper's {expected}")
        GameTrainer(**self.trainer_params())  # the trainer checks the rest
        return self


def _table1_presets() -> list[Preset]:
    out = []
    for row in TABLE1_PAPER:
        paper = dict(zip(TABLE1_COLUMNS, row, strict=True))
        game, com, ln = paper["Game"].lower(), paper["Com"].lower(), paper["l"]
        out.append(Preset(f"{game}-{com}-l{ln}", "1", game, com, ln, paper["d"], ln, 20, 20, paper))
    return out


def _appendix_d_presets() -> list[Preset]:
    out = []
    for row3, row4 in zip(TABLE3_PAPER, TABLE4_PAPER, strict=True):
        paper = dict(zip(TABLE3_COLUMNS, row3, strict=True))
        paper.update(zip(TABLE4_COLUMNS, row4, strict=True))
        game = paper["Game"].lower()
        out.append(
            Preset(
                f"d{paper['Exp']:02d}",
                "3",
                game,
                paper["Comm"],
                paper["Label Len"],
                paper["word Len"],
                paper["Msg Len"],
                8,
                8,
                paper,
            )
        )
    return out


PRESETS: dict[str, Preset] = {p.name: p for p in _table1_presets() + _appendix_d_presets()}


def get_preset(name: str) -> Preset:
    """The preset called ``name`` (``ValueError`` listing the names when there is none)."""
    try:
        return PRESETS[str(name).lower()]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; choose one of {sorted(PRESETS)}") from None


def table1_preset(game: str, com: str, rule_length: int) -> Preset | None:
    """The Table 1 preset of a row (``"Thing", "GS", 1``), or None."""
    return PRESETS.get(f"{game.lower()}-{com.lower()}-l{rule_length}")
