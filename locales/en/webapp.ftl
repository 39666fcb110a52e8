# The Mini App's page: its own few words (the game's texts are the chat's).
webapp-offline = No connection — trying again…
webapp-no-game = This game is not open to you.
webapp-launch = Open the table with the «🖥 Table and cards» button in Telegram.
# Before the time the turn has left, which the page counts down («⏱ Time left 0:42»).
webapp-time-left = ⏱ Time left
# While the bot prepares a hint, the review or the score sheet.
webapp-wait = One moment…
