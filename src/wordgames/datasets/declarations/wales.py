"""Declarations of the wales data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from each folder's PROVENANCE.md.
"""

from wordgames.datasets.model import DataFile, DatasetSpec, register

register(
    DatasetSpec(
        name="wales",
        folder="wales",
        family="wales",
        title="WALES authors' data: 1000 Wiki Game challenges, node names, human results",
        upstream="https://github.com/kahlmeyer94/WALES @ efc30e519ac736764a33ee908053574ab8962548 "
        "(wikigame_human_paths.jsonl, early_results_wikigame.tsv, graph100_edges.tsv @ "
        "ec7fc1307b7232336eabc9c97a6cca73f4fe55c8); pickles converted to TSV/JSONL with a "
        "restricted unpickler",
        citation="Giesen, Kahlmeyer, Nussbaum, Zarriess. Leveraging the Wikipedia Graph for Evaluating "
        "Word Embeddings. IJCAI 2022, doi:10.24963/ijcai.2022/574",
        licence="no licence file upstream (none in any commit; the README states none)",
        notes=(
            "Path lengths in the human files are counted in NODES (opt = shortest path in edges + 1). "
            "The graph itself (wiki_graph.p, 38,609-node LSCC) is missing from every public snapshot, so "
            "only node names (nodes.tsv, ids 16..92230, not contiguous) are here; the agent runs on "
            "Wikispeedia instead. 'tribadism' (one challenge word) is not in GloVe 6B. "
            "Early-results opt differs from human_results_wales opt for 2 of 769 shared pairs."
        ),
        files=(
            DataFile(
                "challenges.txt",
                "ff7f7ec1dd32742ccf4bd4c473ba456a36411d9fb08f6f248d44c8e391f6eb1c",
                size=16689,
                url="https://raw.githubusercontent.com/kahlmeyer94/WALES/efc30e519ac736764a33ee908053574ab8962548/data/wales/challenges.txt",
            ),
            DataFile(
                "early_results_wikigame.tsv",
                "cff6ee7c91dee6125d90c61716aa098705c462cfb2082aa0ffa54b90407b8eae",
                size=127766,
            ),
            DataFile(
                "graph100_edges.tsv",
                "5660a37b3ac56c1743d035468f099beca12aefc0e7605e497ff8c6f7897cb4e3",
                size=11972,
            ),
            DataFile(
                "human_results_wales.tsv",
                "d8a16710ed1bbeb851e515bcd06d03a8ddb868fbb62cabb7cb0b99e739f3b77c",
                size=34284,
            ),
            DataFile(
                "nodes.tsv",
                "0126d0bdf3dd0bfd330c055db2394a65032c76b86204edd8647d63fb0ab4a91c",
                size=548725,
            ),
            DataFile(
                "wikigame_human_paths.jsonl",
                "c7cb5dd48d916aab9244e7101d0dfb452da597a907ebeb9a0d847941a5bdccae",
                size=2975754,
            ),
        ),
    )
)

register(
    DatasetSpec(
        name="wikispeedia",
        folder="wikispeedia",
        family="wales",
        items=(("wikispeedia-lscc", 4051),),
        items_unit="article titles of the largest strongly connected component",
        title="Wikispeedia: Wikipedia-for-Schools link graph and unfinished human navigation games",
        upstream="https://github.com/GdShruti/CS685-Data-Mining-Wikispeedia @ "
        "d71f3cd5f28ac7ed2d8f34c22762b2c43a55771a (wikispeedia_paths-and-graph/; SNAP data set "
        "wikispeedia_paths-and-graph); challenges_1000_seed0.tsv derived locally (see notes)",
        citation="West & Leskovec, Human Wayfinding in Information Networks, WWW 2012; West, Pineau & "
        "Precup, Wikispeedia: An Online Game for Inferring Semantic Distances between Concepts, "
        "IJCAI 2009",
        licence="no licence file in the mirror repositories; SNAP data, article content from Wikipedia "
        "(Wikipedia for Schools)",
        notes=(
            "Titles are URL-encoded; '#' comment header then a blank line. paths_finished.tsv and the "
            "distance matrix are missing (4 MiB+), so no finished games: the human success rate cannot "
            "be computed. In paths_unfinished.tsv '<' is a back click (5,201 games) and 35 games name a "
            "target outside the largest SCC (28 not an article at all, e.g. 'Long_peper'): counted, not "
            "used. Largest SCC: 4,051 nodes, 111,900 links. challenges_1000_seed0.tsv: 1000 distinct "
            "(start, target) pairs of unfinished games inside the LSCC, drawn with "
            "numpy RandomState(0)."
        ),
        files=(
            DataFile(
                "articles.tsv",
                "a70d592a51542cf8bcf69fd166ba9c4045765d5a0e321ad4673766b1c62344be",
                size=69438,
                url="https://raw.githubusercontent.com/GdShruti/CS685-Data-Mining-Wikispeedia/d71f3cd5f28ac7ed2d8f34c22762b2c43a55771a/wikispeedia_paths-and-graph/articles.tsv",
            ),
            DataFile(
                "categories.tsv",
                "659412a49a7cba380d63ab98a714ebde7211d3d90cec9cf7b80a8dd4d5a12e9a",
                size=284433,
                url="https://raw.githubusercontent.com/GdShruti/CS685-Data-Mining-Wikispeedia/d71f3cd5f28ac7ed2d8f34c22762b2c43a55771a/wikispeedia_paths-and-graph/categories.tsv",
            ),
            DataFile(
                "challenges_1000_seed0.tsv",
                "fc63b1e2ad66b7fcdd4165a9d4d2ae4fc8f44f6d1b8b18bd29fc3b65d993b239",
                size=26940,
            ),
            DataFile(
                "links.tsv",
                "fc2352342a87b993c077e34233e4ca0a980968ba4587c491f24e1f11e823a24d",
                size=3107133,
                url="https://raw.githubusercontent.com/GdShruti/CS685-Data-Mining-Wikispeedia/d71f3cd5f28ac7ed2d8f34c22762b2c43a55771a/wikispeedia_paths-and-graph/links.tsv",
            ),
            DataFile(
                "paths_unfinished.tsv",
                "499cf277fc4031034b3d47af775b32b4caf500c7c321c92357ba8688c755ff39",
                size=2694193,
                url="https://raw.githubusercontent.com/GdShruti/CS685-Data-Mining-Wikispeedia/d71f3cd5f28ac7ed2d8f34c22762b2c43a55771a/wikispeedia_paths-and-graph/paths_unfinished.tsv",
            ),
        ),
    )
)
