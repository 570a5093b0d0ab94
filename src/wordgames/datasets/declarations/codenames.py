"""Declarations of the codenames data sets (metadata only: the files live under $WORDGAMES_DATA).

upstream, citation and licence are taken from each folder's PROVENANCE.md.
"""

from wordgames.datasets.model import DataFile, DatasetSpec, register

register(
    DatasetSpec(
        name="codenames-human-heyyjudes",
        loader="wordgames.codenames.human_data.heyyjudes:load",
        folder="codenames-human/heyyjudes-codenames-language-game",
        family="codenames",
        items=(
            ("human_receiver", 13280),
            ("human_sender", 3225),
        ),
        items_unit="weighted decisions (a record stands for its count of people)",
        title="Shen et al. 2018 adjective/noun reference game, Experiment 1 (aggregate speaker and listener counts)",
        upstream="https://github.com/heyyjudes/codenames-language-game @ 049105030d85a2145df7670389a207ccdb7a502c (data added in 362076011ca1b7f81b3dbcfb01c1a8ec7371b5e2); derived/shen2018_ex1_scenarios.json rebuilt from the repo's pickles and CSVs with its own src/data_utils.py",
        citation="Judy Hanwen Shen, Matthias Hofer, Bjarke Felbo, Roger Levy (2018). Comparing Models of Associative Meaning: An Empirical Investigation of Reference in Simple Language Games. CoNLL 2018 (arXiv:1810.03717).",
        licence="No licence file in any commit (public, all rights reserved). The derived file holds aggregate counts only, no identifiers.",
        files=(
            DataFile(
                "derived/shen2018_ex1_scenarios.json",
                "0da6f71a5aa7b46a35cab2f8c4e415d03b3e76dc845e126d166d77fbc06eb8a6",
                size=601200,
            ),
        ),
        notes="80 items (40 five-noun boards x 2 candidate-adjective sets). Speakers chose 1 of 8 adjectives (490 distinct choices, 3,225 people); listeners picked a noun pair for a candidate adjective (3,358 distinct answers, 13,280 people). Records are one per distinct decision with record.count people. Multiple-choice: rank sender clues among meta['candidate_clues']. Experiments 2-4 cannot be rebuilt (missing graphics_gen arrays).",
    )
)

