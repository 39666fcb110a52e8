# The Mini App's page: its own few words (the game's texts are the chat's).
webapp-offline = No connection — trying again…
webapp-no-game = This game is not open to you.
webapp-launch = Open the table with the «🖥 Table and cards» button in Telegram.
