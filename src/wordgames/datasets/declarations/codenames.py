"""Declarations of the codenames data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from each folder's PROVENANCE.md.
"""

from wordgames.datasets.registry import DataFile, DatasetSpec, register

register(DatasetSpec(
    name="codenames-human-heyyjudes",
    folder="codenames-human/heyyjudes-codenames-language-game",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("derived/shen2018_ex1_scenarios.json", "0da6f71a5aa7b46a35cab2f8c4e415d03b3e76dc845e126d166d77fbc06eb8a6"),
    ),
))

register(DatasetSpec(
    name="codenames-human-itsluisa",
    folder="codenames-human/itsluisa-codenames",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("codenamesexp.json", "b8c53bd68e0a2fdc83c89aa9af60517d95a835de3d2a4a0aad98cf8a3f971043"),
        DataFile("data_MCDM.json", "5cb88d39f9222a1e8a1d2411ecc1325c7e50d99e9433c107d43591f8097a6022"),
        DataFile("data_Polygon.json", "3f9a617a3ca0c89c2974c49f2221b8885586b5a2778acca9e98e5c28d9d7f247"),
        DataFile("derived/eval_study_responses_deidentified.csv", "72b90d5f90de7d3569a91fe3d6812a8693b074188cee2cb669b1b80d06d028c3"),
        DataFile("eval_study_groups/group1.csv", "4497305cd263b6144518d5e4973e7a6b9382bea80799c1e9f7e9c6edcee4fad3"),
        DataFile("eval_study_groups/group2.csv", "bfe2ae59ee467268119a90a101e0915f299773e4c2c2df213356b287ea0ef3aa"),
        DataFile("eval_study_groups/group3.csv", "ba0ded781f6844284d4cd874d3896eefec6ff2ef8967c7ced4126c009336d68d"),
        DataFile("eval_study_groups/group4.csv", "f7720f92b2229a6de41031880cfcefd520f33108c046388dce9bf3afa16ab807"),
        DataFile("eval_study_groups/group5.csv", "46434e05af7114099d1e755ad6492f7a444ab458ad85bec01be1ae8d4b8dedf1"),
        DataFile("eval_study_groups/group6.csv", "4fee2e6173b25d34c48cc4aa555688c45879d1334892a37f674b60252a00fce0"),
        DataFile("eval_study_groups/group7.csv", "bfe5772362b9dbde8af82be2db2ee429dc65837eda7e5c00c68ffe394e748cfd"),
        DataFile("eval_study_groups/group8.csv", "26bd96ddf8fb9653b10ca0f44891ca0377f9c5768ce5f37e0ed506a13fa86544"),
        DataFile("more_data.json", "fbf15dfaf6dcd8f46d35411bcd947a4aadc07d654c5ff8967b8ddd0bb8f04cb5"),
    ),
))

register(DatasetSpec(
    name="codenames-human-noahprescott",
    folder="codenames-human/noahprescott-codenames",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("boards_and_responses.json", "1844144f0708b0f31eea3db53feed6b9a9f2455a6b5aa370047d9700aed2ed5a"),
        DataFile("cluesAndBoardsHumanDataFullTrial.json", "335c309fdf139770c0ca73b38e8ddf66cb7f49034eb58bc5bd11e6c66798a9be"),
        DataFile("combined-data.json", "ccfd5d6c6b79876e32460d5da4efbdaa6c15a96e301b7a132d49985d088edfa7"),
    ),
))

register(DatasetSpec(
    name="codenames-human-salt",
    folder="codenames-human/salt-nlp-codenames",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("clue_generation_task/test.csv", "f88123facb679d998a5f4701d77840054aa3f4296d01690feb3294a9b2e452e5"),
        DataFile("clue_generation_task/val.csv", "0c6ec372914a5dc6a5836154c5d167db851137343ec0b3d6b1e82d1fb575aecb"),
        DataFile("generate_guess_task/test.csv", "dc2528641dcbab97e29ec22078bd3a8a74d39e83097cadc638a6ce4d87797d2e"),
        DataFile("generate_guess_task/val.csv", "13572d274f615e2b0717b53eeb58a0817d9ec7acc4aa791f4d559e73810caf8e"),
        DataFile("target_selection_task/test.csv", "887636f021eaf3c292ad86176b196085f51246a5d662024bce35302a940b9fa6"),
        DataFile("target_selection_task/val.csv", "58cec4046d2d5aa6f24ebb3f17fe62c63bc8747e0e0096254232deaca8cbcd70"),
    ),
))

