# syntax=docker/dockerfile:1
# The bot in a container. `docker compose up -d --build` with compose.yaml and a .env file (see .env.example), or:
#   docker build -t cardbot . && docker run -d --env-file .env -v cardbot-data:/data cardbot
# The base image is pinned to an exact release. Pin its digest too where you build: append the @sha256:... that
# `docker buildx imagetools inspect python:3.11.13-slim-bookworm` prints (README, «Upgrades»), e.g.
#   ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm@sha256:<64 hex digits>
# (not committed here: the machine this was written on has no Docker and no registry access to read it).
ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm

# --- build: the project's own wheel (locales and the compiled playout kernel ship inside it) ---------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for the bot players' playout kernels (engine/<game>/ai/csrc), here only: the runtime image gets the
# wheel, which must hold one kernel per such folder.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip wheel --no-deps --wheel-dir /wheels . \
    && test "$(python -m zipfile -l /wheels/*.whl | grep -c '/ai/_kernel[^ ]*[.]so')" -eq "$(ls -d engine/*/ai/csrc | wc -l)"

# --- runtime -------------------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH \
    DATABASE_PATH=/data/bot.sqlite3 \
    METRICS_PORT=9108 \
    METRICS_HOST=0.0.0.0
# /data (the database) and /backups (the backup service's copies) belong to the bot's user: a fresh named volume
# mounted on either takes the folder's owner, so the unprivileged user can write there
# (tests/bot/test_container_backup.py runs these commands and the backup's as that user).
# The colour emoji font the score sheet's pictures draw names' emoji with (bot/views/sheets/text.py EMOJI_FONTS):
# Debian's own package, as the picture looks for it; without it an emoji is drawn as a box.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin cardbot \
    && mkdir -p /data /backups && chown cardbot:cardbot /data /backups && chmod 0750 /data /backups
# Dependencies in their own layer, exactly the versions and files of requirements.lock (every file's hash is
# checked): rebuilt only when the lock changes, and two builds of one commit install the same bytes.
COPY pyproject.toml requirements.lock /tmp/
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock \
    && pip check \
    && rm /tmp/requirements.lock /tmp/pyproject.toml
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

# The commit the image was built from, for the start line, /admin and cardbot_build_info (the build context has no
# .git): `docker build --build-arg COMMIT=$(git rev-parse HEAD) ...`; without it, «unknown».
ARG COMMIT=
ENV CARDBOT_COMMIT=${COMMIT}
USER cardbot
WORKDIR /data
VOLUME ["/data"]
# Webhook mode only (WEBHOOK_URL set): the port WEBHOOK_PORT listens on, behind a TLS proxy. Polling needs none.
# 9108: /healthz and /metrics (METRICS_PORT), for Prometheus on the compose network.
EXPOSE 8080 9108
# The running bot's own /healthz (event loop, polling, outbox), read by a bare interpreter in ~40 ms: no settings,
# no database, no Telegram. `docker inspect` shows the reasons when it is unhealthy.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-I", "-m", "bot.healthcheck"]
# SIGTERM (docker stop) ends polling or the webhook server cleanly; queued messages stay in the database.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
