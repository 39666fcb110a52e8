"""The game flow: a command (a press, a timer, a bot player's move, a lobby action) checked against the game in
play, decided, and stored with all it caused in one transaction — then handed to delivery to be drawn and sent.

``store`` (the games in play, the unit of work), ``lobby``, ``moves``, ``turns`` (what each game's timer finds
due), ``people``, ``chats``, ``hints``; ``service`` is the one entry the handlers use."""
