"""Heirloom's write side: the pure game kernel, the games, the service and the event store."""