register(
    DatasetSpec(
        name="codenames-human-itsluisa",
        loader="wordgames.codenames.human_data.itsluisa:load",
        folder="codenames-human/itsluisa-codenames",
        family="codenames",
        items=(
            ("human_receiver", 223),
            ("human_sender", 223),
        ),
        items_unit="records (one clue and its guesses)",
        title="itsLuisa/codenames: real 25-word Codenames games (games night, Polygon and MCDM YouTube transcriptions) and a small Prolific spymaster/operative study",
        upstream="https://github.com/itsLuisa/codenames @ a54fae7e4354ecf692edb041f3d45ed54c0d7d24 (game JSONs from ea601cf08f8f374b1ce20933555823c4cf74d911, group CSVs from ff4520e4d0536b4699824ca72199174856d62f05); derived/eval_study_responses_deidentified.csv is eval_study/experiment_raw_data.csv with participant names replaced by P01-P26",
        citation="itsLuisa (2021), codenames: RSA, GloVe and GlossBERT Codenames agents (student project, no paper). https://github.com/itsLuisa/codenames",
        licence="No licence file in any commit (public, all rights reserved). data_Polygon.json and data_MCDM.json transcribe public YouTube videos.",
        files=(
            DataFile(
                "codenamesexp.json",
                "b8c53bd68e0a2fdc83c89aa9af60517d95a835de3d2a4a0aad98cf8a3f971043",
                size=8199,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/data/codenamesexp.json",
            ),
            DataFile(
                "data_MCDM.json",
                "5cb88d39f9222a1e8a1d2411ecc1325c7e50d99e9433c107d43591f8097a6022",
                size=21149,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/data/data_MCDM.json",
            ),
            DataFile(
                "data_Polygon.json",
                "3f9a617a3ca0c89c2974c49f2221b8885586b5a2778acca9e98e5c28d9d7f247",
                size=9136,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/data/data_Polygon.json",
            ),
            DataFile(
                "derived/eval_study_responses_deidentified.csv",
                "72b90d5f90de7d3569a91fe3d6812a8693b074188cee2cb669b1b80d06d028c3",
                size=70500,
            ),
            DataFile(
                "eval_study_groups/group1.csv",
                "4497305cd263b6144518d5e4973e7a6b9382bea80799c1e9f7e9c6edcee4fad3",
                size=2214,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group1.csv",
            ),
            DataFile(
                "eval_study_groups/group2.csv",
                "bfe2ae59ee467268119a90a101e0915f299773e4c2c2df213356b287ea0ef3aa",
                size=2537,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group2.csv",
            ),
            DataFile(
                "eval_study_groups/group3.csv",
                "ba0ded781f6844284d4cd874d3896eefec6ff2ef8967c7ced4126c009336d68d",
                size=2522,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group3.csv",
            ),
            DataFile(
                "eval_study_groups/group4.csv",
                "f7720f92b2229a6de41031880cfcefd520f33108c046388dce9bf3afa16ab807",
                size=2240,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group4.csv",
            ),
            DataFile(
                "eval_study_groups/group5.csv",
                "46434e05af7114099d1e755ad6492f7a444ab458ad85bec01be1ae8d4b8dedf1",
                size=2280,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group5.csv",
            ),
            DataFile(
                "eval_study_groups/group6.csv",
                "4fee2e6173b25d34c48cc4aa555688c45879d1334892a37f674b60252a00fce0",
                size=2158,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group6.csv",
            ),
            DataFile(
                "eval_study_groups/group7.csv",
                "bfe5772362b9dbde8af82be2db2ee429dc65837eda7e5c00c68ffe394e748cfd",
                size=2895,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group7.csv",
            ),
            DataFile(
                "eval_study_groups/group8.csv",
                "26bd96ddf8fb9653b10ca0f44891ca0377f9c5768ce5f37e0ed506a13fa86544",
                size=2394,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/eval_study/groups_data/group8.csv",
            ),
            DataFile(
                "more_data.json",
                "fbf15dfaf6dcd8f46d35411bcd947a4aadc07d654c5ff8967b8ddd0bb8f04cb5",
                size=3476,
                url="https://raw.githubusercontent.com/itsLuisa/codenames/a54fae7e4354ecf692edb041f3d45ed54c0d7d24/data/more_data.json",
            ),
        ),
        notes="93 game rounds (sender + receiver each) + 130 spymaster (sender) and 130 operative (receiver) study responses. blue = the playing team's words, red = the other team's, neutral = white/lightgrey, assassin = black. One Polygon word has the colour 'contract': inferred from the 9/8/7/1 distribution (counted). Clue number 'inf' -> None (flagged). One spymaster named a neutral word as target: removed from targets (counted). more_data.json has no colours: sender blue = intended words.",
    )
)

register(
    DatasetSpec(
        name="codenames-human-noahprescott",
        loader="wordgames.codenames.human_data.noahprescott:load",
        folder="codenames-human/noahprescott-codenames",
        family="codenames",
        items=(
            ("human_receiver", 6336),
            ("human_sender", 398),
        ),
        items_unit="records",
        title="Mills, Prescott & Phillips: human vs GPT-4 Codenames (400 twelve-word boards, human and GPT-4 clues, human guesses)",
        upstream="https://github.com/NoahPrescott/Codenames @ 23b4f45c7d1a1e1bf91851ef02bb9b8f00ca79f3 (files unchanged since 3fa1cf5cce6f02f6feca155b7e0aef07c674698f)",
        citation="Tracey Mills, Noah Prescott, Jonathan Phillips. Strategy and structure in Codenames: Comparing human and GPT-4 gameplay. https://github.com/NoahPrescott/Codenames",
        licence="No licence file in any commit (public, all rights reserved).",
        files=(
            DataFile(
                "boards_and_responses.json",
                "1844144f0708b0f31eea3db53feed6b9a9f2455a6b5aa370047d9700aed2ed5a",
                size=599526,
                url="https://raw.githubusercontent.com/NoahPrescott/Codenames/23b4f45c7d1a1e1bf91851ef02bb9b8f00ca79f3/data/raw/human/guess-human-clue/boards_and_responses.json",
            ),
            DataFile(
                "cluesAndBoardsHumanDataFullTrial.json",
                "335c309fdf139770c0ca73b38e8ddf66cb7f49034eb58bc5bd11e6c66798a9be",
                size=202231,
                url="https://raw.githubusercontent.com/NoahPrescott/Codenames/23b4f45c7d1a1e1bf91851ef02bb9b8f00ca79f3/data/raw/human/guess-gpt-clue/cluesAndBoardsHumanDataFullTrial.json",
            ),
            DataFile(
                "combined-data.json",
                "ccfd5d6c6b79876e32460d5da4efbdaa6c15a96e301b7a132d49985d088edfa7",
                size=1055542,
                url="https://raw.githubusercontent.com/NoahPrescott/Codenames/23b4f45c7d1a1e1bf91851ef02bb9b8f00ca79f3/data/combined/combined-data.json",
            ),
        ),
        notes="No team colours: blue = the clue giver's 3 intended words, red = the other 9 board words. 400 human clues (2 are board words: their sender records dropped, receiver records flagged); 4,009 human guess lists on human clues + 2,327 on GPT-4 clues (clue_source 'human' / 'gpt-4'). GPT-4 twice named an off-board intended word (removed, counted). boards_and_responses.json and cluesAndBoardsHumanDataFullTrial.json repeat combined-data.json and are only checked against it.",
    )
)

