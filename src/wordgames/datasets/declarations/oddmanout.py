"""Declarations of the oddmanout data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from the folder's PROVENANCE.md. One folder
(``oddmanout/``) holds two data sets: the expert-written Anomia puzzles and the crowdsourced ones.
"""

from wordgames.datasets.model import DataFile, DatasetSpec, register

_UPSTREAM = (
    "https://github.com/gabrielStanovsky/odd-man-out at commit "
    "68b4fa22fb47e98200c804c39420f0f56cd0df65, data.tar.gz (blob "
    "5ff345f97a64623d9e6d2d130f9ff9c0b9017065), members data/*.tsv extracted unchanged; "
    "same bytes as Mark-Hopkins-at-Reed/oddoneout at 8050cb3b5d4ccea9f76664cd3e7c7898d8863b10"
)
_CITATION = (
    "Gabriel Stanovsky and Mark Hopkins. 2018. Spot the Odd Man Out: Exploring the "
    "Associative Power of Lexical Resources. In Proceedings of EMNLP 2018, pages 1533-1542."
)
_LICENCE = (
    "No licence: the upstream repository has no LICENSE file and its README says nothing "
    "about licensing (the Anomia puzzles were written by experts at an AI2 hackathon). "
    "Treat as unlicensed research data: cite the paper, do not re-license or redistribute."
)

register(
    DatasetSpec(
        name="oddmanout-anomia",
        folder="oddmanout",
        family="oddmanout",
        items=(
            ("anomia-common-dev", 100),
            ("anomia-common-test", 102),
            ("anomia-proper-dev", 100),
            ("anomia-proper-test", 102),
        ),
        items_unit="puzzles",
        title="Odd-Man-Out AnomiaCommon / AnomiaProper (dev 100 + test 102 puzzles each)",
        upstream=_UPSTREAM,
        citation=_CITATION,
        licence=_LICENCE,
        notes=(
            "common1/proper1 = dev (100), common2/proper2 = test (102); roles inferred from the "
            "sizes, upstream names no split. Field 2 is always the answer: the loader shuffles "
            "(seeded). CR-only line ends, no final newline. Trailing spaces in 4 fields "
            "(common1 'boat ' twice, proper1 'Smooth Criminal ', proper2 'Egypt ', "
            "'Dumbledore '): stripped and counted. common1 has 'éclair' (UTF-8). Multi-word "
            "answers: 34/500, 32/510, 214/500, 225/510 words."
        ),
        files=(
            DataFile(
                "common1.tsv",
                "86fc25ecbea2655ff9e292c3c0988f84a44008a3197f65ee6478412d70511d3a",
                "AnomiaCommon dev, 100 puzzles",
                size=5160,
                url="https://raw.githubusercontent.com/Mark-Hopkins-at-Reed/oddoneout/8050cb3b5d4ccea9f76664cd3e7c7898d8863b10/data/anomia/common1.tsv",
            ),
            DataFile(
                "common2.tsv",
                "55c191767ba54c701f17499bad93fa12f45c2d75461c839502aa8d993347f0e2",
                "AnomiaCommon test, 102 puzzles",
                size=5301,
                url="https://raw.githubusercontent.com/Mark-Hopkins-at-Reed/oddoneout/8050cb3b5d4ccea9f76664cd3e7c7898d8863b10/data/anomia/common2.tsv",
            ),
            DataFile(
                "proper1.tsv",
                "180b08a089c2563c0c388e99cafd8663a3292fa66eef4c086f46cbfda5737462",
                "AnomiaProper dev, 100 puzzles",
                size=6677,
                url="https://raw.githubusercontent.com/Mark-Hopkins-at-Reed/oddoneout/8050cb3b5d4ccea9f76664cd3e7c7898d8863b10/data/anomia/proper1.tsv",
            ),
            DataFile(
                "proper2.tsv",
                "b6a416be4e350884da82766920b1cde1743688233f18330089ed9e9eabfabe09",
                "AnomiaProper test, 102 puzzles",
                size=6681,
                url="https://raw.githubusercontent.com/Mark-Hopkins-at-Reed/oddoneout/8050cb3b5d4ccea9f76664cd3e7c7898d8863b10/data/anomia/proper2.tsv",
            ),
        ),
    )
)

register(
    DatasetSpec(
        name="oddmanout-crowdsourced",
        folder="oddmanout",
        family="oddmanout",
        items=(("crowdsourced-filtered", 585), ("crowdsourced-unfiltered", 319909)),
        items_unit="puzzles",
        title="Odd-Man-Out crowdsourced puzzles (585 validated test, 322,602 unfiltered)",
        upstream=_UPSTREAM,
        citation=_CITATION,
        licence=_LICENCE,
        notes=(
            "crowdsourced_filtered.tsv holds its own 586 records twice; the first record of the "
            "copy is glued onto record 587 (one 11-field line, repaired by splitting at the known "
            "category 'construction'); two 5-field records (each twice) cannot be repaired and "
            "are counted and left out: 1,173 lines -> 1,174 records -> 587 distinct -> 585 "
            "well-formed puzzles in 52 categories (the paper's 'Crowdsourced843' is not this "
            "release). crowdsourced_unfiltered.tsv: 322,602 lines, 322,147 distinct, 2,238 puzzles "
            "whose odd man repeats among the others; it contains all 585 test puzzles. "
            "LF line ends, no final newline."
        ),
        files=(
            DataFile(
                "crowdsourced_filtered.tsv",
                "9c0be304d5a3eb67759f04abc71c4ae58f2322b464226d9c43f2882f4362a6d6",
                "validated test set (585 clean puzzles after repair)",
                size=58114,
                url="https://raw.githubusercontent.com/Mark-Hopkins-at-Reed/oddoneout/8050cb3b5d4ccea9f76664cd3e7c7898d8863b10/data/crowdsourced_filtered.tsv",
            ),
            DataFile(
                "crowdsourced_unfiltered.tsv",
                "0f9b6eac02e232a9a84fe6a21f657eecb5f1bdcc7df3bee1ae020a51a9231676",
                "unfiltered generated puzzles (the paper's training material)",
                size=15924168,
            ),
        ),
    )
)
