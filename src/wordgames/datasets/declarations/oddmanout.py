"""Declarations of the oddmanout data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from each folder's PROVENANCE.md.
"""

from wordgames.datasets.registry import DataFile, DatasetSpec, register

register(DatasetSpec(
    name="oddmanout",
    folder="oddmanout",
    family="oddmanout",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("common1.tsv", "86fc25ecbea2655ff9e292c3c0988f84a44008a3197f65ee6478412d70511d3a"),
        DataFile("common2.tsv", "55c191767ba54c701f17499bad93fa12f45c2d75461c839502aa8d993347f0e2"),
        DataFile("crowdsourced_filtered.tsv", "9c0be304d5a3eb67759f04abc71c4ae58f2322b464226d9c43f2882f4362a6d6"),
        DataFile("crowdsourced_unfiltered.tsv", "0f9b6eac02e232a9a84fe6a21f657eecb5f1bdcc7df3bee1ae020a51a9231676"),
        DataFile("proper1.tsv", "180b08a089c2563c0c388e99cafd8663a3292fa66eef4c086f46cbfda5737462"),
        DataFile("proper2.tsv", "b6a416be4e350884da82766920b1cde1743688233f18330089ed9e9eabfabe09"),
    ),
))