register(
    DatasetSpec(
        name="codenames-human-salt",
        loader="wordgames.codenames.human_data.salt:load",
        folder="codenames-human/salt-nlp-codenames",
        family="codenames",
        items=(
            ("human_receiver", 815),
            ("human_sender", 826),
        ),
        items_unit="records",
        title="Cultural Codes: Codenames Duet human clues and guesses (Shaikh et al. 2023), val and test splits",
        upstream="https://github.com/SALT-NLP/codenames @ 9bf4550e681f7a42ac406439b00b0c717f59f13c (data/*/{val,test}.csv, unchanged since e1db1b010168effb9e4f90c7718b5171503307c6)",
        citation="Omar Shaikh, Caleb Ziems, William Held, Aryan J. Pariani, Fred Morstatter, Diyi Yang (2023). Modeling Cross-Cultural Pragmatic Inference with Codenames Duet. Findings of ACL 2023 (arXiv:2306.02475).",
        licence="No licence file in the repository (public, all rights reserved; research evaluation is the intended use). The CSVs carry player demographics in text columns: only base_text and output are read.",
        files=(
            DataFile(
                "clue_generation_task/test.csv",
                "f88123facb679d998a5f4701d77840054aa3f4296d01690feb3294a9b2e452e5",
                size=999086,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/clue_generation_task/test.csv",
            ),
            DataFile(
                "clue_generation_task/val.csv",
                "0c6ec372914a5dc6a5836154c5d167db851137343ec0b3d6b1e82d1fb575aecb",
                size=1190110,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/clue_generation_task/val.csv",
            ),
            DataFile(
                "generate_guess_task/test.csv",
                "dc2528641dcbab97e29ec22078bd3a8a74d39e83097cadc638a6ce4d87797d2e",
                size=1108986,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/generate_guess_task/test.csv",
            ),
            DataFile(
                "generate_guess_task/val.csv",
                "13572d274f615e2b0717b53eeb58a0817d9ec7acc4aa791f4d559e73810caf8e",
                size=1328475,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/generate_guess_task/val.csv",
            ),
            DataFile(
                "target_selection_task/test.csv",
                "887636f021eaf3c292ad86176b196085f51246a5d662024bce35302a940b9fa6",
                size=1090267,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/target_selection_task/test.csv",
            ),
            DataFile(
                "target_selection_task/val.csv",
                "58cec4046d2d5aa6f24ebb3f17fe62c63bc8747e0e0096254232deaca8cbcd70",
                size=1302689,
                url="https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/target_selection_task/val.csv",
            ),
        ),
        notes="Only val (455 turns) and test (373) are available: 828 of 7,703 turns (train/all.csv exceed the snapshot size limit). Duet has no opponent: blue = giver's green words, assassin = black, neutral = tan, red empty. Two val turns are logged twice (rows 65-66, 254-255): one sender record each (2 dropped, counted); 13 guess rows have no guess (dropped, counted).",
    )
)

register(
    DatasetSpec(
        name="codenames-human-stanfordhci",
        loader="wordgames.codenames.human_data.stanfordhci:load",
        folder="codenames-human/stanfordhci-dreamteam-task-set",
        family="codenames",
        items=(("human_sender", 33),),
        items_unit="records",
        title="DreamTeam Codenames task set (researcher-authored clues, 11 boards x 3 clues)",
        upstream="https://github.com/StanfordHCI/dreamteam-task-set @ def90bf5b81998265bc99ca7e760be87faa11985 (codenames.json from 0ea8b5e0d331c1a60538d0f7c7a94115e8f6dea6, LICENSE from c764504b37e53bd1ee81a7893fd802a2be0646ac)",
        citation="Sharon Zhou, Melissa Valentine, Michael S. Bernstein (2018). In Search of the Dream Team: Temporally Constrained Multi-Armed Bandits for Identifying Effective Team Structures. CHI 2018.",
        licence="MIT (Copyright (c) 2018 Stanford HCI); the LICENSE file is kept beside the data.",
        files=(
            DataFile(
                "LICENSE",
                "abde67df6e02e7c66d3fec2aa426f55f5d247c2ec47cd930847afbbadb193f7d",
                size=1069,
                url="https://raw.githubusercontent.com/StanfordHCI/dreamteam-task-set/c764504b37e53bd1ee81a7893fd802a2be0646ac/LICENSE",
            ),
            DataFile(
                "codenames.json",
                "6e0d472d5019a7c5936a88df42facc53bb668472253f9e83a65ca7179824db5d",
                size=4475,
                url="https://raw.githubusercontent.com/StanfordHCI/dreamteam-task-set/0ea8b5e0d331c1a60538d0f7c7a94115e8f6dea6/codenames.json",
            ),
        ),
        notes="Not recorded play: 33 researcher-authored clues, sender records only (clue_source 'researcher'); blue = the clue's words, red = the board's other words.",
    )
)

