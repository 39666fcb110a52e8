# The bot in a container: docker build -t cardbot . && docker run -e BOT_TOKEN=... -v cardbot-data:/app/data cardbot
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/app/data/bot.sqlite3
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
# Editable, so the package reads locales/ beside it in /app.
RUN pip install --no-cache-dir -e .
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
