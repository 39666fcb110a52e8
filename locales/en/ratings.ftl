## Ratings, seasons, leaderboards (/top, /privacy)

rating-yours = 📈 Your rating: { $rating } ({ $change })
rating-of = { $name } { $rating } ({ $change })
rating-changes = 📈 Rating: { $listed }

top-rating-line = { $place }. { $name } — { $rating } · { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}
top-season = <i>Season — { $month }:</i>
top-season-line = { $place }. { $name } { $gained } in { $games ->
    [one] { $games } game
   *[other] { $games } games
}
top-how = A rating is one for all chats, and games against bots count too. /top all — the global board of those who agreed to be on it (/privacy).
top-global-title = 🌍 <b>The global board</b>
top-global-empty = Nobody is on the global board yet: only those who agreed with /privacy in my private chat are.
top-global-how = Only those who agreed with /privacy are here. Your chat's board: /top in the group.

season-month = { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
} { $year }
season-over = 🏁 <b>The season is over: { $month }</b>
    The chat's top three by rating gained this month:
season-next = The new season is on — /top shows who leads.

privacy-on = 🌍 You are on the global board (/top all): your name and rating show there. To leave it — /privacy again.
privacy-off = 🔒 You are not on the global board: your name and rating show only on the boards of chats you played in. To join it — /privacy again.
cmd-privacy = The global board: show me or not

help-ratings = <b>Rating</b> — everyone has their own estimate of strength at each game, one for all chats (the Weng–Lin model, Plackett–Luce): after each finished game it goes up or down with your place and your opponents' strength. Bots are yardsticks with fixed ratings (beginner 1350, amateur 1500, master 1650), so games against bots count too, even with bots in most seats. While you have played few games, the rating shows its uncertainty («1500 ± 500»). Abandoned games (nobody moved for days) and games cancelled before the deal or by an admin who did not play do not count; a game cancelled after the deal by one of its players is their loss — last place, the others first. Whoever left a game (/leave or missed turns) and did not come back is placed last too. A season is a calendar month: the season's table is the rating gained in the month; when the month ends, each group gets its top three. /top — the chat's board, /top all — the global one (only those who agreed with /privacy).
