"""Declarations of the similarity data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from similarity/PROVENANCE.md (files copied byte for byte
from the upstream repository at the pinned commit).
"""

from wordgames.datasets.model import DataFile, DatasetSpec, register

register(
    DatasetSpec(
        name="word-similarity",
        folder="similarity",
        family="similarity",
        items=(
            ("mc30", 30),
            ("men", 3000),
            ("mturk287", 287),
            ("mturk771", 771),
            ("rg65", 65),
            ("rw", 2034),
            ("simlex999", 999),
            ("simverb3500", 3500),
            ("verb143", 144),
            ("ws353-all", 353),
            ("ws353-rel", 252),
            ("ws353-sim", 203),
            ("yp130", 130),
        ),
        items_unit="word pairs",
        title="Word-similarity benchmarks (13 English data sets of wordvectors.org)",
        upstream="https://github.com/mfaruqui/eval-word-vectors/tree/"
        "94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim",
        citation=(
            "Faruqui & Dyer 2014, Community Evaluation and Exchange of Word Vectors at "
            "wordvectors.org (ACL demos); and each data set's own paper: WS-353 Finkelstein et al. 2002 "
            "(rel/sim split Agirre et al. 2009); SimLex-999 Hill et al. 2015; MEN Bruni et al. 2014; "
            "MTurk-287 Radinsky et al. 2011; MTurk-771 Halawi et al. 2012; RW Luong et al. 2013; "
            "RG-65 Rubenstein & Goodenough 1965; MC-30 Miller & Charles 1991; SimVerb-3500 Gerz et al. "
            "2016; YP-130 Yang & Powers 2006; VERB-143 Baker et al. 2014"
        ),
        licence=(
            "repository: MIT (Copyright (c) 2017 Manaal Faruqui); each data set keeps its original "
            "authors' terms"
        ),
        notes=(
            "word1<TAB>word2<TAB>score, no header. Mixed line endings (CRLF in WS-353-ALL, MTurk-771, "
            "SimVerb-3500, VERB-143; no final newline in MTurk-287 and SimVerb-3500): read with "
            "splitlines. WS-353 files have capitalised words: lower-cased, counted. EN-VERB-143 has "
            "144 rows, not 143: all kept and reported. Several files repeat a pair in reversed order "
            "(as upstream): kept and reported. MEN scores are 0-50."
        ),
        files=(
            DataFile(
                "EN-MC-30.txt",
                "33ee05911496ff83d95cac351d0746c6f63b9181b605cb7d307f4daa8864511b",
                size=543,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-MC-30.txt",
            ),
            DataFile(
                "EN-MEN-TR-3k.txt",
                "888b13580faa362c7b11da0a670258cf1b1eb4bf0ecbcd418918729a3bd3f43a",
                size=53593,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-MEN-TR-3k.txt",
            ),
            DataFile(
                "EN-MTurk-287.txt",
                "a9ae3a9decb75a9700fe0cf18b048c1344774d9f40e0196baf8e34d4cd9d1ce5",
                size=7218,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-MTurk-287.txt",
            ),
            DataFile(
                "EN-MTurk-771.txt",
                "04dc297c9e86b6fa7cf8ef0e4ba2e2c8d3399ec68d92fb7a53c0b4aae27198b5",
                size=19628,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-MTurk-771.txt",
            ),
            DataFile(
                "EN-RG-65.txt",
                "c243f3a91c3f5d8cf67f21a67f6fb80bde8b6bb060851a6a48e6f2d68ec98c9f",
                size=1210,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-RG-65.txt",
            ),
            DataFile(
                "EN-RW-STANFORD.txt",
                "5108d54dfc746f44f9c3d7e31d2857c37cf71430bc1594175a61a3b89bb0ae1f",
                size=49851,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-RW-STANFORD.txt",
            ),
            DataFile(
                "EN-SIMLEX-999.txt",
                "405394ffb7d25f6d0e3c041f87c9f27d29dc6b047506769953e85c4523b11685",
                size=18024,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-SIMLEX-999.txt",
            ),
            DataFile(
                "EN-SimVerb-3500.txt",
                "9d84274e7ad029fd3cf69dd0516e9ade624bbef9bd4e2050f6cc1fa01471e0f5",
                size=65315,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-SimVerb-3500.txt",
            ),
            DataFile(
                "EN-VERB-143.txt",
                "7259e19961c81912aa4c72de0102e480b2ad2bb9f4ce97d036fbde8e1a403001",
                size=3320,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-VERB-143.txt",
            ),
            DataFile(
                "EN-WS-353-ALL.txt",
                "ce12919b240af45bdf46d243601eaca2b6212b159b5e7e9b435ee7ee40c5619c",
                size=7405,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-WS-353-ALL.txt",
            ),
            DataFile(
                "EN-WS-353-REL.txt",
                "66a7c88100624d0a391605ff61ce84e11d11ee620d51ec0298da49592838f8fa",
                size=5134,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-WS-353-REL.txt",
            ),
            DataFile(
                "EN-WS-353-SIM.txt",
                "f1da938998863c94e53f72f984a5c6e215f0b46c323aae8f0f4930703a339107",
                size=4002,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-WS-353-SIM.txt",
            ),
            DataFile(
                "EN-YP-130.txt",
                "7643fdbc6158c3424061e2cba450c71285767266ff9f3db947bfc1f1f5ce67ab",
                size=2614,
                url="https://raw.githubusercontent.com/mfaruqui/eval-word-vectors/94b3dd9fdbac7ed08dbee7179cd5ee464acf0594/data/word-sim/EN-YP-130.txt",
            ),
        ),
    )
)
