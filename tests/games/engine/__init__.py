"""The engines of the tests' games: each subpackage is one, as in ``engine/``."""
