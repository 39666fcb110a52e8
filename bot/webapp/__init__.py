"""The Mini App: the table and a person's hand as a web page inside Telegram, beside the chat's messages — a second
way of drawing the same committed game, and of making the same moves (see docs/ARCHITECTURE.md)."""