register(DatasetSpec(
    name="codenames-human-stanfordhci",
    folder="codenames-human/stanfordhci-dreamteam-task-set",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("LICENSE", "abde67df6e02e7c66d3fec2aa426f55f5d247c2ec47cd930847afbbadb193f7d"),
        DataFile("codenames.json", "6e0d472d5019a7c5936a88df42facc53bb668472253f9e83a65ca7179824db5d"),
    ),
))

register(DatasetSpec(
    name="codenames-human-xerevity",
    folder="codenames-human/xerevity-codenamesagent",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("board_colors.csv", "eb96f1ef098e5b1931811cca80f5a710a552d5aaef0b98ac0b6cf1f5b41b227c"),
        DataFile("boards_en.csv", "3febbe2e28ea16771fe5b935670082c0e7d47bdf4ae5b639017b89a297c02b75"),
        DataFile("clues.csv", "88b04b98a427adc26a1b72784ee88bf7d6ea86e09dcf3fafd12908e3e3b9f397"),
        DataFile("dataclips_userdata_en.csv", "8dc18759eb980d6f3e91d70fd64b4d29055265fb6e9dc86433b723e1d0563894"),
        DataFile("fasttext_en.csv", "6f937dc9226d0cfe227f0bf51e58b6aec6912cb3ba29e11a251d7989428c3e88"),
        DataFile("graph_en.csv", "3fe16437c1fa39a554322c92f24c7222107c04e9b4f9e152ae284cbaa22e8453"),
        DataFile("sqrt2_en.csv", "0e62e6a944e865b922cf36e38e2260e4cbbfb9f1ffb703a4194324ccd66bb6f3"),
        DataFile("sqrt_en.csv", "5070a8e8280e9a8415ec78fbe62cbfe90cc78327c14cd3f41346ffc2b4632578"),
    ),
))

register(DatasetSpec(
    name="codenames-pilot",
    folder="codenames",
    family="codenames",
    title="TODO",
    upstream="TODO",
    citation="TODO",
    licence="TODO",
    files=(
        DataFile("Batch_291089_batch_results.csv", "86d9f9e47e497d7c4a9f85324ed98488b31ec8dc1c6df04fde8951e180af2e96"),
        DataFile("Batch_291092_batch_results.csv", "864e397476b6ac2a25f6e85f7c8bb654d3eaec5ac733277424da7805dd74a115"),
        DataFile("amt_0.csv", "898207dd1579f6e5bf47f884ee8332539811a82f9e20339d527b46b9d07af1e1"),
        DataFile("amt_1.csv", "52a779e6a692c78d11223b6db2eeed91c83ea6b09afc8521ab1f602c63ea9994"),
        DataFile("amt_2.csv", "9c84df417802370f24ca3b838908e0f04d3cd76044d1133617e46259454046e4"),
        DataFile("amt_key_0.csv", "57a238fae926e94f1277dcb5895197575426eb1b7a0b91c109019c08cb33fe34"),
        DataFile("amt_key_1.csv", "e10dd20d2416bc9747537fe7a9b5e0e816bb8566bb367bf0f108c1d4fe56c95d"),
        DataFile("amt_key_2.csv", "9015b2b3465c58431a092da9390dd526c24afb53bba5846defacef905c968957"),
        DataFile("amt_test_0.csv", "885b77a5a58d86de6ab35c750956f363eaf80e3a66859c47950752651f590c6c"),
        DataFile("cm_wordlist.txt", "84df0974412b44b1a45cb4ad3bfc9995e10c8fa10151b6628e654cba65bb907a"),
        DataFile("codewords.txt", "1bfb51f84543c5253f838e678b683dad56c7251ae5693428311faa378d5e8d54"),
        DataFile("nounlist.csv", "dacf3ad36fb59ff339e4b7399a665de215a2dc8133a5d25c185d4d65a99d20c9"),
    ),
))
