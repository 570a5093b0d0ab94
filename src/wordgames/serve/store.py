"""Study, participant and answer operations on the database (every write one transaction).

The web app (:mod:`wordgames.serve.app`), the export and the tests all go through these
functions. Immutable things (a study's configuration and items) are cached per process after
the first read; everything that changes lives only in the database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from wordgames.errors import WordgamesError
from wordgames.serve.config import StudyConfig, study_from_dict
from wordgames.serve.db import Database
from wordgames.serve.games import game_for
from wordgames.serve.models import Answer, Item, Move, Participant, Study, utcnow

log = logging.getLogger("wordgames.serve")


class StudyError(WordgamesError):
    """A study cannot be set up (design changed, generation failed...)."""


class StartedElsewhere(WordgamesError):
    """A participant with this platform id exists, and nothing in the request proves it is them.

    Neither the session cookie nor the platform's session id of that participant came with the
    request, so the session is not handed over.
    """


def sha(text: str) -> str:
    """sha256 hex digest of ``text`` (how cookie tokens are stored)."""
    return hashlib.sha256(text.encode()).hexdigest()


def keyed_hash(salt: str, value: str) -> str:
    """HMAC-SHA256 of ``value`` under ``salt`` (how platform ids are stored)."""
    return hmac.new(salt.encode(), value.encode(), hashlib.sha256).hexdigest()


@dataclass
class LoadedStudy:
    """A study row with its configuration and items (immutable: cached per process)."""

    id: int
    slug: str
    cfg: StudyConfig
    salt: str
    secret: str
    items: dict  # item id -> (condition, kind, idx, payload)

    @cached_property
    def game(self):
        """The study's :class:`~wordgames.serve.games.Game`."""
        return game_for(self.cfg.game)

    def pool(self, condition: str, kind: str) -> list[int]:
        """Item ids of a condition's trials (or of the attention checks), by index."""
        rows = sorted(
            (idx, iid)
            for iid, (c, k, idx, _) in self.items.items()
            if k == kind and (c == condition or kind == "attention")
        )
        return [iid for _, iid in rows]

    def sign(self, *parts) -> str:
        """HMAC-SHA256 (hex, 128 bits) of the parts under the study's secret."""
        msg = "|".join(map(str, parts)).encode()
        return hmac.new(self.secret.encode(), msg, hashlib.sha256).hexdigest()[:32]


def init_study(db: Database, cfg: StudyConfig) -> int:
    """Put a study and its generated items into the database; returns the study id.

    A study already there must have the same design (texts and completion code may change).

    Raises
    ------
    StudyError : the slug exists with another design
    """
    with db.read() as s:
        row = s.scalar(select(Study).where(Study.slug == cfg.slug))
    if row is not None:
        if row.design_sha != cfg.design_sha():
            raise StudyError(
                f"study {cfg.slug!r} is already in the database with another design "
                "(game, trials, agents, words...); keep its file as it was or use a "
                "new slug"
            )
        with db.write() as s:
            s.get(Study, row.id).config = Study.dumps(cfg.to_dict())
        return row.id
    game = game_for(cfg.game)
    pools = game.generate(cfg)
    attention = game.attention(cfg) if cfg.attention.positions else []
    try:
        with db.write() as s:
            study = Study(
                slug=cfg.slug,
                game=cfg.game,
                config=Study.dumps(cfg.to_dict()),
                design_sha=cfg.design_sha(),
                salt=secrets.token_hex(32),
                secret=secrets.token_hex(32),
                created_at=utcnow(),
                n_items=sum(map(len, pools.values())) + len(attention),
            )
            s.add(study)
            s.flush()
            for cond, payloads in pools.items():
                s.add_all(
                    Item(
                        study_id=study.id,
                        condition=cond,
                        kind="trial",
                        idx=i,
                        payload=Item.dumps(p),
                    )
                    for i, p in enumerate(payloads)
                )
            s.add_all(
                Item(
                    study_id=study.id, condition="*", kind="attention", idx=i, payload=Item.dumps(p)
                )
                for i, p in enumerate(attention)
            )
            sid = study.id
    except IntegrityError:  # another process created it at the same time
        return init_study(db, cfg)
    log.info(
        "study %s: %d items for %d condition(s) created",
        cfg.slug,
        sum(map(len, pools.values())),
        len(pools),
    )
    return sid


_CACHE: dict[tuple[str, int], LoadedStudy] = {}


