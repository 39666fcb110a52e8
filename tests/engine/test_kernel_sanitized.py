"""Both kernels built with AddressSanitizer and UndefinedBehaviorSanitizer and fed the boundary fuzz's inputs
(malformed and intact) and the differential comparison, in a child process (tests/engine/sanitized_kernels.py).

Any read or write out of bounds, use of freed memory, signed overflow, shift past a mask's width or other
undefined behaviour ends the child with the sanitizer's report, and the test fails with it. Where no C compiler
(or no sanitizer runtime) exists the test skips and says so. A few seconds: it runs on every scripts/test.sh.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.engine.test_kernel_built import c_compiler

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=undefined",
    "-fno-omit-frame-pointer",
    "-g",
    "-O1",
]
SOURCES = {
    "king": ["engine/king/ai/csrc/module.c", "engine/king/ai/csrc/king.c"],
    "konchinka": ["engine/konchinka/ai/csrc/module.c", "engine/konchinka/ai/csrc/konchinka.c"],
}


def build_sanitized(compiler: str, out: Path) -> None:
    """Both kernels, compiled as pyproject.toml compiles them plus the sanitizers, into ``out/<game>/``."""
    include = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for game, sources in SOURCES.items():
        (out / game).mkdir(parents=True)
        command = [
            compiler,
            "-shared",
            "-fPIC",
            "-std=c11",
            "-ffp-contract=off",
            "-fno-fast-math",
            *SANITIZE,
            f"-I{include}",
            f"-I{ROOT / 'engine/ai/csrc'}",
            *(str(ROOT / s) for s in sources),
            "-lm",
            "-o",
            str(out / game / f"_kernel{suffix}"),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, f"the sanitized build of {game} failed:\n{done.stderr[-3000:]}"


def asan_runtime(compiler: str) -> str | None:
    """The compiler's AddressSanitizer runtime (preloaded: python itself is not built with it), or None."""
    found = subprocess.run(
        [compiler, "-print-file-name=libasan.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return found if os.path.isabs(found) and os.path.exists(found) else None


def test_the_kernels_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("no C compiler on PATH: the sanitizer build of the kernels is not run here")
    runtime = asan_runtime(compiler)
    if runtime is None:
        pytest.skip(
            f"{compiler} has no AddressSanitizer runtime (libasan.so): the sanitizer build is not run here"
        )
    build_sanitized(compiler, tmp_path)
    env = {
        **os.environ,
        "LD_PRELOAD": runtime,
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=97",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=98",
        "PYTHONMALLOC": "malloc",  # every allocation through the sanitizer's malloc, checked alike
    }
    env.pop("CARDBOT_PURE_PYTHON", None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.sanitized_kernels", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, f"exit {done.returncode}:\n{done.stderr[-6000:]}"
    assert "compared with Python" in done.stdout and "deal tables" in done.stdout
