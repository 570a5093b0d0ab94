"""Declarations of the wales data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from each folder's PROVENANCE.md.
"""

from wordgames.datasets.registry import DataFile, DatasetSpec, register

register(DatasetSpec(
    name="wales",
    folder="wales",
    family="wales",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("challenges.txt", "ff7f7ec1dd32742ccf4bd4c473ba456a36411d9fb08f6f248d44c8e391f6eb1c"),
        DataFile("early_results_wikigame.tsv", "cff6ee7c91dee6125d90c61716aa098705c462cfb2082aa0ffa54b90407b8eae"),
        DataFile("graph100_edges.tsv", "5660a37b3ac56c1743d035468f099beca12aefc0e7605e497ff8c6f7897cb4e3"),
        DataFile("human_results_wales.tsv", "d8a16710ed1bbeb851e515bcd06d03a8ddb868fbb62cabb7cb0b99e739f3b77c"),
        DataFile("nodes.tsv", "0126d0bdf3dd0bfd330c055db2394a65032c76b86204edd8647d63fb0ab4a91c"),
        DataFile("wikigame_human_paths.jsonl", "c7cb5dd48d916aab9244e7101d0dfb452da597a907ebeb9a0d847941a5bdccae"),
    ),
))

register(DatasetSpec(
    name="wikispeedia",
    folder="wikispeedia",
    family="wales",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("articles.tsv", "a70d592a51542cf8bcf69fd166ba9c4045765d5a0e321ad4673766b1c62344be"),
        DataFile("categories.tsv", "659412a49a7cba380d63ab98a714ebde7211d3d90cec9cf7b80a8dd4d5a12e9a"),
        DataFile("challenges_1000_seed0.tsv", "fc63b1e2ad66b7fcdd4165a9d4d2ae4fc8f44f6d1b8b18bd29fc3b65d993b239"),
        DataFile("links.tsv", "fc2352342a87b993c077e34233e4ca0a980968ba4587c491f24e1f11e823a24d"),
        DataFile("paths_unfinished.tsv", "499cf277fc4031034b3d47af775b32b4caf500c7c321c92357ba8688c755ff39"),
    ),
))