def load_study(db: Database, slug: str) -> LoadedStudy | None:
    """The study ``slug`` (cached per database and process), or None."""
    with db.read() as s:
        row = s.scalar(select(Study).where(Study.slug == slug))
        if row is None:
            return None
        key = (db.url, row.id)
        hit = _CACHE.get(key)
        if hit is not None and hit.cfg.to_dict() == Study.loads(row.config):
            return hit
        items = {
            i.id: (i.condition, i.kind, i.idx, Item.loads(i.payload))
            for i in s.scalars(select(Item).where(Item.study_id == row.id))
        }
    cfg = study_from_dict(Study.loads(row.config), source=f"database study {slug}")
    loaded = LoadedStudy(row.id, row.slug, cfg, row.salt, row.secret, items)
    _CACHE[key] = loaded
    return loaded


def list_studies(db: Database) -> list[str]:
    """Slugs of the studies in the database, oldest first."""
    with db.read() as s:
        return list(s.scalars(select(Study.slug).order_by(Study.id)))


# --------------------------------------------------------------------------- participants
def pid_hash(study: LoadedStudy, pid: str) -> str:
    """How a platform id (``PROLIFIC_PID``) is stored: keyed with the study's salt."""
    return keyed_hash(study.salt, "pid:" + pid)


def session_hash(study: LoadedStudy, session: str) -> str:
    """How a platform session id (``SESSION_ID``) is stored: keyed with the study's salt."""
    return keyed_hash(study.salt, "session:" + session)


def same_session(study: LoadedStudy, p: Participant, session: str | None) -> bool:
    """Whether ``session`` (the link's ``SESSION_ID``) is the one the participant started with.

    False when either is missing: a participant who came without a session id can resume only
    with the cookie.
    """
    if not session or not p.session_hash:
        return False
    return hmac.compare_digest(p.session_hash, session_hash(study, session))


def make_plan(study: LoadedStudy, condition: str, seq: int) -> list[int]:
    """The item ids a participant plays, in order.

    A seeded sample of ``trials`` items of the condition, with the attention checks at their
    positions.
    """
    cfg = study.cfg
    pool = study.pool(condition, "trial")
    rng = np.random.default_rng([cfg.seed & 0xFFFFFFFF, 1 + seq])
    plan = [pool[i] for i in rng.choice(len(pool), cfg.trials, replace=False).tolist()]
    checks = study.pool("*", "attention")
    for k, pos in enumerate(sorted(cfg.attention.positions)):
        if checks:
            plan.insert(pos + k, checks[k % len(checks)])
    return plan


def find_participant(
    db: Database, study: LoadedStudy, token: str | None = None, pid: str | None = None
) -> Participant | None:
    """A participant by cookie token, else by platform id."""
    with db.read() as s:
        if token:
            p = s.scalar(
                select(Participant).where(
                    Participant.token_hash == sha(token), Participant.study_id == study.id
                )
            )
            if p is not None:
                return p
        if pid:
            return s.scalar(
                select(Participant).where(
                    Participant.study_id == study.id,
                    Participant.pid_hash == pid_hash(study, pid),
                )
            )
    return None


def new_token(db: Database, participant_id: int) -> str:
    """Give a participant a fresh cookie token; the old one stops working.

    Used to resume on another browser (same platform id and session id).
    """
    token = secrets.token_urlsafe(24)
    with db.write() as s:
        s.get(Participant, participant_id).token_hash = sha(token)
    return token


def create_participant(
    db: Database,
    study: LoadedStudy,
    *,
    pid: str | None,
    platform_study: str | None,
    session: str | None,
) -> tuple[Participant, str]:
    """Consent given: a new participant with the next assignment number, and its token.

    Conditions are assigned round-robin on that number (balanced by construction). When a
    participant with the same platform id was created meanwhile (the consent sent twice), it is
    returned instead, with a new token, if the platform session id is the one it started with.

    Raises
    ------
    StartedElsewhere : that participant started in another session
    """
    conditions = study.cfg.conditions
    for _ in range(20):
        token = secrets.token_urlsafe(24)
        try:
            with db.write() as s:
                # one consent at a time per study: the study's row is locked (PostgreSQL) or
                # the database is (SQLite), so the next number never collides
                s.execute(db.lock(s, select(Study.id).where(Study.id == study.id)))
                seq = (
                    s.scalar(
                        select(func.coalesce(func.max(Participant.seq), -1)).where(
                            Participant.study_id == study.id
                        )
                    )
                    + 1
                )
                cond = conditions[seq % len(conditions)]
                p = Participant(
                    study_id=study.id,
                    token_hash=sha(token),
                    seq=seq,
                    condition=cond,
                    pid_hash=pid_hash(study, pid)
                    if pid
                    else keyed_hash(study.salt, "anon:" + secrets.token_hex(16)),
                    source="prolific" if pid else "anonymous",
                    platform_study=platform_study or None,
                    session_hash=session_hash(study, session) if session else None,
                    plan=json.dumps(make_plan(study, cond, seq)),
                    position=0,
                    status="active",
                    attention_failed=0,
                    created_at=utcnow(),
                )
                s.add(p)
            return p, token
        except IntegrityError:
            if pid:
                old = find_participant(db, study, pid=pid)
                if old is not None:
                    if not same_session(study, old, session):
                        raise StartedElsewhere(
                            "this participant started in another session"
                        ) from None
                    return old, new_token(db, old.id)
    raise StudyError("could not assign a participant number (too much contention); retry")


