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
king-abbr = { $contract ->
    [tricks] Tr
    [jacks] Ja
    [queens] Qu
    [hearts] He
    [last2] L2
    [king] Kh
   *[eralash] Er
}
king-abbr-plus = +
king-positive = trump deal { $n }/{ $total }
king-wait-trump = ⏳ Waiting for trump — { $name } chooses
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