register(
    DatasetSpec(
        name="codenames-human-xerevity",
        loader="wordgames.codenames.human_data.xerevity:load",
        folder="codenames-human/xerevity-codenamesagent",
        family="codenames",
        items=(("human_receiver", 443),),
        items_unit="records",
        title="Cserhati et al. 2022: human guesses on agent Codenames clues (English, 100 twenty-word boards)",
        upstream="https://github.com/xerevity/CodeNamesAgent @ 1902049d9a5e3fa9c7b1b78b4340c648a780b920 (data/english/eval_data/; dataclips_userdata_en.csv from a0629e0b12490b4c60bf9cc9c82cb1ddac8bc92f, the rest from 942bd832b955b8a508ed64b7c9cb66e1a442d698)",
        citation="Rethy Cserhati, Istvan Kollath, Andras Kicsi, Gabor Berend (2022). Codenames as a Game of Co-occurrence Counting. CMCL 2022.",
        licence="No licence file in any commit (public, all rights reserved). The sessionid column is a pseudonymous hash and is never loaded into records.",
        files=(
            DataFile(
                "board_colors.csv",
                "eb96f1ef098e5b1931811cca80f5a710a552d5aaef0b98ac0b6cf1f5b41b227c",
                size=4290,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/board_colors.csv",
            ),
            DataFile(
                "boards_en.csv",
                "3febbe2e28ea16771fe5b935670082c0e7d47bdf4ae5b639017b89a297c02b75",
                size=12421,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/boards_en.csv",
            ),
            DataFile(
                "clues.csv",
                "88b04b98a427adc26a1b72784ee88bf7d6ea86e09dcf3fafd12908e3e3b9f397",
                size=13274,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/clues.csv",
            ),
            DataFile(
                "dataclips_userdata_en.csv",
                "8dc18759eb980d6f3e91d70fd64b4d29055265fb6e9dc86433b723e1d0563894",
                size=50430,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/dataclips_userdata_en.csv",
            ),
            DataFile(
                "fasttext_en.csv",
                "6f937dc9226d0cfe227f0bf51e58b6aec6912cb3ba29e11a251d7989428c3e88",
                size=21160,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/fasttext_en.csv",
            ),
            DataFile(
                "graph_en.csv",
                "3fe16437c1fa39a554322c92f24c7222107c04e9b4f9e152ae284cbaa22e8453",
                size=20951,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/graph_en.csv",
            ),
            DataFile(
                "sqrt2_en.csv",
                "0e62e6a944e865b922cf36e38e2260e4cbbfb9f1ffb703a4194324ccd66bb6f3",
                size=21455,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/sqrt2_en.csv",
            ),
            DataFile(
                "sqrt_en.csv",
                "5070a8e8280e9a8415ec78fbe62cbfe90cc78327c14cd3f41346ffc2b4632578",
                size=20937,
                url="https://raw.githubusercontent.com/xerevity/CodeNamesAgent/1902049d9a5e3fa9c7b1b78b4340c648a780b920/data/english/eval_data/sqrt_en.csv",
            ),
        ),
        notes="Human receiver data on model clues only (443 responses, 367 distinct board/clue items). Colour code 2 = good = blue, 1 = bad = red (words to avoid); no neutral or assassin. utalasid is the 0-based clue index in clues.csv. clue_source = the relatedness source(s) of the agents that produced the clue.",
    )
)

