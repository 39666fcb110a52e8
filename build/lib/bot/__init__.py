"""The Telegram side of the card bot (aiogram 3)."""
