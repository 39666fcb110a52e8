## Achievements: told once, with the party's result

feat-yours = 🏅 New achievement — { $feat }: { $about }
feat-theirs = 🏅 { $name } — { $feat }
feat-master-first = 🎓 First win over the master
feat-master-first-about = a party won against bot players at the «master» level.
feat-master-ten = 🏆 Ten in a row
feat-master-ten-about = ten parties in a row won against the «master» (a party given up after a move breaks the run).

## A player's page (/me)

page-caption = 📊 Player's page: { $name }
page-subtitle = Player's page · { $games ->
    [one] { $games } party
   *[other] { $games } parties
} played to the end
page-record = { $games ->
    [one] { $games } party
   *[other] { $games } parties
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}
page-wins-share = Wins: { $share }%
page-form = Form:
page-best = Best
page-best-score = Most points in a party: { $score }
page-best-margin = Biggest lead in a win: { $margin }
page-best-run = Wins in a row: { $wins }
page-rivals = Met most at the table (above : below)
page-feats = Achievements — { $earned } of { $total }
page-feats-none = None yet: they are told with a party's result.
page-nothing = You have not finished a party yet — the page comes after the first. Play the bots — /play.
cmd-me = My page: form, records, achievements
