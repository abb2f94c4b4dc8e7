"""A real local Redis Cluster for tests: 3 masters and 3 replicas from the `redis-server` binary.

Each node runs in its own folder under a temporary directory, on free loopback ports, with
`appendonly yes`; `redis-cli --cluster create` joins them. Tests use it to run the event
store's conformance suites on a cluster and to kill a master mid-stream (failover).
Nothing here is faked: these are six real `redis-server` processes, stopped afterwards.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"


def free_ports(count: int) -> list[int]:
    """`count` loopback ports free now, each with its cluster bus port (+10000) free too."""
    ports: list[int] = []
    while len(ports) < count:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


@dataclass
class ClusterNode:
    port: int
    folder: str
    process: subprocess.Popen | None = None

    def start(self, appendfsync: str = "always") -> None:
        os.makedirs(self.folder, exist_ok=True)
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
             "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
             "--appendonly", "yes", "--appendfsync", appendfsync, "--save", "", "--dir", self.folder,
             "--logfile", os.path.join(self.folder, "redis.log"), "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, socket_connect_timeout=1)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final fsync, as a crash."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def role(self) -> str:
        return self.client().info("replication")["role"]


@dataclass
class LocalCluster:
    """A running local cluster; `url` names every node, as REDIS_URL does in cluster mode."""

    nodes: list[ClusterNode]
    folder: str
    owns_folder: bool = True
    _started: bool = field(default=False, repr=False)

    @property
    def url(self) -> str:
        return ",".join(f"redis://127.0.0.1:{n.port}" for n in self.nodes)

    def masters(self) -> list[ClusterNode]:
        return [n for n in self.nodes if n.alive() and n.role() == "master"]

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node reports cluster_state:ok and all slots are covered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                states = [n.client().cluster("info") for n in self.nodes if n.alive()]
                if states and all(s.get("cluster_state") == "ok" and int(s.get("cluster_slots_ok", 0)) == 16384
                                  for s in states):
                    return
            except redis.RedisError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"cluster in {self.folder} not ok within {timeout} s")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        if self.owns_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(masters: int = 3, replicas_per_master: int = 1, folder: str | None = None,
                  appendfsync: str = "always") -> LocalCluster:
    """Start and join a cluster; the caller stops it (`LocalCluster.stop`)."""
    owns = folder is None
    folder = folder or tempfile.mkdtemp(prefix="heirloom-cluster-")
    count = masters * (1 + replicas_per_master)
    nodes = [ClusterNode(port, os.path.join(folder, str(port))) for port in free_ports(count)]
    cluster = LocalCluster(nodes, folder, owns)
    try:
        for node in nodes:
            node.start(appendfsync)
        for node in nodes:
            _wait_ping(node)
        subprocess.run(
            [REDIS_CLI, "--cluster", "create", *[f"127.0.0.1:{n.port}" for n in nodes],
             "--cluster-replicas", str(replicas_per_master), "--cluster-yes"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        cluster.wait_ok()
        _wait_replicas_linked(cluster, masters * replicas_per_master)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _wait_ping(node: ClusterNode, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if node.client().ping():
                return
        except redis.RedisError:
            time.sleep(0.05)
    raise TimeoutError(f"redis-server on port {node.port} did not start")


def _wait_replicas_linked(cluster: LocalCluster, expected: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        linked = 0
        for node in cluster.nodes:
            info = node.client().info("replication")
            if info["role"] == "slave" and info.get("master_link_status") == "up":
                linked += 1
        if linked >= expected:
            return
        time.sleep(0.2)
    raise TimeoutError("replicas did not link to their masters")
