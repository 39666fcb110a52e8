"""What an operator installs: the container's recipe, the documented settings, and the package as a wheel.

No Docker engine runs here, so the Dockerfile is read for the properties that matter (a pinned base, dependencies
in their own layer, a non-root user, a volume, a health check); the wheel is built and installed (not editable)
into a fresh environment and ``python -m bot check`` runs from it against the fake Bot API.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from bot.settings import ExitCode, Settings
from bot.views.sheets.text import EMOJI_FONTS
from tests.fakebot import FakeTelegram
from tests.tiers import FULL

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, args = line.partition(" ")
            out.append((keyword.upper(), args.strip()))
    return out


def test_the_base_image_is_pinned_to_an_exact_release() -> None:
    args = dict(a.split("=", 1) for k, a in instructions() if k == "ARG" and "=" in a)
    bases = [a.split()[0] for k, a in instructions() if k == "FROM"]
    assert bases
    for base in bases:
        image = args.get(base.strip("${}"), base)
        assert re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?(@sha256:[0-9a-f]{64})?", image), image


def test_dependencies_are_installed_before_the_code_is_copied() -> None:
    runtime = instructions()
    runtime = runtime[max(i for i, (k, _) in enumerate(runtime) if k == "FROM") :]
    steps = [f"{k} {a}" for k, a in runtime]
    deps = next(i for i, s in enumerate(steps) if s.startswith("RUN") and "requirements" in s)
    assert any(s.startswith("COPY pyproject.toml") for s in steps[:deps])
    assert not any(s.startswith("COPY") and ("bot" in s.split() or "--from" in s) for s in steps[:deps])
    assert any(s.startswith("RUN pip install --no-deps") for s in steps[deps:])
    assert "-e " not in DOCKERFILE.replace("--", "")  # a real install, not an editable one


def test_the_container_runs_as_a_user_with_its_database_on_a_volume_and_a_health_check() -> None:
    steps = instructions()
    users = [a for k, a in steps if k == "USER"]
    assert users and users[-1] not in ("root", "0")
    volumes = " ".join(a for k, a in steps if k == "VOLUME")
    database = next(a for k, a in steps if k == "ENV" and "DATABASE_PATH=" in a)
    path = re.search(r"DATABASE_PATH=(\S+)", database)
    assert path is not None
    assert any(path.group(1).startswith(v.strip('[]" ') + "/") for v in volumes.split(","))
    health = [a for k, a in steps if k == "HEALTHCHECK"]
    # The running bot's /healthz, asked by a bare interpreter: not a second bot process doing real work.
    assert health and health[0].endswith('CMD ["python", "-I", "-m", "bot.healthcheck"]'), health
    assert any(k == "ENV" and re.search(r"\bMETRICS_PORT=\d+", a) for k, a in steps)
    exposed = " ".join(a for k, a in steps if k == "EXPOSE").split()
    metrics_port = next(
        re.search(r"\bMETRICS_PORT=(\d+)", a) for k, a in steps if k == "ENV" and "METRICS_PORT=" in a
    )
    assert metrics_port is not None
    assert exposed == [str(Settings.model_fields["webhook_port"].default), metrics_port.group(1)]


def test_compose_reads_dot_env_and_keeps_the_database_on_a_named_volume() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^\s+env_file: \.env$", compose, re.M)
    assert re.search(r"^\s+- cardbot-data:/data$", compose, re.M)
    assert re.search(r"^\s+restart: unless-stopped$", compose, re.M)
    # The image names the commit it was built from (the Dockerfile's COMMIT argument), as a checkout does.
    assert re.search(r"^\s+COMMIT: \$\{COMMIT:-\}", compose, re.M) and "ARG COMMIT=" in DOCKERFILE
    # Backups on a volume of their own, rotated, without the token.
    backup = compose.split("\n  backup:\n", 1)[1].split("\nvolumes:", 1)[0]
    assert re.search(r"^\s+- cardbot-backups:/backups$", backup, re.M)
    assert "python -m bot backup /backups/" in backup and "--keep " in backup
    assert "env_file" not in backup


# --- the dependency lock ---------------------------------------------------------------------------------


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """A pip-compile lock's pins: name -> (version, number of hashes)."""
    found = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", (ROOT / lock).read_text(encoding="utf-8")):
        head = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", block)
        if head:
            found[canonical(head.group(1))] = (
                head.group(2),
                len(re.findall(r"--hash=sha256:[0-9a-f]{64}", block)),
            )
    return found


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_dockerfile_installs_exactly_the_lock_with_its_hashes() -> None:
    runtime = instructions()
    runtime = runtime[max(i for i, (k, _) in enumerate(runtime) if k == "FROM") :]
    copies = [a for k, a in runtime if k == "COPY" and "requirements.lock" in a.split()]
    assert copies, "the lock is not copied into the image"
    installs = [a for k, a in runtime if k == "RUN" and "pip install" in a and "requirements" in a]
    assert len(installs) == 1
    assert re.search(r"pip install --require-hashes --no-deps -r /tmp/requirements\.lock\b", installs[0])
    assert "pip check" in installs[0]
    dockerignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert "!requirements.lock" in dockerignore and ".env" in dockerignore and ".venv" in dockerignore


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_the_lock_pins_every_dependency_inside_its_range_with_hashes(lock: str) -> None:
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    if lock == "requirements-dev.lock":
        wanted += [Requirement(r) for r in project["optional-dependencies"]["dev"]]
    pinned = pins(lock)
    for requirement in wanted:
        version = pinned[canonical(requirement.name)][0]
        assert requirement.specifier.contains(version, prereleases=True), (requirement, version)
    assert all(hashes > 0 for _, hashes in pinned.values())
    runtime = pins("requirements.lock")
    assert {name: pinned[name] for name in runtime} == runtime  # CI tests the versions the image runs


