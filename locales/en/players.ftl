## Achievements: told once, with the game's result

feat-yours = 🏅 New achievement — { $feat }: { $about }
feat-theirs = 🏅 { $name } — { $feat }
feat-master-first = 🎓 First win over the master
feat-master-first-about = a game won against bot players at the «master» level.
feat-master-ten = 🏆 Ten in a row
feat-master-ten-about = ten games in a row won against the «master» (a game given up after a move breaks the run).

## A player's page (/me)

page-caption = 📊 Player's page: { $name }
page-subtitle = Player's page · { $games ->
    [one] { $games } game
   *[other] { $games } games
} played to the end
page-record = { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}
page-rating = Rating { $rating }
page-rating-ranked = Rating { $rating } · place { $place } of { $total }
page-wins-share = Wins: { $share }%
page-form = Form:
page-best = Best
page-best-score = Most points in a game: { $score }
page-best-margin = Biggest lead in a win: { $margin }
page-best-run = Wins in a row: { $wins }
page-rivals = Met most at the table (above : below)
page-feats = Achievements — { $earned }/{ $total }
page-feats-none = None yet: they are told with a game's result.
page-nothing = You have not finished a game yet — the page comes after the first. Play the bots — /play.

btn-player-page = 📊 My page
