"""An orjson transcoder for eventsourcing, wire-compatible with the library's JSONTranscoder.

Values that JSON has no type for are written the way ``JSONTranscoder`` writes them,
``{"_type_": <transcoding name>, "_data_": <encoded value>}``, so stored events can be
read back by either transcoder. Out of the box it keeps UUID (``uuid_hex``), Decimal
(``decimal_str``), datetime (``datetime_iso``) and tuples (``tuple_as_list``), which
JSONTranscoder turns into lists. Other types (the application's own value objects,
dataclasses, subclasses of str/int/dict/list) work once a ``Transcoding`` is registered,
exactly as with JSONTranscoder; an unregistered type raises ``TypeError``.

It subclasses JSONTranscoder so that ``Application.register_transcodings()`` is called
with it. Heirloom's stored payloads are JSON-native, so the common path is a single
``orjson.dumps`` after a shallow type walk, and a single ``orjson.loads`` when the bytes
contain no ``"_type_"`` marker.
"""

from __future__ import annotations

from datetime import datetime
from collections.abc import Callable
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    Transcoding,
    TranscodingNotRegisteredError,
    UUIDAsHex,
)

_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
)
# Types orjson writes natively without losing their type on the way back.
_PLAIN = frozenset((str, int, float, bool, type(None)))
_MARKER = b'"_type_"'


def _prepare(o: Any, tag: Callable[[Any], Any]) -> Any:
    """Return `o`, or a copy with tuples, UUIDs and datetimes replaced by tag(value).

    Containers without such values are returned as they are (no copy). Other types are
    left for orjson, which hands them to the transcoder's `default`.
    """
    t = type(o)
    if t is dict:
        new = None
        for k, v in o.items():
            tv = type(v)
            if tv is str or tv is int or tv is bool or v is None or tv is float:
                continue
            pv = _prepare(v, tag)
            if pv is not v:
                if new is None:
                    new = dict(o)
                new[k] = pv
        return o if new is None else new
    if t is list:
        new_list = None
        for i, v in enumerate(o):
            tv = type(v)
            if tv is str or tv is int or tv is bool or v is None or tv is float:
                continue
            pv = _prepare(v, tag)
            if pv is not v:
                if new_list is None:
                    new_list = list(o)
                new_list[i] = pv
        return o if new_list is None else new_list
    if t is tuple or t is UUID or t is datetime:
        return tag(o)
    return o


class TupleAsList(Transcoding):
    """Tuples as JSON arrays, tagged so they come back as tuples."""

    type = tuple
    name = "tuple_as_list"

    def encode(self, obj: tuple[Any, ...]) -> list[Any]:
        return list(obj)

    def decode(self, data: list[Any]) -> tuple[Any, ...]:
        return tuple(data)


class OrjsonTranscoder(JSONTranscoder):
    """Transcoder using orjson; registered transcodings work as with JSONTranscoder."""

    def __init__(self) -> None:
        super().__init__()
        self.register(UUIDAsHex())
        self.register(DecimalAsStr())
        self.register(DatetimeAsISO())
        self.register(TupleAsList())

    # ------------------------------------------------------------------ encode
    def encode(self, obj: Any) -> bytes:
        try:
            return orjson.dumps(self._prepare(obj), default=self._default, option=_OPTIONS)
        except orjson.JSONEncodeError as e:
            # orjson wraps what `default` raised; give callers the library's error.
            if isinstance(e.__cause__, TypeError):
                raise e.__cause__ from None
            raise

    def _tag(self, o: Any) -> dict[str, Any]:
        try:
            transcoding = self.types[type(o)]
        except KeyError:
            msg = (
                f"Object of type {type(o)} is not "
                "serializable. Please define and register "
                "a custom transcoding for this type."
            )
            raise TranscodingNotRegisteredError(msg) from None
        return {"_type_": transcoding.name, "_data_": self._prepare(transcoding.encode(o))}

    def _default(self, o: Any) -> Any:
        # orjson hands over what it cannot or must not write itself: Decimal,
        # datetime, dataclasses, subclasses of builtins, and unknown types.
        return self._tag(o)

    def _prepare(self, o: Any) -> Any:
        """Copy-on-write walk that tags the values orjson would write lossily (tuple, UUID)."""
        return _prepare(o, self._tag)

    # ------------------------------------------------------------------ decode
    def decode(self, data: bytes) -> Any:
        obj = orjson.loads(data)
        tags = data.count(_MARKER)
        if not tags:
            return obj
        # Walk until every tag has been seen; the usual event has one (its timestamp,
        # the first key), so the walk stops almost at once.
        return self._restore(obj, [tags])

    def _restore(self, o: Any, left: list[int]) -> Any:
        """Replace tagged dicts; `left` counts the "_type_" keys not yet seen."""
        t = type(o)
        if t is dict:
            if len(o) == 2 and "_type_" in o and "_data_" in o:
                left[0] -= 1
                name = o["_type_"]
                try:
                    transcoding = self.names[cast("str", name)]
                except (KeyError, TypeError):
                    if type(name) is str:
                        msg = (
                            f"Data serialized with name '{name}' is not "
                            "deserializable. Please register a "
                            "custom transcoding for this type."
                        )
                        raise TranscodingNotRegisteredError(msg) from None
                else:
                    return transcoding.decode(self._restore(o["_data_"], left))
            elif "_type_" in o:
                left[0] -= 1  # a plain dict that merely has a "_type_" key
            for k, v in o.items():
                if left[0] <= 0:
                    break
                if type(v) is dict or type(v) is list:
                    o[k] = self._restore(v, left)
            return o
        if t is list:
            for i, v in enumerate(o):
                if left[0] <= 0:
                    break
                if type(v) is dict or type(v) is list:
                    o[i] = self._restore(v, left)
            return o
        return o