def plan_of(p: Participant) -> list[int]:
    """The item ids of a participant's trials, in order."""
    return json.loads(p.plan)


def moves_of(db: Database, participant_id: int, position: int) -> list[Move]:
    """The wiki clicks of a participant's trial, in order."""
    with db.read() as s:
        return list(
            s.scalars(
                select(Move)
                .where(Move.participant_id == participant_id, Move.position == position)
                .order_by(Move.seq)
            )
        )


def answer_at(db: Database, participant_id: int, position: int) -> Answer | None:
    """A participant's answer at a position, or None."""
    with db.read() as s:
        return s.scalar(
            select(Answer).where(
                Answer.participant_id == participant_id, Answer.position == position
            )
        )


def record_answer(
    db: Database,
    study: LoadedStudy,
    participant_id: int,
    position: int,
    idem: str,
    answer: dict,
    outcome: dict,
    rt_ms: int,
    client_rt_ms: int | None,
    moves: list[dict] = (),
) -> str:
    """Write an answer (and the moves that led to it) and advance the participant.

    One transaction. Returns ``"stored"``, ``"duplicate"`` (this position or key was already
    answered: nothing written) or ``"stale"`` (the participant is elsewhere).
    """
    idem = f"{participant_id}:{idem}"[:64]  # keys are unique per participant
    try:
        with db.write() as s:
            p = s.scalar(db.lock(s, select(Participant).where(Participant.id == participant_id)))
            if p.position != position or p.status != "active":
                return "duplicate" if p.position > position or p.status != "active" else "stale"
            if s.scalar(select(Answer.id).where(Answer.idem == idem)) is not None:
                return "duplicate"
            plan = plan_of(p)
            item_id = plan[position]
            kind = study.items[item_id][1]
            for m in moves:
                s.add(Move(participant_id=p.id, position=position, created_at=utcnow(), **m))
            s.add(
                Answer(
                    study_id=study.id,
                    participant_id=p.id,
                    item_id=item_id,
                    position=position,
                    kind=kind,
                    idem=idem,
                    payload=Answer.dumps(answer),
                    outcome=Answer.dumps(outcome),
                    rt_ms=int(rt_ms),
                    client_rt_ms=client_rt_ms,
                    created_at=utcnow(),
                )
            )
            _advance(study, p, outcome)
        return "stored"
    except IntegrityError:
        return "duplicate"


def _advance(study: LoadedStudy, p: Participant, outcome: dict) -> None:
    p.position += 1
    if outcome.get("attention_ok") is False:
        p.attention_failed += 1
        if study.cfg.attention.action == "end":
            p.status = "ended"
            p.completed_at = utcnow()
            return
    if p.position >= len(plan_of(p)):
        p.status = "completed"
        p.completed_at = utcnow()


def record_move(
    db: Database, participant_id: int, position: int, seq: int, page: str, back: bool, rt_ms: int
) -> str:
    """Write one wiki click.

    Returns ``"stored"``, or ``"duplicate"`` when this click (position, seq) is already there (a
    double click) or the participant moved on.
    """
    try:
        with db.write() as s:
            p = s.scalar(db.lock(s, select(Participant).where(Participant.id == participant_id)))
            if p.position != position or p.status != "active":
                return "duplicate"
            s.add(
                Move(
                    participant_id=participant_id,
                    position=position,
                    seq=seq,
                    page=page,
                    back=back,
                    rt_ms=int(rt_ms),
                    created_at=utcnow(),
                )
            )
        return "stored"
    except IntegrityError:
        return "duplicate"