def test_the_top_level_holds_the_projects_own_entries_and_nothing_else() -> None:
    """The card's entries (pyproject.toml, bot/, engine/, locales/, tests/, Dockerfile), the README, the
    CHANGELOG, scripts/, docs/, deploy/ (systemd, Prometheus, Grafana), compose.yaml, .env.example and dotfiles:
    what git tracks at the root, nothing more."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    top = {path.split("/", 1)[0] for path in tracked} - {name for name in tracked if name.startswith(".")}
    top = {name for name in top if not name.startswith(".")}
    card = {"pyproject.toml", "bot", "engine", "locales", "tests", "Dockerfile"}
    locks = {"requirements.lock", "requirements-dev.lock"}
    assert top == card | locks | {"README.md", "CHANGELOG.md", "scripts", "docs", "deploy", "compose.yaml"}, (
        top
    )


def test_setuptools_finds_every_package_of_bot_and_engine_and_every_folder_of_texts() -> None:
    """pyproject.toml names no package: setuptools discovery finds each folder of code (a new game's included) and,
    through the link bot/locales -> ../locales, each locale and each game's folder of texts."""
    from setuptools.discovery import PEP420PackageFinder

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert list(config["packages"]) == ["find"] and "package-dir" not in config
    found = set(PEP420PackageFinder.find(str(ROOT), **config["packages"]["find"]))
    code = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("bot", "engine")
        for path in (ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    texts = {
        ".".join(("bot", *path.parent.relative_to(ROOT).parts)) for path in (ROOT / "locales").rglob("*.ftl")
    }
    assert (ROOT / "bot" / "locales").resolve() == (ROOT / "locales").resolve()
    assert code | texts <= found, sorted(code | texts - found)
    assert {f"bot.locales.{lang}.{game}" for lang in ("ru", "en") for game in ("konchinka", "king")} <= texts
    assert not [name for name in found if name.endswith(".csrc")]
    assert config["package-data"]["bot.locales"] == ["**/*.ftl"]
    fonts = ROOT / "bot" / "views" / "sheets"
    shipped = [path for pattern in config["package-data"]["bot.views.sheets"] for path in fonts.glob(pattern)]
    assert sorted(path.name for path in shipped) == sorted(SHEET_FONT_FILES)


@pytest.mark.parametrize("document", ["README.md", ".env.example"])
def test_every_setting_is_documented(document: str) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    missing = [name.upper() for name in Settings.model_fields if not re.search(rf"\b{name.upper()}\b", text)]
    assert not missing, f"{document} does not mention {missing}"


def test_the_builder_stage_compiles_the_kernel_and_the_runtime_has_no_compiler() -> None:
    """The bot players' playout kernel is C: gcc in the build stage (which checks the wheel holds the kernel),
    none in the runtime stage, which installs the built wheel."""
    steps = instructions()
    start = max(i for i, (k, _) in enumerate(steps) if k == "FROM")
    build, runtime = steps[:start], steps[start:]
    assert any(k == "RUN" and "apt-get install" in a and "gcc" in a for k, a in build)
    assert any(k == "RUN" and "pip wheel" in a and "/ai/_kernel" in a for k, a in build)
    assert not any("gcc" in a or "build-essential" in a for _, a in runtime)


def test_the_runtime_installs_the_emoji_font_where_the_sheets_look_for_it() -> None:
    """Issue 48, item 4: a name's emoji drawn on the score sheet's picture in the image too — Debian's colour
    emoji font installed in the runtime stage, at the path the picture looks for."""
    steps = instructions()
    start = max(i for i, (k, _) in enumerate(steps) if k == "FROM")
    runtime = steps[start:]
    assert any(k == "RUN" and "apt-get install" in a and "fonts-noto-color-emoji" in a for k, a in runtime)
    assert "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf" in EMOJI_FONTS  # where that package puts it


def build_and_install(tmp_path: Path, **env: str) -> tuple[Path, str, Path]:
    """The wheel built as the Dockerfile builds it (``env`` added to the build's environment) and installed into a
    fresh environment: (its python, its site-packages, the wheel)."""
    # The files the Dockerfile copies, and only those (a build/ left in the checkout cannot leak in).
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    copied = [
        a.split()[0]
        for k, a in instructions()
        if k == "COPY" and a.split()[0] in ("bot", "engine", "locales")
    ]
    assert sorted(copied) == ["bot", "engine", "locales"], copied
    for package in copied:
        ignore = shutil.ignore_patterns("__pycache__", "*.so")  # a kernel built in place must not leak in
        shutil.copytree(ROOT / package, source / package, ignore=ignore)
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        env={**os.environ, **env},
    )
    (wheel,) = wheels.glob("cardbot-*.whl")
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    python = target / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The dependencies come from this environment (a path entry: its editable install of the project stays off).
    deps = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return python, site, wheel


def kernel_files(wheel: Path) -> list[str]:
    """The compiled kernels' files in the wheel (their type stubs aside)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    return [name for name in names if "/ai/_kernel" in name and not name.endswith(".pyi")]


KERNEL_CHECK = (
    "import random; from engine.ai import Level, choose_action; from engine.ai.players import bot_players; "
    "from engine.core import make_game; "
    "state = make_game('king', {}).new_initial_state(3); view = state.view(state.current_player); "
    "choose_action(view, Level.HARD, random.Random(1)); "
    "print(*(f'{game}={p.backend}' for game, p in bot_players().items()))"
)
"""Each game's bot players, and which path their rollouts take (``game=backend``)."""
KERNELS = {path.parent.parent.name for path in ROOT.glob("engine/*/ai/csrc")}
"""Games with a compiled kernel (pyproject.toml builds one per folder)."""
WITH_PLAYERS = {path.parent.parent.name for path in ROOT.glob("engine/*/ai/__init__.py")} | {
    path.parent.name for path in ROOT.glob("engine/*/ai.py")
}
"""The project's games with bot players (``engine/<game>/ai``: each says which path its rollouts take)."""


def backends_of(check: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """``KERNEL_CHECK``'s answer: game → backend, for every game of the installed engine."""
    found = dict(pair.split("=") for pair in check.stdout.split())
    assert found.keys() == WITH_PLAYERS and KERNELS <= WITH_PLAYERS, (found, check.stderr)
    return found


SHEET_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE.txt")
SHEET_CHECK = (
    "import sys; from bot.views.sheets import TallyDeal, TallySheet, draw; from bot.views.sheets import text; "
    "png = draw(TallySheet('Кончинка', '', ('Аня', 'אברהם'), (TallyDeal(1, (3, 0), (3, 0)),), 15)); "
    "print(png.startswith(bytes([137, 80, 78, 71])), str(text.FONT_DIR).startswith(sys.prefix))"
)
"""A score sheet drawn by the installed package, in the font the wheel carries."""
CHECK_THEN_SHEET = (
    "import runpy, sys\n"
    "sys.argv = ['-m', 'check']\n"
    "try:\n"
    "    runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
    "    code = 0\n"
    "except SystemExit as exit:\n"
    "    code = exit.code\n"
    "print('sheet:', end=' ')\n"
    f"{SHEET_CHECK}\n"
    "sys.exit(code)\n"
)
"""``python -m bot check`` as ``-m`` runs it (first thing in the interpreter), then, once it has ended, the sheet
drawn in the same interpreter (its last line, ``sheet: True True``): one interpreter importing aiogram, not two
(~4.5 CPU-s less)."""


@pytest.mark.slow
async def test_the_installed_wheel_finds_its_texts_and_passes_check(tmp_path: Path) -> None:
    """Built and installed as the Dockerfile does it; run outside the source tree, it must not need it."""
    python, site, wheel = build_and_install(tmp_path)
    assert [name.endswith(".so") for name in kernel_files(wheel)] == [True] * len(KERNELS), (
        "the wheel ships the kernels"
    )
    backend = subprocess.run(
        [str(python), "-c", KERNEL_CHECK], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    backends = backends_of(backend)
    assert backends == {game: "c" if game in KERNELS else "python" for game in backends}
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    assert {f"bot/views/sheets/fonts/{n}" for n in SHEET_FONT_FILES} <= shipped, (
        "the sheet's font and licence"
    )
    tg = FakeTelegram()
    await tg.start()
    try:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("BOT_", "TELEGRAM_", "DATABASE_", "PYTHON"))
        }
        env.update(
            BOT_TOKEN=tg.token, TELEGRAM_API_URL=tg.base_url, DATABASE_PATH=str(tmp_path / "bot.sqlite3")
        )
        where = await asyncio.create_subprocess_exec(
            str(python),
            "-c",
            "import bot, engine; print(bot.__file__); print(engine.__file__)",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await where.communicate()
        assert all(line.startswith(site) for line in out.decode().split()), out
        migrate = await asyncio.create_subprocess_exec(
            str(python), "-m", "bot", "migrate", cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE
        )
        await asyncio.wait_for(migrate.communicate(), 120)
        assert migrate.returncode == ExitCode.OK
        check = await asyncio.create_subprocess_exec(
            str(python),
            "-c",
            CHECK_THEN_SHEET,
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(check.communicate(), 120)
    finally:
        await tg.stop()
    assert check.returncode == ExitCode.OK, err.decode()
    *lines, drawn = out.decode().splitlines()
    assert drawn.split() == ["sheet:", "True", "True"], err.decode()
    assert lines[1].startswith("texts: ok") and "ru: 0" not in lines[1] and "en: 0" not in lines[1]
    assert lines[-1].startswith(f"telegram: ok (@{tg.bot_username}")


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="downloads every dependency: the slow tier only (FULL_TESTS=1)")
def test_the_lock_installs_with_pip_into_a_fresh_environment(tmp_path: Path) -> None:
    """What the Dockerfile's dependency layer does, on this machine's Python: every file's hash must match."""
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    python = str(target / "bin" / "python")
    lock = str(ROOT / "requirements.lock")
    install = [python, "-m", "pip", "install", "--quiet", "--require-hashes", "--no-deps", "-r", lock]
    subprocess.run(install, check=True, capture_output=True, timeout=900)
    subprocess.run([python, "-m", "pip", "check"], check=True, capture_output=True, timeout=120)
    imports = (
        "import aiogram, aiohttp, aiosqlite, prometheus_client, pydantic, pydantic_settings, rapidfuzz, PIL"
    )
    subprocess.run([python, "-c", imports], check=True, capture_output=True, timeout=120)


@pytest.mark.long
def test_without_a_c_compiler_the_wheel_still_builds_and_the_bot_players_think_in_python(
    tmp_path: Path,
) -> None:
    """``optional`` extension: a failing compiler leaves the kernel out, and the installed bot players fall back
    to the pure-Python path."""
    python, _, wheel = build_and_install(tmp_path, CC="false", LDSHARED="false")
    assert kernel_files(wheel) == []
    backend = subprocess.run(
        [str(python), "-c", KERNEL_CHECK], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert set(backends_of(backend).values()) == {"python"}
