"""The fork server's children are what ``python -m MODULE`` would be, as far as a test can tell: each probe runs
once fresh and once forked, and both must report the same argv, working directory, environment, path, main
module, process group, signal handlers, stdio and exit code."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.forkserver import (
    PIPE,
    WORKER_PYTHON,
    ForkedProcess,
    ForkServer,
    Process,
    sigint_by_default,
)

Ran = tuple[int, dict[str, object], str]


def probe_env(forkserver: ForkServer, **extra: str) -> dict[str, str]:
    return {**forkserver.env, "PROBE_WORD": "слово", "PROBE_PGID": str(os.getpgid(0)), **extra}


async def fresh(env: dict[str, str], cwd: Path, stdin: Path, *args: str) -> Process:
    with stdin.open("rb") as file:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.forkserver.probe", *args, cwd=cwd, env=env, stdin=file, stdout=PIPE,
            stderr=PIPE, preexec_fn=sigint_by_default,
        )  # fmt: skip


async def forked(forkserver: ForkServer, env: dict[str, str], cwd: Path, stdin: Path, *args: str) -> Process:
    with stdin.open("rb") as file:
        process = await forkserver.spawn(
            "tests.forkserver.probe", *args, env=env, cwd=cwd, stdin=file, stdout=PIPE, stderr=PIPE
        )
    assert isinstance(process, ForkedProcess)
    return process


async def finish(process: Process) -> Ran:
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, json.loads(out.decode().splitlines()[0]), err.decode()


@pytest.fixture
def stdin(tmp_path: Path) -> Path:
    path = tmp_path / "stdin.txt"
    path.write_text("what the child reads", encoding="utf-8")
    return path


@pytest.mark.parametrize("unbuffered", ["1", ""])
async def test_a_forked_child_starts_as_a_fresh_interpreter_would(
    forkserver: ForkServer, tmp_path: Path, stdin: Path, unbuffered: str
) -> None:
    env = probe_env(forkserver, PYTHONUNBUFFERED=unbuffered)
    one = await finish(await fresh(env, tmp_path, stdin, "3", "more"))
    two = await finish(await forked(forkserver, env, tmp_path, stdin, "3", "more"))
    assert one == two
    code, looks, err = two
    assert code == 3 and err == "to stderr\n"
    assert looks["cwd"] == str(tmp_path) and looks["stdin"] == "what the child reads"
    assert looks["env"] == {"PROBE_WORD": "слово", "PROBE_PGID": str(os.getpgid(0))}
    assert looks["main"] == ["__main__", "tests.forkserver.probe"]
    assert looks["pgid_is_parents"] is True
    assert looks["stdout"][:2] == [False, bool(unbuffered)]  # type: ignore[index]


async def test_an_uncaught_exception_prints_its_traceback_and_exits_1(
    forkserver: ForkServer, tmp_path: Path, stdin: Path
) -> None:
    env = probe_env(forkserver)
    for process in (
        await fresh(env, tmp_path, stdin, "raise"),
        await forked(forkserver, env, tmp_path, stdin, "raise"),
    ):
        code, _, err = await finish(process)
        assert code == 1
        assert "Traceback (most recent call last)" in err and err.endswith("ValueError: probe\n")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
async def test_signals_end_a_forked_child_as_a_fresh_one(
    forkserver: ForkServer, tmp_path: Path, stdin: Path, signum: signal.Signals
) -> None:
    """SIGTERM and SIGKILL kill it; SIGINT raises KeyboardInterrupt, which ends it by SIGINT, after a traceback."""
    env = probe_env(forkserver)
    results = []
    for process in (
        await fresh(env, tmp_path, stdin, "wait"),
        await forked(forkserver, env, tmp_path, stdin, "wait"),
    ):
        assert process.stdout is not None
        first = await asyncio.wait_for(process.stdout.readline(), 60)
        process.send_signal(signum)
        rest, err = await asyncio.wait_for(process.communicate(), 60)
        assert rest == b""
        results.append(
            (process.returncode, json.loads(first)["signals"], "KeyboardInterrupt" in err.decode())
        )
    assert results[0] == results[1]
    assert results[1][0] == -signum
    assert results[1][2] is (signum == signal.SIGINT)


async def test_what_a_fork_cannot_reproduce_starts_a_fresh_interpreter(
    forkserver: ForkServer, tmp_path: Path, stdin: Path
) -> None:
    env = probe_env(forkserver, PYTHONHASHSEED="7")
    assert not forkserver.forks(env)
    with stdin.open("rb") as file:
        process = await forkserver.spawn(
            "tests.forkserver.probe", "0", env=env, cwd=tmp_path, stdin=file, stdout=PIPE, stderr=PIPE
        )
    assert not isinstance(process, ForkedProcess)
    assert (await finish(process))[0] == 0


async def test_closing_the_server_kills_the_children_still_running(tmp_path: Path, stdin: Path) -> None:
    server = ForkServer(tmp_path, modules=())
    server.start()
    try:
        process = await forked(server, probe_env(server), tmp_path, stdin, "wait")
        assert process.stdout is not None
        await asyncio.wait_for(process.stdout.readline(), 60)
    finally:
        server.close()
    assert await asyncio.wait_for(process.wait(), 10) == -signal.SIGKILL


WORKER_CODE = "import sys; line = sys.stdin.readline(); sys.stdout.write(line.upper()); sys.exit(3)"


async def test_an_xdist_worker_python_runs_its_code_on_its_own_pipes_and_exits_as_the_child(
    forkserver: ForkServer, tmp_path: Path
) -> None:
    """``python.py`` as execnet starts it (``python.py SOCKET -u -c CODE``): the child reads the client's stdin,
    writes its stdout, and the client exits with the child's code; options it cannot pass on are refused."""
    client = [sys.executable, "-I", "-S", str(WORKER_PYTHON), forkserver.path, "-u", "-c"]
    process = await asyncio.create_subprocess_exec(
        *client, WORKER_CODE, cwd=tmp_path, stdin=PIPE, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(process.communicate("привет\n".encode()), 30)
    assert (process.returncode, out.decode()) == (3, "ПРИВЕТ\n"), err.decode()

    refused = await asyncio.create_subprocess_exec(*client[:-1], "-X", "dev", "-c", "pass", stderr=PIPE)
    _, err = await refused.communicate()
    assert refused.returncode == 2 and b"only -u, -B and -c CODE" in err


def test_this_worker_was_forked_from_the_fork_server(request: pytest.FixtureRequest) -> None:
    """Under ``scripts/test.sh`` each xdist worker is a child of the fork server (``tests/conftest.py``)."""
    if not hasattr(request.config, "workerinput") or not Path("/proc").is_dir():
        pytest.skip("an xdist worker on Linux only (scripts/test.sh)")
    parent = Path(f"/proc/{os.getppid()}/cmdline").read_bytes().split(b"\0")
    assert any(part.endswith(b"tests/forkserver/server.py") for part in parent), parent
    assert sys.argv[0] == "-c"


async def test_a_server_that_cannot_start_says_so_and_a_worker_runs_fresh_instead(tmp_path: Path) -> None:
    """A server whose imports fail writes why beside its socket: an attaching client fails at once, and
    ``python.py`` becomes a fresh interpreter (so pytest's own collection shows the error), not a 120 s wait."""
    broken = ForkServer(tmp_path, modules=["tests.forkserver.no_such_module"])
    broken.start(wait=False)
    try:
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="no_such_module"):
            await asyncio.to_thread(ForkServer.attach, broken.path)
        client = [sys.executable, "-I", "-S", str(WORKER_PYTHON), broken.path, "-u", "-c", WORKER_CODE]
        process = await asyncio.create_subprocess_exec(
            *client, cwd=tmp_path, stdin=PIPE, stdout=PIPE, stderr=PIPE
        )
        out, err = await asyncio.wait_for(process.communicate("ещё\n".encode()), 30)
        assert (process.returncode, out.decode()) == (3, "ЕЩЁ\n"), err.decode()
        assert time.monotonic() - started < 30
    finally:
        broken.close()
