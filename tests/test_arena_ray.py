"""``piquet arena --ray``: the same mirrored deals played as Ray tasks give the same results, deal
for deal, as the process pool for the same seed; here on a local Ray the test starts."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from piquet.measure import arena
from piquet.measure.sprt import Sprt

pytestmark = pytest.mark.research

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    from piquet.measure.arena_ray import _runtime_env

    ray.init(num_cpus=2, include_dashboard=False, runtime_env=_runtime_env("local"), log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_plays_the_same_deals_as_the_process_pool(local_ray: Any) -> None:
    agents, count, seed = ["level1", "level2"], 6, 3
    pool = arena.run_arena(agents, count, seed=seed, jobs=2)
    on_ray = arena.run_arena(agents, count, seed=seed, ray="local")
    assert on_ray.pairs[0].samples == pool.pairs[0].samples  # every deal, game by game
    assert on_ray.to_json() == pool.to_json()
    assert local_ray.is_initialized()  # a Ray the caller started is left running


def test_the_workers_play_with_the_driver_s_piquet(local_ray: Any) -> None:
    """On a local Ray the workers import the package from where this process did (not another
    copy installed elsewhere): the code that plays is the code under test."""
    import piquet

    def _package_file() -> str:  # sent by value: the workers cannot import this test module
        import piquet

        return str(piquet.__file__)

    where = local_ray.get(local_ray.remote(_package_file).remote())
    assert where == piquet.__file__


def test_ray_plays_a_shard_and_stops_a_sequential_test_where_the_pool_does(local_ray: Any) -> None:
    shard = arena.run_arena(["random", "simple"], 9, seed=4, shard=(1, 3), ray="local")
    assert [s.index for s in shard.pairs[0].samples] == [1, 4, 7]
    assert shard.pairs[0].samples == arena.run_arena(["random", "simple"], 9, seed=4, shard=(1, 3)).pairs[0].samples
    test = Sprt(0.0, 2.0)
    on_ray = arena.run_arena(["simple", "random"], 60, seed=4, sprt=test, ray="local")
    here = arena.run_arena(["simple", "random"], 60, seed=4, sprt=test, jobs=1)
    assert on_ray.sprt == here.sprt and on_ray.sprt is not None and on_ray.sprt.decision == "H1"
    assert on_ray.pairs[0].samples == here.pairs[0].samples


def test_an_address_where_nothing_answers_fails_at_once_naming_it() -> None:
    from piquet.measure.arena_ray import RayUnreachableError, _check_reachable

    with socket.socket() as s:  # a port bound but not listening: nothing answers
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
            with pytest.raises(RayUnreachableError, match=f"cannot join the Ray cluster at '{address}'"):
                _check_reachable(address)
    with pytest.raises(RayUnreachableError, match="--ray takes auto, HOST:PORT"):
        _check_reachable("somewhere")
