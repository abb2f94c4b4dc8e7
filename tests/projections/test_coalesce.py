"""One flush writes each key of the read side once (projections/views.py `coalesce`): the
repeats on a key merge, in order, and nothing changes what the commands leave in Redis."""

from __future__ import annotations

import redis

from projections.views import coalesce


def test_repeats_on_a_key_merge_and_keep_their_order():
    commands = [
        ["HSET", "moves", 2, "a"], ["RPUSH", "eff", 2], ["SET", "status", "s2"],
        ["HSET", "moves", 3, "b"], ["RPUSH", "eff", 3], ["SET", "status", "s3"],
        ["RPUSH", "history", "h2"], ["RPUSH", "history", "h3"],
    ]
    assert coalesce(commands) == [
        ["HSET", "moves", 2, "a", 3, "b"], ["RPUSH", "eff", 2, 3], ["SET", "status", "s3"],
        ["RPUSH", "history", "h2", "h3"],
    ]


def test_a_different_command_on_the_key_in_between_stops_the_merge():
    commands = [["RPUSH", "eff", 2], ["LTRIM", "eff", 0, 0], ["RPUSH", "eff", 3],
                ["SET", "k", "1"], ["DEL", "k", "other"], ["SET", "k", "2"],
                ["SET", "ex", "1", "PX", "10"], ["SET", "ex", "2"]]
    assert coalesce(commands) == commands


def test_the_merged_commands_leave_what_the_commands_one_by_one_leave(redis_client, key_prefix):
    keys = {name: f"{key_prefix}:{name}" for name in ("moves", "eff", "status", "history")}
    commands = []
    for version in range(2, 12):
        commands += [["HSET", keys["moves"], version, f"entry {version}"], ["RPUSH", keys["eff"], version],
                     ["SET", keys["status"], f"at {version}"], ["RPUSH", keys["history"], f"h{version}"]]
        if version == 7:
            commands.append(["LTRIM", keys["eff"], 0, 2])  # an undo in the middle of the page
            commands.append(["HSET", keys["moves"], 3, "rewritten"])

    def state() -> tuple:
        return (redis_client.hgetall(keys["moves"]), redis_client.lrange(keys["eff"], 0, -1),
                redis_client.get(keys["status"]), redis_client.lrange(keys["history"], 0, -1))

    for command in commands:
        redis_client.execute_command(*command)
    one_by_one = state()
    redis_client.delete(*keys.values())
    merged = coalesce(commands)
    assert len(merged) < len(commands) / 3
    for command in merged:
        redis_client.execute_command(*command)
    assert state() == one_by_one
    redis_client.delete(*keys.values())
