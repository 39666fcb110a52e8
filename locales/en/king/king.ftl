## King: the table, the hand, trump, the ends of deals and of the game

king-deal = deal { $deal }/{ $total } · { $dealer } deals
king-over = the game is over
king-contract-name = { $contract ->
    [tricks] “no tricks”
    [jacks] “no jacks”
    [queens] “no queens”
    [hearts] “no hearts”
    [last2] “no last two tricks”
    [king] “no king of hearts”
   *[eralash] “eralash”
}
king-contract-short = { $contract ->
    [tricks] tricks
    [jacks] jacks
    [queens] queens
    [hearts] hearts
    [last2] last two
    [king] king
   *[eralash] eralash
}
king-positive = trump deal { $n }/{ $total }
king-wait-trump = ⏳ Waiting for trump — { $name } chooses
king-waiting-lead = ⏳ { $leader } leads the trick, then you. The table and the moves are in the group.
king-waiting-lead-then = ⏳ { $leader } leads the trick, then { $order } → you. The table and the moves are in the group.
king-waiting-after = ⏳ After you in the trick: { $order }; whoever takes it leads the next. The table and the moves are in the group.
king-trump = trump <b>{ $suit }</b> (chosen by { $name })
king-trump-last = trump <b>{ $suit }</b> — by the last card: { $card } (chosen by { $name })
king-player = { $name } — tricks: { $tricks }
king-last-trick = Last trick: { $plays } → { $name } takes it
king-totals = Totals: { $scores }
king-your-cards = Your cards:
king-pick-card = Your cards — which one do you play?
king-first-three = Your first three cards: { $cards }
king-choose-trump = Name trump — or “by the last card”: then the suit of your eighth card is trump, and everyone sees it.
btn-trump-last = 🂠 By the last card
king-deal-over = <b>Deal { $deal }/{ $total } is over</b> · { $contract }
king-results-title = Results (trump deals − penalties):
king-result = { $name }: { $plus } − { $minus } = <b>{ $total }</b>

settings-king-order = Order of the “no …” deals: { $order }
king-order-preset = { $preset ->
    [jacks] Jacks first
    [cards] Card penalties first
   *[std] Usual
}
btn-solo-king = 👑 King — with three bots
king-you-choose-trump = you name trump
king-deal-short = { $deal }/{ $total }
king-final-trick = Final trick: { $plays } → { $name } takes it
king-stopped-early = ⏭ { $played } of { $total } { $total ->
    [one] trick
   *[other] tricks
} played: every penalty card is taken, the rest are not played.

## The game's sheet as a picture
sheet-king-title = King · score sheet
sheet-king-positive = trump deal { $n }
sheet-king-total = Total
sheet-king-check = all columns add up to:

## King: its name, its command, the lobby, the settings, the statistics

game-king = King
game-king-button = 👑 King
cmd-king = New King
lobby-king-summary = 15 deals, four players

settings-king-forced = The king of hearts also goes when hearts are led and their ace is in the trick: { $value }
settings-king-stop = End a deal when no penalty is left: { $value }
settings-king-forced-short = King under the ace of hearts
settings-king-stop-short = Early end of deals

stats-points-king = total score: { $points }

## King: why a move is refused, the hint, «🔍 Game review», the game's history

answer-must-follow-suit = You must follow suit: you have { $suit }.
answer-no-heart-lead = You can't lead hearts while you hold other suits.
answer-must-play-king-of-hearts = You must give up the king of hearts now.
answer-must-trump = You have no card of that suit — you must trump with { $suit }.

hint-move-play = { $card }
hint-move-trump = trump { $suit }
hint-move-trump-last = trump by the last card
king-why-only = there is no other move
king-why-trump-suit = your strength is in this suit
king-why-trump-last = no suit is strong, let the last card decide
king-why-dump-penalty = void in the suit, it may drop { $what }
king-why-dump-high = void in the suit, it sheds its highest card of that suit
king-why-duck = lower than { $best }, it does not take the trick
king-why-take-empty = the trick holds no penalty, it may be taken
king-why-take-forced = every card you hold takes this trick
king-why-take-least = taking it now costs less than later
king-why-lead-low = the others hold higher cards of this suit
king-why-lead-safe = no higher card of this suit is left
king-why-ruff = void in the suit, it trumps
king-why-win = higher than every card in the trick
king-why-cash = no higher card of this suit is left
king-why-draw-trumps = it draws the others' trumps
king-why-discard = this card does not take the trick
king-why-lead-keep-trumps = it leads a side suit and keeps its trumps
king-why-lead = the others hold higher cards of this suit
hint-dump-what = { $what ->
    [king] the king of hearts
    [queen] a queen
    [jack] a jack
   *[heart] a heart
}

review-king-position = <b>{ $n }.</b> Deal { $deal }/{ $total }, { $contract }, trick { $trick }
review-king-trump-suit = trumps { $suit }
review-king-trick = On the table: { $plays }
review-king-lead = You lead.
review-king-choose = You name trumps; your first three cards: { $hand }

history-trump = trump { $suit }

## Кинг: achievements

feat-king-clean-eralash = 🧹 Clean eralash
feat-king-clean-eralash-about = not one trick, not one penalty point in the eralash.
feat-king-clean-negatives = 🛡 Not a single penalty
feat-king-clean-negatives-about = all seven negative deals of a game without a penalty trick or card.
