"""The pipeline: the one place with I/O for a change of a game — a command's game and facts loaded, its decision
(``bot.flow``) called, its events stored in one transaction, drawn (``bot.delivery``) and handed to the outbox; the
games' timers; the bot players' workers; what Telegram says of people's rights."""