register(
    DatasetSpec(
        name="codenames-pilot",
        loader="wordgames.codenames.human_data.pilot:load",
        folder="codenames",
        family="codenames",
        items=(("human_receiver", 196),),
        items_unit="records",
        title="Koyyalagunta et al. August 2020 AMT pilot of the Human Receiver Dataset (MTurk batch results, HIT inputs, answer keys)",
        upstream="https://github.com/divyakoyy/codenames @ 2bb3f7c03b07698df6f8571e05da342e1c7d0033 (data/*.csv of the pilot; codewords.txt and cm_wordlist.txt at master 6d26eef14a1cd9d12535925aa4629a4aba5b6609); nounlist.csv from https://github.com/Rotem-BZ/EGG @ e2d3de42c8522a42a8c250c06bd33795822f30b3",
        citation="Divya Koyyalagunta, Anna Sun, Rachel Lea Draelos, Cynthia Rudin (2021). Playing Codenames with Language Graphs and Word Embeddings. Journal of Artificial Intelligence Research 71. (nounlist.csv: Solomon & Ben Zion's Rotem-BZ/EGG, from the Kaggle set leite0407/list-of-nouns.)",
        licence="divyakoyy/codenames has no licence file (public, all rights reserved). Rotem-BZ/EGG is MIT; the Kaggle noun list's licence was not checked. MTurk worker/HIT ids are personal data and are not copied into records.",
        files=(
            DataFile(
                "Batch_291089_batch_results.csv",
                "86d9f9e47e497d7c4a9f85324ed98488b31ec8dc1c6df04fde8951e180af2e96",
                size=69218,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/Batch_291089_batch_results.csv",
            ),
            DataFile(
                "Batch_291092_batch_results.csv",
                "864e397476b6ac2a25f6e85f7c8bb654d3eaec5ac733277424da7805dd74a115",
                size=69728,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/Batch_291092_batch_results.csv",
            ),
            DataFile(
                "amt_0.csv",
                "898207dd1579f6e5bf47f884ee8332539811a82f9e20339d527b46b9d07af1e1",
                size=11714,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_0.csv",
            ),
            DataFile(
                "amt_1.csv",
                "52a779e6a692c78d11223b6db2eeed91c83ea6b09afc8521ab1f602c63ea9994",
                size=11034,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_1.csv",
            ),
            DataFile(
                "amt_2.csv",
                "9c84df417802370f24ca3b838908e0f04d3cd76044d1133617e46259454046e4",
                size=10464,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_2.csv",
            ),
            DataFile(
                "amt_key_0.csv",
                "57a238fae926e94f1277dcb5895197575426eb1b7a0b91c109019c08cb33fe34",
                size=44867,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_key_0.csv",
            ),
            DataFile(
                "amt_key_1.csv",
                "e10dd20d2416bc9747537fe7a9b5e0e816bb8566bb367bf0f108c1d4fe56c95d",
                size=38785,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_key_1.csv",
            ),
            DataFile(
                "amt_key_2.csv",
                "9015b2b3465c58431a092da9390dd526c24afb53bba5846defacef905c968957",
                size=38734,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_key_2.csv",
            ),
            DataFile(
                "amt_test_0.csv",
                "885b77a5a58d86de6ab35c750956f363eaf80e3a66859c47950752651f590c6c",
                size=1016,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/2bb3f7c03b07698df6f8571e05da342e1c7d0033/data/amt_test_0.csv",
            ),
            DataFile(
                "cm_wordlist.txt",
                "84df0974412b44b1a45cb4ad3bfc9995e10c8fa10151b6628e654cba65bb907a",
                size=54484,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/6d26eef14a1cd9d12535925aa4629a4aba5b6609/data/cm_wordlist.txt",
            ),
            DataFile(
                "codewords.txt",
                "1bfb51f84543c5253f838e678b683dad56c7251ae5693428311faa378d5e8d54",
                size=2481,
                url="https://raw.githubusercontent.com/divyakoyy/codenames/6d26eef14a1cd9d12535925aa4629a4aba5b6609/data/codewords.txt",
            ),
            DataFile(
                "nounlist.csv",
                "dacf3ad36fb59ff339e4b7399a665de215a2dc8133a5d25c185d4d65a99d20c9",
                size=54860,
                url="https://raw.githubusercontent.com/Rotem-BZ/EGG/e2d3de42c8522a42a8c250c06bd33795822f30b3/nounlist.csv",
            ),
        ),
        notes="Not the official study (never published): a pilot, 20 boards answered by one worker. 140 answered HITs + 57 rows appended by prefill_without_trials_using_with_trials (copies under the WithoutHeuristics name when both configurations gave the same clue): kept and flagged by default (prefilled='drop' leaves them out); one copy has a different clue from its answer key and is dropped. Repairs: 53-field rows padded, one glued line per batch split at the 30-character HITId, amt_key_0.csv cut to 25 fields and its glued MTurk header removed. amt_2.csv has no results.",
    )
)
