from tests.games.my_fathers_work.helpers import fx  # noqa: F401  (the fixture)
