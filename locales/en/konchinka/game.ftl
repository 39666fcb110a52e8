## Konchinka: the table, the hand and a move

table-deal = Deal { $deal } · dealer { $dealer }
table-deck = Deck: { $count }
table-player = { $name } — pile { $pile } (♣ { $clubs })
table-konchinki = { $count ->
    [one] konchinka
   *[other] konchinki
}: { $cards }
table-moves = Last moves:
score-line = Score: { $scores }
table-score = score { $score }

hand-pick-card = Your cards — pick one to play:
hand-what-now = <b>{ $card } — what now?</b>
hand-card-cannot = { $card } can't be played now: capturing is compulsory and you have a capture.

btn-finish = 🏁 Finish it!
btn-lay = Put on the table
btn-sweep = Take the whole table ({ $count })
btn-capture = Take { $cards }
btn-and-finish = 🏁 { $action } and finish
btn-other-card = ← Another card
btn-not-finish = ← Don’t finish
btn-card-capture = { $card } takes { $cards }
btn-card-sweep = { $card } takes all ({ $count })
btn-card-lay = { $card } to the table

## Konchinka: «Finish it» with its reason

finish-konchinki = { $cards } { $count ->
    [one] gives
   *[other] give
} +{ $points }
finish-clubs = { $clubs } { $clubs ->
    [one] club gives
   *[other] clubs give
} +{ $points }
finish-cards = { $count } cards give +{ $points }
finish-reason = { $parts } → { $total }
finish-ask = 🏁 <b>Finish the game?</b> { $reason } — and the game is yours.
btn-finish-yes = 🏁 Yes, finish it!

## Konchinka: moves in words, and why a move is refused

card-instr = with { $card }
move-lay = { $name } puts down { $card }
move-capture = { $name } takes { $taken } { $by }
move-sweep = { $name } sweeps the table { $by } ({ $count ->
    [one] { $count } card
   *[other] { $count } cards
})
move-konchinka = 🎯 { $count ->
    [one] konchinka
   *[other] konchinki
} { $cards }
move-finish = 🏁 { $name } finishes the game!
move-leftovers = The rest of the table — { $count } { $count ->
    [one] card
   *[other] cards
} — goes to { $name }
move-leftovers-nobody = The rest of the table — { $count } { $count ->
    [one] card
   *[other] cards
} — goes to nobody

answer-must-capture = Capturing is compulsory: this card must take something.
answer-not-on-table = { $card } is not on the table.
answer-bad-group = Can't take that: it needs a card of the same rank or the same sum of points.
answer-one-group-only = Only one capture a move.
answer-overlapping-groups = A card can't be taken twice.
answer-jack-sweeps-all = A jack takes the whole table.
answer-nothing-to-capture = This card has nothing to take.
answer-cannot-finish = You can't finish yet: { $secured ->
    [one] { $secured } point
   *[other] { $secured } points
} secured, { $need } needed{ $tie ->
    [yes] {" "}to get ahead of everyone
   *[no] {""}
}.

## Konchinka: a deal's results, the settlement, the statistics

deal-finished-early = 🏁 { $name } finishes the game mid-deal: only { $name } scores for this deal — the points already secured; the others get nothing.
deal-tie = a tie — nobody
deal-not-secured = not secured — nobody
deal-award = { $name } +{ $points }
deal-cards = 🃏 Cards: { $counts } → { $award }
deal-clubs = ♣ Clubs: { $counts } → { $award }
deal-konchinki = 🎯 { $count ->
    [one] Konchinka: { $held } (+1)
   *[other] Konchinki: { $held } (+1 each)
}
deal-no-konchinki = 🎯 Nobody took a konchinka
deal-short = <b>Deal { $deal } is over:</b> { $points }

settle-title-points = Settlement on points — what each lacked to { $target }:
settle-title-stake = Settlement (fixed stake of { $stake }):
settle-pays = { $payer } → { $payee }: { $amount }{ settle-unit }
settle-owes = { $payer } pays { $amount }{ settle-unit }
settle-unit = { $unit ->
    [points] { $amount ->
        [one] {" "}point
       *[other] {" "}points
    }
   *[stake] {""}
}

stats-points-konchinka = points scored: { $points }

## Konchinka: the hint and «🔍 Game review»

hint-move-finish = finish the game
hint-move-lay = put down { $card }
hint-move-capture = take { $taken } with { $card }
hint-move-capture-finish = take { $taken } with { $card } and finish the game
hint-move-sweep = take the whole table ({ $count }) with { $card }

konchinka-why-only = there is no other move
konchinka-why-finish = the points already allow finishing
konchinka-why-konchinka = { $count ->
    [one] it takes the konchinka { $card }
   *[other] it takes both konchinkas: { $card }
}
konchinka-why-sweep = the jack takes the whole table: { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
konchinka-why-last-move = the deal's last move: the rest of the table is yours too
konchinka-why-last-capture = if nobody takes after you, the rest of the table is yours too
konchinka-why-clubs = it takes { $count ->
    [one] { $count } club
   *[other] { $count } clubs
}
konchinka-why-most-cards = it takes { $count ->
    [one] { $count } card
   *[other] { $count } cards
} from the table, more than any other capture
konchinka-why-capture-safest = after it the next player can take the least from the table
konchinka-why-capture = { $count ->
    [one] { $count } more card
   *[other] { $count } more cards
} in your pile, towards the points for most cards
konchinka-why-safest-lay = after it the next player can take the least from the table
konchinka-why-safest-lay-empty = the table is empty, and of your cards this one gives the next player least
konchinka-why-hold-back = a capture is possible but does not pay now
konchinka-why-keep-konchinka = nothing to take, and the konchinka { $card } is better kept
konchinka-why-lay = nothing to take, and the other cards are needed for captures
review-konchinka-gave = the konchinka stayed on the table

review-konchinka-position = <b>{ $n }.</b> Deal { $deal }. Table: { $table }
review-empty-table = empty

## Konchinka: the game's sheet as a picture and as text, the game's history

sheet-konchinka-title = Konchinka · score sheet
sheet-winner = winner
sheet-note-cards = cards { $counts }
sheet-note-clubs = ♣ { $counts }
sheet-note-konchinki = konchinki: { $held }
sheet-note-finish = finished by { $name }

history-lay = { $card } to the table
history-capture = { $card } takes { $cards }
history-finish = finish the game

## Кончинка: achievements

feat-konchinka-finish-capture = 🎯 Take and finish
feat-konchinka-finish-capture-about = a game won in one move «take … and finish»: the capture brought the last points needed.
feat-konchinka-five = 🖐 Five of five
feat-konchinka-five-about = all five points of one deal: most cards, most clubs and both konchinki.
