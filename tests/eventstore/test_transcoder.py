"""The orjson transcoder: the library's TranscoderTestCase (all of it, tuples and
subclasses included), wire compatibility with JSONTranscoder, and Heirloom payloads."""

from __future__ import annotations

import pytest

# eventsourcing's test suites import its AES cipher, which needs pycryptodome
# (the library's "crypto" extra). It is part of the test dependencies; without it
# this module is reported as skipped with this reason instead of breaking collection.
pytest.importorskip("Crypto", reason="needs pycryptodome (eventsourcing[crypto]) installed")

from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    Mapper,
    Transcoder,
    Transcoding,
    UUIDAsHex,
)
from eventsourcing.tests import persistence as lib

from domain.eventstore.transcoder import OrjsonTranscoder, TupleAsList


class MydictAsDict(Transcoding):
    type = lib.Mydict
    name = "mydict"

    def encode(self, obj: lib.Mydict[Any, Any]) -> dict[Any, Any]:
        return dict(obj)

    def decode(self, data: dict[Any, Any]) -> lib.Mydict[Any, Any]:
        return lib.Mydict(data)


class MyListAsList(Transcoding):
    type = lib.MyList
    name = "mylist"

    def encode(self, obj: lib.MyList[Any]) -> list[Any]:
        return list(obj)

    def decode(self, data: list[Any]) -> lib.MyList[Any]:
        return lib.MyList(data)


class MyStrAsStr(Transcoding):
    type = lib.MyStr
    name = "mystr"

    def encode(self, obj: lib.MyStr) -> str:
        return str(obj)

    def decode(self, data: str) -> lib.MyStr:
        return lib.MyStr(data)


class MyIntAsInt(Transcoding):
    type = lib.MyInt
    name = "myint"

    def encode(self, obj: lib.MyInt) -> int:
        return int(obj)

    def decode(self, data: int) -> lib.MyInt:
        return lib.MyInt(data)


def make_transcoder() -> OrjsonTranscoder:
    transcoder = OrjsonTranscoder()
    for t in (
        lib.CustomType1AsDict(),
        lib.CustomType2AsDict(),
        MydictAsDict(),
        MyListAsList(),
        MyStrAsStr(),
        MyIntAsInt(),
    ):
        transcoder.register(t)
    return transcoder


class TestOrjsonTranscoder(lib.TranscoderTestCase):
    """Every test of the library's transcoder suite, none skipped."""

    def construct_transcoder(self) -> Transcoder:
        return make_transcoder()


def library_json() -> JSONTranscoder:
    t = JSONTranscoder()
    for x in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO(), TupleAsList()):
        t.register(x)
    t.register(lib.CustomType1AsDict())
    t.register(lib.CustomType2AsDict())
    return t


SAMPLE: dict[str, Any] = {
    "timestamp": datetime(2026, 11, 29, 18, 0, 1, 123456, tzinfo=timezone.utc),
    "game": UUID("b2723fe2c01a40d2875ea3aac6a09ff5"),
    "amount": Decimal("12.50"),
    "pair": (1, "a"),
    "nested": {"list": [1, 2, {"id": UUID(int=7)}], "n": None, "ok": True, "f": 1.5},
    "custom": lib.CustomType2(lib.CustomType1(UUID(int=9))),
    "text": "Annette 🐈",
}


def test_reads_what_json_transcoder_wrote() -> None:
    """Same wire format: data written by either transcoder decodes with the other."""
    ours, theirs = make_transcoder(), library_json()
    # JSONTranscoder itself writes tuples as plain lists (json never calls `default`).
    no_tuple = {k: v for k, v in SAMPLE.items() if k != "pair"}
    assert ours.decode(theirs.encode(no_tuple)) == no_tuple
    assert theirs.decode(ours.encode(SAMPLE)) == SAMPLE
    assert ours.decode(ours.encode(SAMPLE)) == SAMPLE


def test_types_survive() -> None:
    out = make_transcoder().decode(make_transcoder().encode(SAMPLE))
    assert type(out["game"]) is UUID
    assert type(out["timestamp"]) is datetime
    assert type(out["amount"]) is Decimal
    assert type(out["pair"]) is tuple
    assert type(out["nested"]["list"][2]["id"]) is UUID


def test_json_native_payload_is_untouched() -> None:
    """Heirloom's payloads are JSON-native: plain bytes out, same object back."""
    payload = {"seat": 0, "move": {"type": "place", "where": [1, 2]}, "facts": [{"type": "x"}]}
    t = make_transcoder()
    data = t.encode(payload)
    assert data == b'{"seat":0,"move":{"type":"place","where":[1,2]},"facts":[{"type":"x"}]}'
    assert t.decode(data) == payload


def test_input_is_not_mutated() -> None:
    payload = {"a": [(1, 2)], "b": uuid4()}
    before = repr(payload)
    make_transcoder().encode(payload)
    assert repr(payload) == before


@dataclass(frozen=True)
class Seat:
    """A project-style value object (a dataclass): kept through a registered transcoding."""

    number: int


class SeatAsInt(Transcoding):
    type = Seat
    name = "seat"

    def encode(self, obj: Seat) -> int:
        return obj.number

    def decode(self, data: int) -> Seat:
        return Seat(data)


def test_registered_dataclass_round_trips_and_unregistered_raises() -> None:
    t = make_transcoder()
    with pytest.raises(TypeError):
        t.encode({"s": Seat(1)})
    t.register(SeatAsInt())
    assert t.decode(t.encode({"s": Seat(1)})) == {"s": Seat(1)}


def test_domain_event_through_mapper() -> None:
    mapper: Mapper[UUID] = Mapper(transcoder=make_transcoder())
    event = DomainEvent(
        originator_id=uuid4(), originator_version=3, timestamp=DomainEvent.create_timestamp()
    )
    copy = mapper.to_domain_event(mapper.to_stored_event(event))
    assert copy == event


def test_marker_in_a_string_or_plain_key_does_not_hide_later_tags() -> None:
    """decode() stops walking after the last tag; decoys must not make it stop early."""
    t = make_transcoder()
    obj = {"a": "_type_", "b": {"_type_": 1, "x": 2}, "c": [{"d": UUID(int=5)}], "e": (1,)}
    assert t.decode(t.encode(obj)) == obj
